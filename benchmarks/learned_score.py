"""Fit the learned score of :mod:`rules.players.learned_score` and say how well it predicts who wins.

Run ``python -m benchmarks.learned_score [--games 400] [--every 8] [--playouts 8] [--seed 1]``.

1. Positions: ``--games`` duels, each dealt from its own seed (random trumps, the sixes passed as the
   rules pass them), played to the end by MCTS's rollout policy (the greedy move, a random one with
   :data:`~rules.players.mcts.ROLLOUT_NOISE`); every ``--every``-th position of each game is kept.
2. Labels: each position is played on to the end ``--playouts`` times by the same policy; its label
   is the share of them the seat to act won (a draw counts half).
3. Fit: logistic regression of the labels on :func:`~rules.players.learned_score.features` by
   Newton's method with a small ridge (:data:`RIDGE`), on four games in five; the fifth are held out.

Prints the log-loss and the accuracy (the side with the better chance wins) on the held-out positions,
of the fit, of the learned score's weights in use, and of the hand sizes' score that MCTS uses by default (its value
for the seat to act, from [-1, 1] to a chance), and the weights to paste into :data:`PLAYOUT_WEIGHTS`.
Deterministic for a seed: the same weights on any machine and on either path (native or pure Python).
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from rules import core
from rules.analysis import PLAYOUT_PLIES, playout
from rules.game import Game
from rules.options import RuleSet
from rules.players.greedy import noisy_move
from rules.players.knowledge import duel_state
from rules.players.learned_score import FEATURES, Counts, features, win_probability
from rules.players.mcts import ROLLOUT_NOISE, evaluate
from rules.players.random_player import choose_trump

# `python -m benchmarks.learned_score --games 400 --every 8 --playouts 8 --seed 1` (2026-12-05): 15,527 positions.
PLAYOUT_WEIGHTS = (
    -0.0166,
    -0.8103,
    0.8290,
    0.7073,
    -0.4111,
    0.5770,
    -0.6540,
    0.0730,
    -0.0804,
    0.3133,
    -0.2839,
    -0.0260,
    0.0449,
    0.0688,
    -0.1133,
    0.0560,
)
"""The weights this command prints: the first fit, to playouts. The search that labels the positions of the second
fit (``python -m benchmarks.middle_game fit --search 500``, the weights in use) scores its rollouts with these, and
MCTS with them was ``mcts-learned`` until the second fit replaced them (docs/players.md)."""

RIDGE = 1e-3
"""The ridge penalty on the weights (the bias included), per position: keeps Newton's steps finite."""

LONGEST = PLAYOUT_PLIES
"""A game of the data still going after this many plies is left (the repetition rule ends every game long before)."""


def dealt(seed: int) -> core.State:
    """The duel of ``seed`` as dealt: trumps chosen at random, sixes passed, the first lead to play."""
    rng = random.Random(seed)
    game = Game(RuleSet(players=2), seed=seed)
    while game.phase in ("trump_choice", "deal"):
        if game.phase == "deal":
            game.push(game.sample_deal())
        else:
            seat = game.to_act
            assert seat is not None
            game.push(choose_trump(game.view(seat), rng))
    seat = game.to_act
    assert seat is not None
    return duel_state(game.view(seat))


def finish(state: core.State, rng: random.Random) -> float:
    """``state`` played on to the end as an estimate's playout is (:func:`rules.analysis.playout`, the rollout
    policy): 1 if the seat to act now wins, ½ a draw, 0 a loss."""
    return (playout(state.copy(), rng)[state.to_act] + 1) / 2


Finish = Callable[[core.State, random.Random], float]
"""A position's label from one playout of it: 1 if the seat to act wins, ½ a draw, 0 a loss (:func:`finish`)."""


def noisy_greedy(state: core.State, rng: random.Random) -> int:
    """MCTS's rollout policy: the greedy move, a random one with :data:`~rules.players.mcts.ROLLOUT_NOISE`."""
    return noisy_move(state, rng, ROLLOUT_NOISE)


Play = Callable[[core.State, random.Random], int]
"""The policy that plays the games the positions come from (:func:`noisy_greedy`)."""


def positions(
    seed: int,
    games: int,
    every: int,
    playouts: int,
    finish: Finish | None = finish,
    jobs: int = 1,
    play: Play = noisy_greedy,
) -> list[tuple[int, core.State, float]]:
    """The labelled positions: the game each comes from, the position, and its label (``finish``'s mean, or with
    ``finish=None`` how the game the position comes from ended: 1 if its seat to act won, ½ a draw, 0 a loss).

    The games are labelled ``jobs`` at a time; each game has its own random numbers, so the result is the same."""
    label = functools.partial(game_positions, seed, every=every, playouts=playouts, finish=finish, play=play)
    if jobs <= 1:
        return [found for number in range(games) for found in label(number)]
    with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        return [found for each in pool.map(label, range(games)) for found in each]


