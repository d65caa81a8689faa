"""Replays are exact by construction: random finished games of every game,
rebuilt from the seed, the salts and the log, equal the state the table
recorded at every version; and verification fails loudly on a changed log."""
from __future__ import annotations

import random

import pytest
from django.core.management import CommandError, call_command

from games.core.registry import all_games, get_game
from games.core.replay import commitment, deal_seed, state_digest
from pigparlor.tables import replay, services
from pigparlor.tables.models import FINISHED, RUNNING, ActionLog, Seat, Table
from pigparlor.tables.replay import as_stored
from tests.support.tables import make_user, step_clock, table

pytestmark = pytest.mark.django_db

GAMES = [game.slug for game in all_games()]


def play_recording(slug: str, seed: int) -> tuple[int, dict[int, dict]]:
    """A whole game: Ana plays random legal moves (or lets the clock run),
    Ben never moves (his timeouts hand his seat to a bot), bots fill the rest.
    Returns the table id and the state the table recorded at each version."""
    engine = get_game(slug).engine
    seats = min(max(engine.min_seats, 3), engine.max_seats)
    ana, ben = make_user(f"ana{seed}"), make_user(f"ben{seed}")
    created = services.create_table(host=ana, game=slug, seats=seats, bots=seats - 2, salt=f"ana-salt-{seed:04d}")
    services.join_table(created, ben, salt="ben-salt-0001")
    rng = random.Random(seed)
    recorded = {1: table(created.pk).state}
    for _ in range(20000):
        current = table(created.pk)
        if current.status != RUNNING:
            break
        legal = engine.legal_actions(engine.load(current.state), 0)
        if legal and rng.random() < 0.6:
            services.act(created.pk, 0, rng.choice(legal), current.version, user=ana)
        else:
            step_clock(created.pk)
        current = table(created.pk)
        recorded[current.version] = current.state
    assert table(created.pk).status == FINISHED
    return created.pk, recorded


@pytest.mark.parametrize("slug", GAMES)
def test_replay_equals_the_recorded_state_at_every_version(slug):
    # One seed a game: a second seed replayed the same moves of the same code (the slowest
    # test module of the suite); other seeds are played by the verify tests below.
    table_id, recorded = play_recording(slug, 1)
    finished = table(table_id)
    rebuilt = replay.rebuild(finished, cached=False)
    engine = rebuilt.engine
    assert sorted(recorded) == list(range(1, finished.version + 1))
    assert rebuilt.last == finished.version
    for version, state in recorded.items():
        assert as_stored(engine.dump(rebuilt.state(version))) == state, f"{slug} differs at version {version}"
    # Each action logged the digest of the state it made, as the table recorded it then.
    digests = dict(ActionLog.objects.filter(table_id=table_id).values_list("version", "state_sha"))
    assert digests == {version: state_digest(state) for version, state in recorded.items() if version > 1}
    # Ben's seat was handed to a bot by the clock: those moves are in the log, with no user.
    assert Seat.objects.get(table=finished, index=1).replaced
    assert any(step.seat == 1 and not step.by_user for step in rebuilt.steps)
    assert any(step.seat is None for step in rebuilt.steps)  # the clock's timeouts
    # The deal came from the seed mixed with both salts, not the bare seed.
    assert finished.deal_seed == deal_seed(finished.seed, finished.salts) != finished.seed
    assert all(check.ok for check in replay.verify(finished)), replay.verify(finished)


