"""``trumps solve`` and ``trumps arena`` from the command line: output shapes and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rules.analysis import PLAYOUTS_PER_MOVE
from rules.cli import app
from rules.events import Deal
from rules.game import Game
from rules.log import log_lines
from rules.options import RuleSet
from rules.players.arena import Task, play_game, seatings, tasks
from rules.players.levels import parse_bot

runner = CliRunner()

POSITION = (
    '{"type": "position", "trumps": ["S", "H"], "hands": [["AS", "7D"], ["KH"]], '
    '"pile": ["9C", "JC"], "to_act": 1, "phase": "respond"}'
)


def write(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_solve_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", write(tmp_path, '{"type": "start"}', POSITION), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["value"] == 1 and data["seat"] == 1 and data["exact"] is True
    assert data["best"] == {"type": "beat", "seat": 1, "card": "KH"}
    assert [m["value"] for m in data["moves"]] == [1, -1]
    assert [m["move"]["type"] for m in data["moves"]] == ["beat", "take"]


def test_solve_text_and_standard_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", "-"], input='{"type": "start"}\n' + POSITION + "\n")
    assert result.exit_code == 0
    assert "win" in result.stdout and "beat K♥" in result.stdout


def test_solve_after_moves_starts_repetition_counts_at_the_end(tmp_path: Path) -> None:
    lines = ['{"type": "start"}', POSITION, '{"type": "take", "seat": 1}']
    result = runner.invoke(app, ["solve", write(tmp_path, *lines), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["best"]["seat"] == 0
    assert max(m["value"] for m in data["moves"]) == data["value"]


def test_solve_lists_the_moves_best_first_in_json_as_in_text(tmp_path: Path) -> None:
    """The help says "every move's value, best first": A♠ loses here and 7♦ draws, and A♠ comes first in the pack."""
    lines = ['{"type": "start"}', SECOND_CARD]
    data = json.loads(runner.invoke(app, ["solve", write(tmp_path, *lines), "--json"]).stdout)
    assert [(entry["move"]["card"], entry["value"]) for entry in data["moves"]] == [("7D", 0), ("AS", -1)]
    text = runner.invoke(app, ["solve", write(tmp_path, *lines)]).stdout
    assert text.index("7♦") < text.index("A♠")


def test_of_moves_of_equal_value_the_best_move_named_is_listed_first() -> None:
    """Move 5 of the vector: K♥ and 8♦ both win, and 8♦ (the quicker win) is the best move named."""
    vector = str(Path(__file__).resolve().parents[2] / "spec" / "vectors" / "repetition_draw.jsonl")
    lines = runner.invoke(app, ["solve", vector, "--move", "5"]).stdout.splitlines()
    assert lines[1] == "best: lead 8♦" and lines[2].split() == ["lead", "8♦", "win"], lines
    data = json.loads(runner.invoke(app, ["solve", vector, "--move", "5", "--json"]).stdout)
    assert data["moves"][0]["move"] == data["best"]


SECOND_CARD = (
    '{"type": "position", "trumps": ["S", "H"], "hands": [["AS", "7D"], ["KH", "8D"]], "pile": ["9C"], "to_act": 0,'
    ' "phase": "second"}'
)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type": "start"}', '{"type": "lead", "seat": 0, "card": "1S"}'], "line 2"),
        (['{"type": "start", "players": 3}'], "duel only"),
        (['{"type": "start"}', '{"type": "choose_trump", "seat": 1, "suit": "H"}'], "no position to solve"),
        (['{"type": "start"}', POSITION, '{"type": "beat", "seat": 1, "card": "KH"}'], "game is over"),
    ],
)
def test_solve_errors(tmp_path: Path, lines: list[str], message: str) -> None:
    result = runner.invoke(app, ["solve", write(tmp_path, *lines), "--json"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def logged_deal(tmp_path: Path) -> tuple[Game, Path]:
    """A duel just dealt (seed 1), far out of the solver's reach, and its log."""
    game = Game(RuleSet(players=2), seed=1)
    while game.phase == "trump_choice":
        game.push(game.legal_moves()[0])
    game.push(game.sample_deal())
    path = tmp_path / "deal.jsonl"
    path.write_text("".join(line + "\n" for line in log_lines(game)), encoding="utf-8")
    return game, path


