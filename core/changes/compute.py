"""Computing a change set: against a time, against a backup, or between two backups.

* :func:`changes_since` reads one database (the caller's connection, read-only is enough): every layer's
  rows dated inside ``(since, until]``, the audit trail of that window and the decay model. A week of a
  million-message database takes well under a second (see ``bench/run.py``).
* :func:`changes_against` compares a backup with the live database (or with a second backup) row by row
  by primary key (:mod:`core.changes.rowdiff`), streaming with ``progress(done, total)`` and a
  ``cancel()`` check between chunks, on a connection of its own inside one read transaction (a
  consistent snapshot while the agent writes). Backups are attached read-only with ``immutable=1``, so
  nothing is created beside them; a backup with a ``-wal`` beside it is read as SQLite would read it,
  ``-wal`` included, through a private copy that is deleted after. The live database is opened
  read-only. A backup SQLite cannot read, or that has none of the memory tables, is an error naming it
  (``changes.backup_unreadable``, ``changes.backup_not_memory``); two files that share no rows get the
  notice ``change.notice.unrelated``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
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
from core.errors import MemoryError_, ValidationError_
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


def _uri(path: Path, *, immutable: bool = True) -> str:
    """A backup is a closed file: ``immutable=1`` opens no ``-wal``/``-shm`` beside it. A backup with a
    ``-wal`` is read through a private copy (:func:`_readable`), opened read-only without ``immutable``
    so that SQLite applies the copied ``-wal``."""
    return f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")


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


def _has_wal(path: Path) -> bool:
    try:
        return os.path.getsize(str(path) + "-wal") > 0
    except OSError:
        return False


@contextlib.contextmanager
def _readable(path: Path) -> Iterator[tuple[Path, bool]]:
    """``(file to open, immutable)`` for the backup at ``path``, read as SQLite would read it.

    Without a ``-wal`` beside it the backup itself is opened with ``immutable=1`` (nothing is created
    beside it). With one, the rows committed in the ``-wal`` are part of the backup: the file and its
    ``-wal`` are copied into a private temporary folder (never the ``-shm``, which SQLite rebuilds),
    the copy is opened read-only so that SQLite applies the ``-wal``, and the folder is deleted after.
    """
    _check_backup(path)
    if not _has_wal(path):
        yield path, True
        return
    tmp = Path(tempfile.mkdtemp(prefix="philont-compare-"))
    try:
        copy = tmp / "backup.sqlite"
        try:
            shutil.copyfile(path, copy)
            shutil.copyfile(str(path) + "-wal", str(copy) + "-wal")
        except OSError as exc:
            raise _unreadable(path, exc) from exc
        yield copy, False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _unreadable(path: Path, exc: BaseException) -> MemoryError_:
    """A backup SQLite cannot read (damaged, or not a database at all), named."""
    return MemoryError_(
        f"The backup {path} cannot be read: {exc}. Nothing was compared.",
        code="changes.backup_unreadable",
        params={"path": str(path), "error": str(exc)},
    )


def _not_memory(path: Path) -> MemoryError_:
    return MemoryError_(
        f"The backup {path} is not a memory database (it has none of the memory tables). "
        "Nothing was compared.",
        code="changes.backup_not_memory",
        params={"path": str(path)},
    )


def _check_memory(db: MemoryDB, schema: str, path: Path) -> None:
    """Raise unless the schema ``schema`` of ``db`` has at least one of the core tables."""
    from core.schema import CORE_TABLES

    try:
        with db.lock:
            rows = db.conn.execute(f"SELECT name FROM {schema}.sqlite_master WHERE type='table'").fetchall()
    except sqlite3.DatabaseError as exc:
        raise _unreadable(path, exc) from exc
    if not {r[0] for r in rows} & set(CORE_TABLES):
        raise _not_memory(path)


def _blame(db: MemoryDB, exc: sqlite3.DatabaseError, backups: list[tuple[str, Path]]) -> None:
    """Raise an error naming the backup that fails ``quick_check`` when reading failed with ``exc``
    (else return: the error was not the backup's)."""
    for schema, path in backups:
        try:
            with db.lock:
                row = db.conn.execute(f"PRAGMA {schema}.quick_check(1)").fetchone()
            sound = row is not None and row[0] == "ok"
        except sqlite3.DatabaseError:
            sound = False
        if not sound:
            raise _unreadable(path, exc) from exc


def _open_snapshot(path: Path, immutable: bool, shown: Path) -> MemoryDB:
    """A read-only connection to a backup (``immutable=1`` when it is the file itself)."""
    extra = {"immutable": "1"} if immutable else {}
    try:
        conn = connect_file(path, mode="ro", timeout_s=5.0, **extra)
        conn.execute("PRAGMA query_only=1")
    except sqlite3.DatabaseError as exc:
        raise _unreadable(shown, exc) from exc
    db = MemoryDB(conn, shown, OpenReport(path=str(shown), read_only=True))
    try:
        _check_memory(db, "main", shown)
    except BaseException:
        db.close()
        raise
    return db


@contextlib.contextmanager
def _comparison(after_path: Path, after_is_backup: bool, before_path: Path) -> Iterator[MemoryDB]:
    """A connection on the after side with the baseline attached as ``b``, in one read transaction."""
    with contextlib.ExitStack() as stack:
        before, before_immutable = stack.enter_context(_readable(before_path))
        if after_is_backup:
            after, after_immutable = stack.enter_context(_readable(after_path))
            db = _open_snapshot(after, after_immutable, after_path)
        else:
            db = MemoryDB.open(after_path, check=False)
        stack.callback(db.close)
        try:
            with db.lock:
                db.conn.execute("ATTACH DATABASE ? AS b", (_uri(before, immutable=before_immutable),))
        except sqlite3.DatabaseError as exc:
            raise _unreadable(before_path, exc) from exc
        _check_memory(db, "b", before_path)
        with db.lock:
            db.conn.execute("BEGIN")
        try:
            yield db
        except sqlite3.DatabaseError as exc:
            _blame(db, exc, [("b", before_path)] + ([("main", after_path)] if after_is_backup else []))
            raise
        finally:
            with db.lock, contextlib.suppress(sqlite3.Error):
                db.conn.execute("COMMIT")
                db.conn.execute("DETACH DATABASE b")


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
        _overlap(ctx, str(before_path), str(other or after_path))
        items = _against(ctx, names, progress, chunk_rows)
    return _finish(ChangeSet(baseline, until, names, notices=ctx.notices), items)


#: The tables whose keys are random ids (UUIDs): two files share keys there only when one descends from
#: the other. The logs' integer ids (messages, actions) count from 1 in every file and say nothing.
_KEYED_BY_UUID = (FACTS, SKILLS, NOTES, EVENTS, SCHEDULES)


def _overlap(ctx: Ctx, baseline: str, other: str) -> None:
    """A notice when the two files share no rows (or hardly any) although both have rows: most likely
    memories of different agents, and every row then shows as a change."""
    assert ctx.before is not None
    after_n = before_n = shared = 0
    for t in _KEYED_BY_UUID:
        ctx.check()
        if not (ctx.after.has_table(t) and ctx.before.has_table(t)):
            continue
        if "id" not in ctx.after.columns(t) or "id" not in ctx.before.columns(t):
            continue
        a, b = ctx.after.t(t), ctx.before.t(t)
        row = ctx.after.one(
            f"SELECT (SELECT count(*) FROM {a}), (SELECT count(*) FROM {b}), "
            f"(SELECT count(*) FROM {a} AS x WHERE EXISTS (SELECT 1 FROM {b} AS y WHERE y.id = x.id))"
        )
        after_n, before_n, shared = after_n + row[0], before_n + row[1], shared + row[2]
    smaller = min(after_n, before_n)
    if smaller > 0 and (shared == 0 or (smaller >= 100 and shared * 100 < smaller)):
        add_notice(
            ctx.notices,
            "change.notice.unrelated",
            baseline=baseline,
            other=other,
            shared=shared,
            baseline_rows=before_n,
            other_rows=after_n,
        )


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
