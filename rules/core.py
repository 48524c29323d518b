"""The rules of Svoi Kozyri, once: a lean game state and pure rule functions.

Everything that decides what is legal and what happens lives here, on plain integers:
a card is its index ``suit * 9 + rank`` (see :mod:`rules.cards`), a hand is a bit
mask, the pile is a tuple of cards from bottom to top, and a move is either a card
index (lead, beat or second card, depending on the phase) or :data:`TAKE`.

What comes after what is not written here: the transition table (:mod:`rules.table`)
says it, naming this module's **conditions** (pure questions such as
:func:`beater_keeps_cards`) and **callbacks** (the work of one rule, such as
:func:`play_card`). The search path :func:`apply`, :func:`legal_mask` and
:func:`undo` are compiled from that table at import (:func:`compile_table`); the
``transitions`` machine that :class:`rules.game.Game` drives is built from the same rows.

>>> state = State.from_position(trumps=(0, 1), hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
...                             pile=(Card.parse("9C"), Card.parse("JC")), to_act=1, phase=RESPOND)
>>> [move_code(m) for m in legal_moves(state)]   # seat 1 (trump H) beats J♣ with K♥, or takes
['KH', 'take']
>>> undo = apply(state, Card.parse("KH"))        # its last card: seat 1 goes out
>>> state.outcome.model_dump()                   # seat 0 holds two cards: it loses the tie check
{'result': 'loss', 'loser': 0, 'out_order': [1]}
"""

from __future__ import annotations

import ast
import functools
import inspect
import random
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from rules.cards import CARDS, CODES, PACK_SIZE, RANKS_PER_SUIT, Card, Rank, mask_of
from rules.outcome import Outcome
from rules.refusal import Refusal
from rules.refusal import refusal as _refusal
from rules.table import AUTOMATIC, PLAY, STATES, TRANSITIONS, Row

# Phases: the table's states, numbered for speed. PHASE_NAMES gives their names.
TRUMP_CHOICE, DEAL, LEAD, RESPOND, SECOND, FINISHED, SIXES, TIE_CHECK = range(8)
PHASE_NAMES: tuple[str, ...] = STATES
PHASE_NUMBERS = {name: number for number, name in enumerate(PHASE_NAMES)}

TAKE = PACK_SIZE
"""The move code of taking from the pile (every other move is a card index)."""
TAKE_BIT = 1 << TAKE

ACE = int(Rank.ACE)

NO_TRUMP = -1
"""A seat's trump before it has chosen one."""


REPETITIONS_FOR_DRAW = 3


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


BEATERS: tuple[tuple[int, ...], ...] = tuple(
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


TAKE_COUNTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(take_count(top, PACK_SIZE, trump) for top in range(PACK_SIZE)) for trump in range(4)
)
"""``TAKE_COUNTS[trump][top]``: :func:`take_count` on a pile as big as the pack (3, 5, or all of it).

Slicing a shorter pile with it takes what there is, so ``pile[-count:]`` is what a take picks up.
"""


def _byte_table(offset: int, bits: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(bits) if value >> i & 1) for value in range(1 << bits))


_MOVES_0 = _byte_table(0, 8)
_MOVES_1 = _byte_table(8, 8)
_MOVES_2 = _byte_table(16, 8)
_MOVES_3 = _byte_table(24, 8)
_MOVES_4 = _byte_table(32, 5)


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


PositionKey = tuple[tuple[int, ...], tuple[int, ...], int, int]

# What apply() needs to undo a move: seat, phase, pile, that seat's hand, the order of
# going out, the outcome, and the position key it counted (or None).
Undo = tuple[int, int, tuple[int, ...], int, tuple[int, ...], "Outcome | None", "PositionKey | None"]


