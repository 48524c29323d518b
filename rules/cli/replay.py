"""``trumps replay LOG [--json]``: check a log against the rules (log format §L6)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from rules.cli.usage import os_reason, read_log_argument, shell_word
from rules.locale import N_, _, ngettext

if TYPE_CHECKING:
    from rules.game import Game

_PHASES = {
    "lead": N_("seat {seat} is to lead"),
    "respond": N_("seat {seat} is to beat or take"),
    "second": N_("seat {seat} is to play a second card"),
}
_TO_ACT = N_("seat {seat} is to act")


# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_("Check every event of LOG against the rules; say how the game stands, or exit 1 at the first bad line.")


def replay(
    log: Annotated[str, typer.Argument(help=N_("The log file, or - for standard input."), show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the final state as one JSON object."))] = False,
) -> None:
    from rules.log import LogError

    # A line at a time, so that a bad line is refused as soon as it comes (log format §L6.5):
    # a log still being written into a pipe is not waited for. Nothing is printed before the end.
    try:
        game = read_log_argument(log)
    except OSError as error:
        # English, its reason included, whatever language the command speaks (log format §L6.3)
        typer.echo(f"cannot read {shell_word(log)}: {os_reason(error, spoken=False)}", err=True)
        raise typer.Exit(1) from None
    except LogError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(game.state().model_dump(mode="json"), ensure_ascii=False))
        return
    count = len(game.events)
    # the line for people (log format §L6.1: its wording is not normative); the refusals above stay English
    source = _("standard input") if log == "-" else shell_word(log)  # one line, whatever the file is called
    valid = ngettext("{source}: a valid log of {count} event", "{source}: a valid log of {count} events", count)
    typer.echo(_("{valid}; {standing}").format(valid=valid.format(source=source, count=count), standing=standing(game)))


def standing(game: Game) -> str:
    """How the game at the end of a log stands, in a few words."""
    outcome = game.outcome
    if outcome is not None:
        if outcome.result == "loss":
            if outcome.reason == "resigned":
                return _("the game is over: seat {seat} resigned").format(seat=outcome.loser)
            return _("the game is over: seat {seat} lost").format(seat=outcome.loser)
        if outcome.reason == "repetition":
            return _("the game is over: a draw (the same position came up three times)")
        if outcome.reason == "agreement":
            return _("the game is over: a draw (by agreement)")
        return _("the game is over: a draw (by the tie check)")
    if game.phase == "trump_choice":
        return _("seat {seat} is to choose a trump").format(seat=game.to_act)
    if game.phase == "deal":
        return _("the trumps are chosen; the deal is awaited")
    return _(_PHASES.get(game.phase, _TO_ACT)).format(seat=game.to_act)
