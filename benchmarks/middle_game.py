"""Ideas for the duel's middle game, measured so that their figures can be run again.

docs/players.md ("Tried for the middle game") has the figures: the ``medium`` level's tuned greedy style and the
learned score's weights in use came from here, and everything else was not kept.
Three commands, each deterministic for its seed (bots counted in iterations, never in seconds):

    python -m benchmarks.middle_game greedy [--deals 5000] [--seed 1] [--noise 0.1] STYLE [STYLE ...]
    python -m benchmarks.middle_game fit [--games 400] [--every 8] [--playouts 8] [--seed 1] [--search N]
        [--search-score playouts] [--play N] [--outcomes] [--counts base] [--jobs 1]
    python -m benchmarks.middle_game arena A B [--games 40] [--seed 1] [--jobs 1]

- ``greedy``: the greedy player with other constants (a *style*, such as ``premium=4,shed=1``: see
  :func:`parse_style`) against its :data:`~rules.players.greedy.CLASSIC` style, on ``--deals`` dealt duels,
  seats swapped, both sides playing a random move with probability ``--noise`` (0.1: as MCTS's rollouts play).
- ``fit``: the learned score (:mod:`rules.players.learned_score`) fitted as ``benchmarks.learned_score``
  fits it, on the same kind of positions, but labelled by playouts of the greedy player's
  :data:`~rules.players.greedy.TUNED` style instead of the rollouts' own policy: the weights of :data:`TUNED_WEIGHTS`;
  with ``--search N``, labelled by a search of ``N`` iterations instead (:class:`SearchLabel`), whose rollouts end
  with the score ``--search-score`` (of :data:`SCORES`); with ``--play N``, on positions of games that a search of
  ``N`` iterations with that score plays against itself (:class:`SearchMove`) instead of noisy-greedy ones; with
  ``--outcomes``, each labelled by how its own game ended instead; with ``--counts rich``, the regression sees
  :data:`RICH_FEATURES` instead of the learned score's counts. So
  ``--search 500 --playouts 1`` prints the second weights (:data:`SEARCH_WEIGHTS`), and ``--play 200 --search 500
  --search-score search --playouts 1`` the weights in use (:data:`~rules.players.learned_score.WEIGHTS`).
- ``arena``: the games of ``trumps arena A B`` (the same deals, seatings and bot seeds), where ``A`` or
  ``B`` may also be ``greedy-style:STYLE`` (a greedy player of that style), ``perfect-score:NAME`` (the ``perfect``
  level whose MCTS scores its rollouts with the score ``NAME`` of :data:`SCORES`), ``perfect-mcts:SECONDS`` (the
  ``perfect`` level whose MCTS searches ``SECONDS`` a move instead of 0.2), or a variant of
  ``mcts-learned:Nit``, written ``variant:Nit`` or ``variant:Nit:KEY=VALUE,...`` (see :class:`Variant`).
  ``variant:Nit`` with no keys plays move for move as ``mcts-learned:Nit`` (a test checks it).
"""

from __future__ import annotations

import argparse
import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from benchmarks import arena_games
from benchmarks import learned_score as fitting
from rules import core
from rules.analysis import PLAYOUT_NOISE, PLAYOUT_PLIES
from rules.cards import RANKS_PER_SUIT
from rules.events import Event
from rules.players import arena, learned_score, levels
from rules.players.greedy import CLASSIC, TUNED, GreedyPlayer, Style, noisy_move, style
from rules.players.knowledge import event_of, sample_state
from rules.players.learned_score import suit_of
from rules.players.levels import parse_bot
from rules.players.mcts import EXPLORATION, ROLLOUT_NOISE, Node, Rollouts
from rules.players.perfect import PerfectPlayer
from rules.players.random_player import choose_trump
from rules.state import View


