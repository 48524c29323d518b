"""The rules of Svoi Kozyri, once: a lean game state and pure rule functions.

Everything that decides what is legal and what happens lives here, on plain integers:
a card is its index ``suit * 9 + rank`` (see :mod:`rules.cards`), a hand is a bit
mask, the pile is a tuple of cards from bottom to top, and a move is either a card
index (lead, beat or second card, depending on the phase) or :data:`TAKE`.

What comes after what is not written here: the transition table (:mod:`rules.table`)
says it, naming this module's **conditions** (pure questions such as
:func:`beater_keeps_cards`) and **callbacks** (the work of one rule, such as
:func:`play_card`). :mod:`rules.step` compiles that table into the step that plays it,
:data:`RULES`: :func:`apply`, :func:`legal_mask`, :func:`legal_moves` and :func:`undo`
are search's names for it, and :class:`rules.game.Game` plays through the same step.
Why an event is refused is :mod:`rules.validation`.

>>> state = State.from_position(trumps=(0, 1), hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
...                             pile=(Card.parse("9C"), Card.parse("JC")), to_act=1, phase=RESPOND)
>>> [move_code(m) for m in legal_moves(state)]   # seat 1 (trump H) beats J♣ with K♥, or takes
['KH', 'take']
>>> undo = apply(state, Card.parse("KH"))        # its last card: seat 1 goes out
>>> state.outcome.model_dump()                   # seat 0 holds two cards: it loses the tie check
{'result': 'loss', 'loser': 0, 'out_order': [1]}
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Literal, NamedTuple

from rules.cards import CARDS, CODES, PACK_SIZE, RANK_CHARS, RANKS_PER_SUIT, Card, Rank, mask_of
from rules.defaults import MUST_BEAT, PASS_SIXES
from rules.outcome import Outcome
from rules.step import Compiled as Compiled
from rules.step import NoTransition as NoTransition
from rules.step import StaleStep
from rules.step import Undo as Undo
from rules.step import UndoFields as UndoFields
from rules.step import compile_table as compile_table
from rules.step import undo as undo
from rules.table import STATES, TRANSITIONS

# Phases: the table's states, numbered for speed. PHASE_NAMES gives their names. The last three
# are transient (left within the event that entered them): no log, state or position shows them.
# (One a line, not unpacked from a range: mypyc, which compiles this module, types them so.)
TRUMP_CHOICE: Final = 0
DEAL: Final = 1
LEAD: Final = 2
RESPOND: Final = 3
SECOND: Final = 4
FINISHED: Final = 5
SIXES: Final = 6
TIE_CHECK: Final = 7
TURN: Final = 8
PHASE_NAMES: Final[tuple[str, ...]] = STATES
PHASE_NUMBERS: Final = {name: number for number, name in enumerate(PHASE_NAMES)}


def misnumbered_phases(states: Sequence[str]) -> list[str]:
    """The phase constants above that are not the place of their state in ``states`` (:data:`rules.table.STATES`).

    They are written out, not read off the table, so that mypyc compiles them as constants; this is
    what keeps them the table's numbers when a state is added to the table or moved in it.

    >>> misnumbered_phases(STATES)
    []
    >>> misnumbered_phases(STATES[:5] + ("third",) + STATES[5:])[0]   # a state added before "finished"
    "FINISHED is 5, but 'finished' is at 6"
    """
    numbered = {
        "trump_choice": TRUMP_CHOICE,
        "deal": DEAL,
        "lead": LEAD,
        "respond": RESPOND,
        "second": SECOND,
        "finished": FINISHED,
        "sixes": SIXES,
        "tie_check": TIE_CHECK,
        "turn": TURN,
    }
    return [
        f"{name.upper()} is {number}, but {name!r} is "
        + (f"at {states.index(name)}" if name in states else "not there")
        for name, number in numbered.items()
        if name not in states or states.index(name) != number
    ]


if misnumbered_phases(STATES):  # the table's steps number the phases by STATES, the rules by these constants
    raise RuntimeError(
        f"rules.core numbers the phases otherwise than rules.table.STATES ({'; '.join(misnumbered_phases(STATES))}):"
        " give rules.core's phase constants the places of their states in STATES"
    )

TAKE: Final = PACK_SIZE
"""The move code of taking from the pile (every other move is a card index)."""
TAKE_BIT: Final = 1 << TAKE

ACE: Final = int(Rank.ACE)

SIX: Final = RANK_CHARS.find("6")
"""The rank of the sixes, which pass after the deal (§2.2); ``-1`` in a pack without sixes, where none passes."""

NO_TRUMP: Final = -1
"""A seat's trump before it has chosen one."""


