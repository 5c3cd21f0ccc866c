"""Modules the window will need soon, imported off the GUI thread while a person looks at the first tab.

Importing pyqtgraph with numpy, or a tab's view with its core modules, takes a few hundred milliseconds
of Python: on the GUI thread that is a stall a person feels (the first plot, the first visit of a tab).
:func:`start` imports them one by one on a lane of their own (a
:class:`~philont_desktop.workers.Workers` task lane: the workers module owns every thread), once the
first tab is shown, one at a time; :func:`when_loaded` runs a callback on the GUI thread once a module is in (at once
when it already is, or when nothing is preloading it), so that a widget needing it is built after the
import instead of waiting for it on the GUI thread.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable, Iterable, Iterator

from philont_desktop.qt import QCoreApplication, QObject

PLOTS = "philont_desktop.widgets.plots"


def _import(name: str) -> str:
    importlib.import_module(name)
    return name


class Preloader(QObject):
    """Imports modules in the background, one at a time and in order; says on the GUI thread when each
    is in. :meth:`quiet` waits for the import running, and starts no other, while the GUI thread
    imports or builds a tab (an import on each thread at once is a race PySide can lose with a crash)."""

    HOLD_TIMEOUT_MS = 10_000

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        from philont_desktop.workers import Workers

        self.workers = Workers(None, parent=self)
        self.pending: list[str] = []  # asked for, not imported yet (in order)
        self._queue: list[str] = []  # to import, in order (the announced ones wait for their start)
        self._running: str | None = None  # being imported on the worker (one at a time)
        self._held = 0
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
                _import,
                name,
                on_result=self._loaded,
                on_error=lambda exc, n=name: self._loaded(n, exc),
                label=f"import {name}",
            )

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
