"""``python -m rules.native``: build the native path for the installed sources and say where it is.

``--background`` is how :func:`rules.native.build_in_background` runs it: the same build, and at
the end the ``building`` marker is removed and, if the build failed, a ``failed`` marker keeps the
reason, so that the commands do not start a build that cannot succeed again and again.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from rules.native import ENVIRONMENT, MODULES, build, digest, marker


def main(arguments: list[str]) -> int:
    """``python -m rules.native [--background]``: build the native path for these sources and say where it is."""
    if arguments not in ([], ["--background"]):
        print(f"usage: python -m rules.native [--background], not {' '.join(arguments)!r}", file=sys.stderr)
        return 2
    background = arguments == ["--background"]
    key = digest()
    try:
        failure = _build()
        if key is not None:
            if failure is not None and background:
                marker(key, "failed").write_text(failure + "\n", encoding="utf-8")
            elif failure is None:
                marker(key, "failed").unlink(missing_ok=True)
    finally:
        if background and key is not None:
            marker(key, "building").unlink(missing_ok=True)
    return 0 if failure is None else 1


def _build() -> str | None:
    """Build, check that the build loads, and report; the reason it failed, or ``None``."""
    started = time.monotonic()
    try:
        folder = build()
    except (RuntimeError, OSError) as error:
        failure: str | None = f"no native path: {error}"
    else:
        failure = _loads(folder)
    if failure is not None:
        print(failure, file=sys.stderr)
        return failure
    print(f"compiled {', '.join(MODULES)}")
    print(f"into {folder} ({time.monotonic() - started:.0f} s); every process on these sources uses it")
    print(f"({ENVIRONMENT}=0 turns it off)")
    return None


def _loads(folder: Path) -> str | None:
    """Why a new process on these sources does not load the build in ``folder``, or ``None`` if it does."""
    check = subprocess.run(
        [sys.executable, "-c", "import rules.native, rules.players.solver; print(rules.native.active())"],
        capture_output=True,
        text=True,
        env={**os.environ, ENVIRONMENT: "1"},
    )
    if check.stdout.strip() == "True":
        return None
    return f"the build in {folder} does not load:\n{check.stderr}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
