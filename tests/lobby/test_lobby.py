"""The lobby's pages: games, the generic create-table form, join/leave/start, invites, rules."""
import re

import pytest
from django.urls import reverse

from games.core.registry import all_games
from pigparlor.lobby.forms import CreateTableForm
from pigparlor.tables.models import ABORTED, OPEN, RUNNING, Table

pytestmark = pytest.mark.django_db
GAMES = all_games()


def logged_in(client, user):
    client.force_login(user)
    return client


def create(client, slug="countgame", **fields):
    data = {"seats": 2, "bots": 0, "title": "", "opt_turn_seconds": 30, **fields}
    return client.post(reverse("lobby:create", args=[slug]), data)


def test_home_lists_every_registered_game(client):
    html = client.get(reverse("home")).content.decode()
    for game in GAMES:
        assert reverse("lobby:game", args=[game.slug]) in html
        assert reverse("lobby:rules", args=[game.slug]) in html


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_create_form_is_built_from_the_games_options(game):
    form = CreateTableForm(game=game)
    names = {field.name for field in form.option_fields()}
    assert names == {f"opt_{option.name}" for option in game.engine.options}
    assert [value for value, _ in form.fields["seats"].choices] == list(range(game.engine.min_seats, game.engine.max_seats + 1))


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_create_form_defaults_are_accepted_by_the_engine(game):
    form = CreateTableForm(game=game)
    data = {name: field.initial for name, field in form.fields.items() if field.initial is not None and field.initial is not False}
    bound = CreateTableForm(data, game=game)
    assert bound.is_valid(), bound.errors
    assert game.engine.clean_options(bound.table_options()) == game.engine.clean_options({})


def test_a_public_table_needs_a_turn_timer_a_private_one_may_have_none(client, count_game, ana):
    """Issue 10: the form says so on the timer field, and creates nothing."""
    response = create(logged_in(client, ana), opt_turn_seconds=0)
    assert response.status_code == 200 and not Table.objects.exists()
    assert response.context["form"].errors["opt_turn_seconds"] == [
        "No timer (0) is only for private tables: set a turn timer or make the table private."]
    create(client, opt_turn_seconds=0, private="on")
    assert Table.objects.get().options == {"turn_seconds": 0}


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_option_help_speaks_players_words(client, ana, game):
    """Issue 10: no ruling ids ("(PP2)") or internal words ("kern", "stand-in") on the form."""
    html = logged_in(client, ana).get(reverse("lobby:game", args=[game.slug])).content.decode()
    form = html[html.index('class="create-table"'):]
    text = re.sub(r"<[^>]*>", " ", form[:form.index("</form>")])  # what players read, not the values sent
    assert f"{game.title} options" in text
    assert not re.search(r"\((?:PP|PG|O|S)\d+\)", text)
    for word in ("kern", "stand-in", "ruling", "printed counts"):
        assert word not in text.lower(), word


def test_game_page_shows_the_form_and_the_live_listing(client, count_game, ana):
    html = logged_in(client, ana).get(reverse("lobby:game", args=["countgame"])).content.decode()
    assert 'name="opt_turn_seconds"' in html
    assert 'ws-connect="/ws/lobby/countgame/"' in html
    assert 'id="lobby-listing"' in html


def test_unknown_game_is_404(client):
    assert client.get(reverse("lobby:game", args=["nope"])).status_code == 404


def test_creating_needs_login(client, count_game):
    response = create(client)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    assert not Table.objects.exists()


def test_create_open_table_goes_to_the_waiting_room(client, count_game, ana):
    response = create(logged_in(client, ana), seats=3, bots=1, title="Muddy")
    table = Table.objects.get()
    assert response["Location"] == reverse("lobby:table", args=[table.pk])
    assert (table.status, table.title, table.host, table.seats) == (OPEN, "Muddy", ana, 3)
    seats = list(table.seat_set.order_by("index"))
    assert seats[0].user == ana and seats[2].bot_kind and not seats[1].taken


def test_create_with_every_other_seat_a_bot_starts_at_once(client, count_game, ana):
    response = create(logged_in(client, ana), seats=3, bots=2)
    table = Table.objects.get()
    assert table.status == RUNNING
    assert response["Location"] == reverse("table", args=[table.pk])


def test_too_many_bots_is_refused(client, count_game, ana):
    response = create(logged_in(client, ana), seats=2, bots=2)
    assert response.status_code == 200 and "At most 1 bots" in response.content.decode()
    assert not Table.objects.exists()


def test_bad_option_is_refused(client, count_game, ana):
    response = create(logged_in(client, ana), opt_turn_seconds=9999)
    assert response.status_code == 200 and not Table.objects.exists()


def test_listing_shows_public_open_tables_escaped(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=3, title="<i>swine</i>")
    create(client, seats=3, title="Secret sty", private="on")
    html = logged_in(client, bea).get(reverse("lobby:game", args=["countgame"])).content.decode()
    assert "&lt;i&gt;swine&lt;/i&gt;" in html and "<i>swine</i>" not in html
    assert "Secret sty" not in html


