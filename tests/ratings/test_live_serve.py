"""Rated tables played over the JSON protocol against a real ``serve``: after
each table, every player's new mu/sigma is exactly what openskill's own
PlackettLuce ``rate`` gives for the table's ranks and the ratings before."""
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from openskill.models import PlackettLuce

from tests.api.test_e2e_serve import http, play_to_the_end
from tests.conftest import ROOT, start_site, stop_site

NAMES = ("rated-ana", "rated-ben")


@pytest.fixture(scope="module")
def tokens(live_site):
    return {name: live_site.manage("api_token", name, "--create") for name in NAMES}


def rating(site, token, username, game):
    """A rating, or None before the first rated game (a bot's account is made then)."""
    status, body = http(site, "GET", f"/api/players/{username}/", token)
    assert status == 200 or (status == 404 and username.startswith("bot:"))
    return body["ratings"].get(game) if status == 200 else None


def play_rated_table(site, tokens, game, seed) -> dict:
    ana, ben = tokens[NAMES[0]], tokens[NAMES[1]]
    status, created = http(site, "POST", "/api/tables/", ana, {"game": game, "seats": 3, "bots": 1, "options": {}})
    assert status == 201
    assert http(site, "POST", f"/api/tables/{created['id']}/join/", ben)[1]["seat"] == 1
    with ThreadPoolExecutor(2) as pool:
        finals = list(pool.map(lambda pair: play_to_the_end(site, pair[0], created["ws"], random.Random(pair[1])),
                               [(ana, seed), (ben, seed + 1)]))
    assert finals[0]["outcome"] == finals[1]["outcome"]
    return http(site, "GET", f"/api/tables/{created['id']}/", ana)[1]


def test_rated_tables_over_the_protocol_move_ratings_exactly_as_openskill_rates(live_site, tokens):
    model = PlackettLuce(beta=25 / 3, limit_sigma=True)
    game = "piggypiggy"
    fixed = []
    for seed in (1, 2):
        before = {name: rating(live_site, tokens[NAMES[0]], name, game) for name in NAMES}
        table = play_rated_table(live_site, tokens, game, seed)
        bot = rating(live_site, tokens[NAMES[0]], "bot:sensible", game)
        assert bot["fixed"] is True and bot["provisional"] is False
        fixed.append(bot)
        assert table["status"] == "finished" and table["rated"] is True
        assert [seat["username"] for seat in table["seats"]] == [*NAMES, "bot:sensible"]
        teams = [[model.rating(mu=before[name]["mu"], sigma=before[name]["sigma"]) if before[name] else model.rating()]
                 for name in NAMES] + [[model.rating(mu=bot["mu"], sigma=bot["sigma"])]]
        expected = [team[0] for team in model.rate(teams, ranks=table["outcome"]["ranks"])]
        changes = table["rating_changes"]
        assert [change["username"] for change in changes] == list(NAMES)  # the bot's rating never moves
        for name, change, new in zip(NAMES, changes, expected):
            assert (change["after"]["mu"], change["after"]["sigma"]) == (new.mu, new.sigma)
            now = rating(live_site, tokens[NAMES[0]], name, game)
            assert (now["mu"], now["sigma"]) == (new.mu, new.sigma)
            assert now["games"] == (before[name]["games"] if before[name] else 0) + 1
    assert fixed[0] == fixed[1]
    assert "ratings match" in live_site.manage("ratings", "--check")


CRASHED = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from pigparlor.tables.models import FINISHED, Seat, Table
ana = get_user_model().objects.create_user(username="ana")
table = Table.objects.create(game="snout", seats=2, status=FINISHED, rated=True, seed=1, version=9,
                             finished_at=timezone.now(), outcome={"ranks": [1, 2], "scores": [100, 40], "left": []})
Seat.objects.create(table=table, index=0, user=ana)
Seat.objects.create(table=table, index=1, bot_kind="sensible")
"""


def test_serve_rates_at_start_what_a_crash_left_unrated(tmp_path):
    """A table committed finished, then the process died before rating it: the
    next ``serve`` rates it while starting, once."""
    site = start_site(tmp_path)
    try:
        site.manage("shell", "-c", CRASHED)
        check = subprocess.run([sys.executable, str(ROOT / "manage.py"), "ratings", "--check"], cwd=ROOT,
                               env=site.env, capture_output=True, text=True, timeout=60)
        assert check.returncode == 1 and "no rating yet" in check.stdout
    finally:
        stop_site(site)
    site = start_site(tmp_path)
    try:
        assert "ratings match" in site.manage("ratings", "--check")
        token = site.manage("api_token", "ana")
        ana = rating(site, token, "ana", "snout")
        assert ana["games"] == 1 and ana["mu"] > 25
    finally:
        stop_site(site)
