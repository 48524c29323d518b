"""The ``trumps`` command: one module per subcommand, registered here.

A command's module holds its options and imports what it needs when it runs, so that ``trumps --help``,
``trumps --version`` and every ``trumps COMMAND --help`` answer without loading the engine, the players or
the server (``benchmarks/startup.py`` measures it).
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import typer
import typer.core

from rules.cli import arena, bench, loadtest, play, replay, review, serve, solve, spec
from rules.cli.usage import readable, refuse_unknown_language, run, stand_in_for_closed_output, writing
from rules.locale import LANGUAGES, N_, _, language_from_environment, use_language

# Click's plain help, not typer's rich panels: rich's help takes longer to import and to draw than the rest of a
# ``--help`` (benchmarks/startup.py); the texts are the same.
app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    help=N_('Svoi Kozyri ("Your trumps"), the card game.'),
)


COMMANDS = (play, review, replay, solve, arena, bench, spec, serve, loadtest)
"""The modules of the commands, each named as its command and holding its function of that name."""


def _name(module: Any) -> str:
    return str(module.__name__.rpartition(".")[2])


def _function(module: Any) -> Any:
    return getattr(module, _name(module))


SPEAKING_COMMANDS = frozenset(
    _name(module) for module in COMMANDS if "lang" in inspect.signature(_function(module)).parameters
)
"""The commands with a ``--lang`` of their own (``play``), which speaks over ``trumps --lang``."""


def version_line() -> str:
    """``trumps 0.1.0``: the program and the installed package's version."""
    from importlib.metadata import version

    return f"trumps {version('your-trumps')}"


def _version(asked: bool) -> None:
    if asked:
        typer.echo(version_line())
        raise typer.Exit


_spoken_from_the_command_line = False
"""Whether :func:`main` chose the language from the whole command line (:func:`language_asked`) before parsing it."""


def _language(lang: str | None) -> None:
    refuse_unknown_language(lang)
    if lang is not None and not _spoken_from_the_command_line:
        # A program built from ``app`` speaks it from here; main() chose already, and a command's own --lang after
        # this one (trumps --lang ru play --lang cs) speaks over it, in its help and errors too.
        use_language(lang)


@app.callback()
def _root(
    _: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help=N_("Print the version and exit."))
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            callback=_language,
            is_eager=True,
            metavar="LANG",
            help=N_("The language of every command's messages: en, ro, fi, cs, ky, ru (before the command)."),
            show_default=N_("from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en"),
        ),
    ] = None,
) -> None:
    """Play, replay and analyse games of Svoi Kozyri."""


for _module in COMMANDS:
    app.command(help=_module.HELP)(_function(_module))


def language_asked(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language of the command line, as the command will speak it: a valid ``--lang xx`` before the command
    (``trumps --lang xx …``), or after it for a command with a ``--lang`` of its own (``trumps play``), the last
    one given, so that the help and the errors speak the language the command will play in; else the usual
    variables. A ``--lang`` the command does not take is refused, so it chooses nothing.

    >>> language_asked(["play", "--lang", "fi", "--help"], {"LANG": "cs_CZ.UTF-8"})
    'fi'
    >>> language_asked(["--lang", "ru", "play", "--lang=cs"], {}), language_asked(["--lang", "ru", "play"], {})
    ('cs', 'ru')
    >>> language_asked(["replay", "--lang", "ru", "x"], {"LANG": "cs_CZ.UTF-8"})
    'cs'
    >>> language_asked(["play", "--lang=xx"], {"LANGUAGE": "ru"}), language_asked(["--help"], {})
    ('ru', 'en')
    """
    asked = None
    command = None
    for index, argument in enumerate(argv):
        if argument == "--":
            break
        value = argv[index + 1] if argument == "--lang" and index + 1 < len(argv) else None
        if argument.startswith("--lang="):
            value = argument.partition("=")[2]
        if value is None and command is None and not argument.startswith("-") and argv[index - 1 : index] != ["--lang"]:
            command = argument
        if value in LANGUAGES and (command is None or command in SPEAKING_COMMANDS):
            asked = value
    return asked or language_from_environment(environ)


def translated(command: Any) -> None:
    """Put the help of ``command`` (and its subcommands) in the language spoken: the texts are English
    messages (:func:`~rules.locale.N_`) until here, so what is generated from them stays English."""
    if command.help:
        command.help = _(command.help)
        command.short_help = command.help.split("\n\n")[0].replace("\n", " ")  # as a line of the list of commands
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _(param.help)
        if isinstance(getattr(param, "show_default", None), str):
            param.show_default = _(param.show_default)
    built = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = built(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    command.get_help_option = help_option

    def format_usage(ctx: Any, formatter: Any) -> None:  # click's "Usage: ", in the language spoken
        formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(ctx)), _("Usage:") + " ")

    command.format_usage = format_usage
    format_help = command.format_help

    def format_help_spoken(ctx: Any, formatter: Any) -> None:  # typer's own words, read when it draws the help
        speak_typer_words()
        format_help(ctx, formatter)

    command.format_help = format_help_spoken
    for sub in getattr(command, "commands", {}).values():
        translated(sub)


TYPER_WORDS = (
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
)
"""Typer's own words around the help (section titles, ``[default: …]``, ``[required]``), as messages."""


def speak_typer_words() -> None:
    """Typer's own words around the help (:data:`TYPER_WORDS`) in the language spoken: typer passes them through
    the ``_`` of its module ``typer.core`` (the standard ``gettext``, whose default domain holds none of our
    messages) when it draws the help, so that ``_`` becomes ours."""
    typer.core._ = _  # type: ignore[attr-defined]


def main() -> None:
    global _spoken_from_the_command_line
    stand_in_for_closed_output()
    use_language(language_asked(sys.argv[1:], os.environ))
    if sys.argv[1:] == ["--version"]:  # answered before the commands are built
        writing(lambda: typer.echo(version_line()))
        return
    command = typer.main.get_command(app)
    readable(command)
    translated(command)
    _spoken_from_the_command_line = True
    try:
        run(command, "trumps")
    finally:  # for whatever runs ``app`` in this process afterwards (tests)
        _spoken_from_the_command_line = False
