"""Property tests over random legal play, for every seat count and both decks."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.bots import Bot
from games.core.playout import play, replay
from games.core.viewcheck import cards_in_view
from games.piggypiggy.bots import BOTS
from games.piggypiggy.decks import DECKS
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.rules import strict_leader, totals
from games.piggypiggy.state import Phase
from tests.games.piggypiggy.fixtures import all_cards

KINDS = st.lists(st.sampled_from(sorted(BOTS)), min_size=6, max_size=6)


class Sleeper(Bot):
    """Never acts: the clock has to play for it (PG12, and PG5's prompt timeout)."""

    kind = "sleeper"

    def choose(self, view, legal, rng):
        return None


def cards_offered(action: dict) -> set[int]:
    return {action["card"]} if "card" in action else set(action.get("cards", ()))


class Checker:
    """Checks every state a playout passes through."""

    def __init__(self, seats: int, deck: str):
        self.seats, self.size = seats, len(DECKS[deck].cards)
        self.turn, self.previous = 1, None  # every game begins on turn 1

    def __call__(self, state, seat, action, now_ms):
        if self.previous is not None:  # apply never mutated the state it was given
            old_state, old_dump = self.previous
            assert json.dumps(ENGINE.dump(old_state), sort_keys=True) == old_dump
        dumped = json.dumps(ENGINE.dump(state), sort_keys=True)
        self.previous = (state, dumped)
        assert ENGINE.load(json.loads(dumped)) == state
        assert all_cards(state) == list(range(self.size)), "cards are conserved"
        assert len(state.pigs) == len(state.the_deck.foods)
        assert all(holder is None or 0 <= holder < self.seats for holder in state.pigs), "each pig in one place"
        if state.turn != self.turn or state.phase is Phase.OVER:
            self.turn = state.turn
            self.check_pigs_after_a_whole_turn(state)
        self.check_views(state)

    def check_pigs_after_a_whole_turn(self, state):
        for food, holder in enumerate(state.pigs):
            amounts = totals(state, food)
            if holder is not None:
                assert amounts[holder] == max(amounts) > 0
            leader = strict_leader(amounts)
            # PG6: a pig in the middle waits there for its leader's own step 2.
            assert leader is None or leader == holder or holder is None

    def check_views(self, state):
        for viewer in [*range(self.seats), None]:
            view = ENGINE.view(state, viewer)
            json.dumps(view)
            hidden = ENGINE.hidden_cards(state, viewer)
            others = {card for seat, hand in enumerate(state.hands) if seat != viewer for card in hand}
            assert others | set(state.draw_pile) <= hidden
            assert not cards_in_view(view) & hidden
            assert isinstance(view["draw_pile"], int) and view["hand_sizes"] == [len(h) for h in state.hands]
            if viewer is not None:
                assert sorted(card["card"] for card in view["hand"]) == sorted(state.hands[viewer])
                for action in ENGINE.legal_actions(state, viewer):
                    assert not cards_offered(action) & hidden
            assert len(view["log"]) <= 30
            assert view["phase"] in ("play", "inherit", "over")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 32), seats=st.integers(2, 6), deck=st.sampled_from(sorted(DECKS)), kinds=KINDS)
def test_random_play_conserves_cards_settles_pigs_hides_hands_and_replays(seed, seats, deck, kinds):
    options = {"deck": deck}
    checker = Checker(seats, deck)
    result = play(ENGINE, [BOTS[kind] for kind in kinds[:seats]], seed, options,
                  max_actions=20_000, keep_log=True, on_step=checker)
    assert result.illegal == 0
    assert result.outcome is not None and sorted(result.outcome.ranks)[0] == 1
    assert replay(ENGINE, seats, seed, options, result.log) == result.state


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2 ** 32), seats=st.integers(2, 6), deck=st.sampled_from(sorted(DECKS)))
def test_bot_only_games_always_end(seed, seats, deck):
    for kind in sorted(BOTS):
        result = play(ENGINE, [BOTS[kind]] * seats, seed, {"deck": deck}, max_actions=20_000)
        assert result.outcome is not None and result.illegal == 0


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2 ** 32), seats=st.integers(2, 4))
def test_a_player_who_never_acts_cannot_stall_the_table(seed, seats):
    options = {"turn_seconds": 5}
    bots = [Sleeper(), *[BOTS["sensible"]] * (seats - 1)]
    result = play(ENGINE, bots, seed, options, max_actions=20_000, keep_log=True, on_step=Checker(seats, "stand-in"))
    assert result.outcome is not None
    assert any(seat is None for seat, _, _ in result.log)
    assert replay(ENGINE, seats, seed, options, result.log) == result.state


class PromptSleeper(Bot):
    """Plays sensibly but never answers PG5's prompt."""

    kind = "prompt-sleeper"

    def choose(self, view, legal, rng):
        if legal and legal[0]["type"] == "add":
            return None
        return BOTS["sensible"].choose(view, legal, rng)


def test_unanswered_prompts_time_out_without_a_turn_timer():
    timeouts = 0
    for seed in range(40):
        result = play(ENGINE, [PromptSleeper()] * 3, seed, keep_log=True)
        assert result.outcome is not None
        timeouts += sum(1 for seat, _, _ in result.log if seat is None)
    assert timeouts > 0
