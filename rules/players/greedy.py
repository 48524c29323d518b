"""The greedy player: rules of thumb, no search.

- **Beat cheaply**: answer with the cheapest card that beats, a plain card before a trump.
- **Keep high trumps**: a card's cost is its rank, plus a premium for one's own trump suit
  (nine, or four in the :data:`TUNED` style), so trumps are spent late and low before high.
- **Shed when safe**: lead or add as second card what the next player cannot beat (they
  must take), the cheapest such card; failing that, the card that costs them the most to beat
  for what it costs to play.
- **Take when it pays**: take rather than spend a high trump (queen or better) while the hand
  is still large and the pile to pick up is short.
- Going out beats everything: play the last card whenever the rules allow.

The numbers in these rules are a :class:`Style`. The ``medium`` level plays :data:`TUNED`; the same rules in the
:data:`CLASSIC` style drive the fast rollouts of :mod:`rules.players.mcts` and the solver's first move, on a
core state and a mask per seat of the cards it may hold (the exact hands in the duel or a determinization).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from rules import core
from rules.cards import RANKS_PER_SUIT
from rules.events import Event
from rules.players.knowledge import card_mask, event_of, state_of_view, unseen_mask
from rules.players.random_player import choose_trump
from rules.state import View

TRUMP_PREMIUM: Final = RANKS_PER_SUIT
"""Added to a card's rank when the card is of its holder's own trump suit (in the :data:`CLASSIC` style)."""


class Style(NamedTuple):
    """The constants of the rules of thumb; :func:`style` makes one from the numbers a person would tune."""

    costs: tuple[tuple[int, ...], ...]
    """Per trump suit of the holder, per card: its rank, plus the trump premium for a card of that suit."""
    reluctant: int
    """The cost from which beating with a card is reluctant (taking is considered instead)."""
    hand: int
    """Taking instead is considered only while the hand holds more than this many cards."""
    take: int
    """... and only when the take would take at most this many."""
    shed: float
    """At a lead or second card the next player can beat: the weight of the card's own cost against what the
    cheapest answer costs them."""


def style(premium: int = TRUMP_PREMIUM, high: int = 6, hand: int = 4, take: int = 3, shed: float = 0.5) -> Style:
    """The style of a trump ``premium``, reluctance from rank ``high`` of one's own trump (6: the queen), ``hand``,
    ``take`` and ``shed`` (see :class:`Style`); the defaults are :data:`CLASSIC`'s.

    >>> style().costs[0][8], style(premium=4).costs[0][8]  # the ace of spades for a player whose trump is spades
    (17, 12)
    """
    costs = tuple(
        tuple(card % RANKS_PER_SUIT + (premium if card // RANKS_PER_SUIT == trump else 0) for card in range(36))
        for trump in range(4)
    )
    return Style(costs, premium + high, hand, take, shed)


CLASSIC: Final = style()
"""The rules of thumb as first written: MCTS's rollouts and the solver's first move play them."""

TUNED: Final = style(premium=4, shed=1.0)
"""A trump spent sooner and shedding that weighs the card's own cost fully: the ``medium`` level's style.

Against :data:`CLASSIC`, 80.3% of 6,000 duels without noise and 74.8% of 4,000 with a random move one time in ten
(``python -m benchmarks.middle_game greedy --noise 0 --deals 3000 premium=4,shed=1``; docs/players.md). As
MCTS's rollouts it makes the search weaker, so those stay :data:`CLASSIC`.
"""


def _cheapest(mask: int, cost: tuple[int, ...]) -> int:
    best, best_cost = -1, 99
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        mask ^= low
        if cost[card] < best_cost:
            best, best_cost = card, cost[card]
    return best


def heuristic_move(state: core.State, possible: Sequence[int], style: Style = CLASSIC) -> int:
    """The greedy move of the seat to act in ``style``; ``possible[s]``: the cards seat ``s`` may hold."""
    seat = state.to_act
    hand = state.hands[seat]
    trump = state.trumps[seat]
    cost = style.costs[trump]
    if state.phase == core.RESPOND:
        mask = core.legal_mask(state)
        beaters = mask & ~core.TAKE_BIT
        if not beaters:
            return core.TAKE
        if beaters & hand == hand:  # the last card beats: go out
            return beaters.bit_length() - 1
        card = _cheapest(beaters, cost)
        if (
            mask & core.TAKE_BIT
            and cost[card] >= style.reluctant
            and hand.bit_count() > style.hand
            and core.take_count(state.pile[-1], len(state.pile), trump) <= style.take
        ):
            return core.TAKE
        return card
    # Lead or second card: shed what the next player cannot beat, cheaply.
    following = core.next_seat(state.hands, seat) if hand.bit_count() > 1 else -1
    if following < 0:
        return hand.bit_length() - 1
    their = possible[following]
    their_beaters = core.BEATERS[state.trumps[following]]
    their_cost = style.costs[state.trumps[following]]
    best, best_score = -1, -1.0e9
    mask = hand
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        mask ^= low
        answers = their & their_beaters[card]
        # Unanswerable cards first (cheapest first), else what costs the next player most to beat.
        score = their_cost[_cheapest(answers, their_cost)] - cost[card] * style.shed if answers else 100.0 - cost[card]
        if score > best_score:
            best, best_score = card, score
    return best


def noisy_move(state: core.State, rng: random.Random, noise: float, style: Style = CLASSIC) -> int:
    """The greedy move of the seat to act in ``style``, or with probability ``noise`` a random legal one.

    What playouts play: MCTS's rollouts and the solver benchmark's games.
    """
    if rng.random() < noise:
        return rng.choice(core.legal_moves(state))
    return heuristic_move(state, state.hands, style)


def possible_masks(view: View, state: core.State) -> list[int]:
    """Per seat, the cards it may hold as this seat sees it: exact in the duel, known + unseen otherwise."""
    if view.players == 2:
        return list(state.hands)
    unseen = unseen_mask(view)
    return [
        state.hands[seat] if seat == view.seat else card_mask(known) | unseen for seat, known in enumerate(view.known)
    ]


class GreedyPlayer:
    """Plays by the rules of thumb above; trumps are chosen at random (nothing is known before the deal).

    With ``noise`` > 0 it plays a random legal move with that probability (the ``easy`` level). Its ``style`` is
    :data:`CLASSIC` (``greedy``) or another, such as :data:`TUNED` (``greedy-tuned``, the ``medium`` level).
    """

    def __init__(self, seed: int | None = None, noise: float = 0.0, style: Style = CLASSIC) -> None:
        self._rng = random.Random(seed)
        self.noise = noise
        self.style = style
        family = "greedy" if style == CLASSIC else "greedy-tuned" if style == TUNED else "greedy-style"
        self.name = f"{family}:{noise:g}" if noise else family

    def choose(self, view: View) -> Event:
        if view.phase == "trump_choice":
            return choose_trump(view, self._rng)
        if self.noise and self._rng.random() < self.noise:
            return self._rng.choice(view.legal_moves)
        # With 3-4 players only the seat's own hand and the hand sizes of the sample matter here.
        state = state_of_view(view, self._rng)
        return event_of(view, heuristic_move(state, possible_masks(view, state), self.style))
