"""Writing a generated folder: every file written, stale generated files removed, nothing else touched."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path


def write_files(out: Path, files: dict[str, str], stale: Callable[[Path], Iterable[Path]]) -> list[Path]:
    """Write ``files`` (relative name → text) under ``out``; returns the paths written.

    ``stale(out)`` lists the files an earlier generation may have left: those not written
    now are removed, so the folder equals a fresh generation. It must list only files the
    generator made, so that ``--out .`` can never delete a file of the project.
    """
    written = []
    for name, text in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        # Byte for byte: some vectors hold CRs on purpose, and one bytes that are not UTF-8 (held in the text
        # as the surrogates that Python's "surrogateescape" decodes them to).
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        written.append(path)
    for path in stale(out):
        if path.is_file() and path.relative_to(out).as_posix() not in files:
            path.unlink()
    return written
