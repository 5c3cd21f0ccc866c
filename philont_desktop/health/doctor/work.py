"""What the doctor page runs in the workers (no Qt): the checks, the last report kept beside the file,
a fix's preview and the change that carries it out.

The checks and the reading of the last report pause the cyclic garbage collector while they run, as
read jobs do (:class:`philont_desktop.interpreter.ReadsCollector`): the collector runs on the GUI
thread, and walked what they build as they built it (818 findings on the 1M-message file: collections of
7-10 ms and 15-27 ms in one turn of the GUI thread while the Health tab was first shown). Measured there,
the checks take about a second and leave 5 objects in cycles, frozen with the rest (a few hundred bytes a
check): far from the minutes for which a paused collector would let garbage grow.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from core.health import fixes
from core.health.checks import run_checks
from core.health.finding import Finding, Fix
from core.health.sidedata import HealthSideData
from philont_desktop.interpreter import reads_collector

if TYPE_CHECKING:
    from core.curation import Change
    from core.db import MemoryDB

__all__ = ["check", "dismiss", "fix_change", "fix_preview", "load_last"]


def check(
    db: MemoryDB,
    db_path: str | os.PathLike[str],
    after_s: float = 0.0,
    now: int | None = None,
    job: Any = None,
) -> Any:
    """Run every check; leave out what a person said are not duplicates; keep the result beside the file.
    Returns ``(computed at, findings)``. ``after_s``: wait this long first, the interpreter left to the GUI
    thread (the last result it has just been given is painted without sharing it with the checks)."""
    if after_s > 0:
        time.sleep(after_s)

    def progress(_layer: str, done: int, total: int) -> None:
        if job is not None:
            job.progress(done, total)

    with reads_collector.job():  # the collector waits: see the module's docstring
        report = run_checks(db, now_ms=now, progress=progress)
        side = HealthSideData()
        findings = fixes.drop_dismissed(report.findings, side.dismissed(db_path))
        side.save_last(db_path, report.now_ms, findings)
    return report.now_ms, findings


def load_last(db_path: str | os.PathLike[str], after_s: float = 0.0) -> tuple[int | None, list[Finding], int]:
    """The last report kept for the file: ``(computed at, findings, findings left out)``. ``after_s``:
    wait this long first, the interpreter left to the GUI thread (the page's first show and paint)."""
    if after_s > 0:
        time.sleep(after_s)
    with reads_collector.job():  # the collector waits: see the module's docstring
        return HealthSideData().last(db_path)


def dismiss(db_path: str | os.PathLike[str], ids: list[str]) -> None:
    """Never offer to merge the rows ``ids`` again (and drop them from the report kept)."""
    side = HealthSideData()
    groups = side.dismiss(db_path, ids)
    at, findings, _more = side.last(db_path)
    if at is not None:
        side.save_last(db_path, at, fixes.drop_dismissed(findings, groups))


def fix_preview(db: MemoryDB, fix: Fix, finding: Finding | None, choice: Any) -> Any:
    """``(rows to pick from, values the fix will change)``."""
    options = fixes.choices(db, fix, finding=finding)
    if choice is None and options and fixes.needs_choice(fix) == "survivor":
        choice = fix.params.get("survivor") or options[0][0]
    return options, fixes.preview(db, fix, finding=finding, choice=choice)


def fix_change(db: MemoryDB, fix: Fix, finding: Finding | None, choice: Any) -> Change:
    return fixes.change_for(db, fix, finding=finding, choice=choice)