REPETITIONS_FOR_DRAW: Final = 3


def beats(card: int, top: int, trump: int) -> bool:
    """Whether ``card`` beats ``top`` for a player whose trump suit is ``trump`` (rules §2.4).

    A higher card of the same suit beats; a card of your own trump beats any card of
    another suit; whose trump ``top`` was for the player who played it does not matter.

    >>> S, H = 0, 1
    >>> beats(Card.parse("QD"), Card.parse("TD"), trump=S)    # same suit, higher
    True
    >>> beats(Card.parse("6S"), Card.parse("AD"), trump=S)    # own trump on another suit
    True
    >>> beats(Card.parse("AD"), Card.parse("6S"), trump=S)    # only a higher spade beats a spade
    False
    >>> beats(Card.parse("7S"), Card.parse("KH"), trump=H)    # spades are not this player's trump
    False
    """
    card_suit = card // RANKS_PER_SUIT
    top_suit = top // RANKS_PER_SUIT
    if card_suit == top_suit:
        return card > top
    return card_suit == trump and top_suit != trump


BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(mask_of(c for c in range(PACK_SIZE) if beats(c, top, trump)) for top in range(PACK_SIZE))
    for trump in range(4)
)
"""``BEATERS[trump][top]``: the mask of every card that beats ``top`` under ``trump``, built from :func:`beats`."""


def take_count(top: int, pile_size: int, trump: int) -> int:
    """How many cards a player with trump ``trump`` takes from a pile of ``pile_size`` topped by ``top`` (§2.6).

    >>> take_count(Card.parse("9C"), pile_size=7, trump=0)    # not the taker's trump: 3
    3
    >>> take_count(Card.parse("9S"), pile_size=7, trump=0)    # the taker's trump: 5
    5
    >>> take_count(Card.parse("AS"), pile_size=7, trump=0)    # the ace of the taker's trump: all
    7
    >>> take_count(Card.parse("9C"), pile_size=2, trump=0)    # never more than the pile
    2
    """
    if top // RANKS_PER_SUIT != trump:
        wanted = 3
    elif top % RANKS_PER_SUIT != ACE:
        wanted = 5
    else:
        return pile_size
    return wanted if wanted < pile_size else pile_size


TAKE_COUNTS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(take_count(top, size, trump) for size in range(PACK_SIZE + 1)) for top in range(PACK_SIZE))
    for trump in range(4)
)
"""``TAKE_COUNTS[trump][top][pile_size]``: :func:`take_count`, looked up rather than called at every take.

By the size of the pile too, not only on a pile as big as the pack and then cut to what there is: that held
only while every count was "so many, or the whole pile", and a count edited otherwise was not the one taken.
"""


def _byte_table(offset: int, bits: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(bits) if value >> i & 1) for value in range(1 << bits))


LISTED_BYTES: Final = 5
"""How many bytes of a move mask :func:`moves_of_mask` and the generated step's ``legal_moves`` list (written out)."""
if TAKE >= 8 * LISTED_BYTES:  # a bigger pack: its last cards and the take would be left out of every list of moves
    raise RuntimeError(
        f"a move mask of a {PACK_SIZE}-card pack has {TAKE + 1} bits (one a card, one to take), but rules.core"
        f" lists {8 * LISTED_BYTES}: write out rules.core.moves_of_mask and rules.step._LISTING for more bytes"
        " and raise LISTED_BYTES"
    )

