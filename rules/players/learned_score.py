"""A learned score of an unfinished duel: the chance that the seat to act wins, from a few counts of the position.

MCTS scores a rollout that stops before the game's end (:func:`rules.players.mcts.evaluate`) by the
hand sizes alone. This module offers a second score for the duel, :func:`evaluate`: a logistic
regression on :data:`FEATURES` of the position (hand sizes, trumps, the cards of each hand the other
cannot beat, the pile, the phase), fitted to what a short search makes of positions of its own duels.
The weights are plain constants (:data:`WEIGHTS`), fitted in three steps: ``python -m benchmarks.learned_score`` fits
the regression to how playouts by the rollouts' own policy end and prints how well it predicts positions it did not
fit on (the first weights); ``python -m benchmarks.middle_game fit --search 500`` fits it to the values a search
scoring with those first weights gives (the second); and ``… fit --play 200 --search 500 --search-score search`` to
the values a search scoring with the second gives positions of its own games (the weights in use).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from rules import core
from rules.cards import RANKS_PER_SUIT
from rules.players.mcts import Rollouts
from rules.players.mcts import evaluate as hand_sizes

ROLLOUT_PLIES: Final = 10
"""How many plies the rollouts of MCTS with this score play before it scores them (30 with the hand sizes').

Against MCTS with the hand sizes' score, 2,000 iterations a move each, on the arena's 16 duels of seed 1:
12 wins and 4 losses with rollouts of 10 plies, 11 and 5 with 30 (docs/players.md); the shorter is also cheaper.
"""

SUIT_BITS: Final = (1 << RANKS_PER_SUIT) - 1
HIGH_RANKS: Final = 3
"""The queen, king and ace: the trumps counted as high."""

FEATURES: Final = (
    "bias",
    "my cards / 18",
    "their cards / 18",
    "1 / (1 + my cards)",
    "1 / (1 + their cards)",
    "my trumps / 9",
    "their trumps / 9",
    "my high trumps / 3",
    "their high trumps / 3",
    "my cards they cannot beat / 18",
    "their cards I cannot beat / 18",
    "pile / 36",
    "I respond",
    "I play a second card",
    "a take would take / 5",
    "I can beat the top",
)
"""What the regression sees of a duel position, from the seat to act ("I"); see :func:`features`."""

# Fitted by `python -m benchmarks.middle_game fit --play 200 --search 500 --search-score search --playouts 1 --jobs 2`
# (2026-12-05), which prints these numbers: 9,170 positions of 400 duels that a search of 200 iterations played against
# itself, each labelled by what a search of 500 iterations makes of it (the mean result of the move it would play),
# both searches scoring their rollouts with the second fit's weights (`benchmarks.middle_game.SEARCH_WEIGHTS`, fitted
# the same way to positions of noisy-greedy duels).
WEIGHTS: Final[tuple[float, ...]] = (
    0.0295,  # bias
    -0.8741,  # my cards / 18
    0.8799,  # their cards / 18
    0.8777,  # 1 / (1 + my cards)
    -0.4794,  # 1 / (1 + their cards)
    0.4765,  # my trumps / 9
    -0.3063,  # their trumps / 9
    0.3467,  # my high trumps / 3
    -0.3838,  # their high trumps / 3
    0.3190,  # my cards they cannot beat / 18
    -0.1588,  # their cards I cannot beat / 18
    0.0266,  # pile / 36
    -0.4129,  # I respond
    0.0272,  # I play a second card
    0.0234,  # a take would take / 5
    0.3036,  # I can beat the top
)
"""The regression's weight of each of :data:`FEATURES`, fitted to a short search's own values of positions of its
own games: MCTS with them beat MCTS with the second fit's weights in 50 of 80 duels (1 draw), 2,000 iterations a
move each (docs/players.md)."""


Counts = Callable[[core.State], list[float]]
"""What a score reads of a position: a list of counts (:func:`features`, or others a benchmark tries)."""


def suit_of(hand: int, suit: int) -> int:
    """The ranks of ``suit`` in ``hand``, as a mask of :data:`~rules.cards.RANKS_PER_SUIT` bits (bit 0 the six).

    >>> from rules.cards import Card, mask_of
    >>> bin(suit_of(mask_of(Card.parse(code) for code in ("6H", "8H", "AS")), suit=1))
    '0b101'
    """
    return (hand >> (suit * RANKS_PER_SUIT)) & SUIT_BITS


def unbeatable(hand: int, other: int, other_trump: int) -> int:
    """How many cards of ``hand`` no card of ``other`` beats, for a player whose trump is ``other_trump``: read off
    :data:`rules.core.BEATERS`, the rules' own table of what beats what (§2.4).

    >>> from rules.cards import Card, mask_of
    >>> mine = mask_of(Card.parse(code) for code in ("AH", "7H", "KD"))
    >>> unbeatable(mine, mask_of([Card.parse("9H")]), other_trump=0)  # no spade: the ace of hearts and the king
    2
    >>> unbeatable(mine, mask_of([Card.parse("6S")]), other_trump=0)  # a spade beats every heart and diamond
    0
    """
    beaters = core.BEATERS[other_trump]
    return sum(1 for card in core.moves_of_mask(hand) if not beaters[card] & other)


def features(state: core.State) -> list[float]:
    """The values of :data:`FEATURES` for an unfinished duel position, seen from the seat to act."""
    me = state.to_act
    mine, theirs = state.hands[me], state.hands[1 - me]
    my_trump, their_trump = state.trumps[me], state.trumps[1 - me]
    my_trumps, their_trumps = suit_of(mine, my_trump), suit_of(theirs, their_trump)
    my_cards, their_cards = mine.bit_count(), theirs.bit_count()
    responding = state.phase == core.RESPOND
    take = beat = 0.0
    if responding:
        top = state.pile[-1]
        take = core.take_count(top, len(state.pile), my_trump) / 5
        beat = 1.0 if core.BEATERS[my_trump][top] & mine else 0.0
    return [
        1.0,
        my_cards / 18,
        their_cards / 18,
        1 / (1 + my_cards),
        1 / (1 + their_cards),
        my_trumps.bit_count() / 9,
        their_trumps.bit_count() / 9,
        (my_trumps >> (RANKS_PER_SUIT - HIGH_RANKS)).bit_count() / HIGH_RANKS,
        (their_trumps >> (RANKS_PER_SUIT - HIGH_RANKS)).bit_count() / HIGH_RANKS,
        unbeatable(mine, theirs, their_trump) / 18,
        unbeatable(theirs, mine, my_trump) / 18,
        len(state.pile) / 36,
        1.0 if responding else 0.0,
        1.0 if state.phase == core.SECOND else 0.0,
        take,
        beat,
    ]


def win_probability(values: list[float], weights: tuple[float, ...] = WEIGHTS) -> float:
    """The regression's chance of a win for the seat whose :func:`features` are ``values``."""
    z = sum(weight * value for weight, value in zip(weights, values, strict=True))
    if z < -30:  # exp would overflow; the chance is nil
        return 0.0
    return 1 / (1 + math.exp(-z))


def evaluate(
    state: core.State,
    weights: tuple[float, ...] = WEIGHTS,
    counts: Counts = features,
) -> list[float]:
    """Each seat's score in [-1, 1]: the real result if the game is over, else ``2p - 1`` from the learned chance
    (of the regression with ``weights`` on the ``counts`` of the position, :func:`features` unless a benchmark
    tries others).

    With three or four players (the regression knows only the duel) it is the hand sizes' score.
    """
    if state.outcome is not None or state.players != 2:
        return hand_sizes(state)
    score = 2 * win_probability(counts(state), weights) - 1
    return [score, -score] if state.to_act == 0 else [-score, score]


ROLLOUTS: Final = Rollouts(ROLLOUT_PLIES, evaluate)
"""How the rollouts of MCTS end with this score: after :data:`ROLLOUT_PLIES`, scored by :func:`evaluate`."""
