"""The worker layer: results on the GUI thread, read-only thread-local connections, keyed cancellation,
progress, the single writer, and a clean shutdown."""

from __future__ import annotations

import threading
import time

import pytest

from core.db import MemoryDB
from core.errors import ReadOnlyError
from core.paths import backups_dir
from philont_desktop.qt import QCoreApplication, QThread
from philont_desktop.workers import JobCancelledError, Workers, spin_until
from tests.support import FIXED_NOW

# A read that would run for hours: a test that waits for it to end proves it was interrupted, with
# timeouts generous enough for a loaded machine and no assertion on elapsed time.
LONG_QUERY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000000000) SELECT count(*) FROM c"
PATIENCE_MS = 60_000


@pytest.fixture
def db_path(tmp_path):
    path = tmp_path / "memory" / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    return path


@pytest.fixture
def workers(qapp, db_path):
    w = Workers(db_path, readers=2)
    yield w
    w.shutdown(5000)


def test_result_arrives_on_the_gui_thread_from_a_read_only_connection(workers):
    seen = {}

    def probe(db):
        seen["worker_thread"] = threading.get_ident()
        return db.read_only, db.report.path

    def on_result(value):
        seen["gui"] = QThread.currentThread() is QCoreApplication.instance().thread()
        seen["value"] = value

    job = workers.run(probe, on_result=on_result)
    assert job.wait(5000)
    assert job.state == "finished"
    assert seen["gui"] is True
    assert seen["value"] == (True, str(workers.db_path))
    assert seen["worker_thread"] != threading.get_ident()


def test_each_reader_thread_keeps_its_own_connection(workers):
    ids = []
    for _ in range(12):
        workers.run(lambda db: (threading.get_ident(), id(db)), on_result=ids.append)
    assert workers.wait_idle(5000)
    by_thread: dict[int, set[int]] = {}
    for tid, dbid in ids:
        by_thread.setdefault(tid, set()).add(dbid)
    assert 1 <= len(by_thread) <= 2
    assert all(len(v) == 1 for v in by_thread.values())
    assert workers.reader_connections == len(by_thread)


def test_args_are_passed_after_the_database(workers):
    out = []
    workers.run(lambda db, a, b: (a, b), 1, "two", on_result=out.append).wait(5000)
    assert out == [(1, "two")]


def test_a_newer_job_with_the_same_key_cancels_the_older(workers):
    results = []

    def slow(db, n, job):
        for _ in range(200):
            if job.cancelled:
                return "stopped"
            time.sleep(0.005)
        return n

    jobs = [workers.run(slow, i, key="search", on_result=results.append) for i in range(4)]
    assert workers.wait_idle(10_000)
    assert [j.state for j in jobs] == ["cancelled", "cancelled", "cancelled", "finished"]
    assert results == [3]


def test_a_queued_job_that_is_cancelled_never_runs(qapp, db_path):
    w = Workers(db_path, readers=1)
    try:
        ran = []
        blocker = threading.Event()
        first = w.run(lambda db: blocker.wait(5))
        second = w.run(lambda db: ran.append(1), key="k")
        third = w.run(lambda db: "third", key="k")
        blocker.set()
        assert w.wait_idle(5000)
        assert first.state == "finished"
        assert second.state == "cancelled"
        assert third.state == "finished" and third.result == "third"
        assert ran == []
    finally:
        w.shutdown()


def test_a_cancel_that_lands_before_the_statement_starts_still_stops_it(workers):
    # sqlite3_interrupt() only stops a statement that is running: this cancel arrives while the job
    # holds its connection but has not started its query yet.
    started = threading.Event()

    def slow_start(db):
        started.set()
        time.sleep(0.3)
        return db.conn.execute(LONG_QUERY).fetchone()[0]

    job = workers.run(slow_start, on_error=lambda exc: None)
    assert spin_until(started.is_set, PATIENCE_MS)
    job.cancel()
    assert workers.wait_idle(PATIENCE_MS)
    assert job.state == "cancelled"


def test_a_running_query_is_interrupted_when_superseded(workers):
    errors = []
    long_job = workers.run(
        lambda db: db.conn.execute(LONG_QUERY).fetchone()[0], key="q", on_error=errors.append
    )
    assert spin_until(lambda: long_job.state == "running", PATIENCE_MS)
    quick = workers.run(lambda db: 42, key="q")
    assert workers.wait_idle(PATIENCE_MS)
    assert long_job.state == "cancelled"
    assert quick.result == 42
    assert errors == []  # a cancelled job reports nothing


