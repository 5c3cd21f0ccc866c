"""Computing a change set: against a time, against a backup, or between two backups.

* :func:`changes_since` reads one database (the caller's connection, read-only is enough): every layer's
  rows dated inside ``(since, until]``, the audit trail of that window and the decay model. A week of a
  million-message database takes well under a second (see ``bench/run.py``).
* :func:`changes_against` compares a backup with the live database (or with a second backup) row by row
  by primary key (:mod:`core.changes.rowdiff`), streaming with ``progress(done, total)`` and a
  ``cancel()`` check between chunks, on a connection of its own inside one read transaction (a
  consistent snapshot while the agent writes). Backups are attached read-only with ``immutable=1``, so
  nothing is created beside them; the live database is opened read-only.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from core.changes import activity, calendar, facts, notes, skills
from core.changes.context import (
    ACTIONS,
    EVENTS,
    FACTS,
    MESSAGES,
    NOTES,
    SCHEDULES,
    SKILLS,
    AuditIndex,
    Cancelled,
    Ctx,
    Reader,
)
from core.changes.model import LAYERS, Baseline, ChangeItem, ChangeSet, add_notice, merge
from core.changes.rowdiff import CHUNK_ROWS, RowDiffer, TableDiff
from core.db import MemoryDB, OpenReport, check_file_header, connect_file
from core.decay import DEFAULT_FORGET_THRESHOLD
from core.engine import sqlite3
from core.errors import ValidationError_
from core.jsutil import now_ms

__all__ = ["backup_time", "changes_against", "changes_since", "check_layers"]

ProgressFn = Callable[[int, int], Any]
CancelFn = Callable[[], bool]

_SINCE: dict[str, Callable[[Ctx], list[ChangeItem]]] = {
    "facts": facts.facts_since,
    "skills": skills.skills_since,
    "notes": notes.notes_since,
    "timeline": activity.timeline_since,
    "actions": activity.actions_since,
    "calendar": calendar.calendar_since,
    "schedules": calendar.schedules_since,
}
_TABLE = {
    "facts": FACTS,
    "skills": SKILLS,
    "notes": NOTES,
    "timeline": MESSAGES,
    "actions": ACTIONS,
    "calendar": EVENTS,
    "schedules": SCHEDULES,
}


def check_layers(layers: Iterable[str] | None) -> tuple[str, ...]:
    """The layers asked for, in :data:`LAYERS` order (all of them for ``None``)."""
    if layers is None:
        return LAYERS
    wanted = list(layers)
    unknown = [x for x in wanted if x not in LAYERS]
    if unknown:
        raise ValidationError_(
            f"Unknown layer {unknown[0]!r} (one of {', '.join(LAYERS)}).",
            code="changes.layer_unknown",
            params={"layer": unknown[0], "layers": list(LAYERS)},
        )
    return tuple(x for x in LAYERS if x in wanted)


def _finish(cs: ChangeSet, items: list[ChangeItem]) -> ChangeSet:
    cs.items = merge(items)
    cs.sort()
    return cs


# -- time baseline ---------------------------------------------------------------------------------------------


def changes_since(
    db: MemoryDB,
    since: int,
    *,
    until: int | None = None,
    layers: Iterable[str] | None = None,
    threshold: float = DEFAULT_FORGET_THRESHOLD,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> ChangeSet:
    """The changes of ``db`` dated in ``(since, until]`` (``until`` defaults to now)."""
    names = check_layers(layers)
    t1 = now_ms() if until is None else int(until)
    reader = Reader(db)
    ctx = Ctx(after=reader, since=int(since), until=t1, mode="time", threshold=threshold, cancel=cancel)
    ctx.audit = AuditIndex.load(reader, ctx.since, t1)
    items: list[ChangeItem] = []
    for i, name in enumerate(names):
        ctx.check()
        items += _SINCE[name](ctx)
        if progress is not None:
            progress(i + 1, len(names))
    add_notice(ctx.notices, "change.notice.time_blind")
    return _finish(ChangeSet(Baseline("time", since=int(since)), t1, names, notices=ctx.notices), items)


# -- backups ---------------------------------------------------------------------------------------------------


def backup_time(path: str | os.PathLike[str]) -> tuple[int | None, bool]:
    """``(epoch ms, from_name)``: the time in a reference backup name (UTC), else the file's mtime."""
    from core.backups import backup_created_at

    p = Path(path)
    t = backup_created_at(p.name)
    if t is not None:
        return t, True
    try:
        return int(p.stat().st_mtime * 1000), False
    except OSError:
        return None, False


def _uri(path: Path) -> str:
    """A backup is a closed file: ``immutable=1`` opens no ``-wal``/``-shm`` beside it (files already
    there are not part of the backup and are ignored)."""
    return f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"


def _check_backup(path: Path) -> None:
    """A regular file with an SQLite header (a FIFO, a directory or a device is never opened)."""
    from core.backups import file_kind

    check_file_header(path, name_backup=False)
    kind = file_kind(path)
    if kind != "file":
        raise ValidationError_(
            f"{path} is a {kind}, not a backup file; it was not opened.",
            code="backup.not_regular",
            params={"path": str(path), "kind": kind},
        )


