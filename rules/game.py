"""The game API: start, list the legal moves, push and pop events, read the outcome.

In the spirit of python-chess: :meth:`Game.legal_moves` is the single source of truth
(an event is legal exactly when it is in that list), :meth:`Game.push` applies an
event or refuses it with the rule that forbids it, leaving the game untouched, and
:meth:`Game.pop` takes events back.

>>> game = Game(RuleSet(players=2), seed=7)
>>> game.phase, game.to_act
('trump_choice', 1)
>>> _ = game.push(ChooseTrump(seat=1, suit="H"))
>>> _ = game.push(ChooseTrump(seat=0, suit="S"))
>>> notes = game.push(game.sample_deal())
>>> game.phase, game.to_act, len(game.legal_moves()) == len(game.view(1).hand)
('lead', 1, True)
>>> game.push(Beat(seat=1, card=game.view(1).hand[0]))
Traceback (most recent call last):
...
rules.game.IllegalEvent: seat 1 cannot beat: the pile is empty, seat 1 must lead
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from rules import core
from rules.cards import CODES, SUIT_CHARS, codes_of_mask
from rules.events import (
    Beat,
    ChooseTrump,
    Deal,
    Event,
    Lead,
    Move,
    Notification,
    Position,
    Second,
    Start,
    SuitCode,
    Take,
)
from rules.machine import MACHINE, GameModel
from rules.options import RuleSet
from rules.position import resume_error
from rules.state import GameState, Outcome, PhaseName, View

_CARD_INDEX = {code: card for card, code in enumerate(CODES)}
_SUIT_CODES: tuple[SuitCode, ...] = ("S", "H", "D", "C")

# Every play event exists once per seat and card; legal_moves() hands out these shared,
# immutable objects instead of building new ones each time.
_PLAY_EVENTS: dict[str, list[list[Move]]] = {
    kind: [[model(seat=seat, card=code) for code in CODES] for seat in range(4)]
    for kind, model in (("lead", Lead), ("beat", Beat), ("second", Second))
}
# The legal take says how many cards it takes (log format §L3.4 lets a writer add "count").
_TAKE_EVENTS = [{count: Take(seat=seat, count=count) for count in range(1, 37)} for seat in range(4)]


class IllegalEvent(ValueError):
    """An event the rules refuse; the message names the rule. The game is left unchanged."""


class Snapshot(BaseModel):
    """Everything needed to restore a game exactly: its header, its events, its deal seed."""

    model_config = ConfigDict(frozen=True)

    header: Start
    events: list[Event]
    seed: int | None = None


_EVENTS_ADAPTER: TypeAdapter[list[Any]] = TypeAdapter(list[Event])

# An entry of the undo stack: the machine state before the event, the public knowledge
# before it, and either core's undo token (moves in play) or the setup data it replaced.
_Setup = tuple[list[int | None], "core.State | None", int]
_Saved = tuple[str, list[int], "core.Undo | None", "_Setup | None"]


class Game:
    """One game of Svoi Kozyri, from the trump choice (or a position) to the outcome."""

    def __init__(self, rules: RuleSet | None = None, *, seed: int | None = None) -> None:
        self.rules = rules if rules is not None else RuleSet()
        self.seed = seed
        self._model = GameModel(self.rules)
        MACHINE.add_model(self._model)
        weakref.finalize(self, MACHINE.remove_model, self._model)
        self._events: list[Event] = []
        self._saved: list[_Saved] = []

    @classmethod
    def from_position(cls, position: Position, rules: RuleSet | None = None) -> Game:
        """A game that starts at ``position`` (the number of players is that of the position)."""
        rules = rules if rules is not None else RuleSet(players=max(2, min(4, len(position.hands))))
        game = cls(rules)
        game.push(position)
        return game

    @classmethod
    def from_events(cls, header: Start, events: Iterable[Event], seed: int | None = None) -> Game:
        """Replay ``events`` after ``header``; raises :class:`IllegalEvent` at the first refused one."""
        game = cls(header.rule_set(), seed=seed)
        for event in events:
            game.push(event)
        return game

    # --- reading the game -------------------------------------------------------------------

    @property
    def header(self) -> Start:
        return Start.of(self.rules)

    @property
    def events(self) -> list[Event]:
        """The events pushed so far, in order (the log after its header)."""
        return list(self._events)

    @property
    def phase(self) -> PhaseName:
        """``trump_choice``, ``deal``, ``lead``, ``respond``, ``second`` or ``finished``."""
        state = self._model.core
        if state is None:
            return "trump_choice" if None in self._model.trumps else "deal"
        return core.PHASE_NAMES[state.phase]  # type: ignore[return-value]

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited: ``None`` while the deal is awaited and at the end."""
        state = self._model.core
        if state is None:
            chosen = sum(1 for suit in self._model.trumps if suit is not None)
            if chosen == self.rules.players:
                return None
            return core.trump_chooser(self.rules.first_seat, self.rules.players, chosen)
        return None if state.phase == core.FINISHED else state.to_act

    @property
    def trumps(self) -> list[SuitCode | None]:
        return [None if suit is None else _SUIT_CODES[suit] for suit in self._model.trumps]

    @property
    def pile(self) -> list[str]:
        state = self._model.core
        return [] if state is None else [CODES[c] for c in state.pile]

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat``, sorted by suit S H D C and rank."""
        state = self._model.core
        return [] if state is None else codes_of_mask(state.hands[seat])

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        state = self._model.core
        if state is None or state.outcome is None:
            return None
        result, detail = state.outcome
        order = list(state.out_order)
        if result == "loss":
            return Outcome(result="loss", loser=int(detail), out_order=order)
        return Outcome(result="draw", reason="repetition" if detail == "repetition" else "tie_check", out_order=order)

    def is_over(self) -> bool:
        return self.phase == "finished"

    def core_state(self) -> core.State:
        """A copy of the lean state, for search (see :mod:`rules.core`)."""
        return self._model.play_state.copy()

    def state(self) -> GameState:
        """The whole state, as ``trumps replay --json`` prints it."""
        return GameState(
            phase=self.phase,
            to_act=self.to_act,
            trumps=self.trumps,
            hands=[self.hand(seat) for seat in range(self.rules.players)],
            pile=self.pile,
            outcome=self.outcome,
        )

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator): its own hand, never another's."""
        state = self._model.core
        counts = [0] * self.rules.players if state is None else [h.bit_count() for h in state.hands]
        return View(
            seat=seat,
            players=self.rules.players,
            rules=self.header.rules,
            phase=self.phase,
            to_act=self.to_act,
            trumps=self.trumps,
            hand=[] if seat is None else self.hand(seat),
            hand_counts=counts,
            known=[codes_of_mask(mask) for mask in self._model.known],
            pile=self.pile,
            out_of_play=codes_of_mask(self._model.out_of_play),
            out_order=[] if state is None else list(state.out_order),
            legal_moves=self.legal_moves() if seat is not None and seat == self.to_act else [],
            outcome=self.outcome,
        )

    # --- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list[Event]:
        """Every legal event of the seat to act; empty while the deal is awaited and at the end.

        Cards come in pack order, the take last, with the number of cards it takes as ``count``.
        """
        state = self._model.core
        if state is None:
            seat = self.to_act
            if seat is None:
                return []
            taken = set(self._model.trumps)
            return [ChooseTrump(seat=seat, suit=_SUIT_CODES[s]) for s in range(4) if s not in taken]
        if state.phase == core.FINISHED:
            return []
        seat = state.to_act
        cards = _PLAY_EVENTS[core.move_kind(state.phase, 0)][seat]
        mask = core.legal_mask(state)
        moves: list[Event] = [cards[card] for card in core.moves_of_mask(mask & ~core.TAKE_BIT)]
        if mask & core.TAKE_BIT:
            pile = state.pile
            moves.append(_TAKE_EVENTS[seat][core.take_count(pile[-1], len(pile), state.trumps[seat])])
        return moves

    def is_legal(self, event: Event) -> bool:
        return self.refusal(event) is None

    def refusal(self, event: Event) -> str | None:
        """Why the rules refuse ``event`` now, or ``None`` when it is legal."""
        if self.phase == "finished":
            return "the game is over"
        seat = getattr(event, "seat", None)
        if seat is not None and seat >= self.rules.players:
            return f"seat {seat} is not a seat of this {self.rules.players}-player game"
        if isinstance(event, Position):
            return self._position_refusal(event)
        if isinstance(event, ChooseTrump):
            return self._trump_refusal(event)
        if isinstance(event, Deal):
            return self._deal_refusal(event)
        return self._move_refusal(event)

    def push(self, event: Event) -> list[Notification]:
        """Apply ``event``; returns what the rules did on their own. Raises :class:`IllegalEvent`."""
        reason = self.refusal(event)
        if reason is not None:
            raise IllegalEvent(reason)
        model = self._model
        move = _move_of(event)
        # trump choice, deal and position replace setup data; moves in play are undone by core
        setup = (model.trumps.copy(), model.core, model.out_of_play) if move is None else None
        state_name, known = model.state, model.known.copy()
        model.last_undo = None
        try:
            model.trigger(event.type, event, move)
        except BaseException:
            self._restore((state_name, known, model.last_undo, setup))
            raise
        saved: _Saved = (state_name, known, model.last_undo, setup)
        self._saved.append(saved)
        self._events.append(event)
        if model.state != self.phase:
            raise AssertionError(f"machine in {model.state} but the rules in {self.phase}")
        return list(model.notifications)

    def pop(self) -> Event:
        """Take back the last event and return it."""
        if not self._events:
            raise IndexError("no event to take back")
        self._restore(self._saved.pop())
        return self._events.pop()

    def sample_deal(self) -> Deal:
        """The deal of this game's seed (a fresh random deal if it has none)."""
        rng: random.Random = random.Random(self.seed) if self.seed is not None else random.SystemRandom()
        hands = core.deal_pack(self.rules.players, self.rules.dealer, rng)
        return Deal(hands=[[card.code for card in hand] for hand in hands])

    # --- snapshots --------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(header=self.header, events=self.events, seed=self.seed)

    @classmethod
    def from_snapshot(cls, snapshot: Snapshot) -> Game:
        return cls.from_events(snapshot.header, snapshot.events, seed=snapshot.seed)

    # --- internals --------------------------------------------------------------------------

    def _restore(self, saved: _Saved) -> None:
        model = self._model
        name, known, token, setup = saved
        model.state = name
        model.known = known
        if setup is not None:
            model.trumps, model.core, model.out_of_play = setup
        elif token is not None:
            core.undo(model.play_state, token)

    def _position_refusal(self, position: Position) -> str | None:
        if self._events:
            return "a position can only start a game, right after the header"
        players = self.rules.players
        if len(position.hands) != players or len(position.trumps) != players:
            return (
                f"the position has {len(position.trumps)} trumps and {len(position.hands)} hands, "
                f"but the game has {players} players"
            )
        if position.to_act >= players:
            return f"to_act {position.to_act} is not a seat of this {players}-player game"
        return core.position_error(
            [SUIT_CHARS.index(s) for s in position.trumps],
            [[_CARD_INDEX[c] for c in hand] for hand in position.hands],
            [_CARD_INDEX[c] for c in position.pile],
            position.to_act,
            {"lead": core.LEAD, "respond": core.RESPOND, "second": core.SECOND}[position.phase],
        ) or resume_error(position)

    def _trump_refusal(self, event: ChooseTrump) -> str | None:
        phase = self.phase
        if phase != "trump_choice":
            return f"seat {event.seat} cannot choose a trump: every player has chosen"
        chooser = self.to_act
        if event.seat != chooser:
            return f"seat {event.seat} cannot choose a trump: it is seat {chooser}'s turn to choose"
        suit = SUIT_CHARS.index(event.suit)
        if suit in self._model.trumps:
            owner = self._model.trumps.index(suit)
            return f"seat {event.seat} cannot choose {event.suit}: it is already seat {owner}'s trump"
        return None

    def _deal_refusal(self, deal: Deal) -> str | None:
        phase = self.phase
        if phase == "trump_choice":
            return "the deal comes after every player has chosen a trump"
        if phase != "deal":
            return "the cards have already been dealt"
        return core.deal_error([[_CARD_INDEX[c] for c in hand] for hand in deal.hands], self.rules.players)

    def _move_refusal(self, event: Event) -> str | None:
        assert isinstance(event, (Lead, Beat, Second, Take))
        state = self._model.core
        kind = event.type
        if state is None:
            verb = core.VERBS[kind]
            if self.phase == "trump_choice":
                return f"seat {event.seat} cannot {verb}: the players are still choosing trumps"
            return f"seat {event.seat} cannot {verb}: the cards have not been dealt"
        move = _move_of(event)
        assert move is not None
        if (
            event.seat == state.to_act
            and kind == core.move_kind(state.phase, move)
            and core.legal_mask(state) >> move & 1
        ):
            if isinstance(event, Take) and event.count is not None:
                count = core.take_count(state.pile[-1], len(state.pile), state.trumps[event.seat])
                if count != event.count:
                    return f"seat {event.seat} cannot take {event.count} cards: the rules give {count}"
            return None
        card = None if move == core.TAKE else move
        return core.refusal(state, event.seat, kind, card)


def _move_of(event: Event) -> int | None:
    """The core move of a play event; ``None`` for the trump choice, the deal and a position."""
    if isinstance(event, Take):
        return core.TAKE
    if isinstance(event, (Lead, Beat, Second)):
        return _CARD_INDEX[event.card]
    return None


__all__ = ["Game", "IllegalEvent", "Snapshot"]
