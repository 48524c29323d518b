"""The mutation benchmark (benchmarks/mutation.py) counts a mutant as killed only when the tests find it."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.mutation import ROOT, Mutant, _killed
from rules.native import ENVIRONMENT


def test_a_mutant_that_changes_nothing_survives_even_with_the_native_path_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # TRUMPS_NATIVE=1 is how the native path is asked for; the copy a mutant is tested in has no build of its own,
    # so on that path every mutant failed at its import and the kill rate said nothing.
    monkeypatch.setenv(ENVIRONMENT, "1")
    module = "rules/outcome.py"
    unchanged = Mutant(module, 0, "nothing", Path(ROOT / module).read_text(encoding="utf-8"))
    dead, detail = _killed(unchanged, timeout=120, tests=(module,))
    assert not dead, detail