def parse_style(text: str) -> Style:
    """The greedy player's :class:`~rules.players.greedy.Style` of ``key=value,...``, the keys being the arguments
    of :func:`~rules.players.greedy.style` (``premium``, ``high``, ``hand``, ``take``, ``shed``); the others as they
    are."""
    kinds = {"premium": int, "high": int, "hand": int, "take": int, "shed": float}
    values: dict[str, float] = {}
    for item in text.split(",") if text else ():
        key, _, value = item.partition("=")
        if key not in kinds:
            raise ValueError(f"unknown key {key!r} in the style {text!r}: use {', '.join(kinds)}")
        values[key] = kinds[key](value)
    return style(**values)  # type: ignore[arg-type]


# `python -m benchmarks.middle_game fit --games 400 --every 8 --playouts 8 --seed 1` (2026-12-05): 16,143 positions.
TUNED_WEIGHTS = (
    -0.0302,
    -1.9792,
    1.8994,
    0.5995,
    -0.4433,
    1.7173,
    -1.6013,
    0.0991,
    -0.0692,
    0.6787,
    -0.5129,
    0.0097,
    0.0467,
    0.1423,
    -0.1372,
    0.0527,
)
"""The learned score's weights fitted to playouts of the greedy player's tuned style (``fit``)."""


# `python -m benchmarks.middle_game fit --search 500 --playouts 1 --jobs 2` (2026-12-05): 15,558 positions.
SEARCH_WEIGHTS = (
    0.0717,
    -0.7887,
    0.7505,
    0.9199,
    -0.5634,
    0.6070,
    -0.5543,
    0.1327,
    -0.1460,
    0.2924,
    -0.2670,
    0.0908,
    -0.1375,
    0.0327,
    -0.0564,
    0.1324,
)
"""The learned score's second weights, fitted to a search's values of positions of noisy-greedy duels (``fit
--search 500``): the weights in use from the second fit to the third (``fit --play 200``, those in use now)."""


# `python -m benchmarks.middle_game fit --play 200 --search 500 --search-score learned --playouts 1 --jobs 2`
# (2026-12-05): 7,271 positions of 400 games of a search (scoring with the weights in use) against itself.
FOURTH_WEIGHTS = (
    0.0697,
    -0.9862,
    0.9601,
    1.0241,
    -0.6539,
    0.5320,
    -0.3136,
    0.5253,
    -0.5321,
    0.3587,
    -0.0781,
    0.0828,
    -0.5547,
    0.0131,
    0.0145,
    0.3907,
)
"""The learned score's weights fitted as those in use were, but with the searches scoring with those in use: they
won 42 of 80 duels against them (1 draw), no better, so they were not kept."""


# `python -m benchmarks.middle_game fit --games 200 --play 2000 --search 500 --search-score search --playouts 1
# --jobs 2` (2026-12-05): 6,022 positions of 200 games of a 2,000-iteration search against itself (23 minutes, 2 cores).
DEEP_PLAY_WEIGHTS = (
    0.0696,
    -0.8862,
    0.8846,
    0.7374,
    -0.5435,
    0.5145,
    -0.4336,
    0.3179,
    -0.3119,
    0.3871,
    -0.2689,
    0.0704,
    -0.3666,
    0.0079,
    0.0357,
    0.2357,
)
"""The learned score's weights fitted as those in use were, but on positions of games of a search of 2,000
iterations a move instead of 200."""


def noisy(of: Style, noise: float) -> Callable[[core.State, random.Random], int]:
    """The greedy move in the style ``of``, or with probability ``noise`` a random one: the product's
    :func:`~rules.players.greedy.noisy_move`."""
    return functools.partial(noisy_move, noise=noise, style=of)


