r"""A Griffe extension for the API pages: docstrings written for Sphinx and doctest, shown well as Markdown.

The engine's docstrings are plain text with ``>>>`` examples (run by pytest as doctests)
and Sphinx roles such as ``:func:`apply```. Rendered as Markdown, the examples would turn
into nested quotes and their output into links, and the roles would show as written; this
extension fences each example, from its first ``>>>`` line to the next blank line, as a
console session, and turns each role into code.

>>> fence_doctests("Adds.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
['Adds.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
"""

from __future__ import annotations

import re
from typing import Any

import griffe

SPHINX_ROLE = re.compile(r":(?:func|meth|class|mod|data|attr|exc|obj):`~?([^`]+)`")


def plain_roles(text: str) -> str:
    """Sphinx cross-reference roles as inline code.

    >>> plain_roles("See :meth:`Game.push` and :class:`~rules.state.View`.")
    'See `Game.push` and `rules.state.View`.'
    """
    return SPHINX_ROLE.sub(r"`\1`", text)


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
    """Fences the doctest examples and plains the Sphinx roles of every docstring Griffe loads."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))
