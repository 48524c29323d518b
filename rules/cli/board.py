"""The analysis board's address for a log: ``trumps serve``'s ``/replay``, the log carried in the fragment.

The board (``rules/server/static/js/replay.js``) opens ``/replay#log=PACKED&ply=N``: the log's text,
deflated (raw deflate) and written in base64url without padding, after the ``#`` so that it never
reaches the server; ``ply`` is the position shown, the number of events played (0 the start).
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Sequence

BOARD = "http://127.0.0.1:8000/replay"
"""The board as ``trumps serve`` serves it with its default address and port."""


def packed(text: str) -> str:
    """A log as a link carries it: raw deflate, then base64url without padding.

    >>> packed('{"type": "start"}\\n')
    'q1YqqSxIVbJSUCouSSwqUarlAgA'
    """
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = deflate.compress(text.encode()) + deflate.flush()
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def link(lines: Sequence[str], ply: int | None = None, board: str = BOARD) -> str:
    """The board's address showing the log of ``lines`` at ``ply`` (its end when ``None``)."""
    shown = len(lines) - 1 if ply is None else ply  # the first line is the header, each other one an event
    return f"{board}#log={packed(''.join(line + chr(10) for line in lines))}&ply={shown}"