# `python -m benchmarks.middle_game fit --play 200 --search 500 --search-score learned --playouts 1 --games 800
# --counts rich --jobs 2` (2026-12-05): 14,792 positions of 800 games, labelled as the fourth fit's.
RICH_WEIGHTS = (
    0.0170,
    -0.8282,
    0.8190,
    0.6927,
    -0.5654,
    0.2026,
    -0.1277,
    0.4160,
    -0.3813,
    0.2604,
    -0.0757,
    0.0216,
    -0.4896,
    0.0031,
    -0.0199,
    0.3605,
    0.3473,
    -0.4024,
    0.0076,
    -0.1469,
    0.7954,
    -0.6010,
    0.6017,
    -0.2514,
    -0.0233,
)
"""Weights of :data:`RICH_FEATURES` fitted as :data:`FOURTH_WEIGHTS` were, on twice the games: MCTS with them won 49 of
80 duels against the weights in use and 62 of 80 against ``mcts:2000it`` (the weights in use: 55), but by the clock
``perfect`` scoring with them won 24 of 40 against ``mcts:0.2`` where it won 29 as it is (docs/players.md)."""
# `python -m benchmarks.middle_game fit --play 200 --outcomes --every 4 --games 600 --seed 11 --search-score learned
# --counts rich --jobs 2` (2026-12-05): 22,496 positions of 600 games of a 200-iteration search against itself.
OUTCOME_WEIGHTS = (
    -0.0581,
    -1.1657,
    1.1386,
    1.0336,
    -0.8018,
    1.1549,
    -0.9348,
    0.3013,
    -0.2885,
    0.7776,
    -0.5299,
    -0.0445,
    -0.7202,
    -0.1718,
    0.2040,
    0.3912,
    1.5671,
    -1.4965,
    -0.0704,
    -0.2056,
    1.4558,
    -1.4707,
    1.4880,
    -1.0302,
    -0.0088,
)
"""Weights of :data:`RICH_FEATURES` fitted to how the games of a search against itself ended (not to a search's
values): a far better guess of who wins those games, and a far weaker search, so not kept."""


def beaten_without_trump(hand: int, other: int, other_trump: int) -> int:
    """How many cards of ``hand`` a higher card of their own suit in ``other`` beats (the suit not ``other_trump``)."""
    count = 0
    for suit in range(4):
        ranks, highest = suit_of(hand, suit), suit_of(other, suit).bit_length() - 1
        if suit != other_trump and highest > 0:
            count += (ranks & ((1 << highest) - 1)).bit_count()
    return count


def plain_rank(hand: int, trump: int) -> float:
    """The mean rank (0 the six, 1 the ace) of ``hand``'s cards not of ``trump``; 0 without any."""
    total = count = 0
    for card in core.moves_of_mask(hand):
        if card // RANKS_PER_SUIT != trump:
            total += card % RANKS_PER_SUIT
            count += 1
    return total / (8 * count) if count else 0.0


RICH_FEATURES = (
    *learned_score.FEATURES,
    "my cards of their trump / 9",
    "their cards of my trump / 9",
    "my cards they beat without a trump / 18",
    "their cards I beat without a trump / 18",
    "my empty suits but my trump / 3",
    "their empty suits but their trump / 3",
    "my other cards' mean rank",
    "their other cards' mean rank",
    "I respond, times my cards less theirs / 18",
)
"""The learned score's counts and nine more (:func:`rich_features`), tried beside them (not the score's)."""


def rich_features(state: core.State) -> list[float]:
    """The values of :data:`RICH_FEATURES` for an unfinished duel position, seen from the seat to act."""
    me = state.to_act
    mine, theirs = state.hands[me], state.hands[1 - me]
    my_trump, their_trump = state.trumps[me], state.trumps[1 - me]
    responding = 1.0 if state.phase == core.RESPOND else 0.0
    return [
        *learned_score.features(state),
        suit_of(mine, their_trump).bit_count() / 9,
        suit_of(theirs, my_trump).bit_count() / 9,
        beaten_without_trump(mine, theirs, their_trump) / 18,
        beaten_without_trump(theirs, mine, my_trump) / 18,
        sum(1 for suit in range(4) if suit != my_trump and not suit_of(mine, suit)) / 3,
        sum(1 for suit in range(4) if suit != their_trump and not suit_of(theirs, suit)) / 3,
        plain_rank(mine, my_trump),
        plain_rank(theirs, their_trump),
        responding * (mine.bit_count() - theirs.bit_count()) / 18,
    ]


COUNTS: dict[str, tuple[tuple[str, ...], learned_score.Counts]] = {
    "base": (learned_score.FEATURES, learned_score.features),
    "rich": (RICH_FEATURES, rich_features),
}
"""What the regression may see of a position: the learned score's counts, or :data:`RICH_FEATURES`."""