class State:
    """A game from the trump choice (or a position) to its end, with what the repetition rule remembers.

    Mutable for speed: :func:`apply` changes it in place and returns what :func:`undo`
    needs. Use :meth:`copy` to branch.
    """

    __slots__ = (
        "counted",
        "hands",
        "must_beat",
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
    repeats: int  # how many times that position has started a turn, this one included

    @classmethod
    def setup(cls, players: int, first_seat: int, must_beat: bool = False, pass_sixes: bool = True) -> State:
        """A game before the trump choice: ``first_seat`` chooses first and, after the deal, leads."""
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
        return state

    @classmethod
    def from_position(
        cls,
        trumps: Sequence[int],
        hands: Sequence[Iterable[int]],
        pile: Sequence[int],
        to_act: int,
        phase: int,
        must_beat: bool = False,
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
        other.trumps = self.trumps
        other.must_beat = self.must_beat
        other.pass_sixes = self.pass_sixes
        other.hands = self.hands.copy()
        other.pile = self.pile
        other.to_act = self.to_act
        other.phase = self.phase
        other.out_order = self.out_order
        other.outcome = self.outcome
        other.seen = self.seen.copy()
        other.counted = self.counted
        other.repeats = self.repeats
        return other

    def restore(self, other: State) -> None:
        """Become a copy of ``other`` (which is left alone)."""
        for name in State.__slots__:
            setattr(self, name, getattr(other, name))
        self.hands = other.hands.copy()
        self.seen = other.seen.copy()

    def key(self) -> PositionKey:
        """The position compared by the repetition rule: hands, pile, player to act, phase."""
        return (tuple(self.hands), self.pile, self.to_act, self.phase)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


# --- What may be played (§2.3-§2.6), per trigger ------------------------------------------------


# Each is one expression, so that the compiled legal_moves() inlines it.


def hand_mask(state: State) -> int:
    """Any card of the hand: a lead (§2.3) or a second card (§2.5)."""
    return state.hands[state.to_act]


def beat_mask(state: State) -> int:
    """The cards of the hand that beat the top of the pile (§2.4)."""
    return state.hands[state.to_act] & BEATERS[state.trumps[state.to_act]][state.pile[-1]]


def take_mask(state: State) -> int:
    """:data:`TAKE_BIT` unless the rule option ``must_beat`` forbids taking while a card beats (§2.6)."""
    return 0 if state.must_beat and beat_mask(state) else TAKE_BIT


MOVE_MASKS: dict[str, Callable[[State], int]] = {
    "lead": hand_mask,
    "second": hand_mask,
    "beat": beat_mask,
    "take": take_mask,
}
"""The legal moves of each play trigger, whatever phase the table allows it in."""


def next_seat(hands: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` that still holds cards (§1)."""
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


def comes_round_third_time(state: State, move: int) -> bool:
    """After ``move`` the turn passes into a position that has already started a turn twice (§3).

    Search asks the same question after the move's :func:`count_position`, where the answer
    is at hand (:func:`came_round_third_time`, see :data:`ASKED_AFTER`).
    """
    after = State()  # the move and the passing of the turn, on a scratch state with an empty history
    after.trumps, after.hands, after.pile = state.trumps, state.hands.copy(), state.pile
    after.to_act, after.out_order, after.seen = state.to_act, state.out_order, {}
    for callback in (take_cards if move == TAKE else play_card, pass_turn, count_position):
        callback(after, move)
    return state.seen.get(after.counted, 0) + after.repeats >= REPETITIONS_FOR_DRAW  # type: ignore[arg-type]


def came_round_third_time(state: State, move: int) -> bool:
    """:func:`comes_round_third_time` asked once the move has passed the turn and counted the position."""
    return state.repeats >= REPETITIONS_FOR_DRAW


def takes_whole_pile(state: State, move: int) -> bool:
    """The take empties the pile, so the next player leads (§2.7)."""
    return TAKE_COUNTS[state.trumps[state.to_act]][state.pile[-1]] >= len(state.pile)


def last_card_beats(state: State, move: Any) -> bool:
    """The one player left holds a single card that beats the top of the pile (the tie check, §3)."""
    last = last_holder(state)
    return tie_check(state.hands[last], state.pile[-1], state.trumps[last])


def last_holder(state: State) -> int:
    return next(seat for seat, hand in enumerate(state.hands) if hand)


def last_trump_choice(state: State, suit: int) -> bool:
    """Every other player has chosen: this choice completes the trumps (§2.1)."""
    return sum(1 for trump in state.trumps if trump != NO_TRUMP) == len(state.trumps) - 1


def sixes_pass(state: State, move: Any) -> bool:
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


def take_cards(state: State, move: int) -> None:
    """The player to act takes from the pile as many cards as :func:`take_count` says (§2.6)."""
    seat = state.to_act
    pile = state.pile
    count = TAKE_COUNTS[state.trumps[seat]][pile[-1]]
    hand = state.hands[seat]
    for card in pile[-count:]:
        hand |= 1 << card
    state.hands[seat] = hand
    state.pile = pile[:-count]


def pass_turn(state: State, move: Any) -> None:
    """The turn passes to the next player holding cards (§1)."""
    # next_seat() written out: search inlines a callback's own statements, not the functions it calls
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
    key = (tuple(state.hands), pile, state.to_act, RESPOND if pile else LEAD)
    seen = state.seen
    count = seen.get(key, 0) + 1
    seen[key] = count
    state.counted = key
    state.repeats = count


def draw_by_repetition(state: State, move: Any) -> None:
    state.outcome = Outcome.draw("repetition", state.out_order)


def draw_by_tie_check(state: State, move: Any) -> None:
    state.outcome = Outcome.draw("tie_check", state.out_order)


def last_holder_loses(state: State, move: Any) -> None:
    state.outcome = Outcome.loss(last_holder(state), state.out_order)


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


def adopt_position(state: State, start: State) -> None:
    """The game starts at ``start`` (built by :func:`rules.convert.start_of_position`)."""
    state.trumps = start.trumps
    state.hands = start.hands.copy()
    state.pile = start.pile
    state.to_act = start.to_act
    state.out_order = start.out_order
    state.outcome = None
    state.seen = dict(start.seen)  # the repetition history a resumed game brings (log format §L4.5)


# --- The table, compiled for search --------------------------------------------------------------

Step = tuple[tuple[Callable[..., bool], ...], tuple[Callable[..., None], ...], int, "tuple[Step, ...] | None"]
"""A compiled row: its conditions, its callbacks, its destination, and the rows of a transient destination."""


class NoTransition(LookupError):
    """The table has no row for this trigger in this phase."""

    def __init__(self, trigger: str, phase: int) -> None:
        super().__init__(f"the rules have no {trigger} in phase {PHASE_NAMES[phase]}")
        self.trigger = trigger
        self.phase = phase


class Compiled(NamedTuple):
    """A transition table turned into plain lookups: what the search path runs."""

    apply: Callable[[State, int], Undo]
    """Play ``move`` (which must be legal) for the player to act; returns the token for :func:`undo`."""
    fire: Callable[[State, str, Any], None]
    """Take any event of the table (setup included) by trigger name, with its data."""
    legal_mask: Callable[[State], int]
    """The legal moves as one mask: bit ``c`` to play card ``c``, bit :data:`TAKE` to take."""
    legal_moves: Callable[[State], tuple[int, ...]]
    """The legal moves of the player to act, cards in pack order then :data:`TAKE`."""
    card_triggers: tuple[str | None, ...]
    """By phase, the trigger of playing a card there (``lead``, ``beat``, ``second``), if any."""
    triggers: tuple[frozenset[str], ...]
    """By phase, every trigger the table takes there."""


@functools.cache  # a rule is inlined into many rows: read its source once
def _inlined(
    function: Callable[..., Any], arguments: tuple[str, ...] = ("state", "move")
) -> tuple[str | None, list[str] | None]:
    """The body of a condition as one expression, or of a callback as statements, on ``arguments``.

    Only a condition that is one ``return`` and a callback with no ``return`` qualify (the
    others are called); their own local names get a prefix so that they cannot collide.
    Inlining saves search a Python call per rule on every move; the code is the function's own.
    """
    tree = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    assert isinstance(tree, ast.FunctionDef)
    body = [node for node in tree.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    params = [argument.arg for argument in tree.args.args]
    renames = dict(zip(params, arguments, strict=True))
    local = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    renames.update({name: f"_{function.__name__}_{name}" for name in local - set(params)})

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            return ast.copy_location(ast.Name(renames.get(node.id, node.id), node.ctx), node)

    returns = [node for node in ast.walk(tree) if isinstance(node, ast.Return)]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return "(" + ast.unparse(Rename().visit(body[0].value)) + ")", None
    nested = (ast.Lambda, ast.FunctionDef, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
    if not returns and not any(isinstance(node, nested) for statement in body for node in ast.walk(statement)):
        return None, [ast.unparse(Rename().visit(statement)) for statement in body]
    return None, None


ASKED_AFTER: dict[str, tuple[str, str]] = {"comes_round_third_time": ("count_position", "came_round_third_time")}
"""Conditions that search asks later, in another form: ``condition: (callback, form)``.

Where the row of ``condition`` and every row after it in its group begin with the same
callbacks up to ``callback``, search asks the conditions of the rows after it first (they
are pure), runs those callbacks once, and then asks ``form``, whose answer is at hand by then.
A test plays random games through both paths to show that the two forms agree.
"""


def _test(conditions: tuple[Callable[..., bool], ...], namespace: dict[str, Any]) -> str:
    """The conditions of a row as one Python expression (inlined where they are one expression)."""
    tests = []
    for condition in conditions:
        namespace[condition.__name__] = condition
        expression, _ = _inlined(condition)
        tests.append(expression or f"{condition.__name__}(state, move)")
    return " and ".join(tests)


def _run(callbacks: tuple[Callable[..., None], ...], indent: str, namespace: dict[str, Any]) -> list[str]:
    """The callbacks of a row as Python statements (inlined where they can be)."""
    lines = []
    for function in callbacks:
        namespace[function.__name__] = function
        _, statements = _inlined(function)
        for statement in statements or [f"{function.__name__}(state, move)"]:
            lines += [f"{indent}{line}" for line in statement.splitlines()]
    return lines


def _asked_after(group: tuple[Step, ...]) -> tuple[int, int] | None:
    """The row of ``group`` whose condition search asks later (:data:`ASKED_AFTER`), and the callbacks run first."""
    for number, (conditions, callbacks, _dest, _then) in enumerate(group):
        if len(conditions) == 1 and conditions[0].__name__ in ASKED_AFTER:
            names = [function.__name__ for function in callbacks]
            after, _form = ASKED_AFTER[conditions[0].__name__]
            if after in names:
                shared = callbacks[: names.index(after) + 1]
                if all(row[1] == shared for row in group[number + 1 :]):
                    return number, len(shared)
    return None


Branch = tuple[str | None, tuple[Callable[..., None], ...], int, "tuple[Step, ...] | None"]
"""One branch of compiled code: its test (``None`` for ``else``), callbacks, destination, transient rows."""


def _python_of(group: tuple[Step, ...], indent: str, namespace: dict[str, Any]) -> list[str]:
    """The rows of ``group`` as nested ``if``/``elif``/``else`` statements (their functions put in ``namespace``)."""
    later = _asked_after(group)
    first_later = len(group) if later is None else later[0]
    branches: list[Branch] = [
        (_test(conditions, namespace) if conditions else None, callbacks, dest, then)
        for conditions, callbacks, dest, then in group[:first_later]
    ]
    if later is None:
        return _branches(branches, indent, namespace)
    # From the row asked later on: the other rows' conditions first, the shared callbacks once, then the question.
    shared = later[1]
    (condition, *_), callbacks, dest, then = group[first_later]
    inner = indent + "    " if branches else indent
    body: list[str] = []
    asked: list[Branch] = []
    for index, (conditions, _, other_dest, other_then) in enumerate(group[first_later + 1 : -1]):
        name = f"_asked_before_{len(inner)}_{index}"
        body.append(f"{inner}{name} = {_test(conditions, namespace)}")
        asked.append((name, (), other_dest, other_then))
    body += _run(callbacks[:shared], inner, namespace)
    form = globals()[ASKED_AFTER[condition.__name__][1]]
    asked = [
        (_test((form,), namespace), callbacks[shared:], dest, then),
        *asked,
        (None, (), group[-1][2], group[-1][3]),
    ]
    body += _branches(asked, inner, namespace)
    if not branches:
        return body
    return _branches(branches, indent, namespace) + [f"{indent}else:", *body]


def _branches(branches: list[Branch], indent: str, namespace: dict[str, Any]) -> list[str]:
    """``if``/``elif``/``else`` over ``(test, callbacks, destination, rows of a transient destination)``."""
    lines = []
    for number, (test, callbacks, dest, then) in enumerate(branches):
        if test is not None:
            lines.append(f"{indent}{'if' if number == 0 else 'elif'} {test}:")
        else:
            lines.append(f"{indent}else:" if number else f"{indent}if True:")
        lines += _run(callbacks, indent + "    ", namespace)
        lines.append(f"{indent}    state.phase = {dest}")
        if then is not None:
            lines += _python_of(then, indent + "    ", namespace)
    return lines


def _is_state(node: ast.AST, attribute: str | None = None) -> bool:
    """Whether ``node`` is ``state.<attribute>`` (any attribute if not given)."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "state"
        and attribute in (None, node.attr)
    )


_PROLOGUE = {"to_act": "seat", "pile": "pile", "hand": "hand"}
"""What the prologue of the compiled ``apply`` loads: ``state.to_act``, ``state.pile`` and the hand to act."""


def _writes(node: ast.AST) -> set[str]:
    """Which of :data:`_PROLOGUE`'s values ``node`` may change (a callback called, not inlined, may change any)."""
    written: set[str] = set()
    for sub in ast.walk(node):
        called = isinstance(sub, ast.Expr) and isinstance(sub.value, ast.Call)
        if called and any(isinstance(arg, ast.Name) and arg.id == "state" for arg in sub.value.args):  # type: ignore[attr-defined]
            written |= set(_PROLOGUE)
        if isinstance(sub, ast.Attribute | ast.Subscript) and isinstance(sub.ctx, ast.Store):
            if _is_state(sub):
                written.add(sub.attr)  # type: ignore[union-attr]
            elif isinstance(sub, ast.Subscript) and _is_state(sub.value, "hands"):
                written.add("hand")
    if written & {"to_act", "hands"}:
        written.add("hand")
    return written


class _Fresh(ast.NodeTransformer):
    """Reads of the state that the prologue has in locals, and that nothing has written since, read the locals."""

    def __init__(self, stale: set[str]) -> None:
        self.stale = stale

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if (
            isinstance(node.ctx, ast.Load)
            and "hand" not in self.stale
            and _is_state(node.value, "hands")
            and _is_state(node.slice, "to_act")
        ):
            return ast.copy_location(ast.Name("hand", ast.Load()), node)
        return self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if (
            isinstance(node.ctx, ast.Load)
            and _is_state(node)
            and node.attr in _PROLOGUE
            and node.attr not in self.stale
        ):
            return ast.copy_location(ast.Name(_PROLOGUE[node.attr], ast.Load()), node)
        return self.generic_visit(node)


def _read_prologue(statements: list[ast.stmt], stale: set[str]) -> None:
    """Make the reads in ``statements`` use the prologue's locals while they hold (``stale``: those that stopped)."""
    for statement in statements:
        if isinstance(statement, ast.If):
            statement.test = _Fresh(stale).visit(statement.test)
            after = set(stale)
            for branch in (statement.body, statement.orelse):
                inner = set(stale)
                _read_prologue(branch, inner)
                after |= inner
            stale |= after
        elif isinstance(statement, ast.While | ast.For):
            stale |= _writes(statement)  # the loop comes back to its start
            _Fresh(stale).visit(statement)
        else:
            _Fresh(stale).visit(statement)
            stale |= _writes(statement)


def compile_table(rows: Iterable[Row]) -> Compiled:
    """Compile a transition table (:data:`rules.table.TRANSITIONS` or a variant) for search."""
    names = globals()
    groups: dict[tuple[str, int], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.trigger, PHASE_NUMBERS[row.source]), []).append(row)
    for (trigger, phase), group in groups.items():
        if group[-1].conditions or any(not row.conditions for row in group[:-1]):
            raise ValueError(
                f"the rows of {trigger} in {PHASE_NAMES[phase]} must end with exactly one unconditional row"
            )

    steps: dict[tuple[str, int], tuple[Step, ...]] = {}

    def compiled(trigger: str, phase: int) -> tuple[Step, ...]:
        if (trigger, phase) not in steps:
            group = []
            for row in groups[trigger, phase]:
                dest = PHASE_NUMBERS[row.dest]
                then = compiled(AUTOMATIC[row.dest], dest) if row.dest in AUTOMATIC else None
                conditions = tuple(names[name] for name in row.conditions)
                group.append((conditions, tuple(names[name] for name in row.callbacks), dest, then))
            steps[trigger, phase] = tuple(group)
        return steps[trigger, phase]

    phases = range(len(PHASE_NAMES))
    triggers = tuple(frozenset(trigger for trigger, source in groups if source == phase) for phase in phases)
    card_triggers: list[str | None] = []
    for phase in phases:
        cards = sorted(triggers[phase] & {"lead", "beat", "second"})
        if len(cards) > 1:
            raise ValueError(f"phase {PHASE_NAMES[phase]} takes two kinds of card: {cards}")
        card_triggers.append(cards[0] if cards else None)
    # By phase: the steps of playing a card there, then those of taking.
    play = tuple(
        tuple(
            compiled(trigger, phase) if trigger is not None and (trigger, phase) in groups else None
            for trigger in (card_triggers[phase], "take")
        )
        for phase in phases
    )

    def run(state: State, group: tuple[Step, ...] | None, move: Any) -> None:
        while group is not None:
            for conditions, callbacks, dest, then in group:
                for condition in conditions:
                    if not condition(state, move):
                        break
                else:
                    for callback in callbacks:
                        callback(state, move)
                    state.phase = dest
                    group = then
                    break

    # The moves in play become one straight-line Python function, a branch per phase and kind
    # of move, so that search pays for the rules and not for walking the table.
    namespace: dict[str, Any] = dict(names)  # inlined rules read this module's names
    prologue = [
        "    seat = state.to_act",
        "    phase = state.phase",
        "    pile = state.pile",
        "    hand = state.hands[seat]",
        "    out_order = state.out_order",
        "    outcome = state.outcome",
        "    state.counted = None",
    ]
    source = ["def apply(state, move):", *prologue]
    for is_take, test in ((True, "if move == TAKE:"), (False, "else:")):
        source.append(f"    {test}")
        branch = "if"
        for phase in sorted(phases, key=lambda phase: phase != RESPOND):  # the most frequent phase first
            steps_of_kind = play[phase][is_take]
            if steps_of_kind is not None:
                source.append(f"        {branch} phase == {phase}:")
                source += _python_of(steps_of_kind, "            ", namespace)
                branch = "elif"
        source.append("        else:" if branch == "elif" else "        if True:")
        source.append("            raise NoTransition('take' if move == TAKE else 'card', phase)")
    source.append("    return (seat, phase, pile, hand, out_order, outcome, state.counted)")
    module = ast.parse("\n".join(source))
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    _read_prologue(function.body[len(prologue) :], set())
    exec(compile(ast.fix_missing_locations(module), "<compiled table>", "exec"), namespace)
    apply: Callable[[State, int], Undo] = namespace["apply"]
    apply.__doc__ = "Play ``move`` (which must be legal) for the player to act; returns the token for :func:`undo`."

    def fire(state: State, trigger: str, data: Any) -> None:
        if (trigger, state.phase) not in groups:
            raise NoTransition(trigger, state.phase)
        state.counted = None
        run(state, compiled(trigger, state.phase), data)

    # The legal moves: by phase, the masks of the play triggers the table takes there, OR-ed together.
    masks: list[str] = []
    for phase in sorted(phases, key=lambda phase: phase != RESPOND):
        kinds = sorted(triggers[phase] & set(PLAY))
        if kinds:
            parts = [_inlined(MOVE_MASKS[kind], ("state",))[0] or f"MOVE_MASKS[{kind!r}](state)" for kind in kinds]
            masks += [f"    {'if' if not masks else 'elif'} phase == {phase}:", f"        mask = {' | '.join(parts)}"]
    masks += ["    else:", "        mask = 0"] if masks else ["    mask = 0"]
    listed = _inlined(moves_of_mask, ("mask",))[0]
    legal = ["def legal_mask(state):", "    phase = state.phase", *masks, "    return mask"]
    legal += ["def legal_moves(state):", "    phase = state.phase", *masks, f"    return {listed}"]
    exec("\n".join(legal), namespace)
    legal_mask: Callable[[State], int] = namespace["legal_mask"]
    legal_mask.__doc__ = "The legal moves as one mask: bit ``c`` to play card ``c``, bit :data:`TAKE` to take."
    legal_moves: Callable[[State], tuple[int, ...]] = namespace["legal_moves"]
    legal_moves.__doc__ = "The legal moves of the player to act, cards in pack order then :data:`TAKE`."

    return Compiled(apply, fire, legal_mask, legal_moves, tuple(card_triggers), triggers)


RULES = compile_table(TRANSITIONS)
"""The real table, compiled."""

apply = RULES.apply
fire = RULES.fire
legal_mask = RULES.legal_mask
legal_moves = RULES.legal_moves


def undo(state: State, token: Undo) -> None:
    """Take back the move that returned ``token`` (moves are undone last first)."""
    seat, phase, pile, hand, out_order, outcome, key = token
    state.hands[seat] = hand
    state.to_act = seat
    state.phase = phase
    state.pile = pile
    state.out_order = out_order
    state.outcome = outcome
    if key is not None:
        count = state.seen[key] - 1
        if count:
            state.seen[key] = count
        else:
            del state.seen[key]


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


def deal_pack(players: int, dealer: int, rng: random.Random) -> list[list[Card]]:
    """Shuffle the pack with ``rng`` and deal it one card at a time from the dealer's left (§2.2)."""
    pack = list(CARDS)
    rng.shuffle(pack)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(pack):
        hands[(dealer + 1 + i) % players].append(card)
    return hands


def deal_error(hands: Sequence[Sequence[int]], players: int) -> Refusal | None:
    """Why ``hands`` is not a deal of the whole pack to ``players`` seats, or ``None``."""
    if len(hands) != players:
        return _refusal("deal_hands", "2.2", f"the deal has {len(hands)} hands for {players} players")
    size = PACK_SIZE // players
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            return _refusal(
                "deal_hand_size", "2.2", f"the deal gives {{s0}} {len(hand)} cards, not {size}", seats=(seat,)
            )
    seen: set[int] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                return _refusal("deal_card_twice", "2.2", "the deal has {c0} twice", cards=(CODES[card],))
            seen.add(card)
    return None


def passed_sixes(hands: Sequence[int], trumps: Sequence[int]) -> list[tuple[Card, int, int]]:
    """The sixes that pass after the deal (§2.2): ``(card, from_seat, to_seat)`` in pack order."""
    owner = {suit: seat for seat, suit in enumerate(trumps)}
    passes = []
    for suit, seat in sorted(owner.items()):
        six = suit * RANKS_PER_SUIT
        for holder, hand in enumerate(hands):
            if holder != seat and hand >> six & 1:
                passes.append((CARDS[six], holder, seat))
    return passes


def position_error(
    trumps: Sequence[int], hands: Sequence[Sequence[int]], pile: Sequence[int], to_act: int, phase: int
) -> Refusal | None:
    """Why a position (log format §L4.3) is refused, or ``None`` when it is a valid start."""
    if len(trumps) != len(hands):
        return _refusal("position_size", "1", f"the position has {len(trumps)} trumps for {len(hands)} hands")
    if len(set(trumps)) != len(trumps):
        return _refusal("position_same_trump", "2.1", "two seats have the same trump suit")
    seen: set[int] = set()
    for card in [card for hand in hands for card in hand] + list(pile):
        if card in seen:
            return _refusal("position_card_twice", "1", "{c0} appears more than once", cards=(CODES[card],))
        seen.add(card)
    if sum(1 for hand in hands if hand) < 2:
        return _refusal("position_one_holder", "3", "fewer than two seats hold cards")
    if not 0 <= to_act < len(hands):
        return _refusal("position_to_act", "1", f"to_act {to_act} is not a seat")
    if not hands[to_act]:
        return _refusal("position_to_act_out", "1", "{s0} is to act but holds no cards", seats=(to_act,))
    if phase not in (LEAD, RESPOND, SECOND):
        return _refusal("position_phase", "1", "the phase must be lead, respond or second")
    if (phase == LEAD) != (not pile):
        return _refusal("position_pile", "2.3", "the pile must be empty exactly when the phase is lead")
    return None


# --- Why a move is refused -----------------------------------------------------------------

VERBS = {"lead": "lead", "beat": "beat", "second": "play a second card", "take": "take"}
CLAUSES = {"lead": "2.3", "beat": "2.4", "second": "2.5", "take": "2.6"}

_MUST = {
    LEAD: ("2.3", "the pile is empty, {s0} must lead"),
    RESPOND: ("2.4", "{s0} must beat {c0} or take"),
    SECOND: ("2.5", "{s0} must play a second card on its beating card"),
}


def refusal(state: State, seat: int, kind: str, card: int | None, table: Compiled | None = None) -> Refusal:
    """The rule that refuses ``seat``'s move ``kind`` (``lead``, ``beat``, ``second``, ``take``) with ``card``.

    Only meaningful for a move that the ``table`` (the real rules if not given) does not allow.
    """
    table = table or RULES
    verb = VERBS[kind]
    if state.phase == FINISHED:
        return _refusal("game_over", "3", f"{{s0}} cannot {verb}: the game is over", seat=seat)
    if seat != state.to_act:
        return _refusal(
            "not_your_turn", "1", f"{{s0}} cannot {verb}: it is {{p1}} turn", seat=seat, seats=(seat, state.to_act)
        )
    top = CODES[state.pile[-1]] if state.pile else None
    if kind not in table.triggers[state.phase]:
        clause, must = _MUST.get(state.phase, ("1", f"the rules have no {kind} in phase {PHASE_NAMES[state.phase]}"))
        cards = () if top is None else (top,)
        return _refusal("wrong_move", clause, f"{{s0}} cannot {verb}: {must}", seat=seat, cards=cards)
    if kind == "take":
        beaters = tuple(CODES[c] for c in moves_of_mask(table.legal_mask(state) & ~TAKE_BIT))
        listed = ", ".join(f"{{c{i}}}" for i in range(1, len(beaters) + 1))
        return _refusal(
            "must_beat",
            "2.6",
            "{s0} cannot take: rule must_beat, and {c0} can be beaten with " + listed,
            seat=seat,
            cards=(CODES[state.pile[-1]], *beaters),
        )
    assert card is not None
    if not state.hands[seat] >> card & 1:
        return _refusal(
            "not_in_hand",
            CLAUSES[kind],
            f"{{s0}} cannot {verb} {{c0}}: {{c0}} is not in {{p0}} hand",
            seat=seat,
            cards=(CODES[card],),
        )
    top_card = state.pile[-1]
    trump = state.trumps[seat]
    prefix = "{s0} cannot beat {c0} with {c1}"
    involved = (CODES[top_card], CODES[card])
    if card // RANKS_PER_SUIT == top_card // RANKS_PER_SUIT:
        return _refusal("lower_card", "2.4", prefix + ": {c1} is lower than {c0}", seat=seat, cards=involved)
    if top_card // RANKS_PER_SUIT == trump:
        return _refusal(
            "higher_trump_only",
            "2.4",
            prefix + ": {c0} is your trump, only a higher trump beats it",
            seat=seat,
            cards=involved,
        )
    return _refusal(
        "not_suit_nor_trump", "2.4", prefix + ": not the same suit and not your trump", seat=seat, cards=involved
    )
