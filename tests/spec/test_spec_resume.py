"""A position line resumes a game exactly (log format §L4.5): state → position → play on is the same game."""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest

from rules.cards import CODES
from rules.events import Event, Position, event_json, parse_event
from rules.game import Game
from rules.log import read_log
from rules.options import RuleSet
from rules.position import position_of

ROOT = Path(__file__).resolve().parents[2]


def small_position(rng: random.Random) -> tuple[RuleSet, Position]:
    """A random position of 2-3 players with few cards each, where games often go round in circles."""
    players = rng.choice((2, 2, 3))
    cards = rng.sample(CODES, rng.randint(2 * players, 4 * players))
    hands = [cards[seat::players] for seat in range(players)]
    trumps = rng.sample(["S", "H", "D", "C"], players)
    position = Position(trumps=trumps, hands=hands, pile=[], to_act=rng.randrange(players), phase="lead")
    return RuleSet(players=players, must_beat=rng.random() < 0.3), position


def start(rng: random.Random, number: int) -> Game:
    if number % 4 == 0:  # a whole game from a deal
        game = Game(RuleSet(players=rng.choice((2, 3, 4)), dealer=rng.randrange(2)), seed=number)
        while game.phase in ("trump_choice", "deal"):
            game.push(game.sample_deal() if game.phase == "deal" else rng.choice(game.legal_moves()))
        return game
    rules, position = small_position(rng)
    return Game.from_position(position, rules)


def choose(game: Game, rng: random.Random) -> Event:
    """Mostly a fixed choice for each state (so games go round in circles and meet the repetition rule)."""
    legal = game.legal_moves()
    if rng.random() < 0.05:
        return rng.choice(legal)
    return legal[zlib.crc32(repr(game.state()).encode()) % len(legal)]


def resumed(game: Game) -> Game:
    """The game read back from its header and the position line that resumes it."""
    return read_log([event_json(game.header), event_json(position_of(game))])


def test_playing_on_from_the_position_is_the_same_game() -> None:
    endings = {"loss": 0, "tie_check": 0, "repetition": 0}
    resumed_with_history = 0
    for number in range(300):
        rng = random.Random(number)
        game = start(rng, number)
        resume_at = rng.randrange(30)
        copy: Game | None = None
        ply = 0
        while not game.is_over() and ply < 400:
            if ply == resume_at:
                copy = resumed(game)
                resumed_with_history += position_of(game).seen is not None
            if copy is not None:
                assert copy.state() == game.state()
                assert copy.legal_moves() == game.legal_moves()
            move = choose(game, rng)
            game.push(move)
            if copy is not None:
                copy.push(move)
            ply += 1
        if copy is not None and game.is_over():
            assert copy.state() == game.state()
            assert copy.outcome == game.outcome
            outcome = game.outcome
            assert outcome is not None
            endings[outcome.reason or outcome.result] += 1
    assert all(endings.values()), endings  # every kind of ending was reached after a resume
    assert resumed_with_history > 100


def test_a_resumed_repetition_needs_only_the_moves_left() -> None:
    """Resumed between the second and the third occurrence, the draw comes exactly when it would have."""
    lines = (ROOT / "spec" / "vectors" / "repetition_draw.jsonl").read_text().splitlines()
    vector = read_log(lines)
    assert vector.outcome is not None and vector.outcome.reason == "repetition"
    game = read_log(lines[:12])  # after the second occurrence of the starting position
    copy = resumed(game)
    for line in lines[12:]:
        assert not copy.is_over()
        copy.push(parse_event(line))
    assert copy.outcome == vector.outcome


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"out_order": [0]}, "must list each seat with an empty hand once"),
        ({"out_order": [2, 1, 1]}, "must list each seat with an empty hand once"),
        ({"seen": [{"hands": [["8S"], [], []], "pile": [], "to_act": 0, "phase": "lead", "count": 1}]}, ""),
        (
            {
                "seen": [
                    {"hands": [["8S", "6C"], [], ["KH", "7C"]], "pile": [], "to_act": 0, "phase": "lead", "count": 2}
                ]
            },
            "already arisen 2 times",
        ),
        ({"seen": [{"hands": [["8S"], []], "pile": [], "to_act": 0, "phase": "lead", "count": 1}]}, "3-player"),
        (
            {"seen": [{"hands": [["8S"], ["8S"], []], "pile": [], "to_act": 0, "phase": "lead", "count": 1}]},
            "seen.0: a card more than once",
        ),
        (
            {"seen": [{"hands": [["8S"], [], []], "pile": [], "to_act": 0, "phase": "lead", "count": 1}] * 2},
            "seen.1: the same position as an earlier one",
        ),
    ],
)
def test_resume_fields_are_checked(extra: dict[str, object], reason: str) -> None:
    line = {
        "type": "position",
        "trumps": ["S", "H", "D"],
        "hands": [["8S", "6C"], [], ["KH", "7C"]],
        "pile": [],
        "to_act": 0,
        "phase": "lead",
        **extra,
    }
    header = '{"type": "start", "players": 3}'
    if not reason:
        read_log([header, json.dumps(line)])
        return
    with pytest.raises(ValueError, match=reason):
        read_log([header, json.dumps(line)])
