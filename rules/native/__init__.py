"""The native path: the rules and the solver compiled to C by mypyc, from the very same source.

The modules of the search (:data:`MODULES`: the rule functions, the table's step, the solver
and what it calls at every node) are typed Python that ``mypy --strict`` checks. mypyc, the
compiler that comes with mypy, turns exactly these files into C extension modules: no second
copy of any rule exists. ``python -m rules.native`` builds them into a folder of the user's
cache named by a digest of the package's sources and the Python version (``trumps solve`` and
``trumps play`` start it in the background where that build is missing,
:func:`build_in_background`); from then on every
process that imports :mod:`rules` from those sources loads the compiled modules instead of the
``.py`` files (:func:`activate`, called by ``import rules``). The same functions run the same
search, so the solver takes the same nodes to the node, each of them faster
(``python -m benchmarks.solver --both`` prints both paths' figures from one run).

The pure-Python modules stay what the compiled ones are checked against (the tests run the
vectors, the perft counts, random games move for move and the solver on both paths and
compare) and the fallback: with no build for the current sources (none made, a source edited
since, another Python, no C compiler), or with ``TRUMPS_NATIVE=0`` in the environment, the
``.py`` files run as always. The test suite runs on the pure path unless a test asks for the other.

>>> MODULES[0]
'rules.core'
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import time
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "ENVIRONMENT",
    "MODULES",
    "NativeRefused",
    "activate",
    "active",
    "build",
    "build_folder",
    "build_in_background",
    "cache_folder",
    "digest",
    "marker",
    "sources",
]

MODULES = (
    "rules.core",
    "rules.step",
    "rules.generated_step",
    "rules.players.greedy",
    "rules.players.proof_numbers",
    "rules.players.solver",
)
"""The modules compiled: the rules and the step (every node), the solver's two searches and its move ordering."""

ENVIRONMENT = "TRUMPS_NATIVE"
"""``0`` turns the native path off; ``1`` makes :func:`activate` fail loudly when there is no build to use."""

_PACKAGE = Path(__file__).resolve().parent.parent
_SOURCES = ("*.py", "players/*.py", "native/*.py", "locale/*.py")
"""The sources whose digest names a build (:func:`sources`): every module the compiled ones are or import (and a
few more), and this one, which says which modules are compiled and how."""
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
STALE_SECONDS = 15 * 60
"""A background build older than this is taken for one that died (a build takes about a minute)."""


def cache_folder() -> Path:
    """Where builds are kept: ``native`` in ``$TRUMPS_CACHE``, ``$XDG_CACHE_HOME/trumps`` or ``~/.cache/trumps``."""
    root = os.environ.get("TRUMPS_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "trumps"
    )
    return Path(root) / "native"


def digest(package: Path = _PACKAGE) -> str | None:
    """The digest that names the build of ``package``'s sources for this Python; ``None`` without sources.

    A package installed as byte code alone has no sources to compile, and no build.
    """
    files = sources(package)
    if not any(file.name == "core.py" for file in files):
        return None
    sha = hashlib.sha256(f"{sys.implementation.cache_tag} {_SUFFIX}\n".encode())
    for file in files:
        sha.update(f"{file.relative_to(package).as_posix()}\n".encode())
        sha.update(file.read_bytes())
    return sha.hexdigest()[:24]


def sources(package: Path = _PACKAGE) -> list[Path]:
    """The source files of ``package`` whose digest names its build (:data:`_SOURCES`), in order."""
    return sorted(file for pattern in _SOURCES for file in package.glob(pattern))


def build_folder() -> Path | None:
    """The folder of the build for the current sources, if it exists."""
    key = digest() if cache_folder().is_dir() else None
    folder = cache_folder() / key if key else None
    return folder if folder is not None and folder.is_dir() else None