def test_join_leave_and_start(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=3)
    table = Table.objects.get()
    logged_in(client, bea)
    response = client.post(reverse("lobby:join", args=[table.pk]))
    assert response["Location"] == reverse("lobby:table", args=[table.pk])
    assert table.seat_set.get(index=1).user == bea
    client.post(reverse("lobby:leave", args=[table.pk]))
    assert table.seat_set.get(index=1).user is None
    client.post(reverse("lobby:join", args=[table.pk]))
    response = client.post(reverse("lobby:start", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == OPEN, "only the host may start"
    logged_in(client, ana)
    response = client.post(reverse("lobby:start", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == RUNNING
    assert response["Location"] == reverse("table", args=[table.pk])
    assert table.seat_set.get(index=2).bot_kind


def test_filling_the_last_seat_starts_the_table(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=2)
    table = Table.objects.get()
    response = logged_in(client, bea).post(reverse("lobby:join", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == RUNNING and response["Location"] == reverse("table", args=[table.pk])


def test_htmx_join_answers_with_a_redirect_header(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=3)
    table = Table.objects.get()
    response = logged_in(client, bea).post(reverse("lobby:join", args=[table.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Redirect"] == reverse("lobby:table", args=[table.pk])


def test_anonymous_htmx_join_is_sent_to_log_in(client, count_game, ana):
    create(logged_in(client, ana), seats=3)
    table = Table.objects.get()
    client.logout()
    response = client.post(reverse("lobby:join", args=[table.pk]), HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"].startswith(reverse("account_login"))


def test_last_human_leaving_closes_the_table(client, count_game, ana):
    create(logged_in(client, ana), seats=3)
    table = Table.objects.get()
    response = client.post(reverse("lobby:leave", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == ABORTED and response["Location"] == reverse("lobby:game", args=["countgame"])


def test_private_table_needs_its_invite_link(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=3, private="on")
    table = Table.objects.get()
    host_page = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    invite_path = reverse("lobby:invite", args=[table.invite_code])
    assert invite_path in host_page

    logged_in(client, bea)
    assert client.get(reverse("lobby:table", args=[table.pk])).status_code == 404
    client.post(reverse("lobby:join", args=[table.pk]))
    assert table.seat_set.get(index=1).user is None

    landing = client.get(invite_path)
    assert landing["Location"] == f"{reverse('lobby:table', args=[table.pk])}?invite={table.invite_code}"
    room = client.get(landing["Location"]).content.decode()
    assert "Take a seat" in room
    client.post(reverse("lobby:join", args=[table.pk]), {"invite_code": table.invite_code})
    assert table.seat_set.get(index=1).user == bea


def test_a_bad_invite_code_is_404(client):
    assert client.get(reverse("lobby:invite", args=["no-such-code"])).status_code == 404


def test_running_table_room_sends_watchers_to_the_table_page(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=2, bots=1)
    table = Table.objects.get()
    response = logged_in(client, bea).get(reverse("lobby:table", args=[table.pk]))
    assert response["Location"] == reverse("table", args=[table.pk])
    html = client.get(reverse("lobby:game", args=["countgame"])).content.decode()
    assert "Playing now" in html and f'href="{reverse("lobby:table", args=[table.pk])}"' in html


def test_rules_page_renders_the_markdown(client, count_game, tmp_path, monkeypatch):
    from pigparlor.lobby import rules

    (tmp_path / "countgame.md").write_text("# Count to Ten\n\n| id | ruling |\n|---|---|\n| C1 | **ten** wins |\n")
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    html = client.get(reverse("lobby:rules", args=["countgame"])).content.decode()
    assert "<h1 id=\"count-to-ten\">Count to Ten</h1>" in html
    assert "<td><strong>ten</strong> wins</td>" in html


@pytest.mark.parametrize("slug", ["oink", "pigpile", "piggypiggy", "snout"])
def test_every_games_rules_page_ends_with_the_same_missed_turns_and_leaving(client, slug):
    html = client.get(reverse("lobby:rules", args=[slug])).content.decode()
    assert '<h2 id="missed-turns-and-leaving">Missed turns and leaving</h2>' in html
    assert "after 3 missed turns in a" in html and "Only leaving counts against you" in html


def test_rules_page_without_a_file_says_so(client, count_game, tmp_path, monkeypatch):
    from pigparlor.lobby import rules

    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    response = client.get(reverse("lobby:rules", args=["countgame"]))
    assert response.status_code == 200 and "not written yet" in response.content.decode()


def test_a_watcher_follows_the_watch_link_to_the_spectators_table_page(client, count_game, ana, bea):
    create(logged_in(client, ana), seats=2, bots=1, title="Spectate me")
    table = Table.objects.get()
    logged_in(client, bea)
    listing = client.get(reverse("lobby:game", args=["countgame"])).content.decode()
    assert 'aria-label="Watch Spectate me"' in listing
    response = client.get(reverse("lobby:table", args=[table.pk]), follow=True)
    assert response.status_code == 200
    assert response.context["seat"] is None


def test_lobby_shows_display_names(client, count_game, ana, bea):
    from pigparlor.accounts.models import Profile

    Profile.objects.create(user=ana, display_name="Ana <the Pig>")
    create(logged_in(client, ana), seats=3, title="Named")
    table = Table.objects.get()
    listing = logged_in(client, bea).get(reverse("lobby:game", args=["countgame"])).content.decode()
    assert f'hosted by <a href="/players/{ana.username}/"><bdi>Ana &lt;the Pig&gt;</bdi></a>' in listing
    room = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert "Ana &lt;the Pig&gt;" in room
