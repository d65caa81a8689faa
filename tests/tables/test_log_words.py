"""Issue 15 item 8: the words a player reads. A log line names other seats one way for every
game (``{seat:N}``, filled in by the platform with the player's name, isolated in ``<bdi>``);
counts agree with their nouns; with no one seat to move the page names the phase, never
"Play on"."""
import random

import pytest

from games.core.cards import plural, seat_ref, with_article
from games.core.playout import play
from games.core.registry import all_games, get_game
from pigparlor.accounts.models import Profile
from pigparlor.tables import rendering, services
from pigparlor.tables.rendering import seat_names, seat_names_html
from tests.support.tables import make_user


def test_plural_and_seat_ref():
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert plural(1, "goose", "geese") == "1 goose" and plural(3, "goose", "geese") == "3 geese"
    assert seat_ref(2) == "{seat:2}"
    assert [with_article(title) for title in ("Oink!", "Snout!", "Pig Pile")] == ["an Oink!", "a Snout!", "a Pig Pile"]


def test_seat_names_fill_in_players_escaped_and_isolated():
    names = {0: "Ana", 1: "<Ben & Co>"}
    text = f"took the pig from {seat_ref(1)}, who discards one card <sigh>."
    assert seat_names(text, names) == "took the pig from <Ben & Co>, who discards one card <sigh>."
    assert seat_names_html(text, names) == (
        "took the pig from <bdi>&lt;Ben &amp; Co&gt;</bdi>, who discards one card &lt;sigh&gt;.")
    assert seat_names(f"{seat_ref(5)} left", names) == "seat 6 left"


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_no_log_line_of_a_whole_game_says_player_n_or_one_cards(slug):
    """Every game's log through a bot playout: seats named through seat_ref, plurals agreeing."""
    game = get_game(slug)
    engine = game.engine
    lines = []
    result = play(engine, [game.bots["sensible"]] * max(3, engine.min_seats), seed=15,
                  on_step=lambda state, *_: lines.extend(event["text"] for event in engine.view(state, None)["log"]))
    lines.extend(event["text"] for event in engine.view(result.state, None)["log"])
    for text in set(lines):
        assert "player " not in text.lower() or "{seat:" in text, text
        assert "(1 cards)" not in text and " 1 points" not in text and " 1 cards" not in text, text


@pytest.mark.django_db
def test_piggy_piggys_log_names_the_player_a_pig_was_taken_from():
    """PG5/PG4: "took the red pig from {seat:1}" reads "from Zephyrine" on the page and in the
    JSON API's view, never "from player 2"."""
    ana = make_user("ana")
    Profile.objects.create(user=ana, display_name="Zephyrine")
    table = services.create_table(host=ana, game="piggypiggy", seats=3, bots=2)
    snapshot = rendering.load_snapshot(table.pk)
    game = snapshot.game
    engine = game.engine
    # Play the table's state on with bots until some line names another seat.
    state, now = snapshot.state, 0
    for _ in range(2000):
        if any("{seat:0}" in event["text"] for event in engine.view(state, None)["log"]):
            break
        seat = next((index for index in range(3) if engine.legal_actions(state, index)), None)
        if seat is None:
            now = engine.next_deadline(state)
            state = engine.apply(state, None, {"type": "clock"}, now)
            continue
        action = game.bots["sensible"].choose(engine.view(state, seat), engine.legal_actions(state, seat),
                                              random.Random(now))
        state = engine.apply(state, seat, action, now)
    lines = [event for event in engine.view(state, None)["log"] if "{seat:0}" in event["text"]]
    assert lines, "no log line named seat 0 in 2000 moves"
    names = {0: "Zephyrine", 1: "Easy bot 2", 2: "Easy bot 3"}
    page = seat_names_html(lines[0]["text"], names)
    assert "<bdi>Zephyrine</bdi>" in page and "player 1" not in page and "{seat:" not in page


@pytest.mark.django_db
def test_with_no_one_seat_to_move_the_page_names_the_phase(client):
    """Pig Pile's face-up choice (PP1) has everyone choosing: the turn line says so."""
    ana = make_user("ana")
    table = services.create_table(host=ana, game="pigpile", seats=3, bots=2)
    parts = rendering.html_parts(rendering.load_snapshot(table.pk), 0)
    assert "Everyone chooses three cards to lay face up" in parts["table-turn"]
    assert "Play on" not in parts["table-turn"]


@pytest.mark.django_db
def test_the_json_view_fills_in_seat_names_too():
    ana = make_user("ana")
    table = services.create_table(host=ana, game="pigpile", seats=3, bots=2)
    snapshot = rendering.load_snapshot(table.pk)
    frame = rendering.json_state(snapshot, 0)
    assert all("{seat:" not in event["text"] for event in frame["view"]["log"])


def test_a_versions_page_log_is_named_once_for_all_its_viewers():
    """issue 14: every viewer of a version gets the same named log list (built once);
    a different log is named afresh, never answered with another's lines."""
    from tests.support.tables import bot_game_snapshots

    snapshot = bot_game_snapshots("pigpile", 1, name="<b>{}</b>")[12]
    logs = [rendering.context(snapshot, viewer)["log"] for viewer in (None, 0, 1, 2, 3)]
    assert all(log is logs[0] for log in logs) and logs[0]
    assert "<b>1</b>" in {event["who"] for event in logs[0]}  # who moved, by name (escaped in the template)
    shorter = snapshot.page_log(snapshot.game.engine.view(snapshot.state, 0)["log"][:-1])
    assert shorter is not logs[0] and shorter == logs[0][:-1]
