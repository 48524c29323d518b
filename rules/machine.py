"""The phases of a game as a ``transitions`` state machine, built from the one transition table.

:data:`MACHINE` is :data:`rules.table.TRANSITIONS` handed to ``transitions``: its
states are the table's states, every row a transition whose conditions and ``before``
callbacks are the functions of :mod:`rules.core` the row names, called on the game's
:class:`rules.core.State` with the event's data. The machine's state *is* that state's
phase (:attr:`GameModel.state` reads and writes it), so there is nothing to keep in step.
Conditions change nothing, so the library's ``may_<trigger>`` questions are safe to ask.
A transient state fires its automatic trigger on entry, within the same event.

>>> from rules.events import ChooseTrump
>>> model = GameModel(RuleSet(players=2))
>>> MACHINE.add_model(model)
>>> model.state, model.core.to_act
('trump_choice', 1)
>>> model.may_choose_trump(1), model.state, model.core.trumps   # a question: nothing changes
(True, 'trump_choice', (-1, -1))
>>> model.trigger("choose_trump", 1), model.state, model.core.trumps, model.core.to_act
(True, 'trump_choice', (-1, 1), 0)
>>> MACHINE.remove_model(model)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from transitions import EventData, Machine

from rules import core
from rules.options import RuleSet
from rules.table import AUTOMATIC, INITIAL, STATES, TRANSITIONS, Row


class GameModel:
    """One game's data, driven by a machine: the core state and what everybody knows of the hands."""

    trigger: Callable[..., bool]  # added by transitions: fires a trigger by name

    def __init__(self, rules: RuleSet) -> None:
        self.core = core.State.setup(rules.players, rules.first_seat, rules.must_beat, rules.pass_sixes)
        self.known = [0] * rules.players  # per seat, the cards everybody knows it holds
        self.out_of_play = 0  # cards absent from a game started from a position

    @property
    def state(self) -> str:
        """The machine's state: the name of the core state's phase."""
        return core.PHASE_NAMES[self.core.phase]

    @state.setter
    def state(self, name: str) -> None:
        self.core.phase = core.PHASE_NUMBERS[name]


def _data(event_data: EventData) -> tuple[core.State, Any]:
    """The game's core state and the event's data, as the table's functions take them."""
    model: GameModel = event_data.model  # type: ignore[assignment]
    args = tuple(event_data.args)
    return model.core, args[0] if args else None


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
        model: GameModel = event_data.model  # type: ignore[assignment]
        model.trigger(trigger)

    return fire


class TableMachine(Machine):
    """A machine together with its table compiled for search (:attr:`compiled`), which answers what is legal."""

    compiled: core.Compiled


def build_machine(rows: Iterable[Row] = TRANSITIONS) -> TableMachine:
    """The machine of a transition table (with no model attached): the real one, or a variant for tests."""
    rows = list(rows)
    compiled = core.RULES if rows == list(TRANSITIONS) else core.compile_table(rows)
    machine = TableMachine(
        model=None,
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
    return machine


MACHINE = build_machine()
"""The one machine every :class:`GameModel` of the real rules is attached to."""