def test_solve_estimates_a_position_out_of_reach(tmp_path: Path) -> None:
    game, path = logged_deal(tmp_path)
    result = runner.invoke(app, ["solve", str(path), "--seconds", "0.05", "--json"])
    # Out of the solver's reach: an estimate from playouts, labelled as one, for the seat to act.
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seat"] == game.to_act and data["exact"] is False
    assert data["estimate"]["samples"] > 0 and "0.05 s" in data["estimate"]["why"]
    assert 0 <= data["estimate"]["score"] <= 1
    assert max(move["score"] for move in data["moves"]) == data["estimate"]["score"]
    text = runner.invoke(app, ["solve", str(path), "--seconds", "0.05"])
    assert "no exact value within 0.05 s; estimate" in text.stdout and "playouts" in text.stdout


def test_playouts_are_shared_among_the_moves_with_the_least_a_move_the_help_says(tmp_path: Path) -> None:
    game, path = logged_deal(tmp_path)
    moves = len(game.legal_moves())
    for asked, each in ((10, PLAYOUTS_PER_MOVE), (PLAYOUTS_PER_MOVE * moves * 2, PLAYOUTS_PER_MOVE * 2)):
        result = runner.invoke(app, ["solve", str(path), "--seconds", "0.05", "--playouts", str(asked), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["estimate"]["samples"] == each * moves
    help_text = runner.invoke(app, ["solve", "--help"], terminal_width=400).stdout
    assert f"shared among the moves (at least {PLAYOUTS_PER_MOVE} a move)" in " ".join(help_text.split())


def test_solve_missing_file() -> None:
    result = runner.invoke(app, ["solve", "/nonexistent/game.jsonl"])
    assert result.exit_code == 1
    assert "cannot read" in result.stderr


def test_arena_json_shape() -> None:
    result = runner.invoke(app, ["arena", "random", "greedy", "mcts:10it", "--games", "2", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bots"] == ["random", "greedy", "mcts:10it"]
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [
        ("random", "greedy"),
        ("random", "mcts:10it"),
        ("greedy", "mcts:10it"),
    ]
    for pair in data["pairs"]:
        assert pair["a_wins"] + pair["draws"] + pair["b_wins"] == pair["games"] == 2
    assert set(data["elo"]) == set(data["bots"]) and data["elo"]["random"] == 0


def test_arena_table_and_three_players() -> None:
    result = runner.invoke(app, ["arena", "random", "greedy", "--games", "6", "--players", "3"])
    assert result.exit_code == 0, result.output
    assert "random" in result.stdout and "Elo" in result.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [(["random", "chess-engine"], "unknown bot"), (["random"], "at least two"), (["greedy", "greedy"], "twice")],
)
def test_arena_errors(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *arguments, "--games", "1"])
    assert result.exit_code == 1
    assert message in result.stderr


def test_arena_plays_each_deal_in_every_seating() -> None:
    work = tasks(["random", "greedy"], games=4, seed=9, players=2)
    assert [(t.deal, t.seating) for t in work] == [(0, (0, 1)), (0, (1, 0)), (1, (0, 1)), (1, (1, 0))]
    for seating in seatings(3):
        assert sorted(seatings(3)).count(seating) == 1
    assert sum(side for layout in seatings(3) for side in layout) == len(seatings(3)) * 3 / 2


def test_mirrored_games_share_the_deal() -> None:
    deals = []
    for seating in ((0, 1), (1, 0)):
        task = Task("random", "greedy", deal=0, seating=seating, seed=5)
        specs = (task.a, task.b)
        bots = [parse_bot(specs[side], seed=seat) for seat, side in enumerate(seating)]
        game = play_game(bots, seed=task.seed * 1_000_003 + task.deal)
        deals.append(next(event for event in game.events if isinstance(event, Deal)))
    assert deals[0] == deals[1]


def test_moves_the_solver_has_not_settled_are_shown_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    """An exact value with some moves still open: they are listed as not settled, never given a value."""
    from rules.analysis import Evaluation, MoveValue
    from rules.cli.solve import _print, result
    from rules.cli.terminal import hint_text
    from rules.events import Beat, Take

    beat, take = Beat(seat=1, card="KH"), Take(seat=1, count=2)
    won = Evaluation("exact", 1, [0.0, 1.0], value=1, moves=[MoveValue(beat, 1)], pick=beat, unsettled=[take])
    assert result(won)["unsettled"] == [{"type": "take", "seat": 1, "count": 2}]
    _print(won, 1.0)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-2].split() == ["beat", "K♥", "win"] and printed[-1].split()[-2:] == ["not", "settled"]
    # a draw whose drawing move was not settled in time: no move is offered as the one that keeps it
    drawn = Evaluation("exact", 1, [0.5, 0.5], value=0, unsettled=[beat, take])
    assert result(drawn)["best"] is None
    assert "no move is yet proven" in hint_text(drawn, ["KH"], 1.0).plain
