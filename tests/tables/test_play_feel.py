"""Issue 15, the platform's half: rematch ("Play again"), watchers, the ending's
headline and standings, the log's last movers, and "a bot played for you"."""
import json

import pytest
from django.test import Client

from pigparlor.tables import presence, rendering, services, timing
from pigparlor.tables.clock import run_due
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import OPEN, RUNNING, ActionLog, Seat, Table
from tests.support.tables import make_user, played_table, step_clock

pytestmark = pytest.mark.django_db


def state_of(table_id):
    table = Table.objects.get(pk=table_id)
    return (table.version, table.seats_rev, table.status,
            list(Table.objects.filter(rematch_of=table_id).values_list("pk", flat=True)),
            list(Seat.objects.filter(table_id=table_id).values_list("user_id", "bot_kind")))


def test_play_again_keeps_seats_for_the_players_and_bots_stay_bots(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    old = played_table(ana, others=[ben])
    rematch, created = services.rematch_table(old, ben)
    assert created and rematch.status == OPEN and rematch.rematch_of_id == old.pk
    assert (rematch.game, rematch.seats, rematch.options, rematch.rated) == (old.game, 3, old.options, old.rated)
    seats = list(rematch.seat_set.order_by("index"))
    assert [seat.user_id for seat in seats] == [None, ben.pk, None]
    assert [seat.reserved_for_id for seat in seats] == [ana.pk, None, None]
    assert [seat.bot_kind for seat in seats] == ["", "", "sensible"]
    again, created = services.rematch_table(old, ana)  # ana accepts: every seat is taken, it starts
    assert again.pk == rematch.pk and not created
    rematch.refresh_from_db()
    assert rematch.status == RUNNING
    assert services.rematch_table(old, ana)[0].pk == rematch.pk  # asking again is harmless


def test_a_kept_seat_is_not_for_strangers_and_the_lobby_does_not_list_it(count_game):
    from pigparlor.lobby.listing import public_tables

    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    old = played_table(ana, others=[ben])
    rematch, _ = services.rematch_table(old, ana)
    before = state_of(rematch.pk)
    with pytest.raises(TableError) as caught:
        services.join_table(rematch, cat)
    assert caught.value.code == "illegal" and "kept" in caught.value.message
    assert state_of(rematch.pk) == before
    assert rematch.pk not in [table.pk for table in public_tables("countgame", OPEN)]


def test_the_rematch_starts_with_bots_after_the_wait(count_game, settings):
    settings.PIGPARLOR_REMATCH_WAIT_MS = 20_000
    ana, ben = make_user("ana"), make_user("ben")
    old = played_table(ana, others=[ben])
    rematch, _ = services.rematch_table(old, ana)
    run_due()
    assert Table.objects.get(pk=rematch.pk).status == OPEN  # not yet
    timing.skip_ahead(20_001)
    run_due()
    rematch.refresh_from_db()
    assert rematch.status == RUNNING
    seats = list(rematch.seat_set.order_by("index"))
    assert seats[0].user_id == ana.pk and seats[1].bot_kind == "sensible" and seats[1].user_id is None


def test_only_players_of_a_finished_table_play_again_and_refusals_change_nothing(count_game):
    ana, cat = make_user("ana"), make_user("cat")
    finished = played_table(ana, seats=2)
    running = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 5})
    for table, user, code in ((running, ana, "illegal"), (finished, cat, "forbidden")):
        before = state_of(table.pk)
        with pytest.raises(TableError) as caught:
            services.rematch_table(table, user)
        assert caught.value.code == code
        assert state_of(table.pk) == before
    with pytest.raises(TableError) as caught:
        services.rematch_table(999_999, ana)
    assert caught.value.code == "not_found"


def test_the_finished_page_names_the_winner_and_offers_play_again(count_game):
    ana = make_user("ana")
    old = played_table(ana, seats=2, bots=1)
    snapshot = rendering.load_snapshot(old.pk)
    ctx = rendering.context(snapshot, 0)
    winner = ctx["standings"][0]
    assert winner["rank"] == 1 and winner["place"] == "1st"
    assert ctx["headline"] == f"{winner['name']} wins with {winner['score_text']}"
    assert winner["score_text"].endswith(("point", "points"))
    html = "".join(rendering.html_parts(snapshot, 0).values())
    assert html.count('id="table-headline"') == 1 and "Play again" in html and "New table" in html
    assert "/games/countgame/" in html  # back to that game's lobby
    services.rematch_table(old, ana)
    html = "".join(rendering.html_parts(rendering.load_snapshot(old.pk), 0).values())
    assert "Play again" not in html and "Go to the new game" in html


def test_headline_for_a_shared_win():
    rows = [{"rank": 1, "name": "Ana", "score_text": "9 pigs"}, {"rank": 1, "name": "Bo", "score_text": "9 pigs"},
            {"rank": 3, "name": "Cy", "score_text": "2 pigs"}]
    assert rendering.headline(rows) == "Ana and Bo share the win with 9 pigs"


