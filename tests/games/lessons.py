"""A first game with hints played by the rules alone: seat 0 does what the coach's hints
say, the lesson's bots play the other seats, until the lesson's aim is reached.

Used by the games' coach tests to check that a lesson's fixed deal reaches its aim
(games.core.coach) in a few moves, whatever the bots' dice."""
from __future__ import annotations

from dataclasses import dataclass

from games.core.bots import Bot
from games.core.playout import play


class HintFollower(Bot):
    """Plays the hinted action, after ``reaction_ms`` in a real-time game."""

    kind = "follower"

    def __init__(self, coach, reaction_ms: int = 0):
        self.coach, self.reaction_ms, self.moves = coach, reaction_ms, 0

    def choose(self, view, legal, rng):
        hint = self.coach.hint(view, legal)
        return None if hint is None else hint.action

    def delay_ms(self, view, action, now_ms, rng):
        return self.reaction_ms


class _Reached(Exception):
    def __init__(self, state):
        self.state = state


@dataclass
class LessonRun:
    state: object
    learned: bool
    learner_moves: int


def run_lesson(engine, coach, bots: dict, dice: int = 0, reaction_ms: int = 0, max_actions: int = 5000) -> LessonRun:
    """Play the lesson of ``coach`` (seat 0 following the hints) until its aim is reached or the
    game ends; ``dice`` seeds the bots' random choices as the table's bot driver would."""
    lesson = coach.lesson
    follower = HintFollower(coach, reaction_ms)
    players = [follower] + [bots[lesson.bot]] * (lesson.seats - 1)
    moves = {"n": 0}

    def on_step(state, seat, action, at):
        if seat == 0:
            moves["n"] += 1
        if coach.learned(engine.view(state, 0)):
            raise _Reached(state)

    try:
        result = play(engine, players, lesson.seed, lesson.options, max_actions=max_actions, on_step=on_step,
                      dice=dice)
    except _Reached as reached:
        return LessonRun(reached.state, True, moves["n"])
    return LessonRun(result.state, coach.learned(engine.view(result.state, 0)), moves["n"])