SCORES: dict[str, tuple[tuple[float, ...], learned_score.Counts]] = {
    "learned": (learned_score.WEIGHTS, learned_score.features),
    "playouts": (fitting.PLAYOUT_WEIGHTS, learned_score.features),
    "search": (SEARCH_WEIGHTS, learned_score.features),
    "tuned": (TUNED_WEIGHTS, learned_score.features),
    "fourth": (FOURTH_WEIGHTS, learned_score.features),
    "deep-play": (DEEP_PLAY_WEIGHTS, learned_score.features),
    "rich": (RICH_WEIGHTS, rich_features),
    "outcomes": (OUTCOME_WEIGHTS, rich_features),
}
"""The learned scores a variant's rollouts may end with, by name, each its weights and what they weigh: those in use
(the third fit's), the first fit's (to playouts), the second's (to a search's values; ``mcts-learned`` played each of
them in turn), those of ``fit`` (to the tuned greedy player's playouts), the fourth fit's, those fitted on a stronger
search's games, and two of :data:`RICH_FEATURES` (fitted as the fourth, and to how games ended); none of the last five
in use."""


@dataclass(frozen=True)
class Variant:
    """MCTS as ``mcts-learned:Nit`` plays it in the duel, with one or more of these changed (``KEY=VALUE``):

    - ``minimax=ALPHA``: implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014): every node
      also keeps the minimax value of the learned score over its subtree, scored when the node is made, and
      the search ranks a move by ``(1 - ALPHA)`` times its mean result plus ``ALPHA`` times that value;
    - ``explore=C``: the exploration constant (0.7);
    - ``plies=P``: how many plies a rollout plays before it is scored (10);
    - ``policy=tuned``: the rollouts' moves in the greedy player's tuned style (with the same noise);
    - ``score=playouts``, ``search``, ``tuned``, ``fourth``, ``deep-play``, ``rich`` or ``outcomes``: the rollouts
      scored with the first fit's weights (:data:`benchmarks.learned_score.PLAYOUT_WEIGHTS`), the second's
      (:data:`SEARCH_WEIGHTS`), :data:`TUNED_WEIGHTS`, :data:`FOURTH_WEIGHTS`, :data:`DEEP_PLAY_WEIGHTS`, or those
      of :data:`RICH_FEATURES`, :data:`RICH_WEIGHTS` or :data:`OUTCOME_WEIGHTS` (see :data:`SCORES`);
    - ``trees=K``: ``K`` searches of ``N`` iterations each, the move most of them chose (the lowest card of a tie);
    - ``pool=K``: ``K`` searches of ``N`` iterations each, the move with the most visits over all of them (root
      parallelization: what ``K`` cores would search in the time one takes for ``N`` iterations);
    - ``scale=F``: the score's weights times ``F`` (1): its chances nearer one half (``F`` below 1) or further from it;
    - ``quiet=Q``: a rollout that has played its plies goes on, for at most ``Q`` plies more, until the pile is empty
      (a lead is due), so that the score never judges a position in the middle of an exchange (0: it stops there);
    - ``noise=F``: how often a rollout plays a random move instead of the greedy one (0.1);
    - ``bias=W``: progressive bias (Chaslot et al., 2008): a move's rank also gains ``W`` times the learned score of
      the position it leads to, for the seat that made it, divided by one more than the move's visits, so that the
      score steers the first visits and fades as results come in (0: none).
    """

    iterations: int
    minimax: float = 0.0
    explore: float = EXPLORATION
    plies: int = learned_score.ROLLOUT_PLIES
    policy: str = "greedy"
    score: str = "learned"
    trees: int = 1
    pool: int = 1
    scale: float = 1.0
    quiet: int = 0
    noise: float = ROLLOUT_NOISE
    bias: float = 0.0

    @classmethod
    def parse(cls, spec: str) -> Variant:
        """The variant of ``variant:Nit[:KEY=VALUE,...]``."""
        _, count, *rest = spec.split(":")
        if not count.endswith("it") or len(rest) > 1:
            raise ValueError(f"{spec!r}: write variant:Nit or variant:Nit:KEY=VALUE,...")
        kinds = {field.name: field.type for field in fields(cls)}
        values: dict[str, object] = {"iterations": int(count[:-2])}
        for item in rest[0].split(",") if rest else ():
            key, _, value = item.partition("=")
            if key not in kinds or key == "iterations":
                keys = [name for name in kinds if name != "iterations"]
                raise ValueError(f"unknown key {key!r} in {spec!r}: use {', '.join(keys[:-1])} or {keys[-1]}")
            values[key] = {"float": float, "int": int, "str": str}[str(kinds[key])](value)
        variant = cls(**values)  # type: ignore[arg-type]
        if variant.policy not in ("greedy", "tuned") or variant.score not in SCORES:
            raise ValueError(f"{spec!r}: the policy is greedy or tuned, the score one of {', '.join(SCORES)}")
        return variant