def test_each_seat_shows_its_last_move_and_the_last_mover_is_marked():
    log = [{"n": 1, "seat": 0, "text": "played a 2"}, {"n": 2, "seat": 1, "text": "played a 3"},
           {"n": 3, "seat": None, "text": "Round 2"}, {"n": 4, "seat": 0, "text": "played a 9"}]
    assert rendering.last_moves(log, viewer=1) == ({0: "played a 9", 1: "played a 3"}, 0)
    assert rendering.last_moves(log, viewer=0)[1] is None  # your own move is not news to you


def test_watchers_are_counted_from_presence_and_anonymous_sockets(count_game):
    ana, cat = make_user("ana"), make_user("cat")
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 5})
    presence.open_socket(table.pk, ana, "chan-ana")
    presence.open_socket(table.pk, cat, "chan-cat-1")
    presence.open_socket(table.pk, cat, "chan-cat-2")
    presence.open_socket(table.pk, None, "chan-visitor")
    assert Table.objects.get(pk=table.pk).watchers == 2  # cat once, the visitor once; ana plays
    presence.close_socket(table.pk, "chan-visitor")
    assert Table.objects.get(pk=table.pk).watchers == 1
    html = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), 0).values())
    assert "1 watching" in html
    spectator = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), None).values())
    assert "You are watching" in spectator


def test_a_public_table_is_watched_without_an_account_and_a_private_one_is_not(count_game, client):
    ana = make_user("ana")
    public = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 5})
    private = services.create_table(host=ana, game="countgame", seats=2, bots=1, private=True)
    page = Client().get(f"/tables/{public.pk}/")
    assert page.status_code == 200 and b"You are watching" in page.content
    assert Client().get(f"/tables/{private.pk}/").status_code == 404


def test_a_bot_played_notice_counts_the_stand_in_moves_once(count_game, client):
    ana = make_user("ana")
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 5})
    services.leave_table(table, ana)  # a bot plays ana's seat
    while step_clock(table.pk):
        pass
    moves = ActionLog.objects.filter(table=table, seat=0, user__isnull=True).count()
    assert moves > 0
    client.force_login(ana)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"A bot played {moves} move{'s' if moves != 1 else ''} for you" in page
    assert "A bot played" not in client.get(f"/tables/{table.pk}/").content.decode()  # said once


def test_your_tables_on_the_home_page(count_game, client):
    ana = make_user("ana")
    running = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 5})
    waiting = services.create_table(host=ana, game="countgame", seats=3, bots=1, title="Later")
    client.force_login(ana)
    page = client.get("/").content.decode()
    assert "Your tables" in page and "Back to the table" in page and "Later" in page
    assert page.index(f'data-table="{running.pk}"') < page.index(f'data-table="{waiting.pk}"')


def test_rematch_over_the_json_api(count_game):
    from pigparlor.api.tokens import create_token

    ana, ben = make_user("ana"), make_user("ben")
    old = played_table(ana, others=[ben])
    headers = {"HTTP_AUTHORIZATION": f"Bearer {create_token(ana)}"}
    answer = Client().post(f"/api/tables/{old.pk}/rematch/", content_type="application/json", **headers)
    assert answer.status_code == 201
    body = answer.json()
    assert body["seat"] == 0 and body["status"] == "open" and body["ws"] == f"/ws/api/tables/{body['id']}/"
    assert Client().get(f"/api/tables/{old.pk}/", **headers).json()["rematch"] == body["id"]
    again = Client().post(f"/api/tables/{old.pk}/rematch/", content_type="application/json", **headers)
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    ben_headers = {"HTTP_AUTHORIZATION": f"Bearer {create_token(ben)}"}
    joined = Client().post(f"/api/tables/{old.pk}/rematch/", content_type="application/json", **ben_headers)
    assert joined.status_code == 200 and joined.json()["seat"] == 1 and joined.json()["status"] == "running"
    bad = Client().post(f"/api/tables/{old.pk}/rematch/", data=json.dumps({"x": 1}),
                        content_type="application/json", **headers)
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    assert Client().post("/api/tables/999999/rematch/", content_type="application/json",
                         **headers).status_code == 404


@pytest.mark.parametrize(("game", "realtime"), [("oink", "true"), ("pigpile", "false"), ("snout", "false")])
def test_the_page_says_whether_its_game_is_real_time(game, realtime):
    """table.js holds frames during a press only at turn-based tables (docs/platform.md §5)."""
    ana = make_user("ana")
    table = services.create_table(host=ana, game=game, seats=3, bots=2)
    page = Client().get(f"/tables/{table.pk}/").content.decode()
    assert f'data-realtime="{realtime}"' in page
