"""How the ``trumps`` command speaks about itself: ``--help`` with plain placeholders, one-line usage errors.

Typer writes a required argument as ``{log}`` and adds a type to every parameter (``<str>``,
``<bool>``, ``<int range>``); a person expects ``LOG``, ``N``, ``SEED``. And a mistyped value gets
a framed box of several lines; one line that names the option and says what is wrong is enough.

Typer 0.29 carries its own copy of click (``typer._click``, private), older ones use click itself:
so parameters are recognised by typer's public classes and errors by their class names.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
import typer.core

COUNT = "N"
"""The placeholder of a whole number that counts something (games, hands, players)."""

_NAMED = {"seed": "SEED", "port": "PORT", "seat": "SEAT", "dealer": "SEAT"}
"""Whole numbers that are not counts keep their own name."""


class _Argument(typer.core.TyperArgument):
    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


class _Option(typer.core.TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar


def _whole_number(param: Any) -> bool:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return descriptor.annotation is int
    return getattr(getattr(param, "type", None), "name", "") in ("integer", "integer range")


def placeholder(param: typer.core.TyperArgument | typer.core.TyperOption) -> str:
    """What a value of ``param`` is called in ``--help``: ``LOG``, ``N``, ``SEED``, ``SECONDS``, ``HOST``."""
    name = (param.name or "value").lower()
    if name in _NAMED:
        return _NAMED[name]
    if isinstance(param, typer.core.TyperOption) and _whole_number(param):
        return COUNT
    return name.upper()


def readable(command: Any) -> None:
    """Give every parameter of ``command`` (and its subcommands) a plain placeholder and no type label."""
    for param in command.params:
        if isinstance(param, typer.core.TyperArgument):
            param.metavar = param.metavar or placeholder(param)
            param.__class__ = _Argument
        elif isinstance(param, typer.core.TyperOption):
            if not param.is_flag:
                param.metavar = param.metavar or placeholder(param)
            param.__class__ = _Option
    built = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = built(ctx)
        if isinstance(option, typer.core.TyperOption):
            option.__class__ = _Option
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        readable(sub)


def _kind(error: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(error).__mro__)


def run(command: Any, name: str) -> None:
    """Run ``command`` as the program ``name``; a usage error is one line on standard error, exit 2."""
    try:
        result: Any = command.main(prog_name=name, standalone_mode=False)
    except typer.Abort:
        typer.echo("", err=True)
        sys.exit(1)
    except Exception as error:
        if _kind(error, "NoArgsIsHelpError"):
            typer.echo(error.ctx.get_help())  # type: ignore[attr-defined]
            sys.exit(0)
        if _kind(error, "UsageError"):
            ctx = getattr(error, "ctx", None)
            path = ctx.command_path if ctx is not None else name
            message = error.format_message().rstrip(".")  # type: ignore[attr-defined]
            typer.echo(f"{path}: {message} (see {path} --help)", err=True)
            sys.exit(2)
        if _kind(error, "ClickException"):
            typer.echo(f"{name}: {error.format_message()}", err=True)  # type: ignore[attr-defined]
            sys.exit(1)
        raise
    sys.exit(result if isinstance(result, int) else 0)
