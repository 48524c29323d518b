"""The optional ``server`` extra: the commands that need the web stack say in one line how to install it."""

from __future__ import annotations

import importlib

import typer

from rules.cli.usage import pip
from rules.locale import _

SERVER_MODULES = ("uvicorn", "starlette", "websockets")


def require_server(command: str) -> None:
    """Exit 2 with one line naming the missing module unless the ``server`` extra is installed.

    The package is not published: the extra is installed from the checkout, with the pip of this environment."""
    for module in SERVER_MODULES:
        try:
            importlib.import_module(module)
        except ImportError as error:
            typer.echo(
                _(
                    "trumps {command}: the server needs the 'server' extra ({module} is missing); "
                    "install it from the project's folder: {install}"
                ).format(command=command, module=error.name or module, install=f"{pip()} install -e '.[server]'"),
                err=True,
            )
            raise typer.Exit(2) from None