class _Finder:
    """Finds the compiled modules of one build (and mypyc's shared library beside them) for the import system."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files = {
            ".".join(file.relative_to(folder).parts)[: -len(_SUFFIX)]: file for file in folder.rglob(f"*{_SUFFIX}")
        }

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.files.get(name)
        return None if file is None else importlib.util.spec_from_file_location(name, file)


class NativeRefused(RuntimeError):
    """A setting of :data:`ENVIRONMENT` that cannot be followed: not 0, 1 or empty, or 1 without a build."""


def activate() -> bool:
    """Load :data:`MODULES` from the build of the current sources from now on, if there is one; whether it did.

    Called by ``import rules`` before any of them is imported. ``TRUMPS_NATIVE=0`` leaves the
    pure-Python path; ``TRUMPS_NATIVE=1`` raises :class:`NativeRefused` if there is no build to use, and so does any
    other value but an empty one.
    """
    wanted = os.environ.get(ENVIRONMENT, "")
    if wanted not in ("", "0", "1"):  # "false" or "off" would otherwise leave the native path on, unsaid
        raise NativeRefused(
            f"{ENVIRONMENT}={wanted!r} is neither 0 (the pure-Python path) nor 1 (the native path, or fail); "
            "unset or empty: the native path where it is built"
        )
    if wanted == "0" or active():
        return active()
    folder = build_folder()
    if folder is None or any(name in sys.modules for name in MODULES):
        if wanted == "1":
            raise NativeRefused(f"{ENVIRONMENT}=1, but there is no build of these sources: run python -m rules.native")
        return False
    sys.meta_path.insert(0, _Finder(folder))
    return True


def active() -> bool:
    """Whether this process runs the compiled modules."""
    return any(isinstance(finder, _Finder) for finder in sys.meta_path)


def build() -> Path:
    """Compile :data:`MODULES` with mypyc into :func:`cache_folder` (unless already built); the build's folder.

    The sources are copied to a temporary folder and compiled there, so the package's own
    folder gets no build files. Needs mypy (mypyc), setuptools and a C compiler; raises
    :class:`RuntimeError` with the compiler's last words if the build fails.
    """
    import shutil
    import subprocess
    import tempfile

    key = digest()
    if key is None:
        raise RuntimeError("this installation of rules has no sources to compile")
    if _find("mypyc") is None:
        raise RuntimeError("mypyc is not installed: pip install mypy setuptools installs it")
    target = cache_folder() / key
    if target.is_dir():
        return target
    cache_folder().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="trumps-build-", dir=cache_folder()) as work:
        source = Path(work) / "src"
        ignore = shutil.ignore_patterns("__pycache__", "static", "*.po", "*.pot", "*.mo")  # no build reads them
        shutil.copytree(_PACKAGE, source / "rules", ignore=ignore)
        if digest(source / "rules") != key:
            raise RuntimeError("the sources changed while they were being copied: build again")
        files = [name.replace(".", "/") + ".py" for name in MODULES]
        result = subprocess.run(
            [sys.executable, "-m", "mypyc", *files],
            cwd=source,
            capture_output=True,
            text=True,
            env={**os.environ, "MYPY_CACHE_DIR": str(Path(work) / "mypy-cache")},
        )
        if result.returncode != 0:
            raise RuntimeError("mypyc failed:\n" + "\n".join((result.stdout + result.stderr).splitlines()[-20:]))
        built = Path(work) / "built"
        for file in source.rglob(f"*{_SUFFIX}"):
            if "build" in file.relative_to(source).parts:
                continue
            destination = built / file.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(file, destination)
        try:
            built.rename(target)  # at once: a process never sees half a build
        except OSError:
            if not target.is_dir():  # another process built it meanwhile
                raise
    return target


def marker(key: str, kind: str) -> Path:
    """The file beside the builds that says a background build of ``key`` is ``building`` or has ``failed``."""
    return cache_folder() / f"{key}.{kind}"


def build_in_background() -> bool:
    """Start ``python -m rules.native --background`` in a process of its own where a build is missing; whether it did.

    The commands that search (``trumps solve``, ``play``, ``arena``) call it, so that a fresh
    installation needs no step of its own: the first processes search on the pure path while
    the build is made (about a minute of one core), and every process started after it on these
    sources finds it. Nothing is started with ``TRUMPS_NATIVE=0``, on the native path, without
    sources or mypyc, while another build of these sources is running, or after one has failed
    (its reason is in the ``failed`` marker; ``python -m rules.native`` tries again by hand).
    """
    if os.environ.get(ENVIRONMENT, "") == "0" or active() or build_folder() is not None:
        return False
    key = digest()
    if key is None or _find("mypyc") is None or marker(key, "failed").exists():
        return False
    building = marker(key, "building")
    try:
        cache_folder().mkdir(parents=True, exist_ok=True)
        if building.exists() and time.time() - building.stat().st_mtime > STALE_SECONDS:
            building.unlink(missing_ok=True)
        with building.open("x", encoding="utf-8") as claim:  # one build at a time, among all processes
            claim.write(f"{os.getpid()}\n")
    except OSError:  # claimed by another process, or a cache that cannot be written
        return False
    import subprocess

    with marker(key, "log").open("w", encoding="utf-8") as log:
        subprocess.Popen(
            [sys.executable, "-m", "rules.native", "--background"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # it outlives the command that started it, and Ctrl-C there
        )
    return True


def _find(name: str) -> ModuleSpec | None:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):  # what a blocked or half-removed package raises
        return None
