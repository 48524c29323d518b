"""The strict site build passes offline, with the chart drawn inline and the card pictures in the pages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_strict_build(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    machine = (site / "machine" / "index.html").read_text(encoding="utf-8")
    assert '<div class="machine-chart"' in machine and "<svg" in machine
    assert "mermaid" not in machine  # nothing to fetch or run in the browser
    rules = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert rules.count('class="sk-table"') >= 10
    assert "§3.3 [decision] Endless play" in rules
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert "legal_moves" in api and "highlight language-python" in api  # doctest examples shown as code
    for page in ("generated/events", "generated/cli", "conformance", "protocol"):
        assert (site / page / "index.html").exists()
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text and "unpkg.com" not in text, html
    # Every language of the game has its home page and its rules page, with the language switcher.
    for lang in ("ro", "fi", "cs", "ky", "ru"):
        for page in (site / lang / "index.html", site / lang / "rules" / "index.html"):
            html = page.read_text(encoding="utf-8")
            assert f'<html lang="{lang}"' in html and 'hreflang="en"' in html, page
