r"""A Griffe extension for the API pages: doctest examples in docstrings become ``pycon`` code blocks.

The engine's docstrings are plain text with ``>>>`` examples (run by pytest as doctests).
Rendered as Markdown, those lines would turn into nested quotes and their output into
links; this extension fences each example, from its first ``>>>`` line to the next blank
line, so the API pages show it as a console session.

>>> fence_doctests("Adds.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
['Adds.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every doctest example wrapped in a fenced ``pycon`` block."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if not inside and stripped.startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not stripped:
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring Griffe loads."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
