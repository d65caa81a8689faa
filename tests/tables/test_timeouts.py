"""Timeouts forgive, the same in all four games (docs/rules/timeouts.md).

A present player whose time runs out keeps the seat: the clock plays that turn,
the log records whose turn it played (``ActionLog.timed_out``), and the seat's
notice says so. Only ``TIMEOUTS_BEFORE_BOT`` missed turns in a row hand the seat
to a bot, whose moves read "Bot for …". Missed turns never count as leaving;
Leave does, for good. The clock is driven by ``step_clock`` (no sleeps).
"""
import json

import pytest

from games.core.registry import get_game
from pigparlor.lobby.views import my_tables
from pigparlor.ratings.service import table_placings
from pigparlor.tables import presence, rendering, services
from pigparlor.tables.leavers import played_moves
from pigparlor.tables.models import FINISHED, RUNNING, TIMEOUTS_BEFORE_BOT, ActionLog, Seat
from tests.support.sockets import db, frames_until, open_socket, opened, until
from tests.support.tables import make_user, step_clock, table

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ["oink", "pigpile", "piggypiggy", "snout"]


def seat_of(table_id: int, index: int = 0) -> Seat:
    return Seat.objects.get(table_id=table_id, index=index)


def at_a_table(slug: str, name: str = "ana"):
    """``name`` in seat 0 with the table open (a socket, so never absent), bots in the others."""
    player = make_user(name)
    engine = get_game(slug).engine
    created = services.create_table(host=player, game=slug, seats=engine.min_seats, bots=engine.min_seats - 1)
    presence.open_socket(created.pk, player, f"test-channel-{name}")
    return player, created


def clock_until(table_id: int, done, limit: int = 2000) -> None:
    """Step the clock (skipping time to each wake-up) until ``done()`` holds."""
    for _ in range(limit):
        if done():
            return
        assert step_clock(table_id), "the table stopped before it happened"
    raise AssertionError("it did not happen")


def timeouts_logged(table_id: int) -> list[tuple]:
    """(seat, user, timed_out) of every clock move that played someone's missed turn."""
    rows = ActionLog.objects.filter(table_id=table_id).values_list("seat", "user_id", "timed_out")
    return [row for row in rows if row[2]]


def first_legal(table_id: int, seat: int = 0):
    """The seat's first legal move now (None if it has none)."""
    current = table(table_id)
    engine = get_game(current.game).engine
    legal = engine.legal_actions(engine.load(current.state), seat)
    return legal[0] if legal else None


def move(table_id: int, seat: int, player) -> None:
    services.act(table_id, seat, first_legal(table_id, seat), table(table_id).version, user=player)


@pytest.mark.parametrize("slug", GAMES)
def test_one_missed_turn_is_played_by_the_clock_and_the_seat_stays_the_players(slug):
    ana, created = at_a_table(slug)
    clock_until(created.pk, lambda: seat_of(created.pk).timeouts == 1)
    seat = seat_of(created.pk)
    assert not seat.replaced and table(created.pk).status == RUNNING
    assert timeouts_logged(created.pk)[-1][:2] == (None, None) and 0 in timeouts_logged(created.pk)[-1][2]
    assert not ActionLog.objects.filter(table_id=created.pk, seat=0).exists()  # no bot moved for ana
    notice = rendering.context(rendering.load_snapshot(created.pk), 0)["notice"]
    assert notice == {"kind": "missed", "count": 1, "limit": TIMEOUTS_BEFORE_BOT, "last_chance": notice["last_chance"]}


@pytest.mark.parametrize("slug", GAMES)
def test_three_missed_turns_in_a_row_hand_the_seat_to_a_bot_whose_moves_read_bot_for(slug):
    ana, created = at_a_table(slug)
    clock_until(created.pk, lambda: seat_of(created.pk).replaced)
    seat = seat_of(created.pk)
    assert seat.timeouts == TIMEOUTS_BEFORE_BOT and len(timeouts_logged(created.pk)) >= TIMEOUTS_BEFORE_BOT
    first_bot_event = seat.bot_events[-1][0]
    clock_until(created.pk, lambda: ActionLog.objects.filter(table_id=created.pk, seat=0, user=None).exists()
                or table(created.pk).status == FINISHED)
    snapshot = rendering.load_snapshot(created.pk)
    context = rendering.context(snapshot, 0)
    if snapshot.table.status == RUNNING:
        assert context["notice"]["kind"] == "bot" and context["notice"]["missed"]
        assert context["stand_in"] and context["players"][0]["label"] == "Bot for you"
        assert rendering.context(snapshot, 1)["players"][0]["label"] == "Bot for ana"
    for event in context["log"]:
        if event.get("seat") == 0:
            assert event["who"] == ("Bot for ana" if event["n"] >= first_bot_event else "ana"), event


