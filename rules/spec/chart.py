"""The state chart, drawn from the ``transitions`` machine itself (:data:`rules.machine.MACHINE`).

Nothing here restates the table: the rows are read back from the machine's events
and transitions objects, which :func:`rules.machine.build_machine` made from the one
table (:data:`rules.table.TRANSITIONS`) that the search path is compiled from too.

>>> rows = chart_rows()
>>> rows[0].trigger, rows[0].source, rows[0].dest, rows[0].conditions
('position', 'trump_choice', 'lead', ('position_leads',))
>>> rows[0].callbacks
('adopt_position', 'count_position')
>>> print(mermaid().splitlines()[0])
stateDiagram-v2
"""

from __future__ import annotations

import shutil
import subprocess
from typing import NamedTuple

from rules.machine import MACHINE
from rules.table import AUTOMATIC

TRANSIENT = tuple(AUTOMATIC)
"""States the machine passes through within one event (their exits fire from ``on_enter``)."""


class Row(NamedTuple):
    """One transition: fired by ``trigger`` in ``source``, taken when every condition holds."""

    trigger: str
    source: str
    dest: str
    conditions: tuple[str, ...]
    callbacks: tuple[str, ...]

    @property
    def label(self) -> str:
        """The trigger, then the condition names in brackets (``unless`` conditions with ``not``)."""
        if not self.conditions:
            return self.trigger
        return f"{self.trigger} [{' and '.join(self.conditions)}]"


def states() -> list[str]:
    """The machine's states, in declaration order."""
    return list(MACHINE.states)


def chart_rows() -> list[Row]:
    """Every transition of the machine, in the order the machine tries them."""
    rows = []
    for trigger, event in MACHINE.events.items():
        for source, transitions in event.transitions.items():
            for transition in transitions:
                conditions = tuple(
                    _name(condition.func) if condition.target else f"not {_name(condition.func)}"
                    for condition in transition.conditions
                )
                callbacks = tuple(_name(callback) for callback in transition.before)
                rows.append(Row(trigger, source, transition.dest, conditions, callbacks))  # type: ignore[arg-type]
    return rows


def _name(function: object) -> str:
    return str(getattr(function, "__name__", function))


def mermaid() -> str:
    """The chart as a Mermaid ``stateDiagram-v2`` (the text of ``spec/machine.mmd``)."""
    lines = [
        "stateDiagram-v2",
        "    %% Generated from rules.machine.MACHINE by `trumps spec`; do not edit.",
        "    %% A label is `trigger [condition]`. Rows with the same trigger and source are tried",
        "    %% in the order written here; the first whose conditions hold is taken, and the row",
        "    %% without a condition is the fallback.",
        f"    %% Transient states (left within the same event): {', '.join(TRANSIENT)}.",
    ]
    lines += [f"    state {name}" for name in states()]
    lines.append(f"    [*] --> {MACHINE.initial}")
    lines += [f"    {row.source} --> {row.dest} : {row.label}" for row in chart_rows()]
    lines.append("    finished --> [*]")
    return "\n".join(lines) + "\n"


def graphviz_dot() -> str:
    """The chart in Graphviz's language, for the drawing on the documentation site."""
    lines = [
        "digraph machine {",
        '  graph [rankdir=TB, nodesep=0.35, ranksep=0.5, bgcolor="transparent", fontname="DejaVu Sans"];',
        '  node [shape=box, style="rounded,filled", fillcolor="#e8f0fe", color="#3f51b5", fontname="DejaVu Sans",'
        " fontsize=16];",
        '  edge [color="#555555", fontname="DejaVu Sans Mono", fontsize=12];',
        '  start [shape=circle, label="", width=0.18, style=filled, fillcolor="#333333"];',
        '  stop [shape=doublecircle, label="", width=0.14, style=filled, fillcolor="#333333"];',
    ]
    for name in states():
        if name in TRANSIENT:
            lines.append(f'  {name} [style="rounded,dashed,filled", fillcolor="#fff8e1", color="#b28704"];')
        else:
            lines.append(f"  {name};")
    lines.append(f"  start -> {MACHINE.initial};")
    for row in chart_rows():
        lines.append(f'  {row.source} -> {row.dest} [label="{row.label}"];')
    lines.append("  finished -> stop;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg() -> str:
    """The chart as SVG, laid out by Graphviz ``dot`` (which must be installed: Debian package ``graphviz``)."""
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("the state chart needs Graphviz: install it with `apt-get install graphviz`")
    svg = subprocess.run([dot, "-Tsvg"], input=graphviz_dot(), capture_output=True, text=True, check=True).stdout
    # Keep only the <svg> element: the XML prologue and comments are not wanted inline in HTML.
    return svg[svg.index("<svg") :]