def test_progress_is_reported_and_the_last_value_kept(workers, qtbot):
    seen = []

    def work(db, job):
        for i in range(5):
            job.progress(i + 1, 5)
            time.sleep(0.06)
        return "done"

    job = workers.run(work, on_progress=lambda d, t: seen.append((d, t)), progress=True)
    assert job.wait(5000)
    assert seen[-1] == (5, 5)
    assert job.last_progress == (5, 5)


def test_progress_jobs_are_announced(workers, qtbot):
    with qtbot.waitSignal(workers.jobStarted, timeout=1000) as blocker:
        job = workers.run(lambda db: 1, progress=True, label="Counting")
    assert blocker.args == [job]
    job.wait(5000)


def test_errors_go_to_on_error_or_to_unhandled(workers, qtbot):
    got = []
    job = workers.run(lambda db: 1 / 0, on_error=got.append)
    job.wait(5000)
    assert job.state == "failed"
    assert isinstance(got[0], ZeroDivisionError)
    with qtbot.waitSignal(workers.unhandledError, timeout=5000) as blocker:
        workers.run(lambda db: {}["missing"])
    assert isinstance(blocker.args[1], KeyError)


def test_job_cancelled_error_counts_as_cancelled(workers):
    def work(db, job):
        job.cancel()
        job.raise_if_cancelled()

    job = workers.run(work, on_result=lambda v: pytest.fail("no result expected"))
    job.wait(5000)
    assert job.state == "cancelled"


def test_job_cancelled_error_is_an_exception():
    assert issubclass(JobCancelledError, Exception)


def test_writing_needs_the_writer(workers):
    errors = []
    job = workers.write(lambda db: 1, on_error=errors.append)
    job.wait(5000)
    assert job.state == "failed"
    assert isinstance(errors[0], ReadOnlyError)
    assert str(errors[0]) == "Editing mode is off: turn it on to change the database."


def test_open_writer_takes_a_backup_first_then_writes(workers, db_path):
    backups = []
    job = workers.open_writer(on_result=backups.append)
    assert job.wait(10_000), job
    assert job.state == "finished", job.error
    assert workers.writer_open
    backup = backups[0]
    assert backup is not None and backup.parent == backups_dir(db_path)
    assert backup.exists()
    out = []
    w = workers.write(lambda db: (db.read_only, threading.get_ident()), on_result=out.append)
    w.wait(5000)
    assert out[0][0] is False
    closed = workers.close_writer()
    closed.wait(5000)
    assert not workers.writer_open


def test_writes_run_one_after_the_other_on_one_thread(workers):
    assert workers.open_writer().wait(10_000)
    threads = []
    for _ in range(6):
        workers.write(lambda db: threads.append(threading.get_ident()))
    assert workers.wait_idle(5000)
    assert len(set(threads)) == 1


def test_task_lane_runs_without_a_database(qapp):
    w = Workers(None)
    try:
        out = []
        w.task(lambda a: a * 2, 21, on_result=out.append).wait(5000)
        assert out == [42]
        with pytest.raises(RuntimeError):
            w.run(lambda db: 1)
    finally:
        w.shutdown()


def test_the_background_lane_runs_without_a_database_at_a_lower_priority(qapp):
    import os
    import sys

    from philont_desktop.ops import ReadOp
    from philont_desktop.workers import BACKGROUND_NICE

    def niceness(a):
        return a, os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    w = Workers(None)
    try:
        mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        out, plain = [], []
        w.submit(ReadOp(niceness, (7,), lane="background"), on_result=out.append).wait(5000)
        w.task(niceness, 8, on_result=plain.append).wait(5000)
        assert out[0][0] == 7 and plain[0] == (8, mine)  # the task lane keeps the process's priority
        if sys.platform.startswith("linux"):
            assert out[0][1] >= max(mine, BACKGROUND_NICE)
    finally:
        w.shutdown()


def test_shutdown_closes_every_connection_and_refuses_new_jobs(qapp, db_path):
    w = Workers(db_path, readers=2)
    dbs = []
    for _ in range(4):
        w.run(lambda db: dbs.append(db))
    assert w.wait_idle(5000)
    assert w.open_writer().wait(10_000)
    writer = w._writer
    assert w.shutdown(PATIENCE_MS) is True
    assert all(db._closed for db in dbs)
    assert writer is not None and writer._closed
    late = w.run(lambda db: 1)
    assert late.state == "cancelled"


