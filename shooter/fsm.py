"""A lean runner for a state machine declared as a ``transitions`` table.

The table (states with their ``on_enter`` / ``on_exit`` callbacks, transitions with
``trigger``, ``source``, ``dest``, ``conditions``, ``unless``, ``before``, ``after``)
is written exactly as for ``transitions.Machine``, which still draws it
(``GraphMachine``) and against which ``tests/test_fsm.py`` checks this runner.
What it runs is the subset the shooter needs, with the same meaning as a
``transitions.Machine(queued=True, auto_transitions=False)``:

- a trigger is a method on the model; the transitions declared for the current
  state are tried in order and the first whose conditions hold is taken:
  ``before`` callbacks, then (unless ``dest`` is None, an internal transition)
  the source's ``on_exit``, the new state, the destination's ``on_enter``, then ``after``;
- a trigger pulled while another is running is queued and runs when it is done;
- a trigger not declared for the current state raises :class:`MachineError`,
  unless it is one of ``ignore_elsewhere`` (reports from the hardware that only
  mean something in some states): then it does nothing;
- keyword arguments given to a trigger are passed to its conditions and callbacks
  (``machine.trigger("play_card", card="5")``), as transitions passes event data;
- a trigger whose name the model already uses (a method of its own) is not bound
  on the model, as transitions skips it; pull it with :meth:`TableMachine.trigger`.
- ``model_attribute`` names the model's attribute that holds the state (``state``).

Why not ``transitions.Machine`` itself: it costs about 10 µs a trigger (event
objects, partials, debug logging on every step), more than a whole bare gpiozero
button-to-motor press; this costs about 1 µs. Callbacks are looked up by name once, and each declared transition
keeps, per source state, the callbacks it runs in order (``before`` and ``on_exit``; ``on_enter`` and ``after``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from transitions import MachineError

__all__ = ["TableMachine", "MachineError"]


def __getattr__(name: str) -> Any:
    """``MachineError`` is transitions' own (the tests hold this runner to ``transitions.Machine``), loaded
    when first asked for: a start-up that refuses no trigger never loads transitions and its logging."""
    if name == "MachineError":
        from transitions import MachineError
        return MachineError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

Callback = Callable[..., Any]


def _names(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


# One declared transition from one source state, its callbacks in the order they run:
# (dest, conditions, leaving, arriving), where
#   conditions: ((condition, the value it must return), ...)
#   leaving:    ``before``, then (dest not None) the source's ``on_exit``
#   arriving:   (dest not None) the destination's ``on_enter``, then ``after``
# A plain tuple, not a NamedTuple: the runner unpacks one on every pull, and only an exact tuple
# unpacks without the iterator protocol.
_Edge = tuple[str | None, tuple[tuple[Callback, bool], ...], tuple[Callback, ...], tuple[Callback, ...]]


class TableMachine:
    """Runs ``transitions`` on ``model`` (whose ``state`` attribute holds the state's name)."""

    def __init__(self, model: Any, *, states: list[dict[str, Any]], transitions: list[dict[str, Any]],
                 initial: str, ignore_elsewhere: Iterable[str] = (), model_attribute: str = "state"):
        self.model = model
        self._attribute = model_attribute
        names = [s["name"] for s in states]

        def bound(value: str | Iterable[str] | None) -> tuple[Callback, ...]:
            return tuple(getattr(model, name) for name in _names(value))

        self._enter = {s["name"]: bound(s.get("on_enter")) for s in states}
        exits = {s["name"]: bound(s.get("on_exit")) for s in states}
        # trigger -> source state -> its transitions, in order (two lookups by name: a tuple key would
        # be hashed anew on every pull)
        self._edges: dict[str, dict[str, list[_Edge]]] = {}
        for t in transitions:
            sources = names if t["source"] == "*" else _names(t["source"])
            dest = t.get("dest")
            if dest is not None and dest not in names:
                raise ValueError(f"{t['trigger']}: unknown state {dest!r}")
            conditions = tuple([(getattr(model, c), True) for c in _names(t.get("conditions"))]
                               + [(getattr(model, c), False) for c in _names(t.get("unless"))])
            before, after = bound(t.get("before")), bound(t.get("after"))
            for source in sources:
                if source not in names:
                    raise ValueError(f"{t['trigger']}: unknown state {source!r}")
                edge: _Edge = ((dest, conditions, before, after) if dest is None
                               else (dest, conditions, before + exits[source], self._enter[dest] + after))
                self._edges.setdefault(t["trigger"], {}).setdefault(source, []).append(edge)
        self._ignored = frozenset(ignore_elsewhere)
        self._queue: deque[tuple[str, dict[str, Any]]] = deque()   # triggers pulled while one runs
        self._running = False
        for trigger in self._edges:
            if not hasattr(model, trigger):
                setattr(model, trigger, self._puller(trigger))
        setattr(model, model_attribute, initial)

    def may(self, trigger: str, state: str) -> bool:
        """Whether ``trigger`` is declared for ``state`` (its conditions not asked)."""
        return state in self._edges.get(trigger, ())

    def set_state(self, name: str) -> None:
        """Put the model in state ``name`` without running any callback (tests, restoring)."""
        if name not in self._enter:
            raise ValueError(f"unknown state {name!r}")
        setattr(self.model, self._attribute, name)

    def _puller(self, trigger: str) -> Callable[..., bool]:
        pull = partial(self.trigger, trigger)   # (a partial: no frame of its own per pull)
        pull.__name__ = pull.__qualname__ = trigger  # type: ignore[attr-defined]
        pull.__doc__ = f"Pull the {trigger!r} trigger (see the transitions table)."
        return pull

    def trigger(self, name: str, **kwargs: Any) -> bool:
        """Run ``name`` now, or after the trigger that is running. Always True, like a queued
        ``transitions.Machine``."""
        if self._running:
            self._queue.append((name, kwargs))
            return True
        self._running = True
        model, attribute, queue, table = self.model, self._attribute, self._queue, self._edges
        try:
            while True:  # this trigger, then each one its callbacks pulled, in order (one frame for all)
                source = getattr(model, attribute)
                by_source = table.get(name)
                edges = None if by_source is None else by_source.get(source)
                if edges is None:
                    if name not in self._ignored:
                        from transitions import MachineError
                        raise MachineError(f"Can't trigger event {name} from state {source}!")
                    edges = []
                for dest, conditions, leaving, arriving in edges:  # the first whose conditions hold
                    for condition, wanted in conditions:
                        if condition(**kwargs) != wanted:
                            break
                    else:
                        for callback in leaving:
                            callback(**kwargs)
                        if dest is not None:
                            setattr(model, attribute, dest)
                        for callback in arriving:
                            callback(**kwargs)
                        break
                if not queue:
                    return True
                name, kwargs = queue.popleft()
        except BaseException:
            queue.clear()  # what was queued behind a failed trigger is dropped, as transitions does
            raise
        finally:
            self._running = False