class VariantPlayer:
    """A player that searches as its :class:`Variant` says (the duel only: the learned score knows no other)."""

    def __init__(self, variant: Variant, seed: int | None) -> None:
        self.variant = variant
        self.name = "variant"
        self._rng = random.Random(seed)
        self._rollout = noisy(TUNED if variant.policy == "tuned" else CLASSIC, variant.noise)
        weights, counts = SCORES[variant.score]
        self._score = functools.partial(
            learned_score.evaluate, weights=tuple(variant.scale * weight for weight in weights), counts=counts
        )

    def choose(self, view: View) -> Event:
        if view.phase == "trump_choice":
            return choose_trump(view, self._rng)
        votes: dict[int, int] = {}
        for _ in range(self.variant.trees):
            move = self._search(view)
            votes[move] = votes.get(move, 0) + 1
        most = max(votes.values())
        return event_of(view, min(move for move, count in votes.items() if count == most))

    def _search(self, view: View) -> int:
        """As :func:`rules.players.mcts.search` with a number of iterations, and this variant's changes."""
        legal = list(core.legal_moves(sample_state(view, self._rng)))
        if len(legal) == 1:
            return legal[0]
        visits = dict.fromkeys(legal, 0)
        for _ in range(self.variant.pool):
            root = self.tree(lambda: sample_state(view, self._rng))
            for move, child in root.children.items():
                visits[move] += child.visits
        return max(legal, key=visits.__getitem__)

    def tree(self, start: Callable[[], core.State]) -> Node:
        """The search tree after this variant's iterations, each begun on a fresh ``start()``."""
        rng, variant = self._rng, self.variant
        root = Node(seat=-1)
        # By id of a node, for the seat that made its move: the learned score of its position (bias), or with minimax
        # the minimax of that score over its subtree.
        minimax: dict[int, float] = {}
        for _ in range(variant.iterations):
            state = start()
            path, node = [root], root
            while state.outcome is None:
                moves = core.legal_moves(state)
                untried = [move for move in moves if move not in node.children]
                if untried:
                    move = rng.choice(untried)
                    child = Node(state.to_act)
                    node.children[move] = child
                    for other in moves:
                        if other in node.children:
                            node.children[other].available += 1
                    core.apply(state, move)
                    if variant.minimax or variant.bias:
                        minimax[id(child)] = self._score(state)[child.seat]
                    path.append(child)
                    break
                for move in moves:
                    node.children[move].available += 1
                best, best_bound = moves[0], -math.inf
                for move in moves:
                    child = node.children[move]
                    mean = child.reward / child.visits
                    if variant.minimax:
                        mean = (1 - variant.minimax) * mean + variant.minimax * minimax[id(child)]
                    if variant.bias:
                        mean += variant.bias * minimax[id(child)] / (child.visits + 1)
                    bound = mean + variant.explore * math.sqrt(math.log(child.available) / child.visits)
                    if bound > best_bound:
                        best, best_bound = move, bound
                node = node.children[best]
                core.apply(state, best)
                path.append(node)
            for ply in range(variant.plies + variant.quiet):
                if state.outcome is not None or (ply >= variant.plies and state.phase == core.LEAD):
                    break
                core.apply(state, self._rollout(state, rng))
            result = self._score(state)
            for visited in path:
                visited.visits += 1
                if visited.seat >= 0:
                    visited.reward += result[visited.seat]
            if variant.minimax:
                for visited in reversed(path[1:-1]):
                    children = list(visited.children.values())
                    if children:
                        top = max(minimax[id(child)] for child in children)
                        minimax[id(visited)] = top if children[0].seat == visited.seat else -top
        return root


