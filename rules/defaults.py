"""The rule options' bounds and defaults, as plain numbers: the command line shows them in ``--help``
before it needs the engine (and pydantic), so they live apart from :mod:`rules.options`, which uses them."""

MIN_PLAYERS, MAX_PLAYERS = 2, 4
"""A game has two to four players (rules §1)."""

PLAYERS = 2
"""The number of players unless the rules say otherwise: a duel."""

DEALER = 0
"""The dealer of the first hand unless the rules say otherwise."""

PASS_SIXES = True
"""Whether sixes pass after the deal unless the rules say otherwise (rules §2.2)."""

MUST_BEAT = False
"""Whether taking is forbidden while holding a card that beats, unless the rules say otherwise."""
