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
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field

from rules import convert, core, validation
from rules.cards import CODES, FULL_PACK_MASK, codes_of_mask, mask_of
from rules.events import (
    AgreeDraw,
    Beat,
    ChooseTrump,
    Deal,
    Event,
    Lead,
    Notification,
    Position,
    Resign,
    Second,
    Start,
    SuitCode,
    Take,
)
from rules.machine import MACHINE, TableMachine
from rules.options import RuleSet
from rules.position import position_of, resume_error
from rules.refusal import Refusal, counted, refuse
from rules.state import GameState, Outcome, PhaseName, View


class IllegalEvent(ValueError):
    """An event the rules refuse; the game is left unchanged.

    The message is the English sentence; :attr:`refusal` holds the same as data (a stable
    code, the rule clause, the seat and the cards) for interfaces to render their own way.
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class Snapshot(BaseModel):
    """Everything needed to restore a game exactly: its header, its events, its deal seed.

    Strict, as the log's events are: read back from JSON, a seed written ``"7"``, ``7.0`` or ``true`` is refused,
    not taken for 7 or 1; and a seed is never negative (deals §D1.1: ``random.Random`` would deal -7 as 7).
    """

    model_config = ConfigDict(frozen=True, strict=True)

    header: Start
    events: list[Event]
    seed: int | None = Field(default=None, ge=0)


# An entry of the undo stack: the public knowledge before the event (cards known per seat, cards
# out of play), and either the step's undo token (a move in play) or a copy of the whole state
# (the setup events, which are few).
_Saved = tuple[list[int], int, "core.Undo | core.State"]


class Game:
    """One game of Svoi Kozyri, from the trump choice (or a position) to the outcome.

    ``machine`` is the state machine of its rules: the real rules' :data:`rules.machine.MACHINE`,
    or one built from a variant table by :func:`rules.machine.build_machine` (for tests). The
    game plays through that table's compiled step (:attr:`rules.machine.TableMachine.compiled`),
    the one search uses: :meth:`push` checks an event, then takes it as search would.
    """

    def __init__(
        self, rules: RuleSet | None = None, *, seed: int | None = None, machine: TableMachine = MACHINE
    ) -> None:
        if seed is not None and seed < 0:  # random.Random would deal it as its absolute value: another seed's deal
            raise ValueError(f"seed {seed} is negative: a seed is a non-negative integer (deals §D1.1)")
        self.rules = rules if rules is not None else RuleSet()
        self.seed = seed
        self.machine = machine
        self._table = machine.compiled
        rules = self.rules
        self._state = core.State.setup(rules.players, rules.first_seat, rules.must_beat, rules.pass_sixes)
        self._known = [0] * rules.players  # per seat, the cards everybody knows it holds
        self._out_of_play = 0  # cards absent from a game started from a position
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

    def peek(self) -> Event:
        """The last event pushed (the one :meth:`pop` would take back); :class:`IndexError` if none."""
        if not self._events:
            raise IndexError("no event pushed yet")
        return self._events[-1]

    def copy(self) -> Game:
        """An independent game in the same state, whose events can be popped as this one's; nothing is replayed."""
        other = Game.__new__(Game)
        other.rules, other.seed, other.machine, other._table = self.rules, self.seed, self.machine, self._table
        other._state = self._state.copy()
        other._known = self._known.copy()
        other._out_of_play = self._out_of_play
        other._events = self._events.copy()
        # A saved state is only ever copied from, so both games may share it; the lists of known cards
        # become a game's own again when it pops, so each game gets its own.
        other._saved = [(known.copy(), out_of_play, before) for known, out_of_play, before in self._saved]
        return other

    def position(self) -> Position:
        """The ``position`` line that resumes this game exactly (:func:`rules.position.position_of`)."""
        return position_of(self)

    @property
    def phase(self) -> PhaseName:
        """``trump_choice``, ``deal``, ``lead``, ``respond``, ``second`` or ``finished``."""
        return convert.phase_name(self._state.phase)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited: ``None`` while the deal is awaited and at the end."""
        state = self._state
        return None if state.phase in (core.DEAL, core.FINISHED) else state.to_act

    @property
    def trumps(self) -> list[SuitCode | None]:
        return convert.trump_letters(self._state.trumps)

    @property
    def pile(self) -> list[str]:
        return [CODES[c] for c in self._state.pile]

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat``, sorted by suit S H D C and rank."""
        return codes_of_mask(self._state.hands[seat])

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on: the very object the engine's core made."""
        return self._state.outcome

    def is_over(self) -> bool:
        return self._state.phase == core.FINISHED

    def core_state(self) -> core.State:
        """A copy of the lean state, for search (see :mod:`rules.core`)."""
        state = self._state
        if state.phase in (core.TRUMP_CHOICE, core.DEAL):
            raise RuntimeError("the cards have not been dealt")
        return state.copy()

    def position_counts(self) -> Mapping[core.PositionKey, int]:
        """How often each position of the game has come up so far (rules §3.3.2), as :attr:`core.State.seen` keys
        them: what a search needs to know of the game's history (:func:`rules.players.base.choose_move`). A read-only
        view that follows the game, made at every move of a bot, so no copy: ``dict()`` of it keeps it as it is."""
        return MappingProxyType(self._state.seen)

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
        state = self._state
        return View(
            seat=seat,
            players=self.rules.players,
            rules=self.header.rules,
            phase=self.phase,
            to_act=self.to_act,
            trumps=self.trumps,
            hand=[] if seat is None else self.hand(seat),
            hand_counts=[hand.bit_count() for hand in state.hands],
            known=[codes_of_mask(mask) for mask in self._known],
            pile=self.pile,
            out_of_play=codes_of_mask(self._out_of_play),
            out_order=list(state.out_order),
            legal_moves=self.legal_moves() if seat is not None and seat == self.to_act else [],
            outcome=self.outcome,
        )

    # --- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list[Event]:
        """Every legal event of the seat to act; empty while the deal is awaited and at the end.

        Cards come in pack order, the take last, with the number of cards it takes as ``count``.
        """
        state = self._state
        if state.phase == core.TRUMP_CHOICE:
            return [ChooseTrump(seat=state.to_act, suit=convert.suit_letter(suit)) for suit in self._open_suits()]
        return convert.move_events(state, self._table.legal_mask(state), self._table)

    def _open_suits(self) -> list[int]:
        """The suits the seat to act may choose as its trump (§2.1): those nobody has chosen."""
        state = self._state
        return [suit for suit in range(len(convert.SUIT_LETTERS)) if suit not in state.trumps]

    def is_legal(self, event: Event) -> bool:
        return self.refusal(event) is None

    def refusal(self, event: Event) -> Refusal | None:
        """Why the rules refuse ``event`` now, as data (its ``message`` is the English sentence), or ``None``."""
        refused = self._game_or_seat_refusal(getattr(event, "seat", None))
        if refused is not None:
            return refused
        if isinstance(event, Position):
            return self._position_refusal(event)
        if isinstance(event, ChooseTrump):
            return self._trump_refusal(event)
        if isinstance(event, Deal):
            return self._deal_refusal(event)
        if isinstance(event, Resign):
            return validation.ending_error(self._state, "resign", event.seat, self._table)
        if isinstance(event, AgreeDraw):
            return validation.ending_error(self._state, "agree_draw", None, self._table)
        return self._move_refusal(event)

    def draw_refusal(self, seat: int) -> Refusal | None:
        """Why ``seat`` may not agree to a draw now (rules §3.4.2), or ``None``: it must still hold cards, in play.

        The agreement itself is no event; :class:`~rules.events.AgreeDraw` comes once every holder agreed.
        """
        return self._game_or_seat_refusal(seat) or validation.ending_error(self._state, "agree_draw", seat, self._table)

    def _game_or_seat_refusal(self, seat: int | None) -> Refusal | None:
        """Refused whatever the event: the game is over (§3), or ``seat`` is not one of this game (§1)."""
        if self.phase == "finished":
            return refuse("game_over", "3", "the game is over", seat=seat, seats=())
        if seat is not None and not 0 <= seat < self.rules.players:
            return refuse(
                "not_a_seat", "1", f"{{s0}} is not a seat of this {self.rules.players}-player game", seat=seat
            )
        return None

    def holders(self) -> list[int]:
        """The seats still holding cards (after the deal: those still in the game)."""
        return [seat for seat, hand in enumerate(self._state.hands) if hand]

    def push(self, event: Event) -> list[Notification]:
        """Apply ``event``; returns what the rules did on their own.

        Raises :class:`IllegalEvent` with the rule that refuses it; a refused or failing
        event leaves the game exactly as it was.
        """
        refused = self.refusal(event)
        if refused is not None:
            raise IllegalEvent(refused)
        state = self._state
        if event.type not in self._table.triggers[state.phase]:
            raise IllegalEvent(validation.no_transition(event.type, state.phase, getattr(event, "seat", None)))
        known = self._known.copy()
        out_of_play = self._out_of_play
        move = convert.move_of(event)
        before: core.Undo | core.State
        news: list[core.News] = []
        state.news = news
        try:
            if move is None:
                before = state.copy()
                try:
                    self._table.fire(state, event.type, convert.event_data(event, self.rules))
                except BaseException:
                    self._restore((known, out_of_play, before))
                    raise
            else:
                seat = state.to_act
                mark = (seat, state.phase, state.pile, state.hands[seat], state.out_order, state.outcome)
                try:
                    before = self._table.apply(state, move)
                except BaseException:
                    self._restore((known, out_of_play, (*mark, state.counted, state.repeats)))
                    raise
        finally:
            state.news = None
        notes = convert.notifications(event, news, state, self._known)
        if isinstance(event, Position):
            present = mask_of(state.pile)
            for hand in state.hands:
                present |= hand
            self._out_of_play = FULL_PACK_MASK & ~present
        self._saved.append((known, out_of_play, before))
        self._events.append(event)
        return notes

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
        self._known, self._out_of_play, before = saved
        if isinstance(before, core.State):
            self._state.restore(before)
        else:
            core.undo(self._state, before)

    def _position_refusal(self, position: Position) -> Refusal | None:
        if self._events:
            return refuse("position_not_first", "1", "a position can only start a game, right after the header")
        players = self.rules.players
        if len(position.hands) != players or len(position.trumps) != players:
            sizes = f"{counted(len(position.trumps), 'trump')} and {counted(len(position.hands), 'hand')}"
            return refuse("position_players", "1", f"the position has {sizes}, but the game has {players} players")
        if position.to_act >= players:
            return refuse(
                "position_to_act", "1", f"to_act {position.to_act} is not a seat of this {players}-player game"
            )
        return validation.position_error(
            [convert.suit_number(s) for s in position.trumps],
            [convert.card_numbers(hand) for hand in position.hands],
            convert.card_numbers(position.pile),
            position.to_act,
            convert.phase_number(position.phase),
        ) or resume_error(position)

    def _trump_refusal(self, event: ChooseTrump) -> Refusal | None:
        state = self._state
        if state.phase != core.TRUMP_CHOICE:
            return refuse(
                "trumps_chosen", "2.1", "{s0} cannot choose a trump: every player has chosen", seat=event.seat
            )
        if event.seat != state.to_act:
            return refuse(
                "not_your_turn",
                "2.1",
                "{s0} cannot choose a trump: it is {p1} turn to choose",
                seat=event.seat,
                seats=(event.seat, state.to_act),
            )
        suit = convert.suit_number(event.suit)
        open_suits = self._open_suits()
        if suit in open_suits:
            return None
        if suit in state.trumps:
            owner = state.trumps.index(suit)
            return refuse(
                "trump_taken",
                "2.1",
                f"{{s0}} cannot choose {event.suit}: it is already {{p1}} trump",
                seat=event.seat,
                seats=(event.seat, owner),
            )
        letters = ", ".join(convert.suit_letter(open_suit) for open_suit in open_suits)
        return refuse(
            "trump_not_open", "2.1", f"{{s0}} cannot choose {event.suit}: the suits open are {letters}", seat=event.seat
        )

    def _deal_refusal(self, deal: Deal) -> Refusal | None:
        phase = self._state.phase
        if phase == core.TRUMP_CHOICE:
            return refuse("deal_before_trumps", "2.2", "the deal comes after every player has chosen a trump")
        if phase != core.DEAL:
            return refuse("dealt", "2.2", "the cards have already been dealt")
        return validation.deal_error([convert.card_numbers(hand) for hand in deal.hands], self.rules.players)

    def _move_refusal(self, event: Event) -> Refusal | None:
        assert isinstance(event, (Lead, Beat, Second, Take))
        state = self._state
        kind = event.type
        if state.phase in (core.TRUMP_CHOICE, core.DEAL):
            verb = validation.VERBS[kind]
            if state.phase == core.TRUMP_CHOICE:
                return refuse(
                    "before_play",
                    "2.1",
                    f"{{s0}} cannot {verb}: the players are still choosing trumps",
                    seat=event.seat,
                )
            return refuse("before_play", "2.2", f"{{s0}} cannot {verb}: the cards have not been dealt", seat=event.seat)
        move = convert.move_of(event)
        assert move is not None
        if (
            event.seat == state.to_act
            and kind == core.move_kind(state.phase, move, self._table)
            and self._table.legal_mask(state) >> move & 1
        ):
            if isinstance(event, Take) and event.count is not None:
                count = core.take_count(state.pile[-1], len(state.pile), state.trumps[event.seat])
                if count != event.count:
                    return refuse(
                        "take_count",
                        "2.6",
                        f"{{s0}} cannot take {event.count} cards: the rules give {count}",
                        seat=event.seat,
                    )
            return None
        card = None if move == core.TAKE else move
        return validation.move_refusal(state, event.seat, kind, card, self._table)


__all__ = ["Game", "IllegalEvent", "Snapshot"]