def _open_snapshot(path: Path) -> MemoryDB:
    """A read-only connection to a backup that creates no file beside it (``immutable=1``)."""
    _check_backup(path)
    conn = connect_file(path, mode="ro", immutable="1", timeout_s=5.0)
    conn.execute("PRAGMA query_only=1")
    return MemoryDB(conn, path, OpenReport(path=str(path), read_only=True))


@contextlib.contextmanager
def _comparison(after_path: Path, after_is_backup: bool, before_path: Path) -> Iterator[MemoryDB]:
    """A connection on the after side with the baseline attached as ``b``, in one read transaction."""
    _check_backup(before_path)
    db = _open_snapshot(after_path) if after_is_backup else MemoryDB.open(after_path, check=False)
    try:
        with db.lock:
            db.conn.execute("ATTACH DATABASE ? AS b", (_uri(before_path),))
            db.conn.execute("BEGIN")
        try:
            yield db
        finally:
            with db.lock, contextlib.suppress(sqlite3.Error):
                db.conn.execute("COMMIT")
                db.conn.execute("DETACH DATABASE b")
    finally:
        db.close()


def changes_against(
    backup: str | os.PathLike[str],
    *,
    db_path: str | os.PathLike[str] | None = None,
    other: str | os.PathLike[str] | None = None,
    layers: Iterable[str] | None = None,
    now: int | None = None,
    threshold: float = DEFAULT_FORGET_THRESHOLD,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    chunk_rows: int = CHUNK_ROWS,
) -> ChangeSet:
    """The changes from ``backup`` to the database at ``db_path`` (now), or to the backup ``other``."""
    if (db_path is None) == (other is None):
        raise ValidationError_(
            "Compare a backup with the database or with another backup, not both or neither.",
            code="changes.compare_what",
        )
    names = check_layers(layers)
    before_path = Path(backup).expanduser()
    since, named = backup_time(before_path)
    notices: list[Any] = []
    if not named:
        add_notice(notices, "change.notice.backup_time", path=str(before_path))
    if other is not None:
        after_path = Path(other).expanduser()
        until, named2 = backup_time(after_path)
        if not named2:
            add_notice(notices, "change.notice.backup_time", path=str(after_path))
        until = now_ms() if until is None else until
        baseline = Baseline("backups", since, str(before_path), str(after_path), until)
    else:
        after_path = Path(db_path).expanduser()  # type: ignore[arg-type]
        until = now_ms() if now is None else int(now)
        baseline = Baseline("backup", since, str(before_path))
    if since is not None and since > until:
        add_notice(
            notices, "change.notice.reversed", baseline=str(before_path), other=str(other or after_path)
        )
    with _comparison(after_path, other is not None, before_path) as db:
        ctx = Ctx(
            after=Reader(db), since=since, until=until, mode="backup", threshold=threshold, cancel=cancel
        )
        ctx.before, ctx.notices = Reader(db, "b"), notices
        ctx.audit = AuditIndex.load(ctx.after, since, until)
        items = _against(ctx, names, progress, chunk_rows)
    return _finish(ChangeSet(baseline, until, names, notices=ctx.notices), items)


def _against(
    ctx: Ctx, names: Sequence[str], progress: ProgressFn | None, chunk_rows: int
) -> list[ChangeItem]:
    assert ctx.before is not None
    differ = RowDiffer(ctx.after, ctx.before, progress=progress, check=ctx.check, chunk_rows=chunk_rows)
    differ.estimate([_TABLE[n] for n in names])
    items: list[ChangeItem] = []
    for name in names:
        ctx.check()
        items += _layer_against(ctx, differ, name)
    differ.done = differ.total
    differ._report()
    return items


def _layer_against(ctx: Ctx, differ: RowDiffer, name: str) -> list[ChangeItem]:
    table = _TABLE[name]
    if name == "timeline":
        tally = activity.ConversationTally()
        d = differ.compare(table, aggregate=activity.message_aggregate(ctx, tally))
        _table_notices(ctx, d)
        return tally.items() + activity.altered(ctx, "timeline", d)
    if name == "actions":
        atally = activity.ActionTally()
        d = differ.compare(table, aggregate=activity.action_aggregate(atally))
        _table_notices(ctx, d)
        return activity.actions_against(ctx, atally, d)
    d = differ.compare(table)
    _table_notices(ctx, d)
    finder: dict[str, Callable[[Ctx, TableDiff], list[ChangeItem]]] = {
        "facts": facts.facts_against,
        "skills": skills.skills_against,
        "notes": notes.notes_against,
        "calendar": calendar.calendar_against,
        "schedules": calendar.schedules_against,
    }
    return finder[name](ctx, d)


def _table_notices(ctx: Ctx, d: TableDiff) -> None:
    if d.missing:
        add_notice(ctx.notices, "change.notice.table_missing", table=d.table, side=d.missing)
    extra = d.only_after + d.only_before
    if extra:
        add_notice(ctx.notices, "change.notice.columns", table=d.table, columns=extra)


__all__ += ["Cancelled"]