MOVES_BY_BYTE: Final = tuple(
    _byte_table(offset, max(0, min(8, TAKE + 1 - offset))) for offset in range(0, 8 * LISTED_BYTES, 8)
)
"""By byte of a move mask (bits 0-7, 8-15, 16-23, 24-31, 32 to :data:`TAKE`), the moves each of its values holds."""
_MOVES_0: Final = MOVES_BY_BYTE[0]
_MOVES_1: Final = MOVES_BY_BYTE[1]
_MOVES_2: Final = MOVES_BY_BYTE[2]
_MOVES_3: Final = MOVES_BY_BYTE[3]
_MOVES_4: Final = MOVES_BY_BYTE[4]


def moves_of_mask(mask: int) -> tuple[int, ...]:
    """The set bits of a move mask (cards and :data:`TAKE`), in increasing order."""
    return (
        _MOVES_0[mask & 255]
        + _MOVES_1[mask >> 8 & 255]
        + _MOVES_2[mask >> 16 & 255]
        + _MOVES_3[mask >> 24 & 255]
        + _MOVES_4[mask >> 32]
    )


def move_code(move: int) -> str:
    """A move for people and doctests: a card code, or ``take``."""
    return "take" if move == TAKE else CODES[move]


class SixPassed(NamedTuple):
    """Reported by :func:`pass_sixes`: ``card`` passed from ``giver`` to ``receiver``, whose trump it is (§2.2)."""

    card: int
    giver: int
    receiver: int


class Took(NamedTuple):
    """Reported by :func:`take_cards`: ``seat`` took ``cards`` (bottom to top) off the pile (§2.6)."""

    seat: int
    cards: tuple[int, ...]


class WentOut(NamedTuple):
    """Reported by :func:`play_card`: ``seat`` played its last card and went out, in ``place`` (1 first, §3)."""

    seat: int
    place: int


News = SixPassed | Took | WentOut
"""What a callback reports to :attr:`State.news` when it is listened to (the rest can be read off the state)."""

PositionKey = tuple[int, ...]
"""The position the repetition rule compares (:meth:`State.key`): the player to act, the phase, each hand's
mask and the pile's cards from the bottom, in one flat tuple: one object to make, hash and compare at each
of the solver's table lookups (see docs/players.md). :func:`key_of` makes it, :func:`key_parts` reads it back."""


def key_of(to_act: int, phase: int, hands: list[int], pile: tuple[int, ...]) -> PositionKey:
    """The key of the position with these hands (masks), pile, player to act and phase.

    >>> key_of(1, RESPOND, [0b1, 0b110], (9, 30))
    (1, 3, 1, 6, 9, 30)
    """
    return (to_act, phase) + tuple(hands) + pile


