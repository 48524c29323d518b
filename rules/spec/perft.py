"""Move-generation counts ("perft", as in chess): how many legal event sequences of each length.

From a position, ``sequences[d-1]`` is the number of distinct sequences of exactly ``d``
legal events (a sequence stops when the game ends, so a game over after fewer events
adds nothing to deeper counts), and ``game_over[d-1]`` how many of those sequences of
length ``d`` end the game. Counted with :mod:`rules.core` (``legal_moves``, ``apply``,
``undo``): another implementation that matches these numbers generates moves, takes,
re-leads, going out, the tie check and the repetition draw the same way.

>>> entry = next(p for p in PERFT_POSITIONS if p.name == "two_cards_each")
>>> perft(entry.state(), 3)
([2, 5, 5], [0, 0, 5])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import core
from rules.cards import CODES
from rules.log import read_log
from rules.spec.vectors import DUEL, cut, deal, line_text, moves, position, start, trumps


@dataclass(frozen=True)
class PerftPosition:
    """A position given as a log (header, then a position line or the trump choice and deal)."""

    name: str
    about: str
    lines: tuple[dict[str, Any], ...]
    depth: int

    def state(self) -> core.State:
        return read_log([line_text(line) for line in self.lines]).core_state()


PERFT_POSITIONS: tuple[PerftPosition, ...] = (
    PerftPosition(
        "two_cards_each",
        "Small enough to count by hand: seat 0 (trump S) leads 8C or TS; seat 1 (trump H) holds 9C and 7H.",
        (start(), position(DUEL, ["8C TS", "9C 7H"], "", 0, "lead")),
        3,
    ),
    PerftPosition(
        "answer_or_take",
        "Seat 1 answers 9C holding QC, 6H and 7D: beat with QC or 6H, or take; then a second card.",
        (start(), position(DUEL, ["8S 6C TD", "QC 6H 7D"], "7C 9C", 1, "respond")),
        6,
    ),
    PerftPosition(
        "repetition_cycle",
        "The position of the repetition vector: deep enough to reach the third repetition.",
        (start(), position(DUEL, ["7D AS", "9D 6C 8D KH"], "", 0, "lead")),
        16,
    ),
    PerftPosition(
        "three_players_endgame",
        "Three players with three cards each, seat 1 to answer KD.",
        (start(players=3), position("SHD", ["8S 6C TD", "QC 6H 7D", "AD 9S 7C"], "KD", 1, "respond")),
        7,
    ),
    PerftPosition(
        "repetition_history_carries",
        "The repetition vector after its first round: the start has arisen twice, so the history replayed from the "
        "log makes the round of eight moves that brings it back a draw at depth 8.",
        (
            start(),
            position(DUEL, ["7D AS", "9D 6C 8D KH"], "", 0, "lead"),
            *moves("0 lead 7D, 1 beat 9D, 1 second 6C, 0 take, 1 lead 8D, 0 beat 9D, 0 second 6C, 1 take"),
        ),
        8,
    ),
    PerftPosition(
        "duel_opening",
        "The duel after the trump choice (seat 1 hearts, seat 0 spades) and the deal of the pack in order.",
        (start(), *trumps("HS", first_seat=1, players=2), deal(*cut(2))),
        5,
    ),
    PerftPosition(
        "four_players_opening",
        "Four players (dealer 3) after the deal of the pack in order; every six is already its owner's.",
        (start(players=4, dealer=3), *trumps("SHDC", first_seat=0, players=4), deal(*cut(4))),
        5,
    ),
)


def perft(state: core.State, depth: int) -> tuple[list[int], list[int]]:
    """``(sequences, game_over)`` for lengths 1 to ``depth`` from ``state`` (left unchanged)."""
    sequences = [0] * depth
    game_over = [0] * depth

    def walk(ply: int) -> None:
        for move in core.legal_moves(state):
            token = core.apply(state, move)
            sequences[ply] += 1
            if state.outcome is not None:
                game_over[ply] += 1
            elif ply + 1 < depth:
                walk(ply + 1)
            core.undo(state, token)

    walk(0)
    return sequences, game_over


def move_line(state: core.State, move: int) -> dict[str, Any]:
    """A move of the player to act as a log line (a take without its optional count)."""
    line: dict[str, Any] = {"type": core.move_kind(state.phase, move), "seat": state.to_act}
    if move != core.TAKE:
        line["card"] = CODES[move]
    return line


def divide(state: core.State, depth: int) -> list[dict[str, Any]]:
    """Perft split by first move, as chess programmers use to find a mismatch: each first move, whether it ends
    the game, and the counts of ``1 … depth-1`` more events after it (``state`` is left unchanged)."""
    entries = []
    for move in core.legal_moves(state):
        line = move_line(state, move)
        token = core.apply(state, move)
        over = state.outcome is not None
        sequences, game_over = ([0] * (depth - 1), [0] * (depth - 1)) if over else perft(state, depth - 1)
        core.undo(state, token)
        entries.append({"move": line, "ends_game": over, "sequences": sequences, "game_over": game_over})
    return entries


def perft_table() -> dict[str, Any]:
    """The content of ``spec/perft.json``."""
    entries = []
    for entry in PERFT_POSITIONS:
        state = entry.state()
        sequences, game_over = perft(state, entry.depth)
        entries.append(
            {
                "name": entry.name,
                "about": entry.about,
                "log": [line_text(line) for line in entry.lines],
                "sequences": sequences,
                "game_over": game_over,
                "divide": divide(state, entry.depth),
            }
        )
    return {
        "about": (
            "Replay `log` (with everything it implies, the repetition history included), then count the distinct "
            "sequences of exactly d legal events from the position reached, for d = 1, 2, ...: `sequences[d-1]`. "
            "Every legal event counts as one, a take included. A sequence stops when the game ends; "
            "`game_over[d-1]` counts the sequences of length d that end it. `divide` splits the counts by first "
            "move: for each legal first event (`move`, a log line; a take without its count), whether it ends the "
            "game, and the counts of 1 ... depth-1 further events after it."
        ),
        "positions": entries,
    }
