"""``trumps spec [--out DIR] [--docs DIR]``: regenerate the specification (and the generated doc pages).

It also writes ``rules/generated_step.py`` in the package when the table no longer makes that file
(:func:`rules.spec.write_step`): CI runs the command and then compares that file with the committed one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rules.cli.usage import os_reason, shell_word
from rules.locale import N_, _, ngettext

# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_("Write spec/ (schemas, state chart, vectors, move counts) from the engine; with --docs, the generated pages.")


def spec(
    out: Annotated[
        str, typer.Option("--out", metavar="DIR", help=N_("Folder to write the specification to."))
    ] = "spec",
    docs: Annotated[
        str | None,
        typer.Option(
            "--docs", metavar="DIR", help=N_("Also write the generated pages of the documentation site here.")
        ),
    ] = None,
) -> None:
    folders = {"--out": out} | ({} if docs is None else {"--docs": docs})
    for option, folder in folders.items():  # both are checked before anything is written
        problem = folder_problem(folder)
        if problem is not None:
            typer.echo(f"{option} {shell_word(folder)}: {problem}", err=True)
            raise typer.Exit(2)
    # the generators build every vector on import: only this command needs them
    from rules.spec import write_spec, write_step
    from rules.spec.pages import write_pages

    try:
        written = write_spec(Path(out)) + write_step()
        if docs is not None:
            written += write_pages(Path(docs))
    except OSError as error:
        cannot = _("cannot write {path}: {why}").format(path=shell_word(str(error.filename)), why=os_reason(error))
        typer.echo(cannot, err=True)
        raise typer.Exit(1) from None
    except ValueError as error:  # a vector that no longer shows what it says: the engine changed
        typer.echo(_("cannot generate the specification: {why}").format(why=error), err=True)
        raise typer.Exit(1) from None
    typer.echo(ngettext("wrote {count} file", "wrote {count} files", len(written)).format(count=len(written)))


def folder_problem(folder: str) -> str | None:
    """Why ``folder`` cannot take the generated files (``None`` if it can): an empty name, which would mean the
    current folder, or a path that is not a folder (a file, or under one).

    >>> folder_problem(""), folder_problem("spec") is None
    ('an empty name: give the folder to write to', True)
    """
    if not folder.strip():
        return _("an empty name: give the folder to write to")
    path = Path(folder)
    for place in (path, *path.parents):
        if place.exists():
            return None if place.is_dir() else _("{path} is not a folder").format(path=shell_word(str(place)))
    return None
