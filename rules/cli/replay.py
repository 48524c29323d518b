"""``trumps replay LOG [--json]``: check a log against the rules (log format §L6)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from rules.log import LogError, read_log


def replay(
    log: Annotated[str, typer.Argument(help="The log file, or - for standard input.", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as one JSON object.")] = False,
) -> None:
    """Check every event of LOG against the rules; exit 1 at the first bad line."""
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
