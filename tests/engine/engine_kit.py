"""Small helpers shared by the engine tests: logs written in a compact notation.

A move is written ``"lead 0 TS"``, ``"beat 1 QD"``, ``"second 1 7C"``, ``"take 0"`` or
``"take 0 3"`` (with the ``count`` field), a trump choice ``"choose 1 H"``.

>>> move_line("beat 1 QD")
'{"type": "beat", "seat": 1, "card": "QD"}'
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from rules.game import Game
from rules.log import read_log

CARD_KINDS = ("lead", "beat", "second")


def header(players: int = 2, dealer: int = 0, *, pass_sixes: bool = True, must_beat: bool = False) -> str:
    return json.dumps(
        {
            "type": "start",
            "format": 1,
            "players": players,
            "dealer": dealer,
            "rules": {"pass_sixes": pass_sixes, "must_beat": must_beat},
        }
    )


def position_line(trumps: str, hands: list[list[str]], pile: list[str], to_act: int, phase: str) -> str:
    """A ``position`` line; ``trumps`` is one letter per seat, e.g. ``"SH"``."""
    return json.dumps(
        {"type": "position", "trumps": list(trumps), "hands": hands, "pile": pile, "to_act": to_act, "phase": phase}
    )


def deal_line(hands: list[list[str]]) -> str:
    return json.dumps({"type": "deal", "hands": hands})


def move_event(text: str) -> dict[str, Any]:
    """The JSON object of a move written in the compact notation."""
    kind, seat, *rest = text.split()
    if kind == "choose":
        return {"type": "choose_trump", "seat": int(seat), "suit": rest[0]}
    if kind == "take":
        event: dict[str, Any] = {"type": "take", "seat": int(seat)}
        if rest:
            event["count"] = int(rest[0])
        return event
    assert kind in CARD_KINDS, text
    return {"type": kind, "seat": int(seat), "card": rest[0]}


def move_line(text: str) -> str:
    return json.dumps(move_event(text))


def replay(*lines: str) -> Game:
    """The game of a log given line by line; moves may use the compact notation."""
    return read_log("\n".join(line if line.startswith("{") else move_line(line) for line in lines))


def at_position(
    trumps: str,
    hands: list[list[str]],
    pile: list[str],
    to_act: int,
    phase: str,
    *moves: str,
    must_beat: bool = False,
) -> Game:
    """A game started at a position (through a real log), then the ``moves``."""
    return replay(header(len(hands), must_beat=must_beat), position_line(trumps, hands, pile, to_act, phase), *moves)


def legal(game: Game) -> set[str]:
    """The legal moves in the compact notation, e.g. ``{"beat 1 QD", "take 1"}``."""
    notation = set()
    listed: list[Any] = game.legal_moves()
    for event in listed:
        if event.type == "choose_trump":
            notation.add(f"choose {event.seat} {event.suit}")
        elif event.type == "take":
            notation.add(f"take {event.seat}")
        else:
            notation.add(f"{event.type} {event.seat} {event.card}")
    return notation


def trumps_command() -> list[str]:
    """The ``trumps`` console script of this environment (next to the running Python)."""
    beside = Path(sys.executable).with_name("trumps")
    if beside.exists() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("trumps")
    if found:
        return [found]
    return [sys.executable, "-c", "from rules.cli import main; main()"]
