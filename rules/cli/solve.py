"""``trumps solve LOG [--json]``: the value of a duel position and of each of its moves, for the seat to act.

The position is the one at the end of LOG; repetition counts start there (see
:mod:`rules.players.solver` for how the solver treats the repetition rule). Exact values are
``1`` win, ``0`` draw, ``-1`` loss. When the solver finds no exact value within ``--seconds``
(positions from real games with more than about ten cards in the hands often take longer), the
answer is an estimate from playouts, as on the analysis board (see :mod:`rules.analysis`).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from rules.analysis import PLAYOUTS, Evaluation, evaluate
from rules.events import event_dict
from rules.locale import N_
from rules.log import LogError, read_log
from rules.players.solver import Solver

WORDS = {1: "win", 0: "draw", -1: "loss"}


# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_(
    "Solve the duel position at the end of LOG for the seat to act: its value, a best move and every move's value.\n"
    "\n"
    "Without an exact value within --seconds, each move's winning chance is estimated from playouts."
)


def solve(
    log: Annotated[str, typer.Argument(help=N_("The log file, or - for standard input."), show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the result as one JSON object."))] = False,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.01, help=N_("Time for the exact value; after it, an estimate."))
    ] = 60.0,
    playouts: Annotated[
        int, typer.Option(min=1, help=N_("Playouts of the estimate, shared among the moves."))
    ] = PLAYOUTS,
) -> None:
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
    evaluation = evaluate(game, Solver(seconds=seconds), playouts)
    if as_json:
        typer.echo(json.dumps(result(evaluation)))
        return
    seat = evaluation.seat
    if evaluation.kind == "exact":
        assert evaluation.value is not None
        typer.echo(f"seat {seat} to act: {WORDS[evaluation.value]} ({evaluation.value:+d})")
    else:
        assert seat is not None
        typer.echo(
            f"seat {seat} to act: no exact value within {seconds:g} s; estimate: a score of about "
            f"{evaluation.scores[seat]:.0%} (1 a win, ½ a draw) from {evaluation.samples} playouts"
        )
    typer.echo(f"best: {_describe(event_dict(evaluation.best[0]))}")
    for entry in evaluation.moves:
        value = WORDS[int(entry.value)] if evaluation.kind == "exact" else f"about {entry.value:.0%}"
        typer.echo(f"  {_describe(event_dict(entry.move)):<12} {value}")


def result(evaluation: Evaluation) -> dict[str, Any]:
    """The ``--json`` answer: for which seat, exact or estimated, the best move and every move's value."""
    answer: dict[str, Any] = {"seat": evaluation.seat, "exact": evaluation.kind == "exact"}
    if evaluation.kind == "exact":
        answer["value"] = evaluation.value
    else:
        assert evaluation.seat is not None
        answer["estimate"] = {
            "score": evaluation.scores[evaluation.seat],
            "samples": evaluation.samples,
            "why": evaluation.reason,
        }
    answer["best"] = event_dict(evaluation.best[0])
    key = "value" if evaluation.kind == "exact" else "score"
    answer["moves"] = [
        {"move": event_dict(entry.move), key: int(entry.value) if key == "value" else entry.value}
        | ({} if key == "value" else {"samples": entry.samples})
        for entry in evaluation.moves
    ]
    return answer


def _describe(event: dict[str, Any]) -> str:
    return "take" if event["type"] == "take" else f"{event['type']} {event['card']}"


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    raise typer.Exit(1)