def bot(spec: str, seed: int | None = None) -> object:
    """The arena's bot of ``spec``, or a variant, a greedy style, ``perfect`` with another score of this module
    (``perfect-score:NAME``) or with another time a move for its MCTS (``perfect-mcts:SECONDS``)."""
    if spec.startswith("variant:"):
        return VariantPlayer(Variant.parse(spec), seed)
    if spec.startswith("perfect-score:"):
        name = spec.partition(":")[2]
        if name not in SCORES:
            raise ValueError(f"{spec!r}: the score is one of {', '.join(SCORES)}")
        weights, counts = SCORES[name]
        score = functools.partial(learned_score.evaluate, weights=weights, counts=counts)
        perfect = PerfectPlayer(seed, duel_rollouts=Rollouts(learned_score.ROLLOUT_PLIES, score))
        perfect.name = spec
        return perfect
    if spec.startswith("perfect-mcts:"):
        # The arena's own reading of a bot's seconds: digits only, positive (no "nan", "inf" or " 1").
        perfect = PerfectPlayer(seed, mcts_seconds=levels._number(spec, spec.partition(":")[2]))
        perfect.name = spec
        return perfect
    if spec.startswith("greedy-style:"):
        return GreedyPlayer(seed, style=parse_style(spec.partition(":")[2]))
    return parse_bot(spec, seed)


def played_out(
    state: core.State, policies: Sequence[Callable[[core.State, random.Random], int]], rng: random.Random
) -> list[float]:
    """``state`` played on to its end by ``policies`` (seat 0's, seat 1's): each seat's result (0 for a game still
    going after :data:`~rules.analysis.PLAYOUT_PLIES`, as :func:`rules.analysis.playout` counts it)."""
    for _ply in range(PLAYOUT_PLIES):
        if state.outcome is not None:
            break
        core.apply(state, policies[state.to_act](state, rng))
    return core.returns(state) if state.outcome is not None else [0.0, 0.0]


def duel(deal: int, policies: Sequence[Callable[[core.State, random.Random], int]], rng: random.Random) -> float:
    """The duel dealt from ``deal`` played to its end by ``policies`` (seat 0's, seat 1's): seat 0's result."""
    return played_out(fitting.dealt(deal), policies, rng)[0]


def greedy_match(tried_style: Style, deals: int, seed: int, noise: float) -> tuple[int, int, int]:
    """Wins, draws and losses of ``style``'s greedy player against the greedy player as it is, seats swapped."""
    rng = random.Random(seed)
    tried, classic = noisy(tried_style, noise), noisy(CLASSIC, noise)
    tally = [0, 0, 0]
    for number in range(deals):
        deal = seed * 7919 + number
        for result in (duel(deal, (tried, classic), rng), -duel(deal, (classic, tried), rng)):
            tally[0 if result > 0 else 2 if result < 0 else 1] += 1
    return tally[0], tally[1], tally[2]


def tuned_finish(state: core.State, rng: random.Random) -> float:
    """As :func:`benchmarks.learned_score.finish`, the playout played in the greedy player's tuned style."""
    move = noisy(TUNED, PLAYOUT_NOISE)
    return (played_out(state.copy(), (move, move), rng)[state.to_act] + 1) / 2


def searched(state: core.State, iterations: int, score: str, rng: random.Random) -> Node:
    """The tree of a search of ``state`` of ``iterations`` whose rollouts end with ``score`` (of :data:`SCORES`),
    seeded from ``rng``."""
    return VariantPlayer(Variant(iterations, score=score), seed=rng.getrandbits(32)).tree(state.copy)


