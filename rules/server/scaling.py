"""Does a site gain capacity with processes? Server CPU per move for 1, 2, 3 processes on PostgreSQL.

``python -m rules.server.scaling [--db URL] [--tables 60] [--think 0.5] [--seconds 20] [--processes 1,2,3]
[--spread random,table] [--idle 10] [--rounds 1]``

For each number of processes it creates a fresh database on the PostgreSQL server ``--db``
(dropped afterwards), runs ``trumps loadtest --servers N --json`` on it at the same total load
(``--tables`` duels of weak players, each waiting ``--think`` seconds on average before a move),
once with each seat connected to a process at random (``random``: nginx's ``least_conn``) and once
with both seats of a table on one process (``table``: nginx's ``hash $uri consistent``), and prints the CPU time the
server processes spent per move, summed over all of them, with its ratio to the first row, and
the latency from a move to the update that shows it. It is a benchmark, not a test: the figures
depend on the machine and on what else runs on it (the last column says how much something
waited for a CPU meanwhile). Before the rows it prints what one process costs with no load at all
(``--idle`` seconds of it, ``0`` to skip): its housekeeping, which a row divides by the moves it
plays, so that a light load makes more processes look dearer than they are per move.

On a machine that other work shares, one row can differ from the next by 0.2x for the same
configuration: ``--rounds R`` plays the process counts R times, in alternating order (1, 2, 3,
then 3, 2, 1, ...), so that a change of the machine's load meanwhile weighs on every count
alike. Each row's ratio is to the first count's row of the same round; after the rows it prints,
per count, the median CPU per move, its ratio to the first count's median, and the lowest and
highest ratio of a round.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import subprocess
import sys
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg


def _database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def measure(server: str, processes: int, tables: int, think: float, seconds: float, spread: str) -> dict[str, Any]:
    """``trumps loadtest``'s figures for ``processes`` servers on a fresh database of ``server``."""
    name = f"trumps_scaling_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        command = [sys.executable, "-c", "from rules.cli import main; main()", "loadtest", "--json"]
        command += ["--servers", str(processes), "--db", _database(server, name), "--tables", str(tables)]
        command += ["--think", str(think), "--seconds", str(seconds), *(["--by-table"] if spread == "table" else [])]
        result = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 300)
        if not result.stdout.strip():
            raise RuntimeError(f"trumps loadtest failed: {result.stderr.strip()}")
        figures: dict[str, Any] = json.loads(result.stdout)
        return figures
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def idle_cpu(server: str, processes: int, seconds: float) -> float | None:
    """Milliseconds of CPU per second each of ``processes`` idle servers spends on a fresh database of ``server``."""
    from rules.cli.loadtest import _cpu_of, _start_server, _stop

    name = f"trumps_scaling_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    started: list[subprocess.Popen[bytes]] = []
    logs: list[str] = []
    try:
        for _process in range(processes):
            started.append(_start_server("normal", _database(server, name), logs)[0])
        time.sleep(2)  # past start-up
        pids = [process.pid for process in started]
        before = _cpu_of(pids)
        time.sleep(seconds)
        after = _cpu_of(pids)
        return None if before is None or after is None else (after - before) / seconds / processes * 1000
    finally:
        _stop(started, logs, None)
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.server.scaling", description=__doc__.split("\n")[0])
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/postgres", help="a PostgreSQL server")
    parser.add_argument("--tables", type=int, default=60, help="concurrent duels (the same for every row)")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds a client waits before a move")
    parser.add_argument("--seconds", type=float, default=20, help="how long each row plays")
    parser.add_argument("--processes", default="1,2,3", help="the numbers of server processes, comma-separated")
    parser.add_argument("--spread", default="random,table", help="how sockets are spread: random, table or both")
    parser.add_argument("--idle", type=float, default=10, help="seconds to measure idle processes first (0: skip)")
    parser.add_argument("--rounds", type=int, default=1, help="how many times to play the counts, in alternating order")
    options = parser.parse_args(argv)
    counts = [int(count) for count in options.processes.split(",")]
    spreads = ["random", "table"] if options.spread == "both" else options.spread.split(",")
    if unknown := [spread for spread in spreads if spread not in ("random", "table")]:
        parser.error(f"--spread: unknown spread {', '.join(unknown)} (random, table or both)")
    if options.rounds < 1:
        parser.error("--rounds: at least 1")
    idle = idle_cpu(options.db, max(counts), options.idle) if options.idle > 0 else None
    if idle is not None:
        print(f"an idle process (one of {max(counts)}, no table): {idle:.1f} ms of CPU per second")
    print(f"{options.tables} duels, thinking {options.think:g} s a move on average, {options.seconds:g} s a row")
    print(
        "spread  processes  moves/s  CPU ms/move (all processes)  of it idle  vs 1st  p50 ms  p99 ms  errors"
        "  CPU pressure"
    )
    for spread in spreads:
        cpus: dict[int, list[float]] = {count: [] for count in counts}
        ratios: dict[int, list[float]] = {count: [] for count in counts}
        for round_no in range(options.rounds):
            played: dict[int, dict[str, Any]] = {}
            for count in counts if round_no % 2 == 0 else counts[::-1]:
                played[count] = measure(options.db, count, options.tables, options.think, options.seconds, spread)
            first = played[counts[0]]["server_cpu_ms_per_move"]
            for count in counts if round_no % 2 == 0 else counts[::-1]:
                cpu = played[count]["server_cpu_ms_per_move"]
                if cpu is not None:
                    cpus[count].append(cpu)
                    if first:
                        ratios[count].append(cpu / first)
                ratio = f"{cpu / first:.2f}x" if cpu and first else "-"
                print(_row(spread, count, played[count], idle, ratio), flush=True)
        if options.rounds > 1 and cpus[counts[0]]:
            base = statistics.median(cpus[counts[0]])
            print(
                f"{spread}: median CPU ms/move of {options.rounds} rounds (vs {counts[0]}), lowest-highest in a round"
            )
            for count in counts:
                if cpus[count] and ratios[count]:
                    median = statistics.median(cpus[count])
                    print(
                        f"  {count} processes: {median:.3f} ({median / base:.2f}x), "
                        f"{min(ratios[count]):.2f}-{max(ratios[count]):.2f}x",
                        flush=True,
                    )
    return 0


def _row(spread: str, count: int, figures: dict[str, Any], idle: float | None, ratio: str) -> str:
    """One row of figures; ``ratio``: its CPU per move against the first count's of the same round."""
    cpu = figures["server_cpu_ms_per_move"]
    latency = figures["latency_ms"]
    pressure = figures["machine_cpu_pressure"]
    rate = figures["moves_per_second"]
    # What the processes would have spent with no load at all, shared out over the moves played.
    idle_share = f"{idle * count / rate:.3f}" if idle is not None and rate else "-"
    return (
        f"{spread:>6}  {count:>9}  {rate:>7}  {cpu if cpu is not None else '-':>27}  {idle_share:>10}  "
        f"{ratio:>6}  {latency['p50']:>6}  {latency['p99']:>6}  {figures['errors'] + figures['lost_moves']:>6}"
        f"  {'-' if pressure is None else f'{pressure:.0%}':>12}"
    )


if __name__ == "__main__":
    sys.exit(main())
