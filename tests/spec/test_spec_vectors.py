"""The conformance vectors: they replay as `trumps replay --json` says, and cover every clause of the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rules.cli import app
from rules.log import JSON_WHITESPACE, LogError, header_line, read_log
from rules.spec.vectors import TextVector, text_lines, text_states

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "spec" / "vectors"
INDEX: dict[str, Any] = json.loads((VECTORS / "index.json").read_text(encoding="utf-8"))
GOOD = INDEX["vectors"]
BAD = INDEX["bad"]


def lines_of(name: str) -> list[str]:
    """The lines of a vector file as the log format splits them (at LF only; a CR before it stays), a byte
    order mark at the start passed over first: it is part of no line (log format §L1.5).

    A byte that is not UTF-8 (one vector holds one) comes as the surrogate ``surrogateescape`` gives it.
    """
    return text_lines((VECTORS / name).read_bytes().decode("utf-8", "surrogateescape").removeprefix("\ufeff"))


def test_index_lists_exactly_the_files_of_the_folder() -> None:
    listed = {"index.json"}
    for vector in GOOD:
        listed |= {vector["log"], vector["states"]}
    for vector in BAD:
        listed.add(vector["log"])
    assert listed == {path.name for path in VECTORS.iterdir()}


def test_index_entries_have_the_fields_the_conformance_page_lists() -> None:
    """docs/conformance.md describes index.json field by field; a harness reads it from that page alone."""
    for vector in GOOD:
        assert set(vector) == {"name", "rules", "shows", "log", "states", "lines", "final"}, vector["name"]
        lines = lines_of(vector["log"])
        assert vector["lines"] == len(lines) == len(lines_of(vector["states"])), vector["name"]
        assert json.loads(lines_of(vector["states"])[-1]) == vector["final"], vector["name"]
        header = json.loads(lines[header_line(lines) - 1].removeprefix("\ufeff"), parse_int=lambda digits: 0)
        assert header["type"] == "start", f"{vector['name']}: the header is the first line not blank"
    for vector in BAD:
        assert set(vector) == {"name", "rules", "shows", "log", "line", "error", "reason"}, vector["name"]


@pytest.mark.parametrize("vector", GOOD, ids=lambda v: v["name"])
def test_line_k_of_states_is_the_state_after_line_k(vector: dict[str, Any]) -> None:
    log, states = lines_of(vector["log"]), lines_of(vector["states"])
    assert len(log) == len(states) == vector["lines"]
    header = header_line(log)
    # the conformance page: null for each line before the header, where there is no game yet
    assert states[: header - 1] == ["null"] * (header - 1)
    game = read_log(log[:header])
    assert game.state().model_dump(mode="json") == json.loads(states[header - 1])
    # Replaying prefixes is quadratic; every prefix of the short vectors, a sample of the long games.
    step = 1 if len(log) < 40 else 7
    for k in [*range(header + 1, len(log), step), len(log)]:
        assert read_log(log[:k]).state().model_dump(mode="json") == json.loads(states[k - 1]), f"line {k}"


@pytest.mark.parametrize("vector", GOOD, ids=lambda v: v["name"])
def test_lines_before_the_header_are_alone_an_empty_log(vector: dict[str, Any]) -> None:
    """Why they have no state: replayed alone they are refused, at the line after them (log format §L1.7)."""
    log = lines_of(vector["log"])
    for k in range(1, header_line(log)):
        with pytest.raises(LogError, match="the log is empty") as refused:
            read_log(log[:k])
        assert refused.value.line == k + 1


def test_a_vector_has_blank_lines_before_its_header() -> None:
    """The conformance page's null state lines are shown by a vector, so a harness meets them."""
    assert any("null" in lines_of(vector["states"]) for vector in GOOD)


@pytest.mark.parametrize("vector", GOOD, ids=lambda v: v["name"])
def test_replay_json_prints_the_last_state_exactly(vector: dict[str, Any]) -> None:
    result = CliRunner().invoke(app, ["replay", str(VECTORS / vector["log"]), "--json"])
    assert result.exit_code == 0, result.output
    assert result.stdout == lines_of(vector["states"])[-1] + "\n"


