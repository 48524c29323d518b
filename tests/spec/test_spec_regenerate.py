"""`trumps spec` regenerates exactly the committed spec/, docs/generated/ and rules/generated_step.py, and reports
bad output paths."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rules.cli import app
from rules.spec import write_spec
from rules.spec.pages import write_pages

ROOT = Path(__file__).resolve().parents[2]


def tree(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_regeneration_equals_the_committed_files(tmp_path: Path) -> None:
    step = ROOT / "rules" / "generated_step.py"
    committed_step = step.read_bytes()
    result = CliRunner().invoke(app, ["spec", "--out", str(tmp_path / "spec"), "--docs", str(tmp_path / "docs")])
    assert result.exit_code == 0, result.output
    assert step.read_bytes() == committed_step, "rules/generated_step.py was stale: trumps spec wrote it again"
    fresh, committed = tree(tmp_path / "spec"), tree(ROOT / "spec")
    assert sorted(fresh) == sorted(committed), "run: trumps spec --out spec --docs docs/generated"
    drifted = [name for name in fresh if fresh[name] != committed[name]]
    assert not drifted, (
        f"spec/ drifted from the code in {drifted[:5]}: run trumps spec --out spec --docs docs/generated"
    )
    fresh_docs, committed_docs = tree(tmp_path / "docs"), tree(ROOT / "docs" / "generated")
    assert fresh_docs == committed_docs, "docs/generated drifted: run trumps spec --out spec --docs docs/generated"


def test_stale_vectors_are_removed(tmp_path: Path) -> None:
    (tmp_path / "vectors").mkdir()
    (tmp_path / "vectors" / "old_vector.jsonl").write_text("{}\n")
    write_spec(tmp_path)
    assert not (tmp_path / "vectors" / "old_vector.jsonl").exists()
    assert (tmp_path / "vectors" / "index.json").exists()


def test_files_the_generator_did_not_make_are_never_removed(tmp_path: Path) -> None:
    """``trumps spec --out . --docs .`` must not delete the project's own files."""
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    (tmp_path / "notes.md").write_text("# hand-written\n")
    write_spec(tmp_path)
    write_pages(tmp_path)
    assert (tmp_path / "pyproject.toml").read_text() == "[project]\n"
    assert (tmp_path / "notes.md").read_text() == "# hand-written\n"


def test_an_unwritable_folder_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(app, ["spec", "--out", str(blocker / "spec")])
    assert result.exit_code == 2  # refused before anything is written (tests/cli/test_first_hour.py has more)
    assert result.stderr == f"--out {blocker / 'spec'}: {blocker} is not a folder\n"
    assert blocker.read_text() == "not a folder"
