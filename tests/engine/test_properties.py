"""A ``hypothesis`` state machine that plays legal and illegal events on :class:`rules.game.Game`.

Games start from rules (2-4 players, any dealer, every rule option, a seeded or a drawn
deal) or from a random position. Each step plays legal moves, tries an illegal event
(out of turn, a card not in hand, the wrong kind of event, a card that does not beat, a
take ``must_beat`` forbids, anything after the end, a bad deal, a late position), or
takes events back. After every step the invariants below are checked; after every
accepted event, the notifications (sixes passed, cards taken, going out, the turn passing,
the end) are checked against the change of state.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rules import core
from rules.cards import CODES
from rules.events import (
    Beat,
    ChooseTrump,
    Deal,
    GameOver,
    Lead,
    Position,
    Second,
    SixPassed,
    Start,
    Take,
    Took,
    TurnPassed,
    WentOut,
    event_json,
    parse_event,
)
from rules.game import Game, IllegalEvent, Snapshot
from rules.log import log_lines, read_log
from rules.options import RuleSet
from rules.state import GameState, View

SUITS = "SHDC"
CARD_EVENTS: dict[str, Any] = {"lead": Lead, "beat": Beat, "second": Second}


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    players = draw(st.integers(2, 4))
    return RuleSet(
        players=players,
        dealer=draw(st.integers(0, players - 1)),
        pass_sixes=draw(st.booleans()),
        must_beat=draw(st.booleans()),
    )


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, bool]:
    """A valid position (at least two seats with cards, the seat to act among them) and ``must_beat``."""
    players = draw(st.integers(2, 4))
    pack = draw(st.permutations(CODES))
    sizes = draw(st.lists(st.integers(0, 3), min_size=players, max_size=players))
    holders = draw(st.lists(st.integers(0, players - 1), min_size=2, max_size=2, unique=True))
    for seat in holders:
        sizes[seat] = max(1, sizes[seat])
    hands, start = [], 0
    for size in sizes:
        hands.append(list(pack[start : start + size]))
        start += size
    pile = list(pack[start : start + draw(st.integers(0, 4))])
    to_act = draw(st.sampled_from([seat for seat in range(players) if hands[seat]]))
    phase = "lead" if not pile else draw(st.sampled_from(["respond", "second"]))
    trumps = draw(st.permutations(SUITS))[:players]
    position = Position(trumps=trumps, hands=hands, pile=pile, to_act=to_act, phase=phase)  # type: ignore[arg-type]
    return position, draw(st.booleans())


# A position from which the game can go round in a circle of eight moves (see test_clauses.py).
CIRCLE_START = Position(
    trumps=["S", "H"], hands=[["JH", "8H"], ["JS", "TD", "6H"]], pile=["8C", "TH", "KH"], to_act=0, phase="respond"
)

CIRCLE = [
    Take(seat=0),
    Lead(seat=1, card="6H"),
    Beat(seat=0, card="TH"),
    Second(seat=0, card="KH"),
    Take(seat=1),
    Lead(seat=0, card="8C"),
    Beat(seat=1, card="TH"),
    Second(seat=1, card="KH"),
]

ANY_EVENT = st.one_of(
    st.builds(lambda seat, suit: ChooseTrump(seat=seat, suit=suit), st.integers(0, 3), st.sampled_from(SUITS)),
    st.builds(
        lambda kind, seat, card: CARD_EVENTS[kind](seat=seat, card=card),
        st.sampled_from(sorted(CARD_EVENTS)),
        st.integers(0, 3),
        st.sampled_from(CODES),
    ),
    st.builds(lambda seat, count: Take(seat=seat, count=count), st.integers(0, 3), st.none() | st.integers(1, 36)),
)


def card_set(game: Game) -> list[str]:
    cards = [card for seat in range(game.rules.players) for card in game.hand(seat)] + game.pile
    return sorted(cards, key=CODES.index)


def same_move(event: Any, listed: Any) -> bool:
    """``event`` is the listed legal move (a take may leave its count out)."""
    if isinstance(event, Take) and isinstance(listed, Take):
        return event.seat == listed.seat and event.count in (None, listed.count)
    return bool(event == listed)


class GameMachine(RuleBasedStateMachine):
    game: Game
    cards: list[str] | None  # the cards in play once dealt (all 36, or those of the position)
    history: list[Any]  # the picture of the game before each event, for checking pop()

    def __init__(self) -> None:
        super().__init__()
        self.history = []
        self.cards = None

    # --- starting (each subclass below starts its games its own way) ----------------------

    def start_at(self, position: Position, must_beat: bool) -> None:
        self.game = Game(RuleSet(players=len(position.hands), must_beat=must_beat))
        self.history.append(self.picture())
        self.game.push(position)
        self.cards = sorted([card for hand in position.hands for card in hand] + position.pile, key=CODES.index)

    # --- helpers --------------------------------------------------------------------------

    def picture(self) -> tuple[Any, ...]:
        """Everything observable about the game, to compare before and after."""
        game = self.game
        views = tuple(game.view(seat) for seat in [None, *range(game.rules.players)])
        core_state: tuple[Any, ...] | None = None
        if game.phase not in ("trump_choice", "deal"):
            state = game.core_state()
            core_state = (tuple(state.hands), state.pile, state.to_act, state.phase, state.out_order, state.outcome)
            core_state += (dict(state.seen),)
        return (game.state(), views, game.events, game.legal_moves(), core_state)

    def push(self, event: Any) -> None:
        game = self.game
        before = self.picture()
        seat, pile, hand = game.to_act, game.pile, [] if game.to_act is None else game.hand(game.to_act)
        notes = game.push(event)
        self.history.append(before)
        if isinstance(event, Deal):
            self.cards = sorted(CODES, key=CODES.index)
            self.check_sixes_passed(event, notes)
            return
        if isinstance(event, (ChooseTrump, Position)):
            assert notes == []
            return
        self.check_notifications(event, seat, pile, hand, notes)

    def check_sixes_passed(self, deal: Deal, notes: list[Any]) -> None:
        """§2.2: one notification per six of another player's trump, and it moved."""
        trumps = self.game.trumps
        expected = set()
        if self.game.rules.pass_sixes:
            for holder, dealt in enumerate(deal.hands):
                for card in dealt:
                    owner = trumps.index(card[1]) if card[0] == "6" and card[1] in trumps else holder
                    if owner != holder:
                        expected.add((card, holder, owner))
        assert {(note.card, note.from_seat, note.to_seat) for note in notes if isinstance(note, SixPassed)} == expected
        assert all(isinstance(note, SixPassed) for note in notes)
        for card, _, owner in expected:
            assert card in self.game.hand(owner)

    def check_notifications(
        self, move: Any, seat: int | None, pile: list[str], hand: list[str], notes: list[Any]
    ) -> None:
        """What the rules did on their own is announced, exactly once, and matches the new state."""
        game = self.game
        kinds = [type(note) for note in notes]
        assert len(kinds) == len(set(kinds)), notes
        took = [note for note in notes if isinstance(note, Took)]
        if isinstance(move, Take):
            assert took == [Took(seat=move.seat, cards=pile[len(game.pile) :], whole_pile=not game.pile)]
        else:
            assert took == []
        went_out = [note for note in notes if isinstance(note, WentOut)]
        gone = not isinstance(move, Take) and hand == [move.card]
        assert went_out == ([WentOut(seat=move.seat, place=len(game.view(None).out_order))] if gone else [])
        over = [note for note in notes if isinstance(note, GameOver)]
        turn = [note for note in notes if isinstance(note, TurnPassed)]
        if game.outcome is not None:
            outcome = game.outcome
            assert over == [GameOver(result=outcome.result, loser=outcome.loser, reason=outcome.reason)]
            assert turn == []
        else:
            assert over == []
            passed = game.to_act != seat
            assert turn == ([TurnPassed(seat=game.to_act, phase=game.phase)] if passed else [])  # type: ignore[arg-type]

    def try_event(self, attempt: Any) -> None:
        """Push ``attempt`` if the rules allow it; otherwise check it is refused and changes nothing."""
        game = self.game
        legal = game.legal_moves()
        expected = any(same_move(attempt, listed) for listed in legal)
        reason = game.refusal(attempt)
        assert (reason is None) == expected, (attempt, reason, legal)
        if expected:
            self.push(attempt)
            return
        assert reason and "\n" not in reason.message
        event(f"refused: {type(attempt).__name__} in {game.phase}")
        before = self.picture()
        try:
            game.push(attempt)
        except IllegalEvent as error:
            assert error.refusal == reason
        else:
            raise AssertionError(f"{attempt} was accepted although refused: {reason}")
        assert self.picture() == before

    # --- legal play -----------------------------------------------------------------------

    @precondition(lambda self: bool(self.game.legal_moves()))
    @rule(choice=st.integers(0, 10**6))
    def play_a_legal_move(self, choice: int) -> None:
        moves = self.game.legal_moves()
        self.try_event(moves[choice % len(moves)])

    @precondition(lambda self: bool(self.game.legal_moves()))
    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 40))
    def play_random_moves(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            moves = self.game.legal_moves()
            if not moves:
                return
            self.push(rng.choice(moves))

    @precondition(lambda self: bool(self.game.legal_moves()) and len(self.cards or CODES) <= 16)
    @rule(seed=st.integers(0, 2**32))
    def play_a_small_game_to_the_end(self, seed: int) -> None:
        """Positions with few cards end within a few hundred moves, often by repetition."""
        rng = random.Random(seed)
        for _ in range(500):
            moves = self.game.legal_moves()
            if not moves:
                break
            self.push(rng.choice(moves))

    @precondition(lambda self: self.game.phase == "finished")
    @rule(seat=st.integers(0, 3), choice=st.integers(0, 10**6))
    def events_after_the_end(self, seat: int, choice: int) -> None:
        seat %= self.game.rules.players
        card = CODES[choice % 36]
        for attempt in (
            Lead(seat=seat, card=card),
            Beat(seat=seat, card=card),
            Second(seat=seat, card=card),
            Take(seat=seat),
            ChooseTrump(seat=seat, suit=SUITS[choice % 4]),  # type: ignore[arg-type]
        ):
            refused = self.game.refusal(attempt)
            assert refused is not None and refused.code == "game_over"
            self.try_event(attempt)

    @precondition(lambda self: self.game.phase == "deal")
    @rule()
    def deal_from_the_seed(self) -> None:
        self.try_deal(self.game.sample_deal())

    @precondition(lambda self: self.game.phase == "deal")
    @rule(pack=st.permutations(CODES))
    def deal_a_drawn_pack(self, pack: list[str]) -> None:
        size = 36 // self.game.rules.players
        self.try_deal(Deal(hands=[pack[i : i + size] for i in range(0, 36, size)]))

    def try_deal(self, deal: Deal) -> None:
        players = self.game.rules.players
        valid = (
            self.game.phase == "deal"
            and len(deal.hands) == players
            and all(len(hand) == 36 // players for hand in deal.hands)
            and sorted(card for hand in deal.hands for card in hand) == sorted(CODES)
        )
        reason = self.game.refusal(deal)
        assert (reason is None) == valid, (reason, deal)
        if valid:
            self.push(deal)
        else:
            self.try_event(deal)

    @precondition(lambda self: self.at_the_circle_start())
    @rule()
    def walk_the_circle(self) -> None:
        event("walked the circle")
        for move in CIRCLE:
            self.try_event(move)

    def at_the_circle_start(self) -> bool:
        state = self.game.state()
        return (state.phase, state.to_act, state.pile, state.hands) == (
            "respond",
            0,
            CIRCLE_START.pile,
            [["8H", "JH"], ["JS", "6H", "TD"]],
        )

    @precondition(lambda self: self.game.phase in ("lead", "respond"))
    @rule()
    def go_round_a_circle_again(self) -> None:
        """If the game came back to an earlier position, play the same moves again (towards a third time)."""
        now = self.game.state()
        for index in range(len(self.history) - 1, -1, -1):
            if self.history[index][0] == now:
                event("went round a circle again")
                for move in self.game.events[index:]:
                    if self.game.is_over():
                        return
                    self.try_event(move)
                return

    # --- illegal events -------------------------------------------------------------------

    @rule(event=ANY_EVENT)
    def any_event(self, event: Any) -> None:
        self.try_event(event)

    @precondition(lambda self: bool(self.game.legal_moves()))
    @rule(choice=st.integers(0, 10**6), shift=st.integers(1, 3))
    def a_legal_move_out_of_turn(self, choice: int, shift: int) -> None:
        moves: list[Any] = self.game.legal_moves()
        move = moves[choice % len(moves)]
        self.try_event(move.model_copy(update={"seat": (move.seat + shift) % self.game.rules.players}))

    @precondition(lambda self: self.game.phase in ("lead", "respond", "second"))
    @rule(kind=st.sampled_from(sorted(CARD_EVENTS)), choice=st.integers(0, 10**6), own=st.booleans())
    def a_card_of_the_wrong_kind_or_from_elsewhere(self, kind: str, choice: int, own: bool) -> None:
        game = self.game
        seat = game.to_act
        assert seat is not None
        cards = game.hand(seat) if own else [c for c in CODES if c not in game.hand(seat)]
        self.try_event(CARD_EVENTS[kind](seat=seat, card=cards[choice % len(cards)]))

    @precondition(lambda self: self.game.phase in ("lead", "respond", "second"))
    @rule(count=st.none() | st.integers(1, 36))
    def a_take(self, count: int | None) -> None:
        seat = self.game.to_act
        assert seat is not None
        self.try_event(Take(seat=seat, count=count))

    @precondition(lambda self: self.game.phase == "respond")
    @rule()
    def every_card_of_the_hand_as_a_beat(self) -> None:
        seat = self.game.to_act
        assert seat is not None
        for card in self.game.hand(seat):
            event = Beat(seat=seat, card=card)
            if self.game.refusal(event) is not None:
                self.try_event(event)

    @rule(pack=st.permutations(CODES), cut=st.integers(1, 35), players=st.integers(1, 5), duplicate=st.booleans())
    def a_bad_deal(self, pack: list[str], cut: int, players: int, duplicate: bool) -> None:
        cards = list(pack)
        if duplicate:
            cards[0] = cards[1]
        sizes = [cut] + [(36 - cut) // max(1, players - 1)] * (players - 1)
        hands, start = [], 0
        for size in sizes:
            hands.append(cards[start : start + size])
            start += size
        self.try_deal(Deal(hands=hands))

    @precondition(lambda self: bool(self.game.events))
    @rule(position=positions())
    def a_position_after_the_start(self, position: tuple[Position, bool]) -> None:
        assert self.game.refusal(position[0]) is not None
        self.try_event(position[0])

    # --- taking back ----------------------------------------------------------------------

    @precondition(lambda self: len(self.history) > 0 and len(self.game.events) > 0)
    @rule(count=st.integers(1, 5), again=st.booleans())
    def pop(self, count: int, again: bool) -> None:
        popped = []
        for _ in range(min(count, len(self.game.events))):
            before = self.history.pop()
            popped.append(self.game.pop())
            assert self.picture() == before
        if again:
            for event in reversed(popped):
                self.push(event)
        elif not self.game.events:
            self.cards = None

    # --- invariants -----------------------------------------------------------------------

    @invariant()
    def the_cards_are_all_there_exactly_once(self) -> None:
        if self.game.phase in ("trump_choice", "deal"):
            assert all(self.game.hand(seat) == [] for seat in range(self.game.rules.players))
            assert self.game.pile == []
            return
        assert card_set(self.game) == self.cards
        total = sum(len(self.game.hand(seat)) for seat in range(self.game.rules.players)) + len(self.game.pile)
        assert total == len(self.cards or [])

    @invariant()
    def exactly_one_seat_acts_except_at_the_deal_and_the_end(self) -> None:
        game = self.game
        moves: list[Any] = game.legal_moves()
        event(f"phase: {game.phase}")
        if game.outcome is not None:
            event(f"outcome: {game.outcome.reason or game.outcome.result}")
        if game.phase in ("deal", "finished"):
            assert game.to_act is None
            assert moves == []
            assert (game.outcome is not None) == (game.phase == "finished")
            return
        assert game.to_act is not None and 0 <= game.to_act < game.rules.players
        assert moves and {move.seat for move in moves} == {game.to_act}
        assert game.outcome is None
        if game.phase != "trump_choice":
            assert game.hand(game.to_act), "the seat to act holds cards"
        for seat in range(game.rules.players):
            assert (game.view(seat).legal_moves != []) == (seat == game.to_act)

    @invariant()
    def everything_round_trips_through_json(self) -> None:
        game = self.game
        for recorded in game.events[-3:]:
            assert parse_event(event_json(recorded)) == recorded
        state = game.state()
        assert GameState.model_validate_json(state.model_dump_json()) == state
        json.loads(state.model_dump_json())
        for seat in [None, *range(game.rules.players)]:
            view = game.view(seat)
            assert View.model_validate_json(view.model_dump_json()) == view
        snapshot = game.snapshot()
        restored = Game.from_snapshot(Snapshot.model_validate_json(snapshot.model_dump_json()))
        assert restored.state() == state
        assert restored.events == game.events

    @invariant()
    def replaying_the_events_rebuilds_the_same_game(self) -> None:
        game = self.game
        replayed = read_log(log_lines(game))
        again = Game.from_events(Start.of(game.rules), game.events, seed=game.seed)
        for other in (replayed, again):
            assert other.state() == game.state()
            assert [other.view(seat) for seat in range(game.rules.players)] == [
                game.view(seat) for seat in range(game.rules.players)
            ]
            if game.phase not in ("trump_choice", "deal"):
                # the repetition memory too: what undo took back is forgotten
                assert other.core_state().seen == game.core_state().seen

    @invariant()
    def a_view_never_shows_another_seats_hidden_cards(self) -> None:
        game = self.game
        players = game.rules.players
        spectator = game.view(None)
        public = set(spectator.pile) | set(spectator.out_of_play) | {c for known in spectator.known for c in known}
        assert spectator.hand == [] and spectator.legal_moves == []
        for owner in range(players):
            assert set(spectator.known[owner]) <= set(game.hand(owner)), "known cards are really held"
        for seat in [None, *range(players)]:
            view = game.view(seat)
            assert view.hand_counts == [len(game.hand(s)) for s in range(players)]
            assert view.hand == ([] if seat is None else game.hand(seat))
            text = view.model_dump_json()
            own = set(view.hand)
            for other in range(players):
                if other == seat:
                    continue
                for card in set(game.hand(other)) - public - own:
                    assert f'"{card}"' not in text, f"seat {seat} sees {card} of seat {other}"


class DealtGames(GameMachine):
    """Games from the trump choice: 2-4 players, any dealer, every rule option, any seed."""

    @initialize(rules=rule_sets(), seed=st.integers(0, 2**32))
    def start(self, rules: RuleSet, seed: int) -> None:
        self.game = Game(rules, seed=seed)


class PositionGames(GameMachine):
    """Games from small random positions: they often end, by a loss or by the tie check."""

    @initialize(setup=positions())
    def start(self, setup: tuple[Position, bool]) -> None:
        self.start_at(*setup)


class CircleGames(GameMachine):
    """Games from a position that can go round in a circle: two laps make the third occurrence."""

    @initialize(laps=st.integers(0, 2))
    def start(self, laps: int) -> None:
        self.start_at(CIRCLE_START, False)
        for _ in range(laps):
            self.walk_the_circle()


def machine_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=25,
        derandomize=True,  # the same examples on every run, so CI is reproducible
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


DealtGames.TestCase.settings = machine_settings(25)
PositionGames.TestCase.settings = machine_settings(35)
CircleGames.TestCase.settings = machine_settings(10)
test_dealt_games = DealtGames.TestCase
test_position_games = PositionGames.TestCase
test_circle_games = CircleGames.TestCase


def test_core_and_the_game_list_the_same_moves_at_the_start() -> None:
    """A sanity check of the harness: the first lead lists every card of the first seat."""
    game = Game(RuleSet(players=3, dealer=1), seed=3)
    while game.phase == "trump_choice":
        game.push(game.legal_moves()[0])
    game.push(game.sample_deal())
    listed: list[Any] = game.legal_moves()
    assert [event.card for event in listed] == game.hand(2)
    assert len(core.legal_moves(game.core_state())) == len(game.hand(2))
