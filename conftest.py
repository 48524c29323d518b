"""The test suite runs on the pure-Python rules unless a run asks for the native path (see rules.native).

``TRUMPS_NATIVE=1 pytest …`` runs the same tests on the compiled modules; tests/engine/test_native.py does so.
"""

import os

os.environ.setdefault("TRUMPS_NATIVE", "0")
