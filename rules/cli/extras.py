"""The optional ``server`` extra: the commands that need the web stack say in one line how to install it."""

from __future__ import annotations

import importlib

import typer

from rules.locale import _

SERVER_MODULES = ("uvicorn", "starlette", "websockets")


def require_server(command: str) -> None:
    """Exit 2 with one line naming the missing module unless the ``server`` extra is installed."""
    for module in SERVER_MODULES:
        try:
            importlib.import_module(module)
        except ImportError as error:
            typer.echo(
                _(
                    "trumps {command}: the server needs the 'server' extra ({module} is missing): "
                    "pip install 'your-trumps[server]'"
                ).format(command=command, module=error.name or module),
                err=True,
            )
            raise typer.Exit(2) from None
