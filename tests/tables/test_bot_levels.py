"""Issue 15 item 11: every game offers bot levels, picked at table creation (lobby form and
JSON API ``bot_level``), named by level in the seat; a real-time game's bots race on their
own reaction time (Oink!'s "hard" near 400 ms), and every level plays only legal actions."""
import random
import statistics

import pytest

from games.core.playout import play
from games.core.registry import all_games, get_game
from games.oink.bots import plan_for
from games.oink.cards import DECK, correct_cry
from pigparlor.tables import botdriver
from pigparlor.tables.models import Table
from pigparlor.tables.rendering import context, load_snapshot
from tests.api.test_http import api
from tests.support.tables import make_user

GAMES = ["oink", "piggypiggy", "pigpile", "snout"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_offers_at_least_two_levels_with_sensible_among_them(slug):
    game = get_game(slug)
    assert len(game.bot_levels) >= 2 and "sensible" in game.bot_levels
    assert "random" not in game.bot_levels
    assert all(game.bots[kind].level and game.bots[kind].level_help for kind in game.bot_levels)


@pytest.mark.parametrize("slug", GAMES)
def test_every_level_plays_only_legal_actions_to_the_end(slug):
    """The contract's net for each level: a full bot-only game, 0 illegal actions."""
    game = get_game(slug)
    engine = game.engine
    for kind in game.bot_levels:
        seats = max(engine.min_seats, 3)
        result = play(engine, [game.bots[kind]] * seats, seed=15)
        assert result.outcome is not None and result.illegal == 0, kind


def test_the_easy_level_is_deterministic_for_a_seeded_rng():
    game = get_game("pigpile")
    engine = game.engine
    state = engine.start(4, seed=3)
    view, legal = engine.view(state, 1), engine.legal_actions(state, 1)
    easy = game.bots["easy"]
    picks = [easy.choose(view, legal, random.Random(seed)) for seed in range(40)]
    assert picks == [easy.choose(view, legal, random.Random(seed)) for seed in range(40)]
    assert all(pick in legal for pick in picks)
    assert len({str(pick) for pick in picks}) > 1  # it does slip now and then


@pytest.mark.django_db
def test_the_api_creates_a_table_whose_bots_are_of_the_level_asked():
    call = api(make_user("ana"))
    created = call("post", "/api/tables/", {"game": "oink", "seats": 3, "bots": 2, "bot_level": "hard"})
    assert created.status_code == 201
    detail = call("get", f"/api/tables/{created.json()['id']}/").json()
    assert [seat["bot"] for seat in detail["seats"]] == [None, "hard", "hard"]
    assert [seat["username"] for seat in detail["seats"]][1:] == ["bot:hard", "bot:hard"]
    names = [player["name"] for player in context(load_snapshot(created.json()["id"]), 0)["players"]]
    assert names[1:] == ["Hard bot 2", "Hard bot 3"]


@pytest.mark.django_db
def test_without_bot_level_the_bots_are_sensible():
    call = api(make_user("ana"))
    created = call("post", "/api/tables/", {"game": "pigpile", "seats": 3, "bots": 2})
    assert {seat.bot_kind for seat in Table.objects.get(pk=created.json()["id"]).seat_set.all() if seat.index} \
        == {"sensible"}


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["random", "HARD", "", 1, None, ["easy"], "hard"])
def test_a_bot_level_the_game_does_not_offer_is_a_400_and_creates_nothing(level):
    """"hard" is Oink!'s alone; "random" is for simulations, not tables."""
    call = api(make_user("ana"))
    refused = call("post", "/api/tables/", {"game": "pigpile", "seats": 3, "bots": 2, "bot_level": level})
    assert refused.status_code == 400
    assert refused.json() == {"type": "error", "code": "bad_request", "message": (
        "bot_level must be one of: easy, sensible" if isinstance(level, str)
        else "bot_level must be a level's name, such as \"easy\"")}
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_the_lobby_form_offers_the_levels_and_seats_them(client):
    ana = make_user("ana")
    client.force_login(ana)
    page = client.get("/games/snout/new/").content.decode()
    assert 'name="bot_level"' in page and '<option value="easy">Easy</option>' in page
    assert '<option value="sensible" selected>Sensible</option>' in page
    response = client.post("/games/snout/new/", {"seats": 3, "bots": 2, "bot_level": "easy",
                                                  "opt_turn_seconds": 30, "opt_toss_odds": "kern"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert [seat.bot_kind for seat in table.seat_set.order_by("index")] == ["", "easy", "easy"]
    refused = client.post("/games/snout/new/", {"seats": 3, "bots": 2, "bot_level": "hard",
                                                 "opt_turn_seconds": 30, "opt_toss_odds": "kern"})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    assert Table.objects.count() == 1


def _reactions(kind: str, piles: int = 400) -> list[int]:
    """ms from a reveal to the slap the level plans, over many piles with a pig on top (O3)."""
    bot = get_game("oink").bots[kind]
    pig = next(card for card in range(len(DECK)) if correct_cry(card, None) is not None)
    plans = [plan_for(kind, bot.reflexes, 1, pile, (pig,), 0) for pile in range(piles)]
    return [plan.slap_at for plan in plans if plan.cry is not None]


def test_oink_levels_react_in_order_and_hard_is_near_400_ms():
    medians = {kind: statistics.median(_reactions(kind)) for kind in ("easy", "sensible", "hard")}
    assert medians["easy"] > medians["sensible"] > medians["hard"]
    assert 350 <= medians["hard"] <= 450, medians


class _Seat:
    def __init__(self, index, kind):
        self.index, self.bot_kind, self.replaced = index, kind, False


class _Row:
    pk, version, changed_at_ms, started_at_ms = 1, 5, 10_000, 10_000


def test_a_real_time_games_bots_get_no_platform_think_time_on_top(settings):
    """The driver adds PIGPARLOR_BOT_DELAY_MS to turn-based bots only: in Oink! the level's
    own timing is the whole wait, so "hard" really slaps about 400 ms after the reveal."""
    settings.PIGPARLOR_BOT_DELAY_MS = 700
    pigpile, oink = get_game("pigpile"), get_game("oink")
    moves = botdriver.pending_bot_moves(pigpile, _Row, pigpile.engine.start(3, seed=2), [_Seat(1, "sensible")])
    assert [move.due_ms - _Row.changed_at_ms for move in moves] == [700]
    state = oink.engine.start(2, seed=1)  # seat 0 may flip at once (O2)
    moves = botdriver.pending_bot_moves(oink, _Row, state, [_Seat(0, "hard")])
    assert [move.action for move in moves] == [{"type": "flip"}]
    assert 150 <= moves[0].due_ms - _Row.changed_at_ms <= 400  # HARD's flip think time, no 700 on top


def test_snouts_bots_toss_slowly_enough_for_each_toss_to_be_read(settings):
    """A toss discards from every hand at once (S4): Snout!'s bots wait 2.5 times the platform's
    think time (docs/rules/snout.md, "Our decisions"); tests' zero think time stays zero."""
    snout = get_game("snout")
    state = snout.engine.start(2, seed=3)
    settings.PIGPARLOR_BOT_DELAY_MS = 700
    moves = botdriver.pending_bot_moves(snout, _Row, state, [_Seat(1, "sensible")])
    assert [move.due_ms - _Row.changed_at_ms for move in moves] == [1750]
    settings.PIGPARLOR_BOT_DELAY_MS = 0
    moves = botdriver.pending_bot_moves(snout, _Row, state, [_Seat(1, "sensible")])
    assert [move.due_ms - _Row.changed_at_ms for move in moves] == [0]


def test_simulate_takes_levels_as_bot_kinds(capsys):
    from django.core.management import call_command
    for game in all_games():
        call_command("simulate", game.slug, "--games", "2", "--seats", "3", "--bots", ",".join(game.bot_levels))
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and all('"illegal": 0' in line for line in lines)


@pytest.mark.django_db
def test_starting_early_fills_the_empty_seats_with_the_level_picked_at_creation():
    from pigparlor.tables import services

    ana = make_user("ana")
    table = services.create_table(host=ana, game="pigpile", seats=4, bot_level="easy")
    assert table.bot_kind == "easy"
    services.join_table(table, make_user("ben"))
    services.start_table(table, ana)
    assert [seat.bot_kind for seat in table.seat_set.order_by("index")] == ["", "", "easy", "easy"]


@pytest.mark.django_db
def test_quick_play_picks_among_the_levels_at_their_fixed_measured_ratings():
    """Quick play (pigparlor.lobby.pool) fills seats with the level nearest the table's
    rating: each level's fixed rating (pigparlor/ratings/bot_levels.py), never the
    random bot, which is for simulations only."""
    from pigparlor.lobby.matching import closest_bot
    from pigparlor.lobby.pool import bot_ratings
    from pigparlor.ratings.bot_levels import bot_skills

    snout = get_game("snout")
    measured = bot_skills("snout")
    assert bot_ratings(snout) == {kind: measured[kind].rating for kind in ("easy", "sensible")}
    assert bot_ratings(snout)["easy"] < bot_ratings(snout)["sensible"] == 1500
    assert closest_bot(bot_ratings(snout), 1500) == "sensible" and closest_bot(bot_ratings(snout), 1100) == "easy"