def test_shutdown_interrupts_a_long_read(qapp, db_path):
    w = Workers(db_path, readers=1)
    job = w.run(lambda db: db.conn.execute(LONG_QUERY).fetchone()[0])
    assert spin_until(lambda: job.state == "running", PATIENCE_MS)
    assert w.shutdown(PATIENCE_MS) is True


def test_finished_jobs_and_their_results_are_freed(workers):
    import gc
    import weakref

    refs = []
    for i in range(10):
        job = workers.run(lambda db: [0] * 10_000, key=f"k{i % 3}", on_result=lambda v: None)
        refs.append(weakref.ref(job))
    assert workers.wait_idle(5000)
    del job
    QCoreApplication.processEvents()
    gc.collect()
    assert [r() for r in refs] == [None] * 10


def test_a_task_can_make_its_own_connection_interruptible(qapp, db_path):
    w = Workers(db_path)
    try:

        def long_task(path, job):
            db = MemoryDB.open(path, check=False)
            try:
                with job.interruptible(db):
                    return db.conn.execute(LONG_QUERY).fetchone()[0]
            finally:
                db.close()

        job = w.task(long_task, db_path, on_error=lambda exc: None)
        assert spin_until(lambda: job.state == "running", PATIENCE_MS)
        spin_until(lambda: False, 100)
        job.cancel()
        assert job.wait(PATIENCE_MS)
        assert job.state == "cancelled"
    finally:
        w.shutdown()


def test_loaded_code_is_frozen_until_a_database_closes_then_given_back_until_the_next_is_in(monkeypatch):
    import gc
    import weakref

    from philont_desktop import interpreter as interpreter

    monkeypatch.setattr(interpreter, "_tuned", True)  # as the application sets it
    monkeypatch.setattr(interpreter, "_settling", True)
    try:
        interpreter.settle_loaded_code()
        assert gc.get_freeze_count() > 0
        interpreter.stop_settling()  # a database closes: what was frozen is collectable again
        assert gc.get_freeze_count() == 0
        interpreter.settle_loaded_code()  # and nothing is frozen any more
        assert gc.get_freeze_count() == 0

        class Node:
            pass

        left = Node()
        left.cycle = left  # garbage only the collector frees, as a closed database leaves
        gone = weakref.ref(left)
        del left
        interpreter.resume_settling()  # the next database's tabs are built
        assert gone() is None  # collected before anything is frozen again
        assert interpreter._settling and gc.get_freeze_count() > 0
        interpreter.resume_settling()  # settling already: nothing more
    finally:
        gc.unfreeze()


def test_read_jobs_run_with_the_collector_paused_and_their_results_frozen(monkeypatch, db_path, qapp):
    import gc

    from philont_desktop import interpreter as interpreter

    class Row:  # a tracked object of the result
        pass

    monkeypatch.setattr(interpreter, "_tuned", True)  # as the application sets it
    monkeypatch.setattr(interpreter, "_settling", True)
    monkeypatch.setattr(interpreter.gui_collector, "timer", None)  # collection where Python runs it
    gc.enable()
    w = Workers(db_path, readers=2)
    try:
        both_running = threading.Barrier(2, timeout=5)

        def read(db, wait):
            if wait:
                both_running.wait()
                time.sleep(0.05)  # the other read ends first: the collector stays paused for this one
            return gc.isenabled(), [Row() for _ in range(3)]

        first, second = w.run(read, True), w.run(read, False)
        third = w.run(read, True)
        assert w.wait_idle(PATIENCE_MS)
        assert [j.result[0] for j in (first, second, third)] == [False, False, False]
        assert gc.isenabled()  # on again once no read runs
        assert gc.get_freeze_count() > 0  # the results are out of the collector's walks
        assert not any(r in gc.get_objects() for r in first.result[1] + third.result[1])

        write = w.task(lambda: gc.isenabled())  # other lanes: the collector runs as usual
        assert write.wait(PATIENCE_MS) and write.result is True
        long_read = w.run(lambda db: gc.isenabled(), progress=True)  # an export: may take minutes
        assert long_read.wait(PATIENCE_MS) and long_read.result is True

        failed = w.run(lambda db: 1 / 0, on_error=lambda exc: None)
        assert failed.wait(PATIENCE_MS) and failed.state == "failed"
        assert gc.isenabled()  # also after a read that raised

        interpreter.stop_settling()  # a database closes: reads no longer pause it
        after = w.run(lambda db: gc.isenabled())
        assert after.wait(PATIENCE_MS) and after.result is True
    finally:
        w.shutdown()
        gc.enable()
        gc.unfreeze()


