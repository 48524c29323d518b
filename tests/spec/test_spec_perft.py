"""Move-generation counts: the hand-checked position, the committed table, and agreement with the Game API."""

from __future__ import annotations

import json
from pathlib import Path

from rules.game import Game
from rules.log import read_log
from rules.spec.perft import PERFT_POSITIONS, perft

ROOT = Path(__file__).resolve().parents[2]


def test_the_position_counted_by_hand() -> None:
    # Seat 0 leads 8C or TS (2); seat 1 beats 8C with 9C or 7H or takes, beats TS with 7H or takes (5);
    # then one move each, and every one ends the game (5, all over); nothing is left at depth 4.
    assert perft(PERFT_POSITIONS[0].state(), 4) == ([2, 5, 5, 0], [0, 0, 5, 0])


def test_perft_leaves_the_state_as_it_found_it() -> None:
    state = PERFT_POSITIONS[2].state()
    before = (state.key(), dict(state.seen), state.outcome, state.out_order)
    perft(state, 12)
    assert (state.key(), dict(state.seen), state.outcome, state.out_order) == before


def game_api_counts(game: Game, depth: int) -> list[int]:
    """The same counts through the public API: legal_moves, push and pop (the machine runs every event)."""
    counts = [0] * depth

    def walk(ply: int) -> None:
        for event in game.legal_moves():
            game.push(event)
            counts[ply] += 1
            if not game.is_over() and ply + 1 < depth:
                walk(ply + 1)
            game.pop()

    walk(0)
    return counts


def test_committed_counts_agree_with_the_game_api() -> None:
    table = json.loads((ROOT / "spec" / "perft.json").read_text(encoding="utf-8"))
    assert [entry["name"] for entry in table["positions"]] == [position.name for position in PERFT_POSITIONS]
    for entry in table["positions"]:
        depth = min(len(entry["sequences"]), 3 if "opening" in entry["name"] else 9)
        game = read_log(entry["log"])
        assert game_api_counts(game, depth) == entry["sequences"][:depth], entry["name"]
