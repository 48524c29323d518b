"""Replay logs: JSON Lines, a :class:`~rules.events.Start` header and then one event a line.

>>> game = read_log('''{"type": "start"}
... {"type": "choose_trump", "seat": 1, "suit": "H"}
... {"type": "choose_trump", "seat": 1, "suit": "S"}''')
Traceback (most recent call last):
...
rules.log.LogError: line 3: seat 1 cannot choose a trump: it is seat 0's turn to choose
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

from rules.events import EventError, Start, event_json, parse_event
from rules.game import Game, IllegalEvent

_Text = TypeVar("_Text", str, bytes)

JSON_WHITESPACE = " \t\r\n"
"""What RFC 8259 calls whitespace; a line of nothing else is blank (log format §L1.4)."""


class LogError(ValueError):
    """The first bad line of a log: its 1-based number and why it is bad."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def read_log(source: str | bytes | Iterable[str | bytes], *, seed: int | None = None) -> Game:
    """Replay a log (its text, or its lines) and return the game; raises :class:`LogError`.

    Lines end at ``\n`` only (a ``\r`` before it is dropped), as JSON Lines says, so a
    Unicode line separator inside a JSON string does not split a line. Blank lines (only
    JSON whitespace) are passed over but counted, so line numbers match an editor's. A byte
    order mark before the first line is passed over too: RFC 8259 lets a JSON reader ignore
    one, and some Windows editors and shells write one before UTF-8 text. (Log format §L1.)
    """
    if isinstance(source, str):
        source = _lines(source, "\n", "\r")
    elif isinstance(source, bytes):
        source = _lines(source, b"\n", b"\r")
    game: Game | None = None
    number = 0
    for number, raw in enumerate(source, start=1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as error:
            raise LogError(number, f"not UTF-8 text ({error.reason} at byte {error.start})") from None
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip(JSON_WHITESPACE):
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
        raise LogError(number + 1, "the log is empty: it must start with a start header")
    return game


def _lines(text: _Text, newline: _Text, carriage_return: _Text) -> list[_Text]:
    lines = text.split(newline)
    if lines and not lines[-1]:
        lines.pop()
    return [line.removesuffix(carriage_return) for line in lines]


def read_log_file(path: str | Path) -> Game:
    """Replay the log at ``path``."""
    with open(path, "rb") as file:
        return read_log(file.read())


def log_lines(game: Game) -> list[str]:
    """The game as log lines (without newlines): the header, then every event."""
    return [event_json(game.header)] + [event_json(event) for event in game.events]


def write_log(game: Game, path: str | Path) -> None:
    """Save the game as a log at ``path``."""
    Path(path).write_text("".join(line + "\n" for line in log_lines(game)), encoding="utf-8")