def test_the_players_own_move_and_im_here_clear_the_missed_turns(count_game):
    """(Two tables: three plays of at most 3 each never reach Count to Ten's 10.)"""
    ana, ben = make_user("ana"), make_user("ben")
    for clear in ("I'm here", "her own move"):
        created = services.create_table(host=ana, game="countgame", seats=2, options={"turn_seconds": 30})
        services.join_table(created, ben)
        for player in (ana, ben):
            presence.open_socket(created.pk, player, f"test-channel-{player.username}-{created.pk}")
        step_clock(created.pk)  # ana's turn runs out
        assert seat_of(created.pk).timeouts == 1
        if clear == "I'm here":
            presence.reclaim_seat(created.pk, ana)
        else:
            move(created.pk, 1, ben)
            move(created.pk, 0, ana)
        assert seat_of(created.pk).timeouts == 0 and not seat_of(created.pk).replaced, clear


def test_an_oink_player_who_misses_one_flip_and_plays_on_is_not_rated_as_leaving():
    """The issue's case: a single timed-out flip handed the seat to a bot, and the winner of a
    rated game was then rated last. Now the flip is made for them and nothing else changes."""
    ana, created = at_a_table("oink")
    assert table(created.pk).rated
    clock_until(created.pk, lambda: seat_of(created.pk).timeouts == 1)
    engine = get_game("oink").engine
    flips = 0
    while table(created.pk).status == RUNNING:
        if first_legal(created.pk) == {"type": "flip"}:  # ana flips her own cards from now on (never slaps)
            move(created.pk, 0, ana)
            flips += 1
        else:
            step_clock(created.pk)
    finished = table(created.pk)
    assert flips > 0 and not seat_of(created.pk).replaced
    assert finished.outcome["left"] == [] and finished.outcome["left_early"] == []
    human, bot = played_moves(created.pk)[0]
    assert (human, bot) == (flips, 0)  # the clock's flip for her is neither hers nor a bot's
    assert table_placings(finished)[0] == finished.outcome["ranks"][0]  # placed by the cards she won
    assert engine.outcome(engine.load(finished.state)) is not None


@pytest.mark.parametrize("slug", GAMES)
def test_leave_hands_the_seat_to_a_bot_for_good_and_the_result_says_left(slug, client):
    ana, created = at_a_table(slug)
    client.force_login(ana)
    page = client.get(f"/tables/{created.pk}/").content.decode()
    assert "Leave table" in page and "you are rated <strong>last</strong>" in page
    response = client.post(f"/lobby/tables/{created.pk}/leave/")
    assert response.status_code == 302 and response["Location"] == f"/games/{slug}/"
    assert "a bot plays your seat to the end" in client.get(response["Location"]).content.decode()
    seat = seat_of(created.pk)
    assert seat.resigned and seat.replaced and seat.user_id == ana.pk
    assert created.pk not in {each.pk for each in my_tables(ana)}
    watching = client.get(f"/tables/{created.pk}/").content.decode()
    assert "You are watching" in watching and "Leave table" not in watching
    presence.reclaim_seat(created.pk, ana)  # neither "I'm here" nor a new socket takes it back
    presence.open_socket(created.pk, ana, "test-channel-ana-again")
    assert seat_of(created.pk).replaced
    clock_until(created.pk, lambda: table(created.pk).status == FINISHED)
    finished = table(created.pk)
    assert finished.outcome["left"] == [0]
    assert table_placings(finished)[0] == max(table_placings(finished))  # last
    assert 'class="tag">left<' in client.get(f"/tables/{created.pk}/").content.decode()


def test_oinks_countdown_is_the_flippers_flip_time_never_the_gap_between_cards():
    ana, created = at_a_table("oink")
    seen = set()
    for _ in range(60):
        snapshot = rendering.load_snapshot(created.pk)
        context = rendering.context(snapshot, 0)
        phase = context["view"]["phase"]
        seen.add(phase)
        if phase == "flip":
            assert context["deadline_ms"] == rendering.deadline_ms(snapshot)
        else:
            assert context["deadline_ms"] is None, phase
        if not step_clock(created.pk):
            break
    assert {"flip", "wait"} <= seen


@pytest.mark.asyncio
async def test_the_notice_reaches_the_players_socket_and_im_here_clears_it(count_game):
    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    created = await db(services.create_table)(host=ana, game="countgame", seats=2, options={"turn_seconds": 30})
    await db(services.join_table)(created, ben)
    socket, bens = await open_socket(ana, created.pk), await open_socket(ben, created.pk)
    await opened(socket), await opened(bens)
    await db(step_clock)(created.pk)  # ana's turn runs out
    frames = await until(socket, lambda got: "Time ran out" in "".join(got))
    notice = "".join(frames)
    assert 'id="table-notice"' in notice and "I’m here" in notice and "1 missed in a row" in notice
    timed_out = (await db(table)(created.pk)).version
    assert "Time ran out" not in "".join(await frames_until(bens, version=timed_out))  # only for her
    await socket.send_to(text_data=json.dumps({"control": "reclaim", "HEADERS": {}}))
    await until(socket, lambda got: '<div hx-swap-oob="true" id="table-notice" class="seat-notice"></div>'
                        in "".join(got))
    assert (await db(seat_of)(created.pk)).timeouts == 0
    await socket.disconnect(), await bens.disconnect()
