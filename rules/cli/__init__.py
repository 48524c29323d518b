"""The ``trumps`` command: one module per subcommand, registered here."""

from __future__ import annotations

from importlib.metadata import version
from typing import Annotated

import typer

from rules.cli.arena import arena
from rules.cli.bench import bench
from rules.cli.loadtest import loadtest
from rules.cli.play import play
from rules.cli.replay import replay
from rules.cli.serve import serve
from rules.cli.solve import solve
from rules.cli.spec import spec
from rules.cli.usage import readable, run

app = typer.Typer(no_args_is_help=True, add_completion=False, help='Svoi Kozyri ("Your trumps"), the card game.')


def _version(asked: bool) -> None:
    if asked:
        typer.echo(f"trumps {version('your-trumps')}")
        raise typer.Exit


@app.callback()
def _root(
    _: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Play, replay and analyse games of Svoi Kozyri."""


app.command()(play)
app.command()(replay)
app.command()(solve)
app.command()(arena)
app.command()(bench)
app.command()(spec)
app.command()(serve)
app.command()(loadtest)


def main() -> None:
    command = typer.main.get_command(app)
    readable(command)
    run(command, "trumps")