@dataclass(frozen=True)
class SearchLabel:
    """A position's label from a search of it of ``iterations`` whose rollouts end with the score ``score`` (of
    :data:`SCORES`): the mean result of the move it would play, for the seat to act, from [-1, 1] to [0, 1]. The
    score is named, not the one in use, so that the fit it labels for stays reproducible: the second weights were
    labelled by ``variant:500it:score=playouts`` (the first fit's weights), those in use by ``score=search``."""

    iterations: int
    score: str = "playouts"

    def __call__(self, state: core.State, rng: random.Random) -> float:
        root = searched(state, self.iterations, self.score, rng)
        best = max(root.children.values(), key=lambda child: child.visits)
        return (best.reward / best.visits + 1) / 2


@dataclass(frozen=True)
class SearchMove:
    """The move a search of ``iterations`` whose rollouts end with the score ``score`` (of :data:`SCORES`) plays: the
    policy of ``fit --play N``, whose positions come from such a search's games against itself."""

    iterations: int
    score: str = "learned"

    def __call__(self, state: core.State, rng: random.Random) -> int:
        root = searched(state, self.iterations, self.score, rng)
        return max(root.children, key=lambda move: root.children[move].visits)


def play_task(task: arena.Task) -> arena.Played:
    """:func:`rules.players.arena.play_task` with this module's bots."""
    arena.parse_bot = bot  # type: ignore[assignment]  # in a worker process of this command only
    return arena.play_task(task)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    greedy = commands.add_parser("greedy", help="greedy styles against the greedy player")
    greedy.add_argument("styles", nargs="+")
    greedy.add_argument("--deals", type=int, default=5000)
    greedy.add_argument("--seed", type=int, default=1)
    greedy.add_argument("--noise", type=float, default=ROLLOUT_NOISE)
    fit = commands.add_parser("fit", help="the learned score fitted to a tuned greedy player's playouts or a search")
    fit.add_argument("--games", type=int, default=400)
    fit.add_argument("--every", type=int, default=8)
    fit.add_argument("--playouts", type=int, default=8)
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--search", type=int, default=0, help="label by a search of N iterations")
    fit.add_argument(
        "--search-score", choices=list(SCORES), default="playouts", help="the score of --search's and --play's searches"
    )
    fit.add_argument("--play", type=int, default=0, help="positions of a search's games of N iterations a move")
    fit.add_argument("--outcomes", action="store_true", help="label each position by how its game ended")
    fit.add_argument("--counts", choices=list(COUNTS), default="base", help="what the regression sees")
    fit.add_argument("--jobs", type=int, default=1)
    games = commands.add_parser("arena", help="the arena's games, with variants")
    games.add_argument("a")
    games.add_argument("b")
    games.add_argument("--games", type=int, default=40)
    games.add_argument("--seed", type=int, default=1)
    games.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.command == "greedy":
        try:
            styles = [(text, parse_style(text)) for text in args.styles]
        except ValueError as error:
            parser.error(str(error))
        for text, style in styles:
            wins, draws, losses = greedy_match(style, args.deals, args.seed, args.noise)
            rate, low, high = arena.wilson(wins, wins + draws + losses)
            print(f"{text}: {wins} wins, {draws} draws, {losses} losses; {rate:.1%} ({low:.1%}-{high:.1%})", flush=True)
    elif args.command == "fit":
        label = None if args.outcomes else SearchLabel(args.search, args.search_score) if args.search else tuned_finish
        play = SearchMove(args.play, args.search_score) if args.play else fitting.noisy_greedy
        counts = COUNTS[args.counts]
        fitting.fit_and_report(args.games, args.every, args.playouts, args.seed, label, args.jobs, play, counts)
    else:
        for spec in (args.a, args.b):
            try:
                bot(spec)  # a bad spec stops here, not in a worker
            except ValueError as error:
                parser.error(str(error))
        arena_games.play(args.a, args.b, args.games, args.seed, args.jobs, task=play_task)


if __name__ == "__main__":
    main()
