"""Modules the window will need soon, imported while a person looks at the first tab.

Importing pyqtgraph with numpy, or a tab's view with its core modules, takes a few hundred milliseconds
of Python: on the GUI thread that is a stall a person feels (the first plot, the first visit of a tab).
:func:`start` imports them one by one, once the first tab is shown: what a module needs from ``core`` and
from other libraries on a lane of their own (a :class:`~philont_desktop.workers.Workers` task lane: the
workers module owns every thread), then the application's own modules it needs on the GUI thread, one
per event-loop turn (:mod:`philont_desktop.import_plan`: creating PySide classes on a worker while the
GUI thread runs its event loop can crash it; pyqtgraph is the one library that does so and is still
imported on the worker, being too long for a turn); :func:`when_loaded` runs a callback on the GUI thread once a module is in (at once
when it already is, or when nothing is preloading it), so that a widget needing it is built after the
import instead of waiting for it on the GUI thread.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable, Iterable, Iterator

from philont_desktop.qt import QCoreApplication, QObject, QTimer

PLOTS = "philont_desktop.widgets.plots"


def _prepare(name: str) -> list[str]:
    """On the worker: import what ``name`` needs from ``core`` and other libraries; return the
    application's modules for the GUI thread, in order (``[name]`` when it is not one of ours)."""
    from philont_desktop import import_plan

    worker, app = import_plan.plan([name])
    import_plan.import_core(worker)
    if name.split(".")[0] != import_plan.APP:  # a library: imported here, as a whole
        importlib.import_module(name)
        return []
    return app


class Preloader(QObject):
    """Imports modules one at a time and in order (what they need from ``core`` and libraries in the
    background, the application's own modules on the GUI thread a turn each); says on the GUI thread
    when each is in. :meth:`quiet` waits for the background import running, and starts no other, while
    the GUI thread imports or builds a tab (both compete for the interpreter)."""

    HOLD_TIMEOUT_MS = 10_000

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        from philont_desktop.workers import Workers

        self.workers = Workers(None, parent=self)
        self.pending: list[str] = []  # asked for, not imported yet (in order)
        self._queue: list[str] = []  # to import, in order (the announced ones wait for their start)
        self._running: str | None = None  # being imported on the worker (one at a time)
        self._held = 0
        self._stopped = False
        self.failed: dict[str, str] = {}
        self._waiting: dict[str, list[Callable[[], object]]] = {}

    def start(self, modules: Iterable[str], *, now: bool = True) -> None:
        """Import ``modules`` in this order; ``now=False`` only announces them (they are pending, and
        :meth:`when_loaded` waits for them) until a later ``start`` of the same modules."""
        for name in modules:
            if name in sys.modules or name == self._running or name in self._queue:
                continue
            if name not in self.pending:
                self.pending.append(name)
            if now:
                self._queue.append(name)
        self._next()

    @property
    def busy(self) -> bool:
        """An import runs or waits to run."""
        return self._running is not None or bool(self._queue)

    def is_pending(self, name: str) -> bool:
        return name in self.pending

    def when_loaded(self, name: str, fn: Callable[[], object]) -> None:
        if name in self.pending:
            self._waiting.setdefault(name, []).append(fn)
        else:
            fn()

    @contextlib.contextmanager
    def quiet(self) -> Iterator[None]:
        """No import runs in the background during the body: the one running is waited for (blocking,
        at most HOLD_TIMEOUT_MS), the next ones start after it."""
        self._held += 1
        try:
            if self._running is not None:
                self.workers.wait_lane("task", self.HOLD_TIMEOUT_MS)
            yield
        finally:
            self._held -= 1
            self._next()

    def _next(self) -> None:
        while self._running is None and self._queue and not self._held:
            name = self._queue.pop(0)
            if name in sys.modules:  # imported meanwhile (on the GUI thread)
                self._loaded(name)
                continue
            self._running = name
            self.workers.task(
                _prepare,
                name,
                on_result=lambda app, n=name: self._import_in_turns(n, list(app)),
                on_error=lambda exc, n=name: self._loaded(n, exc),
                label=f"import {name}",
            )

    def _import_in_turns(self, name: str, modules: list[str]) -> None:
        """On the GUI thread: import ``modules`` one per event-loop turn, then ``name`` is in."""
        while modules and modules[0] in sys.modules:
            modules.pop(0)
        if self._stopped or not modules:
            self._loaded(name)
            return
        try:
            importlib.import_module(modules.pop(0))
        except Exception as exc:
            self._loaded(name, exc)
            return
        QTimer.singleShot(0, lambda: self._import_in_turns(name, modules))

    def _loaded(self, name: str, exc: BaseException | None = None) -> None:
        if self._running == name:
            self._running = None
        if name in self.pending:
            self.pending.remove(name)
        if exc is not None:  # imported again on the GUI thread when needed, which shows the error
            self.failed[name] = f"{type(exc).__name__}: {exc}"
        from philont_desktop.interpreter import settle_loaded_code

        settle_loaded_code()  # the module's code is in for good
        for fn in self._waiting.pop(name, []):
            fn()
        self._next()

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self._stopped = True
        self._queue.clear()
        self.workers.shutdown(timeout_ms)


_preloader: Preloader | None = None


def preloader() -> Preloader:
    """The application's preloader (made on first use, owned by the application object)."""
    global _preloader
    if _preloader is None:
        _preloader = Preloader(QCoreApplication.instance())
    return _preloader


def start(modules: Iterable[str], *, now: bool = True) -> None:
    """Import ``modules`` in the background, in this order (those already imported are skipped);
    ``now=False``: announced only, imported at a later ``start`` (see :meth:`Preloader.start`)."""
    preloader().start(modules, now=now)


def when_loaded(name: str, fn: Callable[[], object]) -> None:
    """``fn()`` on the GUI thread once ``name`` is imported (now, when it is not being preloaded)."""
    if _preloader is None:
        fn()
    else:
        _preloader.when_loaded(name, fn)


def is_pending(name: str) -> bool:
    return _preloader is not None and _preloader.is_pending(name)


def busy() -> bool:
    """A module is being imported in the background, or waits to be."""
    return _preloader is not None and _preloader.busy


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """No background import runs during the body (see :meth:`Preloader.quiet`)."""
    if _preloader is None:
        yield
    else:
        with _preloader.quiet():
            yield
