"""The phases of a game as a ``transitions`` state machine, built from the one transition table.

:data:`MACHINE` is :data:`rules.table.TRANSITIONS` handed to ``transitions``: its states
are the table's states, every row a transition whose conditions and ``before`` callbacks
are the functions of :mod:`rules.core` the row names. It is the declared, inspectable model
of the phases: the state chart is drawn from it (:mod:`rules.spec.chart`), and it answers
the library's ``may_<trigger>`` questions about any game's state (:meth:`TableMachine.may`),
which change nothing since conditions change nothing.

Games are not its models: they play through the table's compiled step
(:class:`rules.step.Compiled`), which the machine carries as :attr:`TableMachine.compiled`.
The machine has one model of its own, a :class:`Lens` that looks at whichever state it is
asked about, so that nothing grows with the number of games alive. Its state *is* that
state's phase. A test runs the machine itself on the lens against the compiled step, move
for move.

>>> from rules.core import State
>>> state = State.setup(players=2, first_seat=1)
>>> MACHINE.may(state, "choose_trump", 1), MACHINE.may(state, "deal"), state.phase, state.trumps
(True, False, 0, (-1, -1))
>>> MACHINE.run(state, "choose_trump", 1)
>>> state.trumps, state.to_act, MACHINE.lens.state
((-1, 1), 0, 'trump_choice')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from transitions import EventData, Machine

from rules import core
from rules.step import Compiled
from rules.table import AUTOMATIC, INITIAL, STATES, TRANSITIONS, Row


class Lens:
    """The machine's one model: it shows the state put in :attr:`core` (a resting one between questions)."""

    trigger: Callable[..., bool]  # added by transitions: fires a trigger by name

    def __init__(self) -> None:
        self.core = _RESTING

    @property
    def state(self) -> str:
        """The machine's state: the name of the core state's phase."""
        return core.PHASE_NAMES[self.core.phase]

    @state.setter
    def state(self, name: str) -> None:
        self.core.phase = core.PHASE_NUMBERS[name]


_RESTING = core.State.setup(2, 0)  # what the lens shows when nobody asks: a game before the trump choice


def _data(event_data: EventData) -> tuple[core.State, Any]:
    """The core state the lens shows and the event's data, as the table's functions take them."""
    lens: Lens = event_data.model  # type: ignore[assignment]
    args = tuple(event_data.args)
    return lens.core, args[0] if args else None


def _condition(function: Callable[[core.State, Any], bool]) -> Callable[[EventData], bool]:
    def condition(event_data: EventData) -> bool:
        return function(*_data(event_data))

    condition.__name__ = function.__name__  # the chart labels rows by these names
    return condition


def _callback(function: Callable[[core.State, Any], None]) -> Callable[[EventData], None]:
    def callback(event_data: EventData) -> None:
        function(*_data(event_data))

    callback.__name__ = function.__name__
    return callback


def _automatic(trigger: str) -> Callable[[EventData], None]:
    def fire(event_data: EventData) -> None:
        lens: Lens = event_data.model  # type: ignore[assignment]
        args = tuple(event_data.args)
        lens.trigger(trigger, *args)

    return fire


class TableMachine(Machine):
    """The machine of a table, with that table compiled (:attr:`compiled`): the step games play through."""

    compiled: Compiled
    lens: Lens

    def may(self, state: core.State, trigger: str, data: Any = None) -> bool:
        """The machine's ``may_<trigger>``: whether the table takes ``trigger`` with ``data`` in ``state`` now."""
        self.lens.core = state
        try:
            return bool(getattr(self.lens, f"may_{trigger}")(data))
        finally:
            self.lens.core = _RESTING

    def run(self, state: core.State, trigger: str, data: Any = None) -> None:
        """Fire ``trigger`` on ``state`` through the machine itself (tests compare it with the compiled step)."""
        self.lens.core = state
        try:
            state.counted = None
            self.lens.trigger(trigger, data)
        finally:
            self.lens.core = _RESTING


def build_machine(rows: Iterable[Row] = TRANSITIONS) -> TableMachine:
    """The machine of a transition table: the real one, or a variant for tests."""
    rows = list(rows)
    compiled = core.RULES if rows == list(TRANSITIONS) else core.compile_table(rows)
    lens = Lens()
    machine = TableMachine(
        model=lens,
        states=[
            {"name": name, "on_enter": [_automatic(AUTOMATIC[name])]} if name in AUTOMATIC else name for name in STATES
        ],
        transitions=[
            {
                "trigger": row.trigger,
                "source": row.source,
                "dest": row.dest,
                "conditions": [_condition(getattr(core, name)) for name in row.conditions],
                "before": [_callback(getattr(core, name)) for name in row.callbacks],
            }
            for row in rows
        ],
        initial=INITIAL,
        auto_transitions=False,
        send_event=True,
    )
    machine.compiled = compiled
    machine.lens = lens
    return machine


MACHINE = build_machine()
"""The machine of the real rules."""
