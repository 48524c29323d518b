"""Does a new game cost more when many games are alive? Time ``Game()`` and dropping games.

Run ``python -m benchmarks.games_alive [--alive 10 1000 20000] [--new 2000]``.

For each count of games alive, builds that many games, then times ``--new`` more
``Game()`` calls (each followed by the trump choices and the deal, as a server table does),
and dropping all of them. Prints the cost per new game and per dropped game: with no model
of the ``transitions`` machine per game these do not grow with the games alive (they did:
0.3 ms per ``Game()`` with 1,000 alive and 5.8 ms with 20,000, before games stopped being
models of the one machine).
"""

from __future__ import annotations

import argparse
import gc
import time

from rules.events import ChooseTrump
from rules.game import Game
from rules.options import RuleSet


def _started(seed: int) -> Game:
    game = Game(RuleSet(), seed=seed)
    game.push(ChooseTrump(seat=1, suit="H"))
    game.push(ChooseTrump(seat=0, suit="S"))
    game.push(game.sample_deal())
    return game


def measure(alive: int, new: int, frozen: bool) -> tuple[float, float, float]:
    """Microseconds per bare ``Game()`` and per started game with ``alive`` games alive, and per game dropped.

    ``frozen``: the games alive are moved out of the garbage collector's sight first (``gc.freeze``),
    so that what is left is the cost of the game itself, not of Python's collector walking the others.
    """
    games = [_started(seed) for seed in range(alive)]
    gc.collect()
    if frozen:
        gc.freeze()
    start = time.perf_counter()
    games += [Game(RuleSet()) for _ in range(new)]
    per_bare = (time.perf_counter() - start) / new * 1e6
    start = time.perf_counter()
    games += [_started(seed) for seed in range(new)]
    per_new = (time.perf_counter() - start) / new * 1e6
    gc.unfreeze()
    count = len(games)
    start = time.perf_counter()
    del games
    gc.collect()
    per_drop = (time.perf_counter() - start) / count * 1e6
    return per_bare, per_new, per_drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--alive", type=int, nargs="+", default=[10, 1000, 20000], help="games alive [10 1000 20000]")
    parser.add_argument("--new", type=int, default=2000, help="new games timed at each count [2000]")
    args = parser.parse_args()
    for frozen in (False, True):
        print("games alive frozen (gc.freeze):" if frozen else "garbage collector as it is:")
        for alive in args.alive:
            per_bare, per_new, per_drop = measure(alive, args.new, frozen)
            print(
                f"  {alive:>7,} alive: Game() {per_bare:6.1f} µs, started game {per_new:7.1f} µs,"
                f" dropped {per_drop:5.1f} µs per game",
                flush=True,
            )


if __name__ == "__main__":
    main()
