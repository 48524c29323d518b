"""``trumps bench`` prints its figures; speed targets are reported, never asserted."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rules.cli import app


def test_bench_json_prints_both_figures() -> None:
    result = CliRunner().invoke(app, ["bench", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"machine_plies_per_s", "search_plies_per_s"}
    assert all(isinstance(value, int) and value > 0 for value in figures.values())


def test_bench_text_names_both_paths() -> None:
    result = CliRunner().invoke(app, ["bench", "--seconds", "0.1"])
    assert result.exit_code == 0
    assert "machine" in result.stdout and "search" in result.stdout
