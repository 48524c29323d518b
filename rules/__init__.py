"""Svoi Kozyri ("Your trumps"): the rules engine, the replay log, the players.

The public API at the package root needs only pydantic and transitions (the web server is
the optional extra ``server``; the command line lives in :mod:`rules.cli`).

>>> from rules import Game, RuleSet, read_log
>>> game = read_log('{"type": "start", "players": 3}')
>>> game.rules == RuleSet(players=3), game.phase, game.to_act
(True, 'trump_choice', 1)
"""

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
