"""``spec/hand_ends.json``: the reference check of a finished hand finds, in every case, the problem the case names."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

from rules.server.verify import ProblemCode, hand_end_problem
from rules.spec.hand_ends import arguments

CASES = json.loads((Path(__file__).resolve().parents[2] / "spec" / "hand_ends.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_first_problem_is_the_one_the_case_names(case: dict[str, typing.Any]) -> None:
    problem = hand_end_problem(**arguments(case))
    assert (None if problem is None else problem.code) == case["problem"], problem


def test_every_problem_has_a_case_and_good_hands_pass() -> None:
    named = [case["problem"] for case in CASES]
    assert set(named) == {*typing.get_args(ProblemCode), None}
    assert named.count(None) == 2  # one with all that seat 0 kept, one with nothing kept
