"""The solver's benchmark positions through ``trumps solve LOG --json``, as a user runs it.

Run ``python -m benchmarks.solve_cli [--cards 14] [--positions 30] [--seconds 10] [--seed 1]
[--from-games] [--up-to] [--only I,J,...]``.

The positions are those of :mod:`benchmarks.solver` with the same options and seed (position
``i`` here is position ``i`` there). Each is written as a log (a ``start`` header and a
``position`` line) and given to ``trumps solve LOG --json --seconds S`` in a process of its own:
what the hint and the analysis board answer, and what an independent check of the project runs.
The time is the whole command's, from the start of the process to its answer, on whichever path
``import rules`` finds (:mod:`rules.native`). Prints for each position whether the value was
exact, the value, the time and how many of the moves were left unsettled (an exact value can
leave moves open; without one, every move is only estimated), then the median time, how many
values were exact, and the moves left open.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rules.native
from benchmarks.solver import add_sample_arguments, chosen_sample, median_interval
from rules.game import Game
from rules.log import write_log
from rules.position import state_position


def trumps_command() -> str:
    """The ``trumps`` command installed beside this Python."""
    command = Path(sys.executable).with_name("trumps")
    if not command.exists():
        raise SystemExit(f"no trumps command beside {sys.executable}: install the project (pip install -e .)")
    return str(command)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_sample_arguments(parser)
    parser.add_argument("--seconds", type=float, default=10.0, help="trumps solve --seconds")
    args = parser.parse_args()
    print("path:", "native (rules.native, compiled by mypyc)" if rules.native.active() else "pure Python", flush=True)
    command = trumps_command()
    times: list[float] = []
    exact = every_move = moves = unsettled = 0
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "position.jsonl"
        for index, state in chosen_sample(args):
            write_log(Game.from_position(state_position(state)), log)
            start = time.perf_counter()
            result = subprocess.run(
                [command, "solve", str(log), "--json", "--seconds", f"{args.seconds:g}"],
                capture_output=True,
                text=True,
                check=False,
            )
            elapsed = time.perf_counter() - start
            if result.returncode != 0:
                raise SystemExit(f"trumps solve failed on position {index}: {result.stderr.strip()}")
            answer = json.loads(result.stdout)
            open_moves = len(answer.get("unsettled", []))
            total = len(answer["moves"]) + open_moves
            times.append(elapsed)
            moves += total
            if answer["exact"]:
                exact += 1
                every_move += open_moves == 0
                unsettled += open_moves
                outcome = f"exact     value {answer['value']:>2}  {open_moves} of {total} moves open"
            else:
                unsettled += total
                outcome = f"estimate  {total} moves estimated"
            sizes = "+".join(str(hand.bit_count()) for hand in state.hands)
            print(f"{index:3}  hands {sizes:>5} pile {len(state.pile):2}  {elapsed:7.3f} s  {outcome}", flush=True)
    low, high, sure = median_interval(times)
    size = f"up to {args.cards}" if args.up_to else str(args.cards)
    print(
        f"{len(times)} positions, {size} cards in hands, trumps solve --json --seconds {args.seconds:g}: "
        f"median {statistics.median(times):.3f} s ({sure:.0%} interval for the median: {low:.3f} to {high:.3f} s), "
        f"exact value: {exact}/{len(times)}, every move settled: {every_move}; moves left open: {unsettled} of {moves}"
    )


if __name__ == "__main__":
    main()
