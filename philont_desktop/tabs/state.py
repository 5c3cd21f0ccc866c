"""``TabState``: what a tab shows, without Qt (after napari's headless models).

A tab's state holds its filters, its time, its selection and what is loaded; it knows nothing of
widgets, threads or Qt, so it can be built, changed and checked in a plain test. It announces each
change through plain callbacks: ``state.changed`` calls every listener with the set of field names
that changed in one :meth:`TabState.update`::

    @dataclass(eq=False)
    class NotesState(TabState):
        query: NotesQuery = NotesQuery()

    state = NotesState()
    state.changed.connect(lambda names: print(sorted(names)))
    state.update(query=NotesQuery(text="deploy"), selected=None)   # prints ['query', 'selected']

The controller writes the state (results of read ops, curation); the view listens and redraws, and
turns user input into controller calls. Subclasses are dataclasses (``eq=False``) whose fields have
defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from typing import Any


class Callbacks:
    """A Qt-free signal: ``connect(fn)``, ``disconnect(fn)``, ``emit(*args)`` (in connection order)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[..., Any]] = []

    def connect(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(fn):
            raise TypeError(f"not callable: {fn!r}")
        self._listeners.append(fn)
        return fn

    def disconnect(self, fn: Callable[..., Any]) -> None:
        self._listeners.remove(fn)

    def emit(self, *args: Any) -> None:
        for fn in list(self._listeners):
            fn(*args)

    def __len__(self) -> int:
        return len(self._listeners)


@dataclass(eq=False)
class TabState:
    """The part every tab shares: the selected row's key and whether rows are loading or all loaded."""

    selected: Hashable | None = None
    loading: bool = False
    loaded: int = 0  # rows loaded so far
    complete: bool = True  # no more rows to load
    changed: Callbacks = field(default_factory=Callbacks, repr=False, compare=False)

    def update(self, **values: Any) -> frozenset[str]:
        """Set fields; emit ``changed`` once with the names whose value changed (and return them)."""
        known = self.field_names()
        unknown = set(values) - known
        if unknown:
            raise AttributeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        names = frozenset(k for k, v in values.items() if not _same(getattr(self, k), v))
        for k in names:
            setattr(self, k, values[k])
        if names:
            self.changed.emit(names)
        return names

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return frozenset(f.name for f in fields(cls) if f.name != "changed")


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # a value whose comparison raises is a change
        return False