def game_positions(
    seed: int, number: int, every: int, playouts: int, finish: Finish | None, play: Play = noisy_greedy
) -> list[tuple[int, core.State, float]]:
    """The labelled positions of game ``number``: every ``every``-th position of its play by ``play``."""
    found = []
    rng = random.Random(f"{seed}/{number}")
    state = dealt(seed * 1_000_003 + number)
    for ply in range(LONGEST):
        if state.outcome is not None:
            break
        if ply % every == 0:
            label = 0.0 if finish is None else sum(finish(state, rng) for _ in range(playouts)) / playouts
            found.append((number, state.copy(), label))
        core.apply(state, play(state, rng))
    if finish is None:
        result = core.returns(state) if state.outcome is not None else [0.0, 0.0]
        found = [(number, kept, (result[kept.to_act] + 1) / 2) for number, kept, _ in found]
    return found


def fit(rows: list[list[float]], labels: list[float], rounds: int = 12) -> tuple[float, ...]:
    """Logistic regression of ``labels`` (chances in [0, 1]) on ``rows`` by Newton's method with :data:`RIDGE`."""
    size = len(rows[0])
    weights = [0.0] * size
    for _ in range(rounds):
        gradient = [RIDGE * len(rows) * weight for weight in weights]
        hessian = [[RIDGE * len(rows) if i == j else 0.0 for j in range(size)] for i in range(size)]
        for row, label in zip(rows, labels, strict=True):
            p = win_probability(row, tuple(weights))
            error, curve = p - label, max(p * (1 - p), 1e-9)
            for i in range(size):
                gradient[i] += error * row[i]
                scaled = curve * row[i]
                line = hessian[i]
                for j in range(i, size):
                    line[j] += scaled * row[j]
        for i in range(size):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = _solve(hessian, gradient)
        weights = [weight - delta for weight, delta in zip(weights, step, strict=True)]
    return tuple(weights)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector``, by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [line[:] + [value] for line, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(column + 1, size):
            factor = rows[row][column] / rows[column][column]
            for k in range(column, size + 1):
                rows[row][k] -= factor * rows[column][k]
    solution = [0.0] * size
    for row in reversed(range(size)):
        known = sum(rows[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (rows[row][size] - known) / rows[row][row]
    return solution


def report(name: str, chances: list[float], labels: list[float]) -> None:
    """Log-loss and accuracy of ``chances`` against ``labels``, printed on one line."""
    loss = right = 0.0
    for p, label in zip(chances, labels, strict=True):
        p = min(max(p, 1e-6), 1 - 1e-6)
        loss -= label * math.log(p) + (1 - label) * math.log(1 - p)
        if label != 0.5:
            right += (p > 0.5) == (label > 0.5)
    decided = sum(label != 0.5 for label in labels)
    print(f"{name:>12}: log-loss {loss / len(labels):.4f}, accuracy {right / max(decided, 1):.1%} of {decided}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--every", type=int, default=8, help="keep every n-th position of a game")
    parser.add_argument("--playouts", type=int, default=8, help="playouts to the end that label a position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games labelled at once (the same result)")
    args = parser.parse_args()
    fit_and_report(args.games, args.every, args.playouts, args.seed, jobs=args.jobs)


def fit_and_report(
    games: int,
    every: int,
    playouts: int,
    seed: int,
    finish: Finish | None = finish,
    jobs: int = 1,
    play: Play = noisy_greedy,
    counts: tuple[tuple[str, ...], Counts] = (FEATURES, features),
) -> None:
    """Fit the weights on four games in five of :func:`positions`, and print how well they predict the fifth;
    ``counts`` are the names and the function of what the regression sees."""
    started = time.perf_counter()
    found = positions(seed, games, every, playouts, finish, jobs, play)
    names, seen = counts
    train = [(seen(state), label) for number, state, label in found if number % 5]
    held = [(state, label) for number, state, label in found if number % 5 == 0]
    labelled = "labelled by how their games ended" if finish is None else f"{playouts} playouts each"
    print(
        f"{len(found)} positions of {games} games ({len(train)} to fit, {len(held)} held out), "
        f"{labelled}, seed {seed}: {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    weights = fit([row for row, _ in train], [label for _, label in train])
    labels = [label for _, label in held]
    report("learned", [win_probability(seen(state), weights) for state, _ in held], labels)
    report("in use", [win_probability(features(state)) for state, _ in held], labels)
    report("hand sizes", [(evaluate(state)[state.to_act] + 1) / 2 for state, _ in held], labels)
    report("coin", [0.5] * len(labels), labels)
    print("WEIGHTS = (")
    for name, weight in zip(names, weights, strict=True):
        print(f"    {weight:.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
