"""``trumps replay LOG [--json]``: check a log against the rules (log format §L6)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from rules.game import Game
from rules.locale import N_
from rules.log import LogError, read_log

_PHASES = {"lead": "to lead", "respond": "to beat or take", "second": "to play a second card"}


# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_("Check every event of LOG against the rules; say how the game stands, or exit 1 at the first bad line.")


def replay(
    log: Annotated[str, typer.Argument(help=N_("The log file, or - for standard input."), show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the final state as one JSON object."))] = False,
) -> None:
    try:
        data = sys.stdin.buffer.read() if log == "-" else open(log, "rb").read()  # noqa: SIM115
    except OSError as error:
        typer.echo(f"cannot read {log}: {error.strerror}", err=True)
        raise typer.Exit(1) from None
    try:
        game = read_log(data)
    except LogError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(game.state().model_dump(mode="json"), ensure_ascii=False))
        return
    count = len(game.events)
    source = "standard input" if log == "-" else log
    typer.echo(f"{source}: a valid log of {count} event{'' if count == 1 else 's'}; {standing(game)}")


def standing(game: Game) -> str:
    """How the game at the end of a log stands, in a few words."""
    outcome = game.outcome
    if outcome is not None:
        if outcome.result == "loss":
            return f"the game is over: seat {outcome.loser} lost"
        why = "the same position came up three times" if outcome.reason == "repetition" else "by the tie check"
        return f"the game is over: a draw ({why})"
    if game.phase == "trump_choice":
        return f"seat {game.to_act} is to choose a trump"
    if game.phase == "deal":
        return "the trumps are chosen; the deal is awaited"
    return f"seat {game.to_act} is {_PHASES.get(game.phase, 'to act')}"
