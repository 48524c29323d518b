"""Does MCTS choose better with more iterations? Measured against the exact solver, move by move.

Run ``python -m benchmarks.mcts_exact [--cards 10] [--positions 200] [--seed 1] [--from-games]
[--iterations 100,500,2000,8000] [--repeats 2] [--max-nodes 400000]``.

The arena measures strength by whole games, which take minutes each and mix every kind of position.
This benchmark asks a narrower question that has an exact answer: at a duel position the solver
settles completely (its value and every move's value), does MCTS pick a move that keeps the
position's value? It uses the positions of :mod:`benchmarks.solver` (random ones, or with
``--from-games`` positions of greedy games), keeps those the seat to act does not lose, where not
every move is as good, and asks :func:`rules.players.mcts.search` each of them ``--repeats`` times
(each with its own seed) for every number of ``--iterations``, through the seat's
:class:`~rules.state.View` as a player sees it. Prints, for each number of iterations, how often the
move chosen kept the value, with the 95% Wilson interval, and the processor time it took; first the
same for the greedy player's move (:func:`~rules.players.greedy.heuristic_move`, MCTS's rollout
policy without its noise). The counts do not depend on the machine: the iterations are a fixed
number, not a time.
"""

from __future__ import annotations

import argparse
import random
import time

from benchmarks.solver import sample
from rules import core
from rules.game import Game
from rules.players import mcts
from rules.players.arena import wilson
from rules.players.greedy import heuristic_move
from rules.players.solver import Solver, SolverLimit
from rules.position import state_position


def choices(
    cards: int, positions: int, seed: int, from_games: bool, max_nodes: int
) -> list[tuple[int, core.State, frozenset[int]]]:
    """The sample's positions whose every move the solver settles, that the seat to act does not lose and
    where a move can lose value: their number, the position and the moves that keep its value."""
    found = []
    for index, state in sample(random.Random(seed), cards, positions, from_games=from_games):
        if len(core.legal_moves(state)) < 2:
            continue
        try:
            solution = Solver(max_nodes=max_nodes).solve(state)
        except SolverLimit:
            continue
        keeping = frozenset(move for move, value in solution.moves if value == solution.value)
        if solution.value >= 0 and not solution.unsettled and len(keeping) < len(solution.moves):
            found.append((index, state, keeping))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10)
    parser.add_argument("--positions", type=int, default=200, help="positions of the sample to look at")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-games", action="store_true")
    parser.add_argument("--iterations", default="100,500,2000,8000", help="comma-separated numbers of iterations")
    parser.add_argument("--repeats", type=int, default=2, help="searches of each position at each number")
    parser.add_argument("--max-nodes", type=int, default=400_000, help="the solver's budget a position")
    args = parser.parse_args()
    budgets = [int(part) for part in args.iterations.split(",")]
    found = choices(args.cards, args.positions, args.seed, args.from_games, args.max_nodes)
    print(
        f"{len(found)} of {args.positions} positions ({args.cards} cards, seed {args.seed}"
        f"{', from games' if args.from_games else ''}) settled, not lost, with a move that loses value",
        flush=True,
    )
    if not found:
        return
    kept = sum(heuristic_move(state, state.hands) in keeping for _, state, keeping in found)
    print(f"{'greedy':>18}: {_rate(kept, len(found))}", flush=True)
    for budget in budgets:
        kept = asked = 0
        started = time.process_time()
        for index, state, keeping in found:
            view = Game.from_position(state_position(state)).view(state.to_act)
            for repeat in range(args.repeats):
                move = mcts.search(view, random.Random(f"{args.seed}/{index}/{repeat}"), iterations=budget)
                kept += move in keeping
                asked += 1
        print(f"{budget:>7,} iterations: {_rate(kept, asked)}, {time.process_time() - started:.0f} s", flush=True)


def _rate(kept: int, asked: int) -> str:
    rate, low, high = wilson(kept, asked)
    return f"kept the value {kept} of {asked} times, {rate:.1%} (95% interval {low:.1%}-{high:.1%})"


if __name__ == "__main__":
    main()
