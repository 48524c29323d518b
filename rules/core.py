"""The rules of Svoi Kozyri, once: a lean game state and pure rule functions.

Everything that decides what is legal and what happens lives here, on plain integers:
a card is its index ``suit * 9 + rank`` (see :mod:`rules.cards`), a hand is a bit
mask, the pile is a tuple of cards from bottom to top, and a move is either a card
index (lead, beat or second card, depending on the phase) or :data:`TAKE`.

The state machine (:mod:`rules.machine`), the game API (:mod:`rules.game`), the
players' search and the server all call these functions; none of them repeats a rule.

>>> state = State.from_position(trumps=(0, 1), hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
...                             pile=(Card.parse("9C"), Card.parse("JC")), to_act=1, phase=RESPOND)
>>> [move_code(m) for m in legal_moves(state)]   # seat 1 (trump H) beats J♣ with K♥, or takes
['KH', 'take']
>>> undo = apply(state, Card.parse("KH"))        # its last card: seat 1 goes out
>>> state.outcome                                # seat 0 holds two cards: it loses the tie check
('loss', 0)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from rules.cards import CARDS, CODES, PACK_SIZE, RANKS_PER_SUIT, Card, Rank, mask_of

# Phases. Integers for speed; PHASE_NAMES gives their names in logs and states.
TRUMP_CHOICE, DEAL, LEAD, RESPOND, SECOND, FINISHED = range(6)
PHASE_NAMES = ("trump_choice", "deal", "lead", "respond", "second", "finished")

TAKE = PACK_SIZE
"""The move code of taking from the pile (every other move is a card index)."""
TAKE_BIT = 1 << TAKE

ACE = int(Rank.ACE)

Outcome = tuple[str, int] | tuple[str, str]
"""``("loss", loser_seat)``, ``("draw", "tie_check")`` or ``("draw", "repetition")``."""

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
    """A position in play, with what the repetition rule needs to remember.

    Mutable for speed: :func:`apply` changes it in place and returns what :func:`undo`
    needs. Use :meth:`copy` to branch.
    """

    __slots__ = ("hands", "must_beat", "out_order", "outcome", "phase", "pile", "seen", "to_act", "trumps")

    trumps: tuple[int, ...]
    must_beat: bool
    hands: list[int]
    pile: tuple[int, ...]
    to_act: int
    phase: int
    out_order: tuple[int, ...]
    outcome: Outcome | None
    seen: dict[PositionKey, int]

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

        ``seen`` is the repetition history before this position (empty if not given).
        """
        state = cls()
        state.trumps = tuple(trumps)
        state.must_beat = must_beat
        state.hands = [mask_of(hand) for hand in hands]
        state.pile = tuple(pile)
        state.to_act = to_act
        state.phase = phase
        state.out_order = tuple(out_order)
        state.outcome = None
        state.seen = dict(seen) if seen else {}
        if phase != SECOND:
            key = state.key()
            state.seen[key] = state.seen.get(key, 0) + 1
        return state

    def copy(self) -> State:
        other = State()
        other.trumps = self.trumps
        other.must_beat = self.must_beat
        other.hands = self.hands.copy()
        other.pile = self.pile
        other.to_act = self.to_act
        other.phase = self.phase
        other.out_order = self.out_order
        other.outcome = self.outcome
        other.seen = self.seen.copy()
        return other

    def key(self) -> PositionKey:
        """The position compared by the repetition rule: hands, pile, player to act, phase."""
        return (tuple(self.hands), self.pile, self.to_act, self.phase)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.phase == FINISHED


def legal_mask(state: State) -> int:
    """The legal moves as one mask: bit ``c`` to play card ``c``, bit :data:`TAKE` to take."""
    phase = state.phase
    if phase == RESPOND:
        seat = state.to_act
        beaters = state.hands[seat] & BEATERS[state.trumps[seat]][state.pile[-1]]
        if beaters and state.must_beat:
            return beaters
        return beaters | TAKE_BIT
    if phase in (LEAD, SECOND):
        return state.hands[state.to_act]
    return 0


def legal_moves(state: State) -> tuple[int, ...]:
    """The legal moves of the player to act, cards in pack order then :data:`TAKE`."""
    return moves_of_mask(legal_mask(state))


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


def apply(state: State, move: int) -> Undo:
    """Play ``move`` (which must be legal) for the player to act; returns the token for :func:`undo`.

    Does all the rules do on their own: the second card after a beat, the take and
    the re-lead, going out, the tie check and the repetition draw.
    """
    seat = state.to_act
    hands = state.hands
    pile = state.pile
    hand = hands[seat]
    undo = (seat, state.phase, pile, hand, state.out_order, state.outcome)
    if move == TAKE:
        top = pile[-1]
        count = take_count(top, len(pile), state.trumps[seat])
        for card in pile[-count:]:
            hand |= 1 << card
        hands[seat] = hand
        state.pile = pile = pile[:-count]
        state.phase = RESPOND if pile else LEAD
    else:
        hand ^= 1 << move
        hands[seat] = hand
        state.pile = pile + (move,)
        if hand:
            if state.phase == RESPOND:
                state.phase = SECOND
                return (*undo, None)
        else:
            state.out_order += (seat,)
            holders = [s for s, h in enumerate(hands) if h]
            if len(holders) == 1:
                last = holders[0]
                if tie_check(hands[last], move, state.trumps[last]):
                    state.outcome = ("draw", "tie_check")
                else:
                    state.outcome = ("loss", last)
                state.phase = FINISHED
                return (*undo, None)
        state.phase = RESPOND
    state.to_act = next_seat(hands, seat)
    key = (tuple(hands), state.pile, state.to_act, state.phase)
    seen = state.seen
    count = seen.get(key, 0) + 1
    seen[key] = count
    if count >= REPETITIONS_FOR_DRAW:
        state.outcome = ("draw", "repetition")
        state.phase = FINISHED
    return (*undo, key)


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


