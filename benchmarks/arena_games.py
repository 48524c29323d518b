"""The arena's games of one pair, each printed as it ends: a long run says how it stands before it is over.

Run ``python -m benchmarks.arena_games A B [--games 40] [--seed 1] [--jobs 1]``.

Plays exactly the games of ``trumps arena A B --games N --seed S`` (:func:`~rules.players.arena.tasks`
and :func:`~rules.players.arena.play_task`: the same deals, seatings and bot seeds, so the same games),
but prints each game's deal, seating and winner as it ends, then A's wins, draws and losses with the
95% Wilson interval of its win rate, and for a bot with a solver (``perfect``) at how many of its moves it
played exactly, as ``trumps arena`` says it. For bots counted in iterations (``mcts:2000it``) the games do not
depend on the machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from rules.cli.arena import exact_play_line
from rules.players.arena import Moves, Played, Task, play_task, tasks, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    play(args.a, args.b, args.games, args.seed, args.jobs)


def play(a: str, b: str, games: int, seed: int, jobs: int, task: Callable[[Task], Played] = play_task) -> None:
    """Play the pair's games, ``jobs`` at a time, each game by ``task``, and print each as it ends and the tally."""
    work = tasks([a, b], games, seed, players=2)
    tally = {1: 0, 0: 0, -1: 0}
    sides = {a: Moves(), b: Moves()} if a != b else {}
    # Forked workers inherit what the caller set up (benchmarks.middle_game's bots).
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=multiprocessing.get_context("fork")) as pool:
        for played in pool.map(task, work):
            tally[played.winner] += 1
            if sides:
                sides[a] += played.a
                sides[b] += played.b
            word = {1: a, 0: "draw", -1: b}[played.winner]
            seating = "".join(map(str, played.task.seating))
            print(
                f"deal {played.task.deal:3} seating {seating}: {word}  ({played.a.moves + played.b.moves} moves)",
                flush=True,
            )
    rate, low, high = wilson(tally[1], len(work))
    print(
        f"{a} against {b}, seed {seed}: {tally[1]} wins, {tally[0]} draws, {tally[-1]} losses "
        f"in {len(work)} games; win rate {rate:.1%} (95% interval {low:.1%}-{high:.1%})"
    )
    for bot, moves in sides.items():
        if moves.exact is not None:
            print(exact_play_line(bot, moves))


if __name__ == "__main__":
    main()
