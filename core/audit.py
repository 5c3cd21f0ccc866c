"""The audit trail of manual edits: this project's own table ``philont_desktop_audit``.

Every change a person makes in the desktop app is recorded in the database it changes, in the same
transaction as the change, so the trail travels with the file and its backups. The reference agent
ignores tables it does not know.

A row says who (``actor``), when (``at``, epoch ms), what (``action``, e.g. ``notes.update``), on
which row (``target_type``, ``target_id``) and the state before and after (JSON). Undoing or redoing
an edit adds a row of its own whose ``action`` is ``undo`` or ``redo`` and whose ``undone_of`` is the
id of the original edit; rows are never updated or deleted.

Reading never creates the table: a database that has never been edited here simply has no trail.
"""

from __future__ import annotations

import difflib
import getpass
import json
import os
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from core import schema
from core.damage import RowReader
from core.jsutil import js_stringify, now_ms

if TYPE_CHECKING:
    from core.db import MemoryDB
    from core.engine import Connection

AUDIT_TABLE = schema.AUDIT_TABLE
UNDO = "undo"
REDO = "redo"
APP_SUFFIX = "@philont-desktop"

_COLUMNS = (
    "a.id, a.at, a.actor, a.action, a.target_type, a.target_id, a.before_json, a.after_json, "
    "a.undone_of, a.note"
)


class AuditEntry(BaseModel):
    """One row of the audit trail, with its JSON parsed leniently.

    ``undone`` is filled for original edits when read through :func:`list_entries` / :func:`get_entry`:
    ``True`` while the latest ``undo``/``redo`` row that refers to it is an ``undo``.
    ``original_action`` is the action of the edit an ``undo``/``redo`` row refers to.
    """

    id: int
    at: int
    actor: str
    action: str
    target_type: str
    target_id: str
    before_json: str | None = None
    after_json: str | None = None
    before: Any = None
    after: Any = None
    undone_of: int | None = None
    note: str | None = None
    undone: bool = False
    original_action: str | None = None
    json_errors: list[str] = Field(default_factory=list)
    #: Values that could not be read as their column promises (:mod:`core.damage`).
    damaged: dict[str, Any] = Field(default_factory=dict, exclude=True)

    @property
    def audit_id(self) -> int:
        return self.id

    @property
    def is_undo(self) -> bool:
        return self.action == UNDO and self.undone_of is not None

    @property
    def is_redo(self) -> bool:
        return self.action == REDO and self.undone_of is not None

    @property
    def is_original(self) -> bool:
        return not (self.is_undo or self.is_redo)

    @property
    def original_id(self) -> int:
        """The id of the edit this row is about (itself for an original edit)."""
        return self.undone_of if not self.is_original and self.undone_of is not None else self.id

    @property
    def target(self) -> str:
        return f"{self.target_type}:{self.target_id}"

    def changed_fields(self) -> list[str]:
        return changed_fields(self.before, self.after)

    def diff(self) -> list[str]:
        return diff_lines(self.before, self.after)

    @classmethod
    def from_row(cls, row: Any) -> AuditEntry:
        r = RowReader(row)
        before_text, before, e1 = r.json("before_json", null_ok=True)
        after_text, after, e2 = r.json("after_json", null_ok=True)
        last = r.text("last_toggle", null_ok=True)
        undone_of = r.raw("undone_of")
        entry = cls.model_construct(
            id=int(row["id"]),
            at=r.time("at", required=True),
            actor=r.text("actor"),
            action=r.text("action"),
            target_type=r.text("target_type"),
            target_id=r.text("target_id"),
            before_json=before_text,
            after_json=after_text,
            before=before,
            after=after,
            undone_of=undone_of if type(undone_of) is int else None,
            note=r.text("note", null_ok=True),
            undone=last == UNDO,
            original_action=r.text("original_action", null_ok=True),
            json_errors=[e for e in (e1, e2) if e],
        )
        object.__setattr__(entry, "damaged", r.damaged)
        return entry


def default_actor() -> str:
    """``<OS user name>@philont-desktop``."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = os.environ.get("USER") or os.environ.get("USERNAME") or "user"
    return f"{user}{APP_SUFFIX}"


def audit_table_exists(conn: Connection) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (AUDIT_TABLE,)).fetchone()
    return row is not None


def ensure_audit_table(conn: Connection) -> None:
    """Create the table inside the caller's write transaction when it is missing."""
    if not audit_table_exists(conn):
        schema.create_audit_table(conn)


def _dump(value: Any) -> str | None:
    return None if value is None else js_stringify(value)


def record(
    conn: Connection,
    *,
    actor: str,
    action: str,
    target_type: str,
    target_id: str | int,
    before: Any,
    after: Any,
    undone_of: int | None = None,
    note: str | None = None,
    now: int | None = None,
) -> AuditEntry:
    """Append one row inside the caller's write transaction and return it."""
    ensure_audit_table(conn)
    at = now_ms() if now is None else int(now)
    cur = conn.execute(
        f"INSERT INTO {AUDIT_TABLE} (at, actor, action, target_type, target_id, before_json, after_json, "
        "undone_of, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (at, actor, action, target_type, str(target_id), _dump(before), _dump(after), undone_of, note),
    )
    assert cur.lastrowid is not None  # an INSERT sets it
    entry = fetch_entry(conn, cur.lastrowid)
    assert entry is not None
    return entry


