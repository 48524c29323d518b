"""What a named undo token would cost search: why :data:`rules.core.Undo` is a plain tuple.

Run ``python -m benchmarks.undo_token [--games 20] [--rounds 16] [--seed 1]``.

Plays ``--games`` random duels (seeded with ``--seed``) once to record their moves, then
replays each move list the way search does (``legal_moves``, ``apply``, then ``undo`` of every
move, last first) with two versions of ``apply`` taking turns in the same process, ``--rounds``
times each, so that other work on the machine slows both alike: the committed
:mod:`rules.generated_step`, whose token is a plain tuple, and the same code returning a named
tuple, the token's own names (:class:`rules.step.UndoFields`), built the cheapest way Python
offers (``tuple.__new__(UndoFields, (...))``, not the named tuple's
own ``__new__``, which costs twice as much again). Prints the best time per ply of each and the
difference. The named version is compiled here from the committed module's text with one line
changed; it is a measurement, never played by the engine. Both versions are compiled here from that
text, so both run as Python whether or not the process loaded the native build (:mod:`rules.native`).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rules
from rules import core
from rules.step import UndoFields

SOURCE = Path(rules.__file__).with_name("generated_step.py")
"""The committed step's text (with the native build loaded, the module's own file is the compiled one)."""

PLAIN = "    return (seat, phase, pile, hand, out_order, outcome, state.counted, state.repeats)\n"
NAMED = "    return new(Undo, (seat, phase, pile, hand, out_order, outcome, state.counted, state.repeats))\n"


def step_apply(named: bool) -> Callable[[core.State, int], Any]:
    """The committed ``apply``; with ``named``, its ``return`` line builds a :class:`rules.step.UndoFields` instead."""
    source = SOURCE.read_text(encoding="utf-8")
    if source.count(PLAIN) != 1:
        raise SystemExit(f"{SOURCE} no longer returns its token as this benchmark expects")
    namespace: dict[str, Any] = {"__name__": "named_step" if named else "plain_step"}
    exec(compile(source.replace(PLAIN, NAMED) if named else source, f"<{SOURCE.name}>", "exec"), namespace)
    namespace.update(Undo=UndoFields, new=tuple.__new__)
    return namespace["apply"]  # type: ignore[no-any-return]


def games(count: int, seed: int) -> list[tuple[core.State, list[int]]]:
    """``count`` random duels: each start and its moves."""
    rng = random.Random(seed)
    played = []
    for _ in range(count):
        state = core.State.from_position((0, 1), core.deal_pack(2, 0, rng), (), 1, core.LEAD)
        start, moves = state.copy(), []
        while state.phase != core.FINISHED:
            legal = core.legal_moves(state)
            moves.append(legal[int(rng.random() * len(legal))])
            core.apply(state, moves[-1])
        played.append((start, moves))
    return played


def replay(played: list[tuple[core.State, list[int]]], apply: Callable[[core.State, int], Any]) -> float:
    """Seconds to play and take back every game of ``played`` as search does."""
    legal_moves, undo = core.legal_moves, core.undo
    start_time = time.perf_counter()
    for start, moves in played:
        state = start.copy()
        tokens = []
        for move in moves:
            legal_moves(state)
            tokens.append(apply(state, move))
        for token in reversed(tokens):
            undo(state, token)
    return time.perf_counter() - start_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random duels replayed [20]")
    parser.add_argument("--rounds", type=int, default=16, help="replays of each version, taking turns [16]")
    parser.add_argument("--seed", type=int, default=1, help="seed of the duels [1]")
    args = parser.parse_args()
    played = games(args.games, args.seed)
    plies = sum(len(moves) for _, moves in played)
    versions = {"plain tuple": step_apply(named=False), "named tuple": step_apply(named=True)}
    best = dict.fromkeys(versions, float("inf"))
    for round_ in range(args.rounds):
        for name in sorted(versions, reverse=round_ % 2 == 1):
            best[name] = min(best[name], replay(played, versions[name]))
    plain, named = (best[name] / plies * 1e9 for name in versions)
    print(f"{plies} plies, best of {args.rounds} rounds each")
    print(f"plain tuple: {plain:.0f} ns a ply; named tuple: {named:.0f} ns a ply ({(named / plain - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
