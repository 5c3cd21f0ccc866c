"""The application's interpreter settings, for a GUI thread that must not wait for the others.

Python runs one thread at a time. The workers (:mod:`philont_desktop.workers`) run beside the GUI
thread, and whatever they do with the interpreter, the GUI thread waits for: how long a worker may keep
it (the switch interval) and the cyclic garbage collector's walks, which hold it for as long as they take
whichever thread set them off. Set in the application only (:func:`favour_the_gui_thread`), never in a
test process, whose switch interval stays Python's. Where cycles are collected (:class:`GuiThreadCollector`:
on the GUI thread only) is the same in both, for safety, not speed.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Iterator
from typing import Any

SWITCH_INTERVAL_S = 0.0001  # how long a worker may keep the interpreter while the GUI thread waits

_tuned = False  # the application's interpreter settings are on (not in a test process)


def favour_the_gui_thread() -> None:
    """Hand the interpreter to a waiting thread after a tenth of a millisecond instead of Python's 5 ms.

    Every call from Qt into Python (a paint, a model's ``data()``, a slot) and every return from a Qt
    call that lets the interpreter go must take Python's lock back. While a worker runs Python (a
    background import, a result being shaped) the GUI thread waits up to the switch interval for it,
    each time: a few hundred such calls at 5 ms each make a stall a person feels. At 0.5 ms the
    scripted session's longest stall was still 61-143 ms under load (median 104 over six sessions,
    the GUI thread's own CPU unchanged), at 0.1 ms 45-81 ms (median 65), measured alternately
    (bench/README.md). A worker pays only while the GUI thread wants the lock too (a switch costs
    microseconds); alone, it keeps the interpreter as before.
    """
    global _tuned
    _tuned = True
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def settle_loaded_code() -> None:
    """Keep what is alive now (the modules, classes and functions imported so far) out of the cyclic
    garbage collector's walks (``gc.freeze()``), in the application only.

    A full collection walks every tracked object while it holds the interpreter, whichever thread set
    it off: after the window's and a tab's imports that is ~100,000 objects and 60-180 ms during which
    the GUI thread cannot run Python. Imported code lives as long as the process, so walking it again
    finds nothing; frozen, a collection walks only the objects made since. Called when a burst of
    imports has ended (a database is being opened, it is shown, the preloaded modules are in).

    Not between a database's close (:func:`stop_settling`) and :func:`resume_settling`: what a closed
    database leaves behind is garbage, some of it in cycles only the collector frees; frozen, it would
    never be freed.
    """
    if _tuned and _settling:
        gc.freeze()


_settling = True


def stop_settling() -> None:
    """A database is being closed: what was frozen goes back to the collector (the closed database's
    objects frozen with the code would otherwise never be freed) and nothing is frozen until
    :func:`resume_settling`."""
    global _settling
    if _tuned and _settling:
        gc.unfreeze()
    _settling = False


def resume_settling() -> None:
    """After a close, once the next database's tabs are built (the closed one's objects are gone by
    then): one full collection frees what it left in cycles, then everything alive is frozen again and
    read jobs pause the collector again. Without this, every full collection after a close walked the
    whole process again (~400,000 objects, 60-290 ms each) for as long as it ran."""
    global _settling
    if _tuned and not _settling:
        gc.collect()
        _settling = True
        gc.freeze()


class GuiThreadCollector:
    """The cyclic garbage collector, run on the GUI thread only.

    Python collects cycles in whichever thread allocates when a threshold is passed: a worker building a
    result then frees the Qt objects in the cycles it finds (a closed tab's widgets, a model and its
    signals), and Qt objects destroyed on a thread that does not own them crash the process (a test run
    here segfaulted in a worker thread "Garbage-collecting" during a read). Installed, automatic
    collection is off and a timer on the GUI thread collects what the thresholds call for, generation by
    generation, as automatic collection would (pyqtgraph's ``GarbageCollector`` does the same, for the
    same reason). It waits while read jobs run (:class:`ReadsCollector`). In the application
    (:func:`philont_desktop.app._make_app`) and in the test process (``tests/conftest.py``).
    """

    #: A collection walks the objects made since the last one: every second, after a worker had built a
    #: result, that was 12-28 ms of the GUI thread on the 1M-message file; every tenth of a second, at
    #: most 12 ms, most under 5 (bench/README.md). The check itself is a counter read.
    INTERVAL_MS = 100

    def __init__(self) -> None:
        self.timer: Any = None

    @property
    def installed(self) -> bool:
        return self.timer is not None

    def install(self, app: Any) -> None:
        """Turn automatic collection off and collect on ``app``'s thread every :attr:`INTERVAL_MS`."""
        from philont_desktop.qt import QTimer

        if self.timer is not None:
            return
        gc.disable()
        self.timer = QTimer(app)
        self.timer.setInterval(self.INTERVAL_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> int:
        """Collect what the thresholds call for now (none while a read job runs); the objects freed."""
        if self.timer is None or reads_collector.running:
            return 0
        gc.disable()  # whoever turned it back on (a test), collection stays on this thread
        t0, t1, t2 = gc.get_threshold()
        c0, c1, c2 = gc.get_count()
        freed = 0
        if c0 > t0:
            freed = gc.collect(0)
            if c1 > t1:
                freed += gc.collect(1)
                if c2 > t2:
                    freed += gc.collect(2)
        return freed


class ReadsCollector:
    """While read jobs run, the cyclic garbage collector waits; what they made is frozen when the last ends.

    A read job that builds a large result (the facts, the list of conversations, 10,000-50,000 objects
    on a 1M-message file) sets off full collections as it allocates: each walks every tracked object
    of the process (~400,000 with a big database's tabs loaded) while it holds the interpreter, 20-200
    ms during which the GUI thread cannot run a line of Python, although the job runs on another
    thread. With the collector paused for the job and its result frozen with everything alive when it
    ends (as :func:`settle_loaded_code` does for imported code), no collection walks it, then or later:
    the result lives until the tab replaces it, freed by its reference counts like any acyclic data.

    Only while settling (the application; not from a database's close until :func:`resume_settling`).
    Reads without a progress bar only: a write, or a read shown with progress (an export, a
    comparison), may run for minutes, too long to pause the collector. A job known to be short pauses
    it itself (the doctor's checks, :mod:`philont_desktop.health.doctor.work`).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0

    @contextlib.contextmanager
    def job(self) -> Iterator[None]:
        if not (_tuned and _settling):
            yield
            return
        owned = gui_collector.installed  # then collection is off already and waits for the reads
        with self._lock:
            self._running += 1
            if self._running == 1 and not owned:
                gc.disable()
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                if self._running == 0:
                    if _settling:
                        gc.freeze()
                    if not owned:
                        gc.enable()

    @property
    def running(self) -> int:
        return self._running


reads_collector = ReadsCollector()
gui_collector = GuiThreadCollector()
