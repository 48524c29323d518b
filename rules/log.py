"""Replay logs: JSON Lines, a :class:`~rules.events.Start` header and then one event a line.

>>> game = read_log('''{"type": "start"}
... {"type": "choose_trump", "seat": 1, "suit": "H"}
... {"type": "choose_trump", "seat": 1, "suit": "S"}''')
Traceback (most recent call last):
...
rules.log.LogError: line 3: seat 1 cannot choose a trump: it is seat 0's turn to choose
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from rules.events import EventError, Start, event_json, parse_event
from rules.game import Game, IllegalEvent

JSON_WHITESPACE = " \t\r\n"
"""What RFC 8259 calls whitespace; a line of nothing else is blank (log format §L1.4)."""

BYTE_ORDER_MARK = "\ufeff"
"""Passed over at the very start of a log, and malformed anywhere else (log format §L1.5)."""
UTF8_BYTE_ORDER_MARK = BYTE_ORDER_MARK.encode("utf-8")


class LogError(ValueError):
    """The first bad line of a log: its 1-based number and why it is bad."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def read_log(source: str | bytes | Iterable[str | bytes], *, seed: int | None = None) -> Game:
    """Replay a log (its text, or its lines) and return the game; raises :class:`LogError`.

    A text is split as :func:`stream_lines` splits a file: lines end at ``\n`` only, as JSON
    Lines says, so a Unicode line separator inside a JSON string does not split a line. Blank
    lines (only JSON whitespace) are passed over but counted, so line numbers match an
    editor's. A byte order mark at the very start is passed over too: RFC 8259 lets a JSON
    reader ignore one, and some Windows editors and shells write one before UTF-8 text. It
    goes before the text is split, so a text of a byte order mark alone has no line, like an
    empty one, and is refused at line 1 (log format §L1.5, §L1.7). Lines already split keep
    their count, and their CRs: a first line holding only the mark is a blank line 1. (Log
    format §L1.)
    """
    if isinstance(source, str):
        # Through its bytes, so that a text and a file are split by the one splitter. A lone surrogate, which no
        # UTF-8 text can hold, becomes bytes that are not UTF-8: its line is refused as a file's would be.
        source = source.encode("utf-8", "surrogatepass")
    lines = stream_lines(io.BytesIO(source)) if isinstance(source, bytes) else _without_mark(source)
    return _replay(lines, seed)


def read_log_stream(file: BinaryIO, *, seed: int | None = None) -> Game:
    """Replay the log that ``file`` holds, reading it a line at a time; raises :class:`LogError`.

    A bad line is refused as soon as it has been read, and nothing after it is read (log format
    §L3.5, §L6): so a log written slowly into a pipe, ``tail -f`` say, is refused when its bad
    line comes, not when the writer stops. A read that fails raises :class:`OSError`.
    """
    return _replay(stream_lines(file), seed)


def stream_lines(file: BinaryIO) -> Iterator[bytes]:
    """The lines of a binary file as log format §L1.2 splits them, each read only when it is asked for.

    Iterating a binary file splits at ``\n`` alone, and yields a line once its ``\n`` (or the
    end of the file) has been read. The line end is the ``\n`` and a ``\r`` right before it;
    any other ``\r``, one at the very end of the file included, is part of its line, where
    JSON reads it as whitespace, or refuses it inside a string (§L1.2). A byte order mark at
    the very start is passed over before any line is taken: a file of the mark alone has no
    line (§L1.5, §L1.7).

    >>> list(stream_lines(io.BytesIO(b"A\\r\\nB\\rC\\n\\r")))
    [b'A', b'B\\rC', b'\\r']
    """
    first = True
    for raw in file:
        if first:
            first = False
            raw = raw.removeprefix(UTF8_BYTE_ORDER_MARK)
            if not raw:  # the mark and nothing after it: the file holds no line
                return
        yield raw[:-2] if raw.endswith(b"\r\n") else raw.removesuffix(b"\n")


def is_blank(line: str) -> bool:
    """Whether a line holds nothing but JSON whitespace, and is passed over (log format §L1.4)."""
    return not line.strip(JSON_WHITESPACE)


def header_line(lines: Iterable[str]) -> int:
    """The number of a log's header: its first line that is not blank (log format §L3.1)."""
    return next(number for number, line in enumerate(lines, start=1) if not is_blank(line))


def _without_mark(lines: Iterable[str | bytes]) -> Iterator[str | bytes]:
    """Lines already split, with a byte order mark at the start of the first passed over."""
    for number, line in enumerate(lines, start=1):
        if number == 1:
            line = (
                line.removeprefix(BYTE_ORDER_MARK) if isinstance(line, str) else line.removeprefix(UTF8_BYTE_ORDER_MARK)
            )
        yield line


def _replay(lines: Iterable[str | bytes], seed: int | None) -> Game:
    """The game of the log's lines (split, the byte order mark passed over), refused at its first bad line."""
    game: Game | None = None
    number = 0
    blank = 0
    for number, raw in enumerate(lines, start=1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as error:
            bad = error.object[error.start]  # its place counted from 1, as an editor counts columns
            raise LogError(
                number, f"not UTF-8 text at byte {error.start + 1} of the line (0x{bad:02X}: {error.reason})"
            ) from None
        if is_blank(line):
            blank += 1
            continue
        try:
            event = parse_event(line)
        except EventError as error:
            raise LogError(number, str(error)) from None
        if game is None:
            if not isinstance(event, Start):
                raise LogError(number, f"a log starts with a start header, not a {event.type} event")
            game = Game(event.rule_set(), seed=seed)
            continue
        if isinstance(event, Start):
            raise LogError(number, "a start header can only be the first line")
        try:
            game.push(event)
        except IllegalEvent as error:
            raise LogError(number, str(error)) from None
    if game is None:
        raise LogError(number + 1, _empty_reason(blank))
    return game


def _empty_reason(blank: int) -> str:
    """Why a log without a header is refused; a file of blank lines says so, as its editor shows lines."""
    if not blank:
        return "the log is empty: it must start with a start header"
    lines = "a blank line" if blank == 1 else f"{blank} blank lines"
    return f"the log is empty (only {lines}): it must start with a start header"


def read_log_file(path: str | Path) -> Game:
    """Replay the log at ``path``, a line at a time (:func:`read_log_stream`)."""
    with open(path, "rb") as file:
        return read_log_stream(file)


def log_lines(game: Game) -> list[str]:
    """The game as log lines (without newlines): the header, then every event."""
    return [event_json(game.header)] + [event_json(event) for event in game.events]


def write_log(game: Game, path: str | Path) -> None:
    """Save the game as a log at ``path``."""
    Path(path).write_text("".join(line + "\n" for line in log_lines(game)), encoding="utf-8")
