"""The bash loop that spec/README.md and the conformance guide give works, against the reference engine."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ["tie_check_draw", "must_beat_forbids_taking.bad"]  # each run of `trumps` costs a second


def loop_of(page: Path) -> str:
    match = re.search(r"```bash\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert match, f"no bash block in {page}"
    return match[1]


def run_loop(loop: str, folder: Path, replay: str) -> str:
    script = f'your-replay() {{ {replay} "$@"; }}\n' + loop
    result = subprocess.run(["bash", "-c", script], cwd=folder, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def sample_spec(tmp_path: Path) -> Path:
    vectors = tmp_path / "spec" / "vectors"
    vectors.mkdir(parents=True)
    for name in SAMPLE:
        for path in (ROOT / "spec" / "vectors").glob(f"{name}.*"):
            shutil.copy(path, vectors / path.name)
    return tmp_path


def test_the_loop_passes_the_reference_engine(tmp_path: Path) -> None:
    folder = sample_spec(tmp_path)
    replay = f"{Path(sys.executable).parent / 'trumps'} replay"
    loop = loop_of(ROOT / "spec" / "README.md")
    assert loop == loop_of(ROOT / "docs" / "conformance.md")
    assert run_loop(loop, folder, replay) == ""


def test_the_loop_catches_a_wrong_implementation(tmp_path: Path) -> None:
    folder = sample_spec(tmp_path)
    output = run_loop(loop_of(ROOT / "spec" / "README.md"), folder, "echo '{}'; true")
    assert output.count("FAIL") == len(SAMPLE)
