"""The arena's games of one pair, each printed as it ends: a long run says how it stands before it is over.

Run ``python -m benchmarks.arena_games A B [--games 40] [--seed 1] [--jobs 1]``.

Plays exactly the games of ``trumps arena A B --games N --seed S`` (:func:`~rules.players.arena.tasks`
and :func:`~rules.players.arena.play_task`: the same deals, seatings and bot seeds, so the same games),
but prints each game's deal, seating and winner as it ends, then A's wins, draws and losses with the
95% Wilson interval of its win rate. For bots counted in iterations (``mcts:2000it``) the games do not
depend on the machine.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from rules.players.arena import play_task, tasks, wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    work = tasks([args.a, args.b], args.games, args.seed, players=2)
    tally = {1: 0, 0: 0, -1: 0}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for played in pool.map(play_task, work):
            tally[played.winner] += 1
            word = {1: args.a, 0: "draw", -1: args.b}[played.winner]
            seating = "".join(map(str, played.task.seating))
            print(
                f"deal {played.task.deal:3} seating {seating}: {word}  ({played.a.moves + played.b.moves} moves)",
                flush=True,
            )
    rate, low, high = wilson(tally[1], len(work))
    print(
        f"{args.a} against {args.b}, seed {args.seed}: {tally[1]} wins, {tally[0]} draws, {tally[-1]} losses "
        f"in {len(work)} games; win rate {rate:.1%} (95% interval {low:.1%}-{high:.1%})"
    )


if __name__ == "__main__":
    main()
