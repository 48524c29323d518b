"""``trumps spec [--out DIR] [--docs DIR]``: regenerate the specification (and the generated doc pages)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rules.cli.usage import os_reason
from rules.locale import N_, _, ngettext

# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_("Write spec/ (schemas, state chart, vectors, move counts) from the engine; with --docs, the generated pages.")


def spec(
    out: Annotated[Path, typer.Option("--out", help=N_("Folder to write the specification to."))] = Path("spec"),
    docs: Annotated[
        Path | None, typer.Option("--docs", help=N_("Also write the generated pages of the documentation site here."))
    ] = None,
) -> None:
    from rules.spec import write_spec  # the generators build every vector on import: only this command needs them
    from rules.spec.pages import write_pages

    try:
        written = write_spec(out)
        if docs is not None:
            written += write_pages(docs)
    except OSError as error:
        typer.echo(_("cannot write {path}: {why}").format(path=error.filename, why=os_reason(error)), err=True)
        raise typer.Exit(1) from None
    except ValueError as error:  # a vector that no longer shows what it says: the engine changed
        typer.echo(_("cannot generate the specification: {why}").format(why=error), err=True)
        raise typer.Exit(1) from None
    typer.echo(ngettext("wrote {count} file", "wrote {count} files", len(written)).format(count=len(written)))