def _select(where: str = "", order_limit: str = "") -> str:
    return (
        f"SELECT {_COLUMNS}, "
        f"(SELECT b.action FROM {AUDIT_TABLE} b WHERE b.undone_of = a.id "
        f" AND b.action IN ('{UNDO}', '{REDO}') ORDER BY b.id DESC LIMIT 1) AS last_toggle, "
        f"o.action AS original_action "
        f"FROM {AUDIT_TABLE} a LEFT JOIN {AUDIT_TABLE} o ON o.id = a.undone_of "
        f"{where} {order_limit}"
    )


def fetch_entry(conn: Connection, audit_id: int) -> AuditEntry | None:
    """One entry by id through a connection (inside a transaction, or any read)."""
    if not audit_table_exists(conn):
        return None
    row = conn.execute(_select("WHERE a.id = ?"), (int(audit_id),)).fetchone()
    return AuditEntry.from_row(row) if row is not None else None


def get_entry(db: MemoryDB, audit_id: int) -> AuditEntry | None:
    """One entry by id; ``None`` when there is no such entry (or no audit table)."""
    with db.lock:
        return fetch_entry(db.conn, audit_id)


def list_entries(
    db: MemoryDB,
    limit: int = 100,
    before_id: int | None = None,
    target_type: str | None = None,
    target_id: str | int | None = None,
    after_id: int | None = None,
) -> list[AuditEntry]:
    """Entries newest first (keyset pagination by id: ``before_id`` for older pages, ``after_id`` for
    what was added since). ``[]`` when the database has no audit table."""
    where: list[str] = []
    args: list[Any] = []
    if before_id is not None:
        where.append("a.id < ?")
        args.append(int(before_id))
    if after_id is not None:
        where.append("a.id > ?")
        args.append(int(after_id))
    if target_type is not None:
        where.append("a.target_type = ?")
        args.append(target_type)
    if target_id is not None:
        where.append("a.target_id = ?")
        args.append(str(target_id))
    sql = _select(("WHERE " + " AND ".join(where)) if where else "", "ORDER BY a.id DESC LIMIT ?")
    args.append(max(0, int(limit)))
    with db.lock:
        if not audit_table_exists(db.conn):
            return []
        rows = db.conn.execute(sql, args).fetchall()
    return [AuditEntry.from_row(r) for r in rows]


def count_entries(db: MemoryDB, target_type: str | None = None) -> int:
    """How many entries there are (of ``target_type``); 0 when the database has no audit table. The
    trail holds a person's manual edits: small enough to count."""
    where, args = ("WHERE target_type = ?", [target_type]) if target_type is not None else ("", [])
    with db.lock:
        if not audit_table_exists(db.conn):
            return 0
        return int(db.conn.execute(f"SELECT count(*) FROM {AUDIT_TABLE} {where}", args).fetchone()[0])


def entries_between(db: MemoryDB, since: int | None, until: int | None) -> list[AuditEntry]:
    """Entries with ``since < at <= until`` (either bound may be ``None``), oldest first; ``[]``
    when the database has no audit table."""
    where: list[str] = []
    args: list[Any] = []
    if since is not None:
        where.append("a.at > ?")
        args.append(int(since))
    if until is not None:
        where.append("a.at <= ?")
        args.append(int(until))
    sql = _select(("WHERE " + " AND ".join(where)) if where else "", "ORDER BY a.id")
    with db.lock:
        if not audit_table_exists(db.conn):
            return []
        rows = db.conn.execute(sql, args).fetchall()
    return [AuditEntry.from_row(r) for r in rows]


def target_types(db: MemoryDB) -> list[str]:
    """The distinct target types present in the trail (for filters)."""
    with db.lock:
        if not audit_table_exists(db.conn):
            return []
        rows = db.conn.execute(f"SELECT DISTINCT target_type FROM {AUDIT_TABLE} ORDER BY 1").fetchall()
    return [r[0] for r in rows]


def is_undone(conn: Connection, audit_id: int) -> bool:
    """Whether the original edit ``audit_id`` is currently undone."""
    row = conn.execute(
        f"SELECT action FROM {AUDIT_TABLE} WHERE undone_of = ? AND action IN ('{UNDO}', '{REDO}') "
        "ORDER BY id DESC LIMIT 1",
        (int(audit_id),),
    ).fetchone()
    return row is not None and row[0] == UNDO


# -- presenting a change (used by the Audit view; Qt-free) --------------------------------------------


def _pretty(value: Any) -> list[str]:
    if value is None:
        return []
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str).splitlines()


def changed_fields(before: Any, after: Any) -> list[str]:
    """Top-level keys whose value differs (both dicts), or ``[]`` when they are not dicts."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    keys = list(before) + [k for k in after if k not in before]
    return [k for k in keys if before.get(k) != after.get(k)]


def summarize(before: Any, after: Any) -> str:
    """A one-line description of a change: ``created``, ``deleted``, ``content, importance``."""
    if before is None and after is not None:
        return "created"
    if after is None and before is not None:
        return "deleted"
    fields = changed_fields(before, after)
    if fields:
        return ", ".join(fields)
    return "no change" if before == after else "changed"


def diff_lines(before: Any, after: Any) -> list[str]:
    """A unified diff of the pretty-printed JSON of ``before`` and ``after`` (no file headers)."""
    lines = list(difflib.unified_diff(_pretty(before), _pretty(after), lineterm="", n=3))
    return [ln for ln in lines if not ln.startswith(("---", "+++"))]
