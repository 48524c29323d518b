"""``python -m rules.native``: build the native path for the installed sources and say where it is."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from rules.native import ENVIRONMENT, MODULES, build


def main() -> int:
    """``python -m rules.native``: build the native path for these sources and say where it is."""
    started = time.monotonic()
    try:
        folder = build()
    except (RuntimeError, OSError) as error:
        print(f"no native path: {error}", file=sys.stderr)
        return 1
    check = subprocess.run(
        [sys.executable, "-c", "import rules.native, rules.players.solver; print(rules.native.active())"],
        capture_output=True,
        text=True,
        env={**os.environ, ENVIRONMENT: "1"},
    )
    if check.stdout.strip() != "True":
        print(f"the build in {folder} does not load:\n{check.stderr}", file=sys.stderr)
        return 1
    print(f"compiled {', '.join(MODULES)}")
    print(f"into {folder} ({time.monotonic() - started:.0f} s); every process on these sources uses it")
    print(f"({ENVIRONMENT}=0 turns it off)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