def test_cycles_are_collected_on_the_gui_thread_only(db_path, qapp):
    import gc

    from philont_desktop.app import _make_app
    from philont_desktop.interpreter import gui_collector

    _make_app("philont-desktop")  # as the application starts (the tests' QApplication is reused)
    assert gui_collector.installed and not gc.isenabled()
    threads: list[str] = []

    def seen(phase, _info):
        if phase == "start":
            threads.append(threading.current_thread().name)

    def churn():  # a worker making cyclic garbage, as a result being built makes objects
        for _ in range(50_000):
            node: list = []
            node.append(node)

    gc.callbacks.append(seen)
    try:
        worker = threading.Thread(target=churn, name="churn")
        worker.start()
        worker.join()
        assert threads == []  # the worker passed every threshold and collected nothing
        assert spin_until(lambda: bool(threads), 3 * gui_collector.INTERVAL_MS)  # the GUI thread's timer
    finally:
        gc.callbacks.remove(seen)
    assert set(threads) == {threading.main_thread().name}


def test_the_gui_thread_collects_nothing_while_a_read_job_runs(monkeypatch, db_path, qapp):
    import gc

    from philont_desktop import interpreter

    monkeypatch.setattr(interpreter, "_tuned", True)  # as the application sets it
    monkeypatch.setattr(interpreter, "_settling", True)
    w = Workers(db_path, readers=1)
    started, release = threading.Event(), threading.Event()

    def read(db):
        started.set()
        release.wait(5)
        return gc.isenabled()

    try:
        for _ in range(2000):
            node: list = []
            node.append(node)  # over the first threshold
        job = w.run(read)
        assert started.wait(5)
        assert interpreter.gui_collector.check() == 0 and gc.get_count()[0] > gc.get_threshold()[0]
        release.set()
        assert job.wait(PATIENCE_MS) and job.result is False  # no collection in the read's thread either
        assert interpreter.reads_collector.running == 0
    finally:
        release.set()
        w.shutdown()
        gc.unfreeze()


class _Finished:
    """Stands for a finished job handed to the courier."""

    is_done = False

    def __init__(self, name):
        self.name = name


def test_results_arriving_together_are_delivered_one_per_turn(qapp):
    from philont_desktop.jobs import courier
    from philont_desktop.qt import QObject

    delivered: list[str] = []

    class Receiver(QObject):  # stands for a Workers: the courier hands it each finished job
        def _on_delivered(self, job):
            delivered.append(job.name)

    receiver = Receiver()
    c = courier()
    assert spin_until(lambda: not c._pacer.isActive(), 2000)  # nothing delivered in this turn yet
    c.arrive(receiver, _Finished("first"))  # a lone result: at once
    c.arrive(receiver, _Finished("second"))  # another in the same turn: the next turn
    c.arrive(receiver, _Finished("third"))
    assert delivered == ["first"]
    QCoreApplication.processEvents()
    assert len(delivered) <= 2
    assert spin_until(lambda: delivered == ["first", "second", "third"], 2000)


def test_timers_due_during_a_delivery_fire_before_the_next_delivery(qapp):
    from philont_desktop.jobs import courier
    from philont_desktop.qt import QObject, Qt, QTimer

    order: list[str] = []

    class Receiver(QObject):
        def _on_delivered(self, job):
            order.append(job.name)
            if job.name == "first":
                time.sleep(0.02)  # a long handler: the timer below comes due meanwhile

    receiver = Receiver()
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setSingleShot(True)
    timer.setInterval(1)
    timer.timeout.connect(lambda: order.append("timer"))
    c = courier()
    assert spin_until(lambda: not c._pacer.isActive(), 2000)
    timer.start()
    c.arrive(receiver, _Finished("first"))  # delivered at once, for 20 ms
    c.arrive(receiver, _Finished("second"))  # waits for a later turn
    assert spin_until(lambda: len(order) == 3, 2000)
    assert order == ["first", "timer", "second"]
