"""The Privacy page's calls into the core, as the workers run them (Qt-free): the scan, the context of a
finding, the allow-list, the purge's plan and the purge. ``db`` is the worker's connection (a read-only
one for reads, the writer for the purge); ``job`` reports progress and says when it was cancelled."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.privacy.context import FindingContext, finding_context
from core.privacy.finding import PrivacyFinding

__all__ = ["FindingContext", "allow", "context", "plan", "purge_file", "scan"]


def scan(db: Any, include_backups: bool, job: Any) -> Any:
    """The scan of the open database (and its backups), with the job's progress and cancellation."""
    from core.privacy.scan import scan as run

    return run(db, include_backups=include_backups, progress=job.progress, cancelled=lambda: job.cancelled)


def context(db: Any, finding: PrivacyFinding, others: Sequence[PrivacyFinding]) -> FindingContext | None:
    return finding_context(db, finding, others)


def allow(db_path: Path, ids: Sequence[str]) -> list[str]:
    """Put these findings on the person's allow-list (kept outside the database); returns their ids."""
    from core.privacy.allow import AllowList

    AllowList().allow(db_path, ids=list(ids))
    return list(ids)


def plan(db: Any, findings: Sequence[PrivacyFinding], mode: str) -> Any:
    """What a purge of ``findings`` would rewrite, read without writing: every file, the backups that hold
    the same text included (a value purged from the database only would live on in them)."""
    from core.privacy.purge import plan as make

    return make(db.path, list(findings), mode=mode, include_backups=True)


def purge_file(db_path: Path, purge_plan: Any, job: Any) -> Any:
    """The purge itself (not undoable), on the task lane: no connection of the app is open then."""
    from core.privacy.purge import purge as run

    return run(db_path, purge_plan, progress=job.progress)
