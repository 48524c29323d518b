"""``trumps bench [--json]``: plies per second of random duels, through the machine and through search."""

from __future__ import annotations

import json
import random
import time
from typing import Annotated

import typer

from rules import core
from rules.events import ChooseTrump
from rules.game import Game
from rules.options import RuleSet


def _machine_plies(seconds: float, seed: int) -> tuple[int, float]:
    """Random duels through the public API: ``legal_moves()`` and ``push()`` (the machine fires every event)."""
    rng = random.Random(seed)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(RuleSet(), seed=rng.getrandbits(32))
        game.push(ChooseTrump(seat=1, suit="H"))
        game.push(ChooseTrump(seat=0, suit="S"))
        game.push(game.sample_deal())
        while not game.is_over():
            moves = game.legal_moves()
            game.push(moves[int(rng.random() * len(moves))])
            plies += 1
    return plies, time.perf_counter() - start


def _search_plies(seconds: float, seed: int) -> tuple[int, float]:
    """Random duels on the lean state: ``core.legal_moves()`` and ``core.apply()``, repetition rule included."""
    rng = random.Random(seed)
    legal_moves, apply, finished = core.legal_moves, core.apply, core.FINISHED
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands = core.deal_pack(2, 0, rng)
        state = core.State.from_position((0, 1), hands, (), 1, core.LEAD)
        while state.phase != finished:
            moves = legal_moves(state)
            apply(state, moves[int(rng.random() * len(moves))])
            plies += 1
    return plies, time.perf_counter() - start


def bench(
    seconds: Annotated[float, typer.Option(min=0.01, help="Seconds to run each path.")] = 3.0,
    seed: Annotated[int, typer.Option(help="Seed of the random duels.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Play random duels and print plies per second through the machine and through the search path."""
    machine_plies, machine_time = _machine_plies(seconds, seed)
    search_plies, search_time = _search_plies(seconds, seed)
    figures = {
        "machine_plies_per_s": round(machine_plies / machine_time),
        "search_plies_per_s": round(search_plies / search_time),
    }
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(f"machine (Game.legal_moves + Game.push): {figures['machine_plies_per_s']:>9,} plies/s")
    typer.echo(f"search  (core.legal_moves + core.apply): {figures['search_plies_per_s']:>9,} plies/s")
