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


def test_divide_adds_up_to_the_counts() -> None:
    table = json.loads((ROOT / "spec" / "perft.json").read_text(encoding="utf-8"))
    for entry in table["positions"]:
        divide = entry["divide"]
        assert len(divide) == entry["sequences"][0]
        assert sum(item["ends_game"] for item in divide) == entry["game_over"][0]
        for d in range(1, len(entry["sequences"])):
            assert sum(item["sequences"][d - 1] for item in divide) == entry["sequences"][d], entry["name"]
            assert sum(item["game_over"][d - 1] for item in divide) == entry["game_over"][d], entry["name"]


def test_divide_names_each_first_move_as_a_legal_log_line() -> None:
    table = json.loads((ROOT / "spec" / "perft.json").read_text(encoding="utf-8"))
    for entry in table["positions"]:
        game = read_log(entry["log"])
        legal = [event.model_dump(mode="json", exclude={"count"}, exclude_none=True) for event in game.legal_moves()]
        assert [item["move"] for item in entry["divide"]] == legal


def test_the_repetition_history_of_the_log_carries_into_the_counts() -> None:
    table = {entry["name"]: entry for entry in json.loads((ROOT / "spec" / "perft.json").read_text())["positions"]}
    carried, fresh = table["repetition_history_carries"], table["repetition_cycle"]
    # the same cards and seat to act; only the history differs, and with it the games over at depth 8
    assert carried["game_over"][7] > fresh["game_over"][7]
