"""Start-up benchmark: how long ``trumps`` takes to answer ``--version``, ``--help`` and each ``COMMAND --help``.

Run ``python -m benchmarks.startup [--runs 7]``. Each command line runs ``--runs`` times as a fresh process
of the ``trumps`` script beside this Python (as the README installs it); prints the median and the fastest
wall time of each, and the median CPU time (user + system) of the process, which a loaded machine disturbs
less. The target is 0.3 s for each on an idle machine; ``python -X importtime`` shows where the time goes.
For comparison, the first line is Python itself starting (``python -c pass``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = ("play", "review", "replay", "solve", "arena", "bench", "spec", "serve", "loadtest")


def command_lines(trumps: str) -> list[list[str]]:
    """Every command line measured: Python alone, ``--version``, ``--help``, then each command's ``--help``."""
    return [
        [sys.executable, "-c", "pass"],
        [trumps, "--version"],
        [trumps, "--help"],
        *([trumps, command, "--help"] for command in COMMANDS),
    ]


def timed(line: list[str]) -> tuple[float, float]:
    """One run of ``line``: its wall time and the CPU time of the child process, in seconds."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(line, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each command line")
    options = parser.parse_args()
    trumps = str(Path(sys.executable).parent / "trumps")
    print(f"{'command line':<28} {'median':>8} {'fastest':>8} {'cpu':>8}  (seconds, {options.runs} runs)")
    for line in command_lines(trumps):
        runs = [timed(line) for _run in range(options.runs)]
        walls = [wall for wall, _cpu in runs]
        shown = "python -c pass" if line[0] == sys.executable else " ".join(["trumps", *line[1:]])
        cpu = statistics.median(cpu for _wall, cpu in runs)
        print(f"{shown:<28} {statistics.median(walls):>8.3f} {min(walls):>8.3f} {cpu:>8.3f}")
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
