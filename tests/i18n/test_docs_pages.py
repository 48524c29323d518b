"""The translated pages of the site: every language has the home page and the rules page, each
opening with the one-minute introduction in its language, and each rules page has the clauses and
the examples of every other (the strict build and the first screen in a browser are tests/docs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.locale import LANGUAGES

DOCS = Path(__file__).resolve().parents[2] / "docs"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
CLAUSE = re.compile(r"\*\*§(\d+(?:\.\d+)*)")
SNIPPET = re.compile(r'^--8<-- "(generated/.*)"$', re.M)
INTRODUCTION = re.compile(r'^--8<-- "(first-minute/.*)"$', re.M)


def test_every_language_has_the_home_and_the_rules_page() -> None:
    missing = [
        f"{page}.{lang}.md"
        for lang in TRANSLATED
        for page in ("index", "rules")
        if not (DOCS / f"{page}.{lang}.md").exists()
    ]
    assert missing == []


def test_the_site_configuration_lists_every_language() -> None:
    config = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.findall(r"- locale: (\w+)", config) == list(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_and_the_rules_page_open_with_the_introduction_in_their_language(lang: str) -> None:
    """The introduction comes right after the title (the aim of the game first), above the normative text."""
    for page in ("index", "rules"):
        text = (DOCS / (f"{page}.md" if lang == "en" else f"{page}.{lang}.md")).read_text(encoding="utf-8")
        assert INTRODUCTION.findall(text) == [f"first-minute/{lang}.md"], page
        assert text.index('--8<-- "first-minute/') < text.index("\n## "), page
        assert CLAUSE.search(text) is None or text.index("first-minute/") < CLAUSE.search(text).start()  # type: ignore[union-attr]
    introduction = (DOCS / "first-minute" / f"{lang}.md").read_text(encoding="utf-8")
    # A legend of the pictures' two borders, with the classes docs/stylesheets/cards.css gives them.
    assert "sk-own-trump" in introduction and "sk-fresh" in introduction


@pytest.mark.parametrize("lang", TRANSLATED[1:])
def test_each_rules_page_has_the_same_clauses_and_examples(lang: str) -> None:
    first = (DOCS / f"rules.{TRANSLATED[0]}.md").read_text(encoding="utf-8")
    page = (DOCS / f"rules.{lang}.md").read_text(encoding="utf-8")
    assert CLAUSE.findall(page) == CLAUSE.findall(first)
    # Each page includes the examples drawn in its own language (generated/snippets/examples/LANG/).
    assert [name.replace(f"/{lang}/", "/") for name in SNIPPET.findall(page)] == [
        name.replace(f"/{TRANSLATED[0]}/", "/") for name in SNIPPET.findall(first)
    ]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_links_to_other_pages_are_checked_by_the_strict_build(lang: str) -> None:
    """A link written as a site address (``../../deals/``) escapes the strict build's check; a link
    to ``deals.md`` is checked, anchor included. The one exception: the English original of the
    rules page, which a ``rules.md`` link would resolve to the translated page itself."""
    page = (DOCS / f"rules.{lang}.md").read_text(encoding="utf-8")
    addresses = re.findall(r"\]\((\.\./[^)]*)\)", page)
    assert addresses == ["../../rules/"]
