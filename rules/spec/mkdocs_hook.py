"""The mkdocs hook of the documentation site: draws the state chart into the page at build time.

A page that contains the line ``<!-- machine-chart -->`` gets the chart of
:data:`rules.machine.MACHINE` there as inline SVG, laid out by Graphviz, so the built
site shows it with no script and no network.
"""

from __future__ import annotations

from typing import Any

from rules.spec.chart import render_svg

MARKER = "<!-- machine-chart -->"


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, f'<div class="machine-chart" markdown="0">{render_svg()}</div>')
