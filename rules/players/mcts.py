"""Monte-Carlo tree search, for the duel and (by determinization) for three or four players.

Each iteration draws a position consistent with the seat's view
(:func:`~rules.players.knowledge.sample_state`: in the duel the exact position, with 3–4
players the hidden cards dealt at random around what is publicly known), walks down one
shared tree of moves with UCB1 — counting for each child how often it was *available*, as
information-set MCTS (single observer) does, since the legal moves differ between draws —
adds one node, finishes the game with a fast greedy-with-noise rollout on
:mod:`rules.core`, and backs the result up for the seat that made each move.

A rollout that runs past :data:`ROLLOUT_PLIES` is scored by the hand sizes (fewer cards is
better). A short rollout is both cheaper and a better guide: the hand sizes a few dozen plies
ahead still say something about the move at the root, while after a hundred plies of noisy
greedy play they are mostly noise (see :data:`ROLLOUT_PLIES` for the figures).

The score is a parameter (:data:`Score`, :class:`Rollouts`): in the duel the ``hard`` and ``perfect``
levels stop rollouts after 10 plies and score them by a learned chance of a win
(:mod:`rules.players.learned_score`, the arena's ``mcts-learned``): its first weights won 29 of 40 duels
against the hand sizes' score at 2,000 iterations a move each, the second 63 of 100 against the first, and the
weights in use (the third) 50 of 80 against the second.

The search is deterministic for a given seed and iteration budget; a time budget (seconds
per move) makes it depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import NamedTuple

from rules import core
from rules.events import Event
from rules.players.greedy import noisy_move
from rules.players.knowledge import event_of, sample_state
from rules.players.random_player import choose_trump
from rules.state import View

EXPLORATION = 0.7
"""The UCB1 exploration constant (rewards lie in [-1, 1])."""

ROLLOUT_PLIES = 30
"""How many plies a rollout plays before it scores the hand sizes.

Measured with ``python -m benchmarks.rollouts`` (mirrored duels, MCTS against MCTS with the same
time per move, one rollout length against another); the figures are in docs/players.md.
"""

ROLLOUT_NOISE = 0.1
"""A rollout plays the greedy move, or a random one with this probability."""

SECONDS = 0.2
"""The time a move of an :class:`MCTSPlayer` given no budget: the arena's ``mcts`` (``mcts:0.2``), the ``hard``
level, and the ``perfect`` player where its solver does not settle the position.

More time made MCTS weaker, not stronger (``mcts:1`` won 6 of 20 duels against ``mcts:0.2``, and the
``hard`` level at 0.5 s 5 of 20; the figures are in docs/players.md).
"""


Score = Callable[[core.State], list[float]]
"""How a rollout's last position is scored: each seat's result in [-1, 1] (:func:`evaluate` by default)."""


class Rollouts(NamedTuple):
    """How the rollouts of a search end: after at most ``plies`` plies, their last position scored by ``score``."""

    plies: int
    score: Score


class Node:
    """A node of the search tree: reached by ``move``, made by ``seat``."""

    __slots__ = ("available", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


def evaluate(state: core.State) -> list[float]:
    """Each seat's result: the real one if the game is over, else a guess from the hand sizes."""
    if state.outcome is not None:
        return core.returns(state)
    sizes = [hand.bit_count() for hand in state.hands]
    holders = [size for size in sizes if size]
    mean = sum(holders) / len(holders)
    return [max(-1.0, min(1.0, (mean - size) / (mean + 1.0))) if size else 1.0 for size in sizes]


HAND_SIZES: Rollouts = Rollouts(ROLLOUT_PLIES, evaluate)
"""Rollouts of :data:`ROLLOUT_PLIES` scored by the hand sizes: those of ``mcts`` (with any number of players)."""


def rollout(state: core.State, rng: random.Random, plies: int = ROLLOUT_PLIES, score: Score = evaluate) -> list[float]:
    """Play on for at most ``plies`` with greedy moves (a random one now and then) and ``score`` the end."""
    for _ in range(plies):
        if state.outcome is not None:
            break
        core.apply(state, noisy_move(state, rng, ROLLOUT_NOISE))
    return score(state)


def search(
    view: View,
    rng: random.Random,
    iterations: int | None = None,
    seconds: float | None = None,
    rollouts: Rollouts = HAND_SIZES,
    duel: Rollouts | None = None,
) -> int:
    """The most visited move at the root after the given budget (at least one iteration), its rollouts ending as
    ``rollouts`` say, or in the duel as ``duel`` does if given."""
    plies, score = duel if duel is not None and view.players == 2 else rollouts
    root = Node(seat=-1)
    deadline = time.monotonic() + seconds if seconds is not None else float("inf")
    limit = iterations if iterations is not None else (1 << 62)
    legal = list(core.legal_moves(sample_state(view, rng)))
    if len(legal) == 1:
        return legal[0]
    done = 0
    while done < limit and (done == 0 or time.monotonic() < deadline):
        _iterate(root, sample_state(view, rng), rng, plies, score)
        done += 1
    return max(legal, key=lambda move: root.children[move].visits if move in root.children else -1)


def _iterate(root: Node, state: core.State, rng: random.Random, rollout_plies: int, score: Score) -> None:
    path = [root]
    node = root
    while state.outcome is None:
        moves = core.legal_moves(state)
        seat = state.to_act
        untried = [move for move in moves if move not in node.children]
        if untried:
            move = rng.choice(untried)
            child = Node(seat)
            node.children[move] = child
            for other in moves:
                if other in node.children:
                    node.children[other].available += 1
            core.apply(state, move)
            path.append(child)
            break
        best, best_bound = moves[0], -math.inf
        for move in moves:
            child = node.children[move]
            child.available += 1
        for move in moves:
            child = node.children[move]
            bound = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if bound > best_bound:
                best, best_bound = move, bound
        node = node.children[best]
        core.apply(state, best)
        path.append(node)
    result = rollout(state, rng, rollout_plies, score)
    for visited in path:
        visited.visits += 1
        if visited.seat >= 0:
            visited.reward += result[visited.seat]


class MCTSPlayer:
    """MCTS with a budget of ``seconds`` per move or a fixed number of ``iterations`` per move.

    ``rollouts`` say how its rollouts end (:data:`HAND_SIZES` by default); ``duel``, if given, says how they end
    in the duel instead (the learned score of :mod:`rules.players.learned_score` knows only the duel).
    """

    def __init__(
        self,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        rollouts: Rollouts = HAND_SIZES,
        duel: Rollouts | None = None,
    ) -> None:
        if seconds is None and iterations is None:
            seconds = SECONDS
        self.seconds = seconds
        self.iterations = iterations
        self.rollouts = rollouts
        self.duel = duel
        self._rng = random.Random(seed)
        self.name = f"mcts:{iterations}it" if iterations is not None else f"mcts:{seconds:g}"

    def choose(self, view: View) -> Event:
        if view.phase == "trump_choice":
            return choose_trump(view, self._rng)
        return event_of(view, search(view, self._rng, self.iterations, self.seconds, self.rollouts, self.duel))
