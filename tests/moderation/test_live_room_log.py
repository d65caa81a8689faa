"""The live room's action log reads as the table page's log does (the presenters'
words, not stored dicts), and as a spectator sees it while the table runs: no hand,
no pass, even for a moderator who holds a seat (test_secrecy.py checks every version)."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.core.registry import get_game
from games.core.viewcheck import cards_in_html
from pigparlor.tables import services as tables
from pigparlor.tables.models import RUNNING
from tests.moderation.helpers import make_moderator
from tests.support.tables import make_user, played_table, step_clock, table

pytestmark = pytest.mark.django_db

LOG = re.compile(r'<ol class="log" reversed>(.*?)</ol>', re.S)


def log_of(client, table_id) -> tuple[str, str]:
    page = client.get(reverse("admin:moderation_liveroom_change", args=[table_id])).content.decode()
    found = LOG.search(page)
    assert found, page
    return page, found.group(1)


def test_a_running_tables_log_reads_in_words_and_hides_the_moderators_hand():
    moderator = make_moderator()
    created = tables.create_table(host=moderator, game="snout", seats=3, bots=2)
    client = Client()
    client.force_login(moderator)
    for _ in range(8):
        if not step_clock(created.pk):
            break
    current = table(created.pk)
    assert current.status == RUNNING
    page, log = log_of(client, created.pk)
    assert "chose three cards to pass" in log and "<li" in log
    assert "{'type'" not in page and "&#x27;type&#x27;" not in page and '"type"' not in page
    engine = get_game("snout").engine
    assert not cards_in_html(page) & engine.hidden_cards(engine.load(current.state), 0)
    assert "As a spectator sees it" in page


def test_an_over_tables_log_reads_in_words_with_the_replay_for_every_hand(count_game):
    over = played_table(make_user("ana"), seats=2, bots=1)
    client = Client()
    client.force_login(make_moderator())
    page, log = log_of(client, over.pk)
    assert re.search(r"<b><bdi>Sensible bot 2</bdi></b> played a \d — total \d+</li>", log), log
    assert "{" not in log
    assert f'href="/tables/{over.pk}/replay/?view=all"' in page
    # The stored actions stay for the record, folded away, as JSON rather than Python's repr.
    assert "<details><summary>Stored actions" in page and "&#x27;type&#x27;" not in page
