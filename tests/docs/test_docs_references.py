"""The repository stands alone: nothing points outside it, and every clause it cites exists.

The normative texts are ``docs/rules.md`` (clauses §1 … §5.1), ``docs/log-format.md``
(§L1 …) and ``docs/deals.md`` (§D1 …); code, tests, docs and ``spec/`` cite them.
"""

from __future__ import annotations

import posixpath
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# Names of the old normative briefs that lived beside the repository, and paths leading out of it.
OUTSIDE = re.compile(r"RULES\.md|CONTRACT\.md|\.\./shared|/work/shared")
CITATION = re.compile(r"(?<![\w.])§([LD]?\d+(?:\.\d+)*)")


def tracked_texts() -> dict[str, str]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    texts = {}
    for name in names.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file() or name.endswith("package-lock.json"):
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file (an image, say) points nowhere
    return texts


def defined_clauses() -> set[str]:
    clauses = set()
    for page in ("rules.md", "log-format.md", "deals.md"):
        text = (DOCS / page).read_text(encoding="utf-8")
        clauses |= set(re.findall(r"\*\*§([LD]?\d+(?:\.\d+)*)", text))
        clauses |= set(re.findall(r"^#{2,3} §?([LD]?\d+(?:\.\d+)*)\.? ", text, re.M))
    return clauses


def test_no_tracked_file_points_outside_the_repository() -> None:
    texts = tracked_texts()
    assert "docs/rules.md" in texts and "rules/core.py" in texts
    offenders = [
        f"{name}:{number}: {line.strip()[:100]}"
        for name, text in texts.items()
        if name != "tests/docs/test_docs_references.py"
        for number, line in enumerate(text.splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert not offenders, "cite docs/rules.md or docs/log-format.md instead:\n" + "\n".join(offenders)


def test_every_cited_clause_exists() -> None:
    defined = defined_clauses()
    assert {"1.4", "2.4.2", "3.3.5", "L4.5", "L6.2", "D1.5"} <= defined
    missing = sorted(
        {
            f"§{clause} in {name}"
            for name, text in tracked_texts().items()
            for clause in CITATION.findall(re.sub(r"RFC \d+ §[\d.]+", "", text))
            if clause not in defined
        }
    )
    assert not missing, "these clauses are cited but not defined: " + ", ".join(missing)


def test_the_site_is_served_where_the_docs_say() -> None:
    # mkdocs.yml moves `mkdocs serve` off port 8000, which is `trumps serve`'s: every line that runs it says so.
    address = re.search(r"^dev_addr: *(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert address, "mkdocs.yml names no dev_addr"
    wrong = [
        f"{name}:{number}: {line.strip()}"
        for name, text in tracked_texts().items()
        if name.endswith(".md")
        for number, line in enumerate(text.splitlines(), start=1)
        if "mkdocs serve" in line
        for served in re.findall(r"https?://([\w.]+:\d+)", line)
        if served != address[1]
    ]
    assert not wrong, f"`mkdocs serve` answers at {address[1]}:\n" + "\n".join(wrong)


def test_the_docs_name_every_variable_that_chooses_the_language() -> None:
    from rules.locale import language_from_environment

    # Which of the usual locale variables the command line reads, asked of the code itself.
    read = {
        name
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE", "LANG")
        if language_from_environment({name: "cs_CZ.UTF-8"}) == "cs"
    }
    assert {"LANGUAGE", "LANG"} <= read
    paragraphs = [
        (name, paragraph)
        for name, text in tracked_texts().items()
        if name.endswith(".md")
        for paragraph in re.split(r"\n\s*\n", text)
        if "LANGUAGE" in paragraph
    ]
    assert any(name == "README.md" for name, _ in paragraphs)
    wrong = {
        name: sorted(read - set(re.findall(r"\b(?:LANGUAGE|LC_[A-Z]+|LANG)\b", paragraph)))
        for name, paragraph in paragraphs
    }
    assert all(not missing for missing in wrong.values()), f"left out: {wrong}"


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings as the site makes them (toc's default slugs, or an explicit ``{#id}``)."""
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        explicit = re.search(r"\{#([\w-]+)\}\s*$", heading)
        slug = re.sub(r"[^\w\s-]", "", heading.lower()).strip()
        found.add(explicit[1] if explicit else re.sub(r"[-\s]+", "-", slug))
    return found


def test_every_link_of_the_pages_outside_the_site_leads_somewhere() -> None:
    # The strict site build checks the links of docs/; the READMEs beside it are read on their own.
    texts = tracked_texts()
    broken = []
    for name, text in texts.items():
        if not name.endswith(".md") or name.startswith("docs/"):
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = posixpath.normpath(posixpath.join(posixpath.dirname(name), path)) if path else name
            if linked not in texts:
                broken.append(f"{name}: {target} (no such file)")
            elif anchor and anchor not in anchors(texts[linked]):
                broken.append(f"{name}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_readme_names_every_reason_an_outcome_gives() -> None:
    from typing import get_args

    from rules.outcome import Reason

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    bullet = re.search(r"^- `outcome` carries .*?(?=^- |\Z)", readme, re.M | re.S)
    assert bullet, "the README's decision on the outcome"
    assert set(get_args(Reason)) <= set(re.findall(r"`(\w+)`", bullet[0])), bullet[0]


def test_the_machine_page_names_every_way_a_game_ends() -> None:
    from rules.table import TRANSITIONS

    page = (DOCS / "machine.md").read_text(encoding="utf-8")
    outcome = page[page.index("## The outcome") :].split("\n## ")[0]
    endings = {callback for row in TRANSITIONS if row.dest == "finished" for callback in row.callbacks}
    assert {"draw_by_tie_check", "resigner_loses"} <= endings
    assert {name for name in endings if f"`{name}`" not in outcome} == set(), outcome
    assert all(f"`{row.trigger}`" in page for row in TRANSITIONS if row.dest == "finished")