@pytest.mark.parametrize("vector", BAD, ids=lambda v: v["name"])
def test_bad_vector_is_refused_at_its_last_line(vector: dict[str, Any]) -> None:
    log = VECTORS / vector["log"]
    lines = lines_of(vector["log"])
    if any(line.strip(JSON_WHITESPACE) for line in lines):
        assert vector["line"] == len(lines)
    else:  # no header at all: refused at the line after the last
        assert vector["line"] == len(lines) + 1
    if 1 < vector["line"] <= len(lines):
        read_log(lines[:-1])  # everything before the last line is accepted
    result = CliRunner().invoke(app, ["replay", str(log), "--json"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"line {vector['line']}: ")
    assert vector["reason"] in result.stderr
    assert result.stderr.count("\n") == 1


def test_every_clause_of_the_rules_is_covered() -> None:
    # §4 (a match of several hands) and §5 (who knows what) are not about a single log.
    clauses = {"§1", "§2.1", "§2.2", "§2.3", "§2.4", "§2.5", "§2.6", "§2.7", "§3"}
    covered = {clause for vector in GOOD + BAD for clause in vector["rules"]}
    assert clauses <= covered


@pytest.mark.parametrize(
    "name",
    [
        "tie_check_draw",
        "tie_check_loss_card_does_not_beat",
        "tie_check_loss_more_than_one_card",
        "repetition_draw",
        "go_out_with_lead",
        "go_out_with_beating_card_no_second_card",
        "go_out_with_second_card",
        "take_three_from_a_longer_pile",
        "take_five_under_own_trump",
        "take_whole_pile_under_ace_of_own_trump",
        "take_whole_pile_of_three_or_fewer_then_lead",
        "turn_skips_a_player_who_went_out",
        "four_players_turns_skip_two_empty_seats",
        "trump_choice_and_deal_three_players",
        "sixes_stay_without_pass_sixes",
        "must_beat_beats",
        "full_game_duel",
        "full_game_three_players",
        "full_game_four_players",
        "full_game_duel_no_six_passing",
        "full_game_duel_must_beat",
    ],
)
def test_the_edge_cases_have_vectors(name: str) -> None:
    assert name in {vector["name"] for vector in GOOD}


def test_endings_are_what_the_vectors_say() -> None:
    final = {vector["name"]: vector["final"] for vector in GOOD}
    assert final["tie_check_draw"]["outcome"]["reason"] == "tie_check"
    assert final["repetition_draw"]["outcome"]["reason"] == "repetition"
    assert final["tie_check_loss_more_than_one_card"]["outcome"]["loser"] == 0
    assert final["sixes_stay_without_pass_sixes"]["hands"] != final["trump_choice_and_deal_three_players"]["hands"]
    full = [vector for vector in GOOD if vector["name"].startswith("full_game")]
    assert {len(vector["final"]["hands"]) for vector in full} == {2, 3, 4}
    assert all(vector["final"]["phase"] == "finished" for vector in full)


def test_every_state_line_is_printed_as_the_log_format_says() -> None:
    """Log format §L5: the keys in a fixed order, ", " and ": " between items, one line; the outcome likewise."""
    paths = sorted(VECTORS.glob("*.states.jsonl"))
    assert paths
    for path in paths:
        lines = lines_of(path.name)
        for line in lines[lines.count("null") :]:  # null: a line before the header, and no state
            state = json.loads(line)
            assert list(state) == ["phase", "to_act", "trumps", "hands", "pile", "outcome"], path.name
            outcome = state["outcome"]
            if outcome is not None:
                if outcome["result"] == "draw":
                    detail = ["reason"]
                else:  # a loss by resignation says so (rules §3.4.1); one by the tie check has no reason
                    detail = ["loser", "reason"] if outcome.get("reason") == "resigned" else ["loser"]
                assert list(outcome) == ["result", *detail, "out_order"], path.name
            assert json.dumps(state, ensure_ascii=False) == line, path.name
            if state["phase"] in ("trump_choice", "deal"):
                assert state["hands"] == [[]] * len(state["trumps"]) and state["pile"] == []


def test_the_generator_writes_a_state_line_for_every_line_of_the_log() -> None:
    """The conformance page's promise, on a text the vectors do not hold: a byte order mark (part of no line),
    blank lines before the header (null), blank lines after it (the state again), no line after the last LF."""
    header, choice = '{"type":"start"}', '{"type":"choose_trump","seat":1,"suit":"H"}'
    states = text_states(TextVector("x", "", f"\ufeff\n \r\n{header}\r\n\n{choice}\n\t\n"))
    assert len(states) == 6
    assert states[:2] == ["null", "null"]
    assert json.loads(states[2])["phase"] == "trump_choice" and states[3] == states[2]
    assert json.loads(states[4])["trumps"] == [None, "H"] and states[5] == states[4]
