"""The phases of a game as a ``transitions`` state machine, declared once as a table.

The machine knows the order of phases and names every step the rules take; it
holds no game data. Each game is a :class:`GameModel`, a plain object that the one
shared :data:`MACHINE` drives: the machine's ``prepare`` callback applies the event
through :mod:`rules.core`, and the transition conditions read the result to choose
the next phase. Two transient states, ``taking`` and ``tie_check``, make the take
(with the re-lead after the whole pile was taken) and the end-of-game tie check
visible in the chart; the machine passes through them within the same event.

Legality is decided before an event reaches the machine (see :mod:`rules.game`),
so an event the machine cannot take is a bug, never a silent ``False``.
"""

from __future__ import annotations

from collections.abc import Callable

from transitions import EventData, Machine

from rules import core
from rules.cards import CARDS, FULL_PACK_MASK, Card, mask_of
from rules.events import (
    ChooseTrump,
    Deal,
    GameOver,
    Notification,
    Position,
    SixPassed,
    Took,
    TurnPassed,
    WentOut,
)
from rules.options import RuleSet
from rules.position import seen_keys

STATES = ["trump_choice", "deal", "lead", "respond", "second", "taking", "tie_check", "finished"]

# One row per transition: trigger, source, destination, condition (or None). For the
# same trigger and source, rows are tried in order and the first whose condition holds
# is taken; every group ends with an unconditional row, so no trigger can fail.
TRANSITIONS: list[tuple[str, str, str, str | None]] = [
    ("position", "trump_choice", "lead", "position_leads"),
    ("position", "trump_choice", "respond", "position_responds"),
    ("position", "trump_choice", "second", None),
    ("choose_trump", "trump_choice", "deal", "all_trumps_chosen"),
    ("choose_trump", "trump_choice", "trump_choice", None),
    ("deal", "deal", "lead", None),
    ("lead", "lead", "tie_check", "one_player_left"),
    ("lead", "lead", "finished", "position_repeated_third_time"),
    ("lead", "lead", "respond", None),
    ("beat", "respond", "second", "beater_holds_cards"),
    ("beat", "respond", "tie_check", "one_player_left"),
    ("beat", "respond", "finished", "position_repeated_third_time"),
    ("beat", "respond", "respond", None),
    ("second", "second", "tie_check", "one_player_left"),
    ("second", "second", "finished", "position_repeated_third_time"),
    ("second", "second", "respond", None),
    ("take", "respond", "taking", None),
    ("after_take", "taking", "finished", "position_repeated_third_time"),
    ("after_take", "taking", "lead", "whole_pile_taken"),
    ("after_take", "taking", "respond", None),
    ("tie_check", "tie_check", "finished", None),
]

INPUT_TRIGGERS = frozenset({"position", "choose_trump", "deal", "lead", "beat", "second", "take"})


