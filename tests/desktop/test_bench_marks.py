"""bench/bench_facts.py's paint marks: they time a window's repaint and keep nothing they looked at."""

from __future__ import annotations

import gc
import importlib.util
import sys
import weakref
from pathlib import Path

import pytest

from philont_desktop.qt import QWidget

BENCH_FACTS = Path(__file__).resolve().parents[2] / "bench" / "bench_facts.py"


@pytest.fixture(scope="module")
def bench_facts():
    spec = importlib.util.spec_from_file_location("bench_facts_under_test", BENCH_FACTS)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


class Ready:
    """What a mark waits for (an object, so that a test can tell whether it is still alive)."""

    def __init__(self) -> None:
        self.on = False

    def __call__(self) -> bool:
        return self.on


def test_a_paint_mark_times_the_first_repaint_after_ready_and_keeps_nothing_alive(qtbot, bench_facts):
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(200, 100)
    window.show()
    qtbot.waitExposed(window)
    ready = Ready()
    mark = bench_facts.PaintMark(window, ready)
    window.update()
    qtbot.wait(50)
    assert mark.at is None  # repainted, but not ready yet
    ready.on = True
    window.update()
    qtbot.waitUntil(lambda m=mark: m.at is not None)
    # a measured load's tab (what ``ready`` looks at) must not outlive the load: every later full
    # garbage collection would walk it
    alive = weakref.ref(ready)
    del mark, ready
    gc.collect()
    assert alive() is None
