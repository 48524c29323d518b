"""Cards, suits and ranks, and their two-character notation.

A card is written rank then suit: ``TS`` is the ten of spades, ``AH`` the ace of
hearts. Internally a card is its index in the pack, ``suit * 9 + rank``, so a hand
fits in one integer bit mask (bit ``i`` set when card ``i`` is held) and the rule
functions in :mod:`rules.core` work on plain integers.

>>> Card.parse("TS")
Card('TS')
>>> Card.parse("TS").suit, Card.parse("TS").rank
(<Suit.SPADES: 0>, <Rank.TEN: 4>)
>>> Card.parse("AH").label
'A♥'
>>> [str(c) for c in cards_of_mask(mask_of([Card.parse("7D"), Card.parse("6S")]))]
['6S', '7D']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Annotated

from pydantic import StringConstraints

SUIT_CHARS = "SHDC"
RANK_CHARS = "6789TJQKA"
RANKS_PER_SUIT = len(RANK_CHARS)
PACK_SIZE = len(SUIT_CHARS) * RANKS_PER_SUIT

CARD_PATTERN = "^[6789TJQKA][SHDC]$"
"""Regular expression of a card code, as used in logs and JSON Schemas."""

CardCode = Annotated[str, StringConstraints(pattern=CARD_PATTERN)]
"""A card in two-character notation, validated by pydantic."""

_CARD_RE = re.compile(CARD_PATTERN)


class Suit(IntEnum):
    """The four suits, in the order used for sorting hands: S H D C."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The suit's letter in card codes: ``S``, ``H``, ``D`` or ``C``."""
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol for display: ♠ ♥ ♦ ♣."""
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, letter: str) -> Suit:
        """The suit written as ``letter`` (one of ``S H D C``).

        >>> Suit.parse("D")
        <Suit.DIAMONDS: 2>
        """
        index = SUIT_CHARS.find(letter) if len(letter) == 1 else -1
        if index < 0:
            raise ValueError(f"invalid suit {letter!r}: expected one of S, H, D, C")
        return cls(index)


class Rank(IntEnum):
    """The nine ranks, low to high."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    TEN = 4
    JACK = 5
    QUEEN = 6
    KING = 7
    ACE = 8

    @property
    def letter(self) -> str:
        """The rank's character in card codes: ``6``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return RANK_CHARS[self]


class Card(int):
    """One card of the 36-card pack, an ``int`` from 0 to 35.

    Being an ``int``, a ``Card`` can be used directly as a bit index in a hand mask.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < PACK_SIZE:
            raise ValueError(f"card index {index} is outside the pack (0-35)")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        return cls(suit * RANKS_PER_SUIT + rank)

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card written as ``code``, e.g. ``"TS"``; raises ``ValueError`` with the reason."""
        if not isinstance(code, str) or not _CARD_RE.fullmatch(code):
            raise ValueError(
                f"invalid card {code!r}: expected a rank 6-9, T, J, Q, K or A followed by a suit S, H, D or C"
            )
        return CARDS[SUIT_CHARS.index(code[1]) * RANKS_PER_SUIT + RANK_CHARS.index(code[0])]

    @property
    def suit(self) -> Suit:
        return Suit(self // RANKS_PER_SUIT)

    @property
    def rank(self) -> Rank:
        return Rank(self % RANKS_PER_SUIT)

    @property
    def code(self) -> str:
        """The two-character code, e.g. ``TS``."""
        return CODES[self]

    @property
    def label(self) -> str:
        """A display label with the suit symbol and ``10`` for the ten, e.g. ``10♠``."""
        rank = "10" if self.rank is Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return CODES[self]

    def __repr__(self) -> str:
        return f"Card({CODES[self]!r})"


CODES: tuple[str, ...] = tuple(r + s for s in SUIT_CHARS for r in RANK_CHARS)
"""Card codes by card index."""

CARDS: tuple[Card, ...] = tuple(Card.__new__(Card, i) for i in range(PACK_SIZE))
"""The pack, in index order (spades 6 to ace, then hearts, diamonds, clubs)."""

FULL_PACK_MASK = (1 << PACK_SIZE) - 1


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of_mask(mask: int) -> Iterator[Card]:
    """The cards of ``mask`` in pack order (sorted by suit S H D C, then by rank)."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def codes_of_mask(mask: int) -> list[str]:
    """The card codes of ``mask``, sorted as a state sorts hands (rules §1.5)."""
    return [CODES[card] for card in cards_of_mask(mask)]
