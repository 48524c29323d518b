"""The state chart is read from the transitions machine and shows every state and transition of its table."""

from __future__ import annotations

import shutil
from pathlib import Path

from rules.spec.chart import chart_rows, graphviz_dot, mermaid, render_svg
from rules.table import STATES, TRANSITIONS

ROOT = Path(__file__).resolve().parents[2]


def test_rows_read_from_the_machine_are_its_table() -> None:
    rows = [(row.trigger, row.source, row.dest, row.conditions, row.callbacks) for row in chart_rows()]
    assert rows == [tuple(row) for row in TRANSITIONS]


def test_mermaid_chart_names_every_state_and_transition() -> None:
    chart = mermaid()
    assert chart.startswith("stateDiagram-v2\n")
    for state in STATES:
        assert f"    state {state}\n" in chart
    for trigger, source, dest, conditions, _ in TRANSITIONS:
        label = f"{trigger} [{' and '.join(conditions)}]" if conditions else trigger
        assert f"    {source} --> {dest} : {label}\n" in chart
    assert "[*] --> trump_choice" in chart
    assert (ROOT / "spec" / "machine.mmd").read_text(encoding="utf-8") == chart


def test_graphviz_drawing_has_every_transition() -> None:
    dot = graphviz_dot()
    assert dot.count(" -> ") == len(TRANSITIONS) + 2  # plus the start and end markers


def test_svg_is_drawn_by_graphviz() -> None:
    assert shutil.which("dot"), "the docs need Graphviz: apt-get install graphviz"
    svg = render_svg()
    assert svg.startswith("<svg")
    for state in STATES:
        assert f">{state}</text>" in svg