def won(outcome: Outcome, seat: int) -> bool:
    """Whether ``seat`` has won a game that ended with ``outcome``: there is a loser, and it is someone else (§3).

    >>> won(("loss", 1), 0), won(("loss", 0), 0), won(("draw", "tie_check"), 0)
    (True, False, False)
    """
    return outcome[0] == "loss" and outcome[1] != seat


def returns(state: State) -> list[float]:
    """Each seat's result of a finished game: +1 for the winners, -1 for the loser, 0 in a draw."""
    if state.outcome is None:
        raise ValueError("the game is not over")
    if state.outcome[0] == "draw":
        return [0.0] * state.players
    return [-1.0 if seat == state.outcome[1] else 1.0 for seat in range(state.players)]


def next_dealer(dealer: int, loser: int | None) -> int:
    """Who deals the next hand of a match (§4): the loser; after a draw (no loser), the same dealer.

    >>> next_dealer(0, loser=1), next_dealer(0, loser=None)
    (1, 0)
    """
    return dealer if loser is None else loser


# --- Before play: trump choice, deal, sixes, positions ------------------------------------


def trump_chooser(first_seat: int, players: int, chosen: int) -> int:
    """The seat that chooses the next trump after ``chosen`` choices, going round from ``first_seat`` (§2.1)."""
    return (first_seat + chosen) % players


def deal_pack(players: int, dealer: int, rng: random.Random) -> list[list[Card]]:
    """Shuffle the pack with ``rng`` and deal it one card at a time from the dealer's left (§2.2)."""
    pack = list(CARDS)
    rng.shuffle(pack)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, card in enumerate(pack):
        hands[(dealer + 1 + i) % players].append(card)
    return hands


def deal_error(hands: Sequence[Sequence[int]], players: int) -> str | None:
    """Why ``hands`` is not a deal of the whole pack to ``players`` seats, or ``None``."""
    if len(hands) != players:
        return f"the deal has {len(hands)} hands for {players} players"
    size = PACK_SIZE // players
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            return f"the deal gives seat {seat} {len(hand)} cards, not {size}"
    seen: set[int] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                return f"the deal has {CODES[card]} twice"
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
) -> str | None:
    """Why a position (log format §L4.3) is refused, or ``None`` when it is a valid start."""
    if len(trumps) != len(hands):
        return f"the position has {len(trumps)} trumps for {len(hands)} hands"
    if len(set(trumps)) != len(trumps):
        return "two seats have the same trump suit"
    seen: set[int] = set()
    for card in [card for hand in hands for card in hand] + list(pile):
        if card in seen:
            return f"{CODES[card]} appears more than once"
        seen.add(card)
    if sum(1 for hand in hands if hand) < 2:
        return "fewer than two seats hold cards"
    if not 0 <= to_act < len(hands):
        return f"to_act {to_act} is not a seat"
    if not hands[to_act]:
        return f"seat {to_act} is to act but holds no cards"
    if phase not in (LEAD, RESPOND, SECOND):
        return "the phase must be lead, respond or second"
    if (phase == LEAD) != (not pile):
        return "the pile must be empty exactly when the phase is lead"
    return None


# --- Why a move is refused -----------------------------------------------------------------

VERBS = {"lead": "lead", "beat": "beat", "second": "play a second card", "take": "take"}


def refusal(state: State, seat: int, kind: str, card: int | None) -> str:
    """The rule that refuses ``seat``'s move ``kind`` (``lead``, ``beat``, ``second``, ``take``) with ``card``.

    Only meaningful for a move that :func:`legal_moves` does not contain.
    """
    verb = VERBS[kind]
    if state.phase == FINISHED:
        return f"seat {seat} cannot {verb}: the game is over"
    if seat != state.to_act:
        return f"seat {seat} cannot {verb}: it is seat {state.to_act}'s turn"
    expected = {LEAD: "lead", RESPOND: "beat", SECOND: "second"}[state.phase]
    if state.phase == RESPOND and kind == "take":
        top = state.pile[-1]
        can = legal_mask(state) & ~TAKE_BIT
        return f"seat {seat} cannot take: rule must_beat, and {CODES[top]} can be beaten with " + ", ".join(
            CODES[c] for c in moves_of_mask(can)
        )
    if kind != expected and not (state.phase == RESPOND and kind == "take"):
        if state.phase == LEAD:
            must = f"the pile is empty, seat {seat} must lead"
        elif state.phase == RESPOND:
            must = f"seat {seat} must beat {CODES[state.pile[-1]]} or take"
        else:
            must = f"seat {seat} must play a second card on its beating card"
        return f"seat {seat} cannot {verb}: {must}"
    assert card is not None
    if not state.hands[seat] >> card & 1:
        return f"seat {seat} cannot {verb} {CODES[card]}: {CODES[card]} is not in seat {seat}'s hand"
    top = state.pile[-1]
    trump = state.trumps[seat]
    prefix = f"seat {seat} cannot beat {CODES[top]} with {CODES[card]}"
    if card // RANKS_PER_SUIT == top // RANKS_PER_SUIT:
        return f"{prefix}: {CODES[card]} is lower than {CODES[top]}"
    if top // RANKS_PER_SUIT == trump:
        return f"{prefix}: {CODES[top]} is your trump, only a higher trump beats it"
    return f"{prefix}: not the same suit and not your trump"


def move_kind(phase: int, move: int) -> str:
    """What playing ``move`` in ``phase`` is called in a log: ``lead``, ``beat``, ``second`` or ``take``."""
    if move == TAKE:
        return "take"
    return ("lead", "beat", "second")[phase - LEAD]
