"""Numbers as a person writes them for a command's option or an environment variable: ASCII digits only.

Python's ``int`` and ``float`` (and pydantic, which typer checks values with) take more than that: a sign,
spaces around, ``_`` between digits, ``5.0`` for a whole number, ``1e3``, ``inf``, ``nan``, other scripts'
digits. None of it is promised, and some of it would be taken for what it does not say (``--seed -5`` deals as
``--seed 5`` would: ``random.Random`` takes the absolute value). So every number a person types for ``trumps``
(a command's option, a ``trumps serve`` setting or its variable) is read here, and anything else is refused in
one sentence naming where it was written.

>>> whole_number("--seed", "0042"), decimal_number("--seconds", "2.5"), decimal_number("TRUMPS_RATE", ".5")
(42, 2.5, 0.5)
>>> whole_number("--seed", "-5")
Traceback (most recent call last):
...
ValueError: --seed: '-5' is not a whole number written in digits (such as 40)
>>> decimal_number("--seconds", "1e3")
Traceback (most recent call last):
...
ValueError: --seconds: '1e3' is not a number written in digits (such as 20 or 0.5)
"""

from __future__ import annotations

import math
import re

from rules.locale import N_, Message

_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+\.?[0-9]*|\.[0-9]+")


def whole_number(name: str, text: str) -> int:
    """The whole number ``text`` holds, written in ASCII digits only, of any length (a seed may be as long as one
    likes, deals §D1.1); :class:`ValueError` naming ``name`` (the option or variable it was given as) if it is
    anything else."""
    if not _WHOLE.fullmatch(text):
        raise ValueError(
            Message(N_("{name}: {text!r} is not a whole number written in digits (such as 40)"), name=name, text=text)
        )
    return digits_value(text)


def digits_value(digits: str) -> int:
    """The number ASCII ``digits`` write, however many: ``int()`` alone refuses more than 4,300 of them (Python's
    guard against slow conversions), a few thousand at a time it takes any number.

    >>> digits_value("1" * 5000) == (10**5000 - 1) // 9
    True
    """
    value = 0
    for start in range(0, len(digits), _CHUNK):
        chunk = digits[start : start + _CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


_CHUNK = 4000
"""Digits converted at once: fewer than :func:`sys.get_int_max_str_digits` allows by default."""


def decimal_number(name: str, text: str) -> float:
    """The number ``text`` holds, written in ASCII digits with at most one decimal point; :class:`ValueError`
    naming ``name`` if it is anything else, or too large to be a finite number (hundreds of digits)."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(
            Message(N_("{name}: {text!r} is not a number written in digits (such as 20 or 0.5)"), name=name, text=text)
        )
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(Message(N_("{name}: {value} is not a finite number"), name=name, value=value))
    return value
