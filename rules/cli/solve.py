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
from rules.cli.usage import os_reason
from rules.events import event_dict
from rules.locale import N_, _, ngettext, number, percent, pgettext
from rules.log import LogError, read_log
from rules.players.solver import Solver

WORDS = {1: "win", 0: "draw", -1: "loss"}
"""An exact value in words (the English of ``--json``'s ``value``)."""

# The line about the seat to act when the value is exact, and a move's value, for each value.
_EXACT = {
    1: N_("seat {seat} to act: win ({value})"),
    0: N_("seat {seat} to act: draw ({value})"),
    -1: N_("seat {seat} to act: loss ({value})"),
}


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
        _fail(_("cannot read {path}: {why}").format(path=log, why=os_reason(error)))
    try:
        game = read_log(data)
    except LogError as error:
        _fail(str(error))  # a line of the log format (§L6), English as trumps replay says it
    players = game.rules.players
    if players != 2:
        _fail(
            ngettext(
                "the solver handles the duel only, and this log has {count} player",
                "the solver handles the duel only, and this log has {count} players",
                players,
            ).format(count=players)
        )
    if game.is_over():
        _fail(_("the game is over: there is no move to solve"))
    if game.phase == "trump_choice":
        _fail(_("there is no position to solve yet: the log ends before the trumps are chosen"))
    if game.phase == "deal":
        _fail(_("there is no position to solve yet: the log ends before the deal"))
    evaluation = evaluate(game, Solver(seconds=seconds), playouts)
    if as_json:
        typer.echo(json.dumps(result(evaluation)))
        return
    seat = evaluation.seat
    if evaluation.kind == "exact":
        assert evaluation.value is not None
        typer.echo(_(_EXACT[evaluation.value]).format(seat=seat, value=f"{evaluation.value:+d}"))
    else:
        assert seat is not None
        typer.echo(
            ngettext(
                "seat {seat} to act: no exact value within {seconds} s; "
                "estimate: a score of about {score} (1 a win, ½ a draw) from {count} playout",
                "seat {seat} to act: no exact value within {seconds} s; "
                "estimate: a score of about {score} (1 a win, ½ a draw) from {count} playouts",
                evaluation.samples,
            ).format(
                seat=seat,
                seconds=number(seconds, None),
                score=percent(evaluation.scores[seat]),
                count=evaluation.samples,
            )
        )
    typer.echo(_("best: {move}").format(move=_describe(event_dict(evaluation.best[0]))))
    described = [_describe(event_dict(entry.move)) for entry in evaluation.moves]
    width = max([12, *(len(text) for text in described)])
    for text, entry in zip(described, evaluation.moves, strict=True):
        if evaluation.kind == "exact":
            value = _move_value(int(entry.value))
        else:
            value = _("about {score}").format(score=percent(entry.value))
        typer.echo(f"  {text:<{width}} {value}")


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


def _move_value(value: int) -> str:
    if value > 0:
        return pgettext("the exact value of a move", "win")
    if value < 0:
        return pgettext("the exact value of a move", "loss")
    return pgettext("the exact value of a move", "draw")


def _describe(event: dict[str, Any]) -> str:
    """A move in a few words: the kind of move in the language spoken, the card by its code."""
    kind = event["type"]
    if kind == "take":
        return pgettext("a move in trumps solve", "take")
    if kind == "lead":
        return pgettext("a move in trumps solve", "lead {card}").format(card=event["card"])
    if kind == "beat":
        return pgettext("a move in trumps solve", "beat {card}").format(card=event["card"])
    if kind == "second":
        return pgettext("a move in trumps solve", "second {card}").format(card=event["card"])
    return f"{kind} {event['card']}"


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    raise typer.Exit(1)
