"""``trumps solve LOG [--json]``: the exact value of a duel position and of each of its moves.

The position is the one at the end of LOG; repetition counts start there (see
:mod:`rules.players.solver` for how the solver treats the repetition rule). Values are for
the seat to act: ``1`` win, ``0`` draw, ``-1`` loss.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from rules import core
from rules.events import event_dict
from rules.log import LogError, read_log
from rules.players.knowledge import move_of
from rules.players.solver import Solver, SolverLimit

WORDS = {1: "win", 0: "draw", -1: "loss"}


def solve(
    log: Annotated[str, typer.Argument(help="The log file, or - for standard input.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
    seconds: Annotated[float, typer.Option("--seconds", min=0.01, help="Give up after this long.")] = 60.0,
) -> None:
    """Solve the duel position at the end of LOG: its value, a best move and every move's value."""
    try:
        data = sys.stdin.buffer.read() if log == "-" else open(log, "rb").read()  # noqa: SIM115
    except OSError as error:
        _fail(f"cannot read {log}: {error.strerror}")
    try:
        game = read_log(data)
    except LogError as error:
        _fail(str(error))
    if game.rules.players != 2:
        _fail(f"the solver handles the duel only, and this log has {game.rules.players} players")
    if game.is_over():
        _fail("the game is over: there is no move to solve")
    if game.phase in ("trump_choice", "deal"):
        _fail(f"there is no position to solve yet: the log ends in phase {game.phase}")
    state = game.core_state()
    state.seen = {} if state.phase == core.SECOND else {state.key(): 1}
    try:
        solution = Solver(seconds=seconds).solve(state)
    except SolverLimit:
        _fail(f"no result within {seconds:g} s: the game from here is too large or too long to search (try --seconds)")
    events = {move_of(event): event for event in game.legal_moves()}
    result: dict[str, Any] = {
        "value": solution.value,
        "best": event_dict(events[solution.best]),
        "moves": [{"move": event_dict(events[move]), "value": value} for move, value in solution.moves],
    }
    if as_json:
        typer.echo(json.dumps(result))
        return
    seat = state.to_act
    typer.echo(f"seat {seat} to act: {WORDS[solution.value]} ({solution.value:+d})")
    typer.echo(f"best: {_describe(result['best'])}")
    for entry in result["moves"]:
        typer.echo(f"  {_describe(entry['move']):<12} {WORDS[entry['value']]}")


def _describe(event: dict[str, Any]) -> str:
    return "take" if event["type"] == "take" else f"{event['type']} {event['card']}"


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    raise typer.Exit(1)
