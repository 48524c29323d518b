"""The rules, the home page and the one-minute introduction in each language of the game say what the English pages
say, as far as a program can tell without reading them: the same clauses in the same order, each [decision] marked,
the same numbers written in each clause, the same included examples, links, cards and code, and only commands and
options the ``trumps`` command has. When the English page changes, the translations fail here until they follow."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import typer.core
import typer.main

from rules.cli import app

DOCS = Path(__file__).resolve().parents[2] / "docs"
LANGUAGES = ("ro", "fi", "cs", "ky", "ru")

# A heading, or the bold number that opens a clause, with its bracketed mark ([decision], [решение] …) if it has one.
MARKER = re.compile(r"^(#+ (?:[\d.]*\d\.?)?)|\*\*§([\d.]*\d)( \[)?", re.M)
NUMBER = re.compile(r"§[\d.]*\d|\d+")
CODE_BLOCK = re.compile(r"^```.*?^```", re.M | re.S)
COMMAND = re.compile(r"`trumps ([^`]*)`")


def page(name: str, lang: str) -> str:
    """docs/NAME.md in English, its translation docs/NAME.LANG.md otherwise (the introduction: first-minute/LANG.md)."""
    if name == "first-minute":
        return (DOCS / "first-minute" / f"{lang}.md").read_text(encoding="utf-8")
    return (DOCS / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")).read_text(encoding="utf-8")


def pieces(text: str) -> list[tuple[str, Counter[str]]]:
    """The page cut at each heading and each clause: what opens the piece (the heading's level and number, the
    clause's number and whether it is a decision) and the numbers written in digits in it, whatever their order
    in a sentence (languages order their words otherwise), but row by row in a table (each row a key of its own)."""
    cuts = list(MARKER.finditer(text))
    out = []
    for at, cut in enumerate(cuts):
        end = cuts[at + 1].start() if at + 1 < len(cuts) else len(text)
        body = text[cut.end() : end]
        if cut.group(1) is not None:
            key, body = cut.group(1).strip(), body.split("\n", 1)[-1]  # a heading's own words may hold no number
        else:
            key = f"§{cut.group(2)}" + (" [decision]" if cut.group(3) else "")
        prose = "\n".join(line for line in body.splitlines() if not line.startswith("|"))
        out.append((key, Counter(NUMBER.findall(prose))))
        rows = [line for line in body.splitlines() if line.startswith("|") and NUMBER.search(line)]
        out.extend((f"{key}, table row {row}", Counter(NUMBER.findall(line))) for row, line in enumerate(rows, 1))
    return out


def snippets(text: str, lang: str) -> list[str]:
    """The included files, each language's introduction written first-minute/LANG.md and its worked examples
    examples/LANG/NAME.md (the English ones examples/NAME.md): another language's is no match."""
    named = [
        re.sub(r"^first-minute/\w+\.md$", "first-minute/LANG.md", name)
        for name in re.findall(r'^--8<-- "(.*)"$', text, re.M)
    ]
    own = "examples/" if lang == "en" else f"examples/{lang}/"
    return [name.replace(own, "examples/LANG/") if "/examples/" in name else name for name in named]


def links(text: str) -> list[str]:
    """The links to pages of the site (the translations' link back to the English page is their own)."""
    return sorted(link for link in re.findall(r"\]\(([^)\s]+)\)", text) if not link.startswith(("../", "http")))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_clause_by_clause(lang: str) -> None:
    english, translated = pieces(page("rules", "en")), pieces(page("rules", lang))
    assert [key for key, _ in translated] == [key for key, _ in english]
    for (key, numbers), (_, theirs) in zip(english, translated, strict=True):
        assert theirs == numbers, f"rules.{lang}.md, {key}: numbers {sorted(theirs)}, in English {sorted(numbers)}"


@pytest.mark.parametrize("name", ["rules", "index", "first-minute"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_examples_links_cards_and_code(name: str, lang: str) -> None:
    english, translated = page(name, "en"), page(name, lang)
    assert snippets(translated, lang) == snippets(english, "en")
    assert links(translated) == links(english)
    assert re.findall(r'title="(..)"', translated) == re.findall(r'title="(..)"', english)  # the pictured cards
    assert CODE_BLOCK.findall(translated) == CODE_BLOCK.findall(english)
    if name != "rules":  # the rules' numbers are compared clause by clause above
        prose = [CODE_BLOCK.sub("", text) for text in (english, translated)]
        assert Counter(NUMBER.findall(prose[1])) == Counter(NUMBER.findall(prose[0]))


@pytest.mark.parametrize("name", ["rules", "index", "first-minute"])
@pytest.mark.parametrize("lang", ("en", *LANGUAGES))
def test_commands_shown_exist(name: str, lang: str) -> None:
    """Every `trumps COMMAND --option …` a page shows names a command and options that command has."""
    root = typer.main.get_command(app)
    assert isinstance(root, typer.core.TyperGroup)
    for shown in COMMAND.findall(page(name, lang)):
        words = shown.split()
        command = root.commands.get(words[0])
        assert command is not None, shown
        options = {opt for param in (*root.params, *command.params) for opt in (*param.opts, *param.secondary_opts)}
        assert {word for word in words if word.startswith("-") and word != "-"} <= options, shown


def test_kyrgyz_seat_numbers_follow_the_word() -> None:
    """Kyrgyz names a seat "орун 1", never "1-орун" or "`dealer + 1` орун"."""
    for name in ("rules", "index", "first-minute"):
        assert not re.search(r"(?:\d|`|\*[^*\s]+\*)-?\s*орун", page(name, "ky")), name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_worked_examples_speak_the_language_of_their_page(lang: str) -> None:
    """Each example of a translated rules page is generated in its language (captions, titles, the pictures' labels,
    the log's heading): no line of its text is the English one. Only the log itself is the same."""
    folder = DOCS / "generated" / "snippets" / "examples"

    def text_lines(path: Path) -> set[str]:
        lines = path.read_text(encoding="utf-8").split("```jsonl")[0].splitlines()
        return {line for line in lines if line.strip() and not line.startswith("<!--")}

    examples = sorted(folder.glob("*.md"))
    assert len(examples) == 12
    for english in examples:
        assert text_lines(folder / lang / english.name).isdisjoint(text_lines(english)), (lang, english.name)
