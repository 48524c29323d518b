"""The ``trumps`` command: one module per subcommand, registered here."""

from __future__ import annotations

import typer

from rules.cli.arena import arena
from rules.cli.bench import bench
from rules.cli.loadtest import loadtest
from rules.cli.play import play
from rules.cli.replay import replay
from rules.cli.serve import serve
from rules.cli.solve import solve
from rules.cli.spec import spec

app = typer.Typer(no_args_is_help=True, add_completion=False, help='Svoi Kozyri ("Your trumps"), the card game.')


@app.callback()
def _root() -> None:
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
    app()
