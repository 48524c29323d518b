"""Svoi Kozyri ("Your trumps"): the rules engine, the replay log, the players.

The public API at the package root needs only pydantic and transitions (the web server is
the optional extra ``server``; the command line lives in :mod:`rules.cli`).

>>> from rules import Game, RuleSet, read_log
>>> game = read_log('{"type": "start", "players": 3}')
>>> game.rules == RuleSet(players=3), game.phase, game.to_act
(True, 'trump_choice', 1)

The names are imported when first used (PEP 562), so that a program importing a small part of the
package, such as ``trumps --version`` importing :mod:`rules.locale`, does not pay for the engine.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules.native import NativeRefused, activate

try:
    activate()  # before any module of the rules is imported: the native path, where built (see rules.native)
except NativeRefused as refused:
    if Path((getattr(sys, "argv", None) or [""])[0]).stem != "trumps":  # a program of its own: its exception
        raise
    # The command, which imports this package before its own refusals can speak: one line, as they do, no traceback.
    sys.stderr.write(f"trumps: {refused}\n")
    raise SystemExit(2) from None

if TYPE_CHECKING:
    from rules.events import (
        Beat,
        ChooseTrump,
        Deal,
        Event,
        EventError,
        Lead,
        Notification,
        Position,
        Second,
        Start,
        Take,
        event_json,
        parse_event,
    )
    from rules.game import Game, IllegalEvent, Snapshot
    from rules.log import LogError, log_lines, read_log, read_log_file, write_log
    from rules.match import Match
    from rules.options import RuleSet
    from rules.position import position_of
    from rules.refusal import Refusal
    from rules.state import GameState, Outcome, View

_HOMES = {
    "Beat": "rules.events",
    "ChooseTrump": "rules.events",
    "Deal": "rules.events",
    "Event": "rules.events",
    "event_json": "rules.events",
    "EventError": "rules.events",
    "Game": "rules.game",
    "GameState": "rules.state",
    "IllegalEvent": "rules.game",
    "Lead": "rules.events",
    "log_lines": "rules.log",
    "LogError": "rules.log",
    "Match": "rules.match",
    "Notification": "rules.events",
    "Outcome": "rules.state",
    "parse_event": "rules.events",
    "position_of": "rules.position",
    "Position": "rules.events",
    "read_log": "rules.log",
    "read_log_file": "rules.log",
    "Refusal": "rules.refusal",
    "RuleSet": "rules.options",
    "Second": "rules.events",
    "Snapshot": "rules.game",
    "Start": "rules.events",
    "Take": "rules.events",
    "View": "rules.state",
    "write_log": "rules.log",
}
"""Where each name of the public API is defined."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "Beat",
    "ChooseTrump",
    "Deal",
    "Event",
    "EventError",
    "Game",
    "GameState",
    "IllegalEvent",
    "Lead",
    "LogError",
    "Match",
    "Notification",
    "Outcome",
    "Position",
    "Refusal",
    "RuleSet",
    "Second",
    "Snapshot",
    "Start",
    "Take",
    "View",
    "event_json",
    "log_lines",
    "parse_event",
    "position_of",
    "read_log",
    "read_log_file",
    "write_log",
]
