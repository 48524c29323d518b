"""The test suite runs on the pure-Python rules unless a run asks for the compiled path (see rules.compiled).

``TRUMPS_COMPILED=1 pytest …`` runs the same tests on the compiled modules; tests/engine/test_compiled.py does so.
"""

import os

os.environ.setdefault("TRUMPS_COMPILED", "0")
