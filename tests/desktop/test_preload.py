"""The preloader: modules imported off the GUI thread, in order; announced modules wait for their start."""

from __future__ import annotations

import sys

import pytest

from philont_desktop.preload import Preloader
from philont_desktop.workers import spin_until


@pytest.fixture
def modules(tmp_path, monkeypatch):
    names = ["philont_preload_probe_a", "philont_preload_probe_b"]
    for name in names:
        (tmp_path / f"{name}.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield names
    for name in names:
        sys.modules.pop(name, None)


def test_announced_modules_wait_for_their_start_and_what_needs_them_waits_too(qapp, modules):
    pre = Preloader()
    try:
        pre.start(modules, now=False)
        assert all(pre.is_pending(n) for n in modules)
        called = []
        pre.when_loaded(modules[0], lambda: called.append(modules[0]))
        spin_until(lambda: False, 200)  # nothing is imported before the start
        assert called == [] and not any(n in sys.modules for n in modules)

        pre.start(modules)
        assert spin_until(lambda: not any(pre.is_pending(n) for n in modules), 10_000)
        assert called == [modules[0]] and all(n in sys.modules for n in modules)
        later = []
        pre.when_loaded(modules[1], lambda: later.append(1))  # imported: at once
        assert later == [1]
    finally:
        pre.shutdown()


def test_a_module_that_is_not_announced_runs_its_callback_at_once(qapp, modules):
    pre = Preloader()
    try:
        called = []
        pre.when_loaded(modules[0], lambda: called.append(1))
        assert called == [1] and not pre.is_pending(modules[0])
    finally:
        pre.shutdown()


def test_one_import_at_a_time_and_none_while_the_gui_thread_asks_for_quiet(qapp, modules):
    pre = Preloader()
    try:
        with pre.quiet():
            pre.start(modules)
            assert pre.busy and pre.is_pending(modules[0])
            assert pre.workers.pending("task") == 0  # held: nothing runs beside the body
        assert pre.workers.pending("task") == 1  # then one, the next once it is in
        with pre.quiet():  # waits for the one running: nothing is imported in the body
            assert modules[0] in sys.modules and modules[1] not in sys.modules
        assert spin_until(lambda: not pre.busy, 10_000)
        assert all(n in sys.modules for n in modules) and pre.pending == []
    finally:
        pre.shutdown()