def key_parts(key: PositionKey, players: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """The hands (masks), the pile, the player to act and the phase of a ``players``-player position key.

    >>> key_parts(key_of(1, RESPOND, [0b1, 0b110], (9, 30)), players=2)
    ((1, 6), (9, 30), 1, 3)
    """
    return key[2 : 2 + players], key[2 + players :], key[0], key[1]


class State:
    """A game from the trump choice (or a position) to its end, with what the repetition rule remembers.

    Mutable for speed: :func:`apply` changes it in place and returns what :func:`undo`
    needs. Use :meth:`copy` to branch.
    """

    __slots__ = (
        "counted",
        "hands",
        "must_beat",
        "news",
        "out_order",
        "outcome",
        "pass_sixes",
        "phase",
        "pile",
        "repeats",
        "seen",
        "to_act",
        "trumps",
    )

    trumps: tuple[int, ...]
    must_beat: bool
    pass_sixes: bool
    hands: list[int]
    pile: tuple[int, ...]
    to_act: int
    phase: int
    out_order: tuple[int, ...]
    outcome: Outcome | None
    seen: dict[PositionKey, int]
    counted: PositionKey | None  # the position the last move counted, for its undo token
    news: list[News] | None  # where the rules report what they did, while someone listens (Game does)
    repeats: int  # how many times that position has started a turn, this one included

    @classmethod
    def setup(cls, players: int, first_seat: int, must_beat: bool = MUST_BEAT, pass_sixes: bool = PASS_SIXES) -> State:
        """A game before the trump choice: ``first_seat`` chooses first and, after the deal, leads.

        The rule options default to :mod:`rules.defaults`, as :class:`rules.options.RuleSet`'s do.
        """
        state = cls()
        state.trumps = (NO_TRUMP,) * players
        state.must_beat = must_beat
        state.pass_sixes = pass_sixes
        state.hands = [0] * players
        state.pile = ()
        state.to_act = first_seat
        state.phase = TRUMP_CHOICE
        state.out_order = ()
        state.outcome = None
        state.seen = {}
        state.counted = None
        state.repeats = 0
        state.news = None
        return state

    @classmethod
    def from_position(
        cls,
        trumps: Sequence[int],
        hands: Sequence[Iterable[int]],
        pile: Sequence[int],
        to_act: int,
        phase: int,
        must_beat: bool = MUST_BEAT,
        out_order: Sequence[int] = (),
        seen: dict[PositionKey, int] | None = None,
    ) -> State:
        """The state of a valid position (see :func:`position_error`); counts it once more if a turn starts there.

        ``seen`` is the repetition history before this position (empty if not given). The same as
        starting the machine and taking a ``position`` event: the table's ``position`` rows do the work.
        """
        state = cls.setup(len(trumps), to_act, must_beat)
        start = cls.setup(len(trumps), to_act, must_beat)
        start.trumps = tuple(trumps)
        start.hands = [mask_of(hand) for hand in hands]
        start.pile = tuple(pile)
        start.phase = phase
        start.out_order = tuple(out_order)
        start.seen = dict(seen) if seen else {}
        fire(state, "position", start)
        return state

    def copy(self) -> State:
        other = State()
        other.restore(self)
        other.news = None  # a copy is not listened to
        return other

    def restore(self, other: State) -> None:
        """Become a copy of ``other`` (which is left alone)."""
        self.trumps = other.trumps
        self.must_beat = other.must_beat
        self.pass_sixes = other.pass_sixes
        self.hands = other.hands.copy()
        self.pile = other.pile
        self.to_act = other.to_act
        self.phase = other.phase
        self.out_order = other.out_order
        self.outcome = other.outcome
        self.seen = other.seen.copy()
        self.counted = other.counted
        self.repeats = other.repeats
        self.news = other.news

    def fresh_copy(self) -> State:
        """A copy whose repetition history starts here: this position counted once (none in phase ``second``,
        where no turn starts, §3.3.5, or once the game is over). What the solver searches and the board evaluates."""
        other = self.copy()
        other.seen = {} if other.phase in (SECOND, FINISHED) else {other.key(): 1}
        return other

    def key(self) -> PositionKey:
        """The position compared by the repetition rule (:data:`PositionKey`): player to act, phase, hands, pile."""
        return key_of(self.to_act, self.phase, self.hands, self.pile)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


# --- What may be played (§2.3-§2.6), per trigger ------------------------------------------------


def hand_mask(state: State) -> int:
    """Any card of the hand: a lead (§2.3) or a second card (§2.5)."""
    return state.hands[state.to_act]


def beat_mask(state: State) -> int:
    """The cards of the hand that beat the top of the pile (§2.4)."""
    return state.hands[state.to_act] & BEATERS[state.trumps[state.to_act]][state.pile[-1]]


def take_mask(state: State) -> int:
    """:data:`TAKE_BIT` unless the rule option ``must_beat`` forbids taking while a card beats (§2.6)."""
    return 0 if state.must_beat and beat_mask(state) else TAKE_BIT


MOVE_MASKS: Final[dict[str, Callable[[State], int]]] = {
    "lead": hand_mask,
    "second": hand_mask,
    "beat": beat_mask,
    "take": take_mask,
}
"""The legal moves of each play trigger, whatever phase the table allows it in."""


def next_seat(hands: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` that still holds cards (§1).

    >>> next_seat([0b1, 0b10, 0, 0b100], 0), next_seat([0b1, 0b10, 0, 0b100], 1), next_seat([0b1, 0, 0, 0b100], 3)
    (1, 3, 0)
    """
    players = len(hands)
    seat = (seat + 1) % players
    while not hands[seat]:
        seat = (seat + 1) % players
    return seat


def tie_check(hand: int, top: int, trump: int) -> bool:
    """Whether the last player's ``hand`` draws the game (§3): one card, and it beats the top card."""
    return hand & (hand - 1) == 0 and hand & BEATERS[trump][top] != 0


# --- Conditions of the table: pure questions about the state and the incoming move -------------


def beater_keeps_cards(state: State, card: int) -> bool:
    """The beating card is not the player's last: a second card follows (§2.5)."""
    return state.hands[state.to_act] != 1 << card


def leaves_one_player(state: State, card: int) -> bool:
    """Playing ``card`` empties the hand and leaves one player holding cards (§3)."""
    return state.hands[state.to_act] == 1 << card and len(state.hands) - state.hands.count(0) == 2


def third_time_round(state: State, move: Any) -> bool:
    """The turn that starts has started in this position twice before (§3); asked once it is counted."""
    return state.repeats >= REPETITIONS_FOR_DRAW


def pile_is_empty(state: State, move: Any) -> bool:
    """Nothing is left on the pile (a take of all of it, §2.7): the new turn starts with a lead."""
    return not state.pile


def last_card_beats(state: State, move: Any) -> bool:
    """The one player left holds a single card that beats the top of the pile (the tie check, §3)."""
    last = last_holder(state)
    return tie_check(state.hands[last], state.pile[-1], state.trumps[last])


def last_holder(state: State) -> int:
    return next(seat for seat, hand in enumerate(state.hands) if hand)


def last_trump_choice(state: State, suit: int) -> bool:
    """Every other player has chosen: this choice completes the trumps (§2.1)."""
    return sum(1 for trump in state.trumps if trump != NO_TRUMP) == len(state.trumps) - 1


def rule_passes_sixes(state: State, move: Any) -> bool:
    """The rule option ``pass_sixes`` is on (§2.2)."""
    return state.pass_sixes


def position_leads(state: State, start: State) -> bool:
    return start.phase == LEAD


def position_responds(state: State, start: State) -> bool:
    return start.phase == RESPOND


# --- Callbacks of the table: the work of one rule each ----------------------------------------


def play_card(state: State, card: int) -> None:
    """The player to act puts ``card`` on the pile; with no card left, they go out (§3)."""
    seat = state.to_act
    hand = state.hands[seat] ^ 1 << card
    state.hands[seat] = hand
    state.pile += (card,)
    if not hand:
        state.out_order += (seat,)
        if state.news is not None:
            state.news.append(WentOut(seat, len(state.out_order)))


def take_cards(state: State, move: int) -> None:
    """The player to act takes from the pile as many cards as :func:`take_count` says (§2.6)."""
    seat = state.to_act
    pile = state.pile
    rest = len(pile)
    rest -= TAKE_COUNTS[state.trumps[seat]][pile[-1]][rest]
    hand = state.hands[seat]
    for card in pile[rest:]:
        hand |= 1 << card
    state.hands[seat] = hand
    state.pile = pile[:rest]
    if state.news is not None:
        state.news.append(Took(seat, pile[rest:]))


def pass_turn(state: State, move: Any) -> None:
    """The turn passes to the next player holding cards (§1): :func:`next_seat`, written out for speed."""
    hands = state.hands
    players = len(hands)
    seat = (state.to_act + 1) % players
    while not hands[seat]:
        seat = (seat + 1) % players
    state.to_act = seat


def count_position(state: State, move: Any) -> None:
    """A turn starts: count its position for the repetition rule (§3).

    The position is the hands, the pile, the player to act and the phase: ``lead`` on an
    empty pile, else ``respond`` (a turn never starts with a second card).
    """
    pile = state.pile
    key = key_of(state.to_act, RESPOND if pile else LEAD, state.hands, pile)
    seen = state.seen
    count = seen.get(key, 0) + 1
    seen[key] = count
    state.counted = key
    state.repeats = count


Ending = Literal["loss", "resigned", "repetition", "tie_check", "agreement"]
"""How a game ended: a loss by the tie check or by resigning, or a draw and why."""

_OUTCOMES: Final[dict[tuple[Ending, int, tuple[int, ...]], Outcome]] = {}
"""Every outcome the rules have made, by how the game ended, the loser (``-1`` in a draw) and the order of going out.

A search ends a line every few positions; an outcome is frozen, so each is made once and shared (a few
hundred at most: four seats' orders). Looked up here, in the compiled rules, a finished line costs no call
into the pydantic model (that call was 4% of the native search's instructions)."""


def _ended(ending: Ending, loser: int, out_order: tuple[int, ...]) -> Outcome:
    key = (ending, loser, out_order)
    outcome = _OUTCOMES.get(key)
    if outcome is None:
        if ending == "loss":
            outcome = Outcome.loss(loser, out_order)
        elif ending == "resigned":
            outcome = Outcome.resigned(loser, out_order)
        else:
            outcome = Outcome.draw(ending, out_order)
        _OUTCOMES[key] = outcome
    return outcome


def draw_by_repetition(state: State, move: Any) -> None:
    state.outcome = _ended("repetition", -1, state.out_order)


def draw_by_tie_check(state: State, move: Any) -> None:
    state.outcome = _ended("tie_check", -1, state.out_order)


def last_holder_loses(state: State, move: Any) -> None:
    state.outcome = _ended("loss", last_holder(state), state.out_order)


def resigner_loses(state: State, seat: int) -> None:
    """``seat``, still holding cards, gives the game up and loses it (§3.4.1)."""
    state.outcome = _ended("resigned", seat, state.out_order)


def draw_by_agreement(state: State, move: Any) -> None:
    """Every player still holding cards agreed to a draw (§3.4.2)."""
    state.outcome = _ended("agreement", -1, state.out_order)


def record_trump(state: State, suit: int) -> None:
    """The player to act takes ``suit`` as their trump; the next player round chooses next (§2.1)."""
    seat = state.to_act
    state.trumps = (*state.trumps[:seat], suit, *state.trumps[seat + 1 :])
    state.to_act = (seat + 1) % len(state.trumps)


def deal_hands(state: State, hands: Sequence[int]) -> None:
    """The dealt hands, as masks (§2.2)."""
    state.hands = list(hands)


def pass_sixes(state: State, move: Any) -> None:
    """Each six of another player's trump passes to that player (§2.2)."""
    hands = state.hands
    for card, giver, receiver in passed_sixes(hands, state.trumps):
        hands[giver] ^= 1 << card
        hands[receiver] |= 1 << card
        if state.news is not None:
            state.news.append(SixPassed(card, giver, receiver))


def adopt_position(state: State, start: State) -> None:
    """The game starts at ``start`` (built by :func:`rules.convert.start_of_position`)."""
    state.trumps = start.trumps
    state.hands = start.hands.copy()
    state.pile = start.pile
    state.to_act = start.to_act
    state.out_order = start.out_order
    state.outcome = None
    state.seen = dict(start.seen)  # the repetition history a resumed game brings (log format §L4.5)


def move_kind(phase: int, move: int, table: Compiled | None = None) -> str | None:
    """The trigger of playing ``move`` in ``phase`` (``lead``, ``beat``, ``second`` or ``take``); ``None`` if none."""
    if move == TAKE:
        return "take"
    return (table or RULES).card_triggers[phase]


def won(outcome: Outcome, seat: int) -> bool:
    """Whether ``seat`` has won a game that ended with ``outcome``: there is a loser, and it is someone else (§3).

    >>> won(Outcome.loss(1, (0,)), 0), won(Outcome.loss(0, (1,)), 0), won(Outcome.draw("tie_check", ()), 0)
    (True, False, False)
    """
    loser = outcome.loser
    return loser is not None and loser != seat


def returns(state: State) -> list[float]:
    """Each seat's result of a finished game: +1 for the winners, -1 for the loser, 0 in a draw."""
    if state.outcome is None:
        raise ValueError("the game is not over")
    loser = state.outcome.loser
    if loser is None:
        return [0.0] * state.players
    return [-1.0 if seat == loser else 1.0 for seat in range(state.players)]


def next_dealer(dealer: int, loser: int | None) -> int:
    """Who deals the next hand of a match (§4): the loser; after a draw (no loser), the same dealer.

    >>> next_dealer(0, loser=1), next_dealer(0, loser=None)
    (1, 0)
    """
    return dealer if loser is None else loser


# --- Before play: deal, sixes, positions ------------------------------------------------------


def below(n: int, rng: random.Random) -> int:
    """A uniform integer in ``0 … n-1``: the top ``n.bit_length()`` bits of one output, redrawn until below ``n``.

    This is deals.md §D1.5, written out rather than left to ``random.shuffle``, whose way of drawing
    Python does not promise to keep from one version to the next (Python 3.2 changed it): the deal of
    a seed is what the page says, not what the running Python's ``shuffle`` does.

    >>> rng = random.Random(0)
    >>> [below(36, rng) for _ in range(5)]
    [24, 26, 2, 16, 32]
    """
    k = n.bit_length()
    while True:
        r = rng.getrandbits(k)
        if r < n:
            return r


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The pack shuffled with ``rng``: Fisher–Yates from the top (deals.md §D2).

    For ``i`` from 35 down to 1 the card at ``i`` swaps with the card at ``below(i + 1)``, exactly
    as ``random.Random.shuffle`` does in Python 3.11.
    """
    pack = list(CARDS)
    for i in range(len(pack) - 1, 0, -1):
        j = below(i + 1, rng)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def deal_in_turn(players: int, dealer: int, pack: Sequence[Card]) -> list[list[Card]]:
    """Deal ``pack`` one card at a time from the dealer's left (§2.2.1, deals.md §D3).

    >>> [[c.code for c in hand] for hand in deal_in_turn(3, 0, CARDS[:6])]
    [['8S', 'JS'], ['6S', '9S'], ['7S', 'TS']]
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(pack):
        hands[(dealer + 1 + i) % players].append(card)
    return hands


def deal_pack(players: int, dealer: int, rng: random.Random) -> list[list[Card]]:
    """Shuffle the pack with ``rng`` and deal it one card at a time from the dealer's left (§2.2)."""
    return deal_in_turn(players, dealer, shuffled_pack(rng))


def passed_sixes(hands: Sequence[int], trumps: Sequence[int]) -> list[tuple[Card, int, int]]:
    """The sixes that pass after the deal (§2.2): ``(card, from_seat, to_seat)`` in pack order."""
    passes: list[tuple[Card, int, int]] = []
    if SIX < 0:  # a pack without sixes
        return passes
    owner = {suit: seat for seat, suit in enumerate(trumps)}
    for suit, seat in sorted(owner.items()):
        six = suit * RANKS_PER_SUIT + SIX
        for holder, hand in enumerate(hands):
            if holder != seat and hand >> six & 1:
                passes.append((CARDS[six], holder, seat))
    return passes


# --- The real table, compiled (rules.step): the search path -------------------------------------

RULES: Final = compile_table(TRANSITIONS)
"""The real table, compiled: :class:`rules.step.Compiled`, playing through :mod:`rules.generated_step`."""
if RULES.why_interpreted is not None:  # most often the table was edited and the module not written again
    warnings.warn(
        f"the rules walk the table's steps, correct but slower: {RULES.why_interpreted}", StaleStep, stacklevel=1
    )

fire = RULES.fire

GENERATED: Final = RULES.why_interpreted is None
"""Whether :func:`apply`, :func:`legal_mask` and :func:`legal_moves` play through :mod:`rules.generated_step`.

They are functions, not :data:`RULES`' own attributes, so that compiled callers (the solver, on the native path)
call them, and they the generated step, directly rather than as Python objects: 14% fewer instructions a node."""
if GENERATED:
    from rules import generated_step  # after the rules it calls, which it imports from this module


def apply(state: State, move: int) -> Undo:
    """Play ``move`` (a card, or :data:`TAKE`) for the player to act; what :func:`undo` needs to take it back."""
    if GENERATED:
        return generated_step.apply(state, move)
    return RULES.apply(state, move)


def legal_mask(state: State) -> int:
    """The legal moves as one mask: bit ``c`` to play card ``c``, bit :data:`TAKE` to take."""
    if GENERATED:
        return generated_step.legal_mask(state)
    return RULES.legal_mask(state)


def legal_moves(state: State) -> tuple[int, ...]:
    """The legal moves of the player to act, cards in pack order then :data:`TAKE`."""
    if GENERATED:
        return generated_step.legal_moves(state)
    return RULES.legal_moves(state)