class GameModel:
    """One game's data, driven by :data:`MACHINE`; every change goes through :mod:`rules.core`."""

    state: str  # the machine's current state, kept by transitions
    trigger: Callable[..., bool]  # added by transitions: fires a trigger by name

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.trumps: list[int | None] = [None] * rules.players
        self.core: core.State | None = None
        self.known = [0] * rules.players
        self.out_of_play = 0
        self.notifications: list[Notification] = []
        self.last_undo: core.Undo | None = None  # how to take back the last move in play

    # --- prepare: apply the event -------------------------------------------------------------

    def apply_event(self, event_data: EventData) -> None:
        if event_data.event is None or event_data.event.name not in INPUT_TRIGGERS:
            return
        event, move = list(event_data.args)
        self.notifications = []
        if isinstance(event, ChooseTrump):
            self.trumps[event.seat] = "SHDC".index(event.suit)
        elif isinstance(event, Deal):
            self._deal(event)
        elif isinstance(event, Position):
            self._start_from(event)
        else:
            self._play(move)

    def _deal(self, deal: Deal) -> None:
        hands = [mask_of(Card.parse(code) for code in hand) for hand in deal.hands]
        trumps = [suit for suit in self.trumps if suit is not None]
        if self.rules.pass_sixes:
            for card, giver, receiver in core.passed_sixes(hands, trumps):
                hands[giver] ^= 1 << card
                hands[receiver] |= 1 << card
                self.known[receiver] |= 1 << card
                self.notifications.append(SixPassed(card=card.code, from_seat=giver, to_seat=receiver))
        self.core = core.State.from_position(
            trumps, [list(_cards(hand)) for hand in hands], (), self.rules.first_seat, core.LEAD, self.rules.must_beat
        )

    def _start_from(self, position: Position) -> None:
        self.trumps = ["SHDC".index(suit) for suit in position.trumps]
        hands = [[Card.parse(code) for code in hand] for hand in position.hands]
        pile = [Card.parse(code) for code in position.pile]
        phase = {"lead": core.LEAD, "respond": core.RESPOND, "second": core.SECOND}[position.phase]
        gone = (
            [seat for seat, hand in enumerate(hands) if not hand] if position.out_order is None else position.out_order
        )
        self.core = core.State.from_position(
            self.trumps_in_play, hands, pile, position.to_act, phase, self.rules.must_beat, gone, seen_keys(position)
        )
        self.out_of_play = FULL_PACK_MASK & ~(mask_of(pile) | mask_of(c for hand in hands for c in hand))

    def _play(self, move: int) -> None:
        state = self.play_state
        seat, pile, out_order = state.to_act, state.pile, state.out_order
        self.last_undo = core.apply(state, move)
        notes = self.notifications
        if move == core.TAKE:
            taken = pile[len(state.pile) :]
            self.known[seat] |= mask_of(taken)
            notes.append(Took(seat=seat, cards=[CARDS[c].code for c in taken], whole_pile=not state.pile))
        else:
            self.known[seat] &= ~(1 << move)
            if len(state.out_order) > len(out_order):
                notes.append(WentOut(seat=seat, place=len(state.out_order)))
        if state.outcome is not None:
            result, detail = state.outcome
            if result == "loss":
                notes.append(GameOver(result="loss", loser=int(detail)))
            else:
                notes.append(GameOver(result="draw", reason="repetition" if detail == "repetition" else "tie_check"))
        elif state.to_act != seat:
            notes.append(TurnPassed(seat=state.to_act, phase="lead" if state.phase == core.LEAD else "respond"))

    @property
    def play_state(self) -> core.State:
        if self.core is None:
            raise RuntimeError("the cards have not been dealt")
        return self.core

    @property
    def trumps_in_play(self) -> list[int]:
        return [suit for suit in self.trumps if suit is not None]

    # --- conditions -------------------------------------------------------------------------

    def position_leads(self, event_data: EventData) -> bool:
        return self.play_state.phase == core.LEAD

    def position_responds(self, event_data: EventData) -> bool:
        return self.play_state.phase == core.RESPOND

    def all_trumps_chosen(self, event_data: EventData) -> bool:
        return None not in self.trumps

    def one_player_left(self, event_data: EventData) -> bool:
        outcome = self.play_state.outcome
        return outcome is not None and outcome[1] != "repetition"

    def position_repeated_third_time(self, event_data: EventData) -> bool:
        return self.play_state.outcome == ("draw", "repetition")

    def beater_holds_cards(self, event_data: EventData) -> bool:
        return self.play_state.phase == core.SECOND

    def whole_pile_taken(self, event_data: EventData) -> bool:
        return not self.play_state.pile

    # --- transient states ---------------------------------------------------------------------

    def on_enter_taking(self, event_data: EventData) -> None:
        self.trigger("after_take")

    def on_enter_tie_check(self, event_data: EventData) -> None:
        self.trigger("tie_check")


def _cards(mask: int) -> list[Card]:
    return [CARDS[c] for c in core.moves_of_mask(mask)]


def build_machine() -> Machine:
    """The machine of :data:`STATES` and :data:`TRANSITIONS` (with no model attached)."""
    return Machine(
        model=None,
        states=STATES,
        transitions=[
            {"trigger": trigger, "source": source, "dest": dest, "conditions": [condition] if condition else []}
            for trigger, source, dest, condition in TRANSITIONS
        ],
        initial="trump_choice",
        auto_transitions=False,
        send_event=True,
        prepare_event="apply_event",
    )


MACHINE = build_machine()
"""The one machine every :class:`GameModel` is attached to."""
