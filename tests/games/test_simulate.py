"""``manage.py simulate``: bot games through the contract, summarised as one JSON line."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

from pigparlor.tables.registry import all_games


@pytest.mark.parametrize("game", [g.slug for g in all_games()])
def test_simulate_prints_a_summary_with_no_illegal_moves(game):
    out = io.StringIO()
    call_command("simulate", game, "--games", "3", "--seats", "4", "--seed", "5", stdout=out)
    summary = json.loads(out.getvalue().strip().splitlines()[-1])
    assert summary["game"] == game and summary["games"] == 3 and summary["seats"] == 4
    assert summary["finished"] == 3 and summary["illegal"] == 0
    assert summary["bots"] == ["sensible", "random", "sensible", "random"]
    assert sum(summary["wins"].values()) == pytest.approx(3)


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