def changed_move(finished, *, first_half: bool = False):
    """A move and another legal move there that leads to another state (two spellings
    of the same move, such as face-up ranks in another order, replay to the very same
    game). ``first_half``: early, where the game may still come back to the same end."""
    engine = get_game(finished.game).engine
    rebuilt = replay.rebuild(finished, cached=False)
    steps = rebuilt.steps[:len(rebuilt.steps) // 2] if first_half else rebuilt.steps[len(rebuilt.steps) // 2:]
    for step in steps:
        if step.seat is None:
            continue
        before = rebuilt.state(step.version - 1)
        for other in engine.legal_actions(before, step.seat):
            if engine.dump(engine.apply(before, step.seat, other, step.at_ms)) != engine.dump(rebuilt.state(step.version)):
                return step.version, other
    raise AssertionError("no move had an alternative")


def test_verify_passes_then_fails_loudly_on_each_change(capsys):
    """One played game, verified, then changed one way at a time (and restored):
    a different move, a move by another seat, a gap, a seed that is not the committed one."""
    table_id, _ = play_recording("pigpile", 3)
    finished = table(table_id)
    call_command("verify_table", str(table_id))
    out = capsys.readouterr().out
    assert f"table {table_id} verified" in out
    assert f"sha256({finished.seed}) = {commitment(finished.seed)}" in out

    def refused(*names):
        checks = replay.verify(table(table_id))
        failed = {check.name for check in checks if not check.ok}
        assert failed and failed <= set(names), checks
        with pytest.raises(CommandError, match="does NOT verify"):
            call_command("verify_table", str(table_id))
        return {check.name: check for check in checks}

    # Any changed move, early or late, fails the per-version digests at that very version,
    # also when the game comes back to the same final state (only the end is recorded).
    for first_half in (True, False):
        version, other = changed_move(finished, first_half=first_half)
        original = ActionLog.objects.get(table_id=table_id, version=version)
        ActionLog.objects.filter(pk=original.pk).update(action=other)
        checks = refused("replay", "steps", "state", "outcome", "version")
        if "steps" in checks:  # else a later logged move became illegal: the replay itself stopped
            assert checks["steps"].detail.startswith(f"version {version}:"), checks
        assert not checks.get("steps", checks["replay"]).ok
        ActionLog.objects.filter(pk=original.pk).update(action=original.action)

    last = ActionLog.objects.filter(table_id=table_id).order_by("-version").first()
    ActionLog.objects.filter(pk=last.pk).update(seat=0 if last.seat is None else None)
    refused("replay", "steps", "state", "outcome", "version")
    ActionLog.objects.filter(pk=last.pk).update(seat=last.seat)

    ActionLog.objects.filter(table_id=table_id, version=3).update(version=10**6)
    assert "gap" in refused("replay")["replay"].detail
    ActionLog.objects.filter(table_id=table_id, version=10**6).update(version=3)

    type(finished).objects.filter(pk=table_id).update(seed=finished.seed + 1)
    refused("commitment", "replay", "steps", "state", "outcome", "version")
    type(finished).objects.filter(pk=table_id).update(seed=finished.seed)
    assert all(check.ok for check in replay.verify(table(table_id)))


def test_a_forged_log_with_a_matching_final_record_fails_at_the_changed_version():
    """The hardest forgery: a move changed early, the log cut there, and the table's
    final record made to match the forged log (as a game that comes back to the same
    end would be). Commitment, replay, state, outcome and version all agree; only the
    per-version digests logged as the game was played tell, at that very version."""
    table_id, _ = play_recording("pigpile", 5)
    version, other = changed_move(table(table_id), first_half=True)
    ActionLog.objects.filter(table_id=table_id, version=version).update(action=other)
    ActionLog.objects.filter(table_id=table_id, version__gt=version).delete()
    forged = replay.rebuild(table(table_id), cached=False)
    Table.objects.filter(pk=table_id).update(state=as_stored(forged.engine.dump(forged.states[-1])),
                                             version=version, outcome=None)
    checks = {check.name: check for check in replay.verify(table(table_id))}
    assert {name for name, check in checks.items() if not check.ok} == {"steps"}, checks
    assert checks["steps"].detail.startswith(f"version {version}: the replayed state differs")
    with pytest.raises(CommandError, match="does NOT verify"):
        call_command("verify_table", str(table_id))


def test_a_table_logged_before_digests_still_verifies_and_says_so():
    table_id, _ = play_recording("snout", 4)
    ActionLog.objects.filter(table_id=table_id).update(state_sha="")
    checks = {check.name: check for check in replay.verify(table(table_id))}
    assert all(check.ok for check in checks.values()), checks
    assert "no per-version digests" in checks["steps"].detail


def test_verify_table_refuses_a_running_table_and_an_unknown_one():
    ana = make_user("ana")
    running = services.create_table(host=ana, game="pigpile", seats=3, bots=2)
    with pytest.raises(CommandError, match="still being played"):
        call_command("verify_table", str(running.pk))
    with pytest.raises(CommandError, match="no such table"):
        call_command("verify_table", "999999")
