"""``manage.py simulate``: bot games through the contract, summarised as one JSON line."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

from games.core.playout import option_mixes
from games.core.registry import all_games, get_game


@pytest.mark.parametrize("game", [g.slug for g in all_games()])
def test_simulate_prints_a_summary_with_no_illegal_moves(game):
    out = io.StringIO()
    call_command("simulate", game, "--games", "3", "--seats", "4", "--seed", "5", stdout=out)
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    assert summary["game"] == game and summary["games"] == 3 and summary["seats"] == 4
    assert summary["options"] == get_game(game).engine.clean_options({})
    assert summary["finished"] == 3 and summary["illegal"] == 0
    assert summary["bots"] == ["sensible", "random", "sensible", "random"]
    assert sum(summary["wins"].values()) == pytest.approx(3)


def test_simulate_runs_every_seat_count_and_every_option_mix_one_line_each():
    out = io.StringIO()
    call_command("simulate", "snout", "--games", "2", "--all-seats", "--all-options",
                 "--options", '{"turn_seconds": 0}', stdout=out)
    runs = [json.loads(line) for line in out.getvalue().strip().splitlines()]
    assert [(run["seats"], run["options"]["toss_odds"], run["options"]["early_snout"]) for run in runs] == [
        (seats, odds, early) for seats in range(2, 7) for odds in ("kern", "cards") for early in (False, True)]
    assert all(run["options"]["turn_seconds"] == 0 and run["finished"] == 2 and run["illegal"] == 0 for run in runs)


def test_option_mixes_vary_yes_no_and_choice_options_and_keep_the_rest():
    engine = get_game("piggypiggy").engine
    assert option_mixes(engine) == [{"turn_seconds": 30, "deck": "stand-in"}, {"turn_seconds": 30, "deck": "picnic"}]
    assert option_mixes(engine, {"deck": "picnic", "turn_seconds": 5}) == [{"turn_seconds": 5, "deck": "picnic"}]
    assert len(option_mixes(get_game("pigpile").engine)) == 4


@pytest.mark.parametrize("args,message", [
    (["nosuchgame"], "unknown game"),
    (["pigpile", "--bots", "genius"], "unknown bot"),
    (["pigpile", "--seats", "9"], "3 to 6 players"),
    (["pigpile", "--options", '{"colour": "red"}'], "unknown option"),
    (["pigpile", "--options", "not json"], "Expecting value"),
    (["pigpile", "--games", "0"], "at least 1"),
])
def test_simulate_refuses_bad_arguments_with_a_clear_error(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("simulate", *args, stdout=io.StringIO())
