"""Undo and redo of row edits: one engine for every layer whose audit rows hold table rows.

A layer describes its rows once, as a :class:`RowKind` (the table, how an audit entry lists the rows
it changed, how a row is read and put back, what is never compared, and the layer's own refusals), and
registers it for its actions with :func:`register`. Undo and redo then run the same steps for every
layer: each row moves from the state the edit left (``src``) to the state it had (``dst``), or back,
and only while it still holds ``src`` in every column that is compared, so a step never overwrites a
change made since (by the agent or by another edit). Otherwise the layer's
:class:`~core.errors.ConflictError` is raised and the whole step is rolled back.

The moves of one row:

* ``src`` is ``None`` (the row did not exist): :meth:`RowKind.create` puts ``dst`` back; refused when a
  row with its id exists again.
* ``dst`` is ``None`` (the row must go): refused when the row is gone or any compared column differs
  from ``src``; else the row is deleted.
* both are rows: the columns that differ between ``src`` and ``dst`` (:meth:`RowKind.moved`) must
  still hold ``src``'s values; then they are set to ``dst``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AuditEntry
from core.errors import ConflictError

if TYPE_CHECKING:
    from core.engine import Connection

__all__ = ["REDOING", "UNDOING", "RowKind", "apply", "changed_params", "register", "step_of"]

Row = Mapping[str, Any]
#: how a step names itself in the layers' messages
UNDOING = "Undoing it"
REDOING = "Redoing it"


def listed_pairs(entry: AuditEntry) -> list[tuple[Any, Any]]:
    """The (before, after) row states of an entry that lists its rows (``{"rows": [...]}`` on both
    sides, in the same order): a bulk edit, a merge, a repaired chain. ``audit.unreadable`` when not."""
    before, after = entry.before, entry.after
    rows_b = before.get("rows") if isinstance(before, dict) else None
    rows_a = after.get("rows") if isinstance(after, dict) else None
    if not isinstance(rows_b, list) or not isinstance(rows_a, list) or len(rows_b) != len(rows_a):
        raise ConflictError(
            f"Audit entry #{entry.id} does not list its rows; it cannot be undone.",
            code="audit.unreadable",
            params={"audit_id": entry.id},
        )
    return list(zip(rows_b, rows_a, strict=True))


def step_of(what: str) -> str:
    """``"undo"`` or ``"redo"``: the ``step`` parameter of a refusal whose message says ``what``."""
    return "undo" if what.startswith("Undo") else "redo"


def changed_params(cur: Row, fields: list[str], what: str) -> dict[str, Any]:
    """What a refusal "the row changed since the edit" says besides the row: the columns, their values
    now and the step."""
    return {
        "fields": fields,
        "values": [{"field": f, "now": cur.get(f)} for f in fields],
        "step": step_of(what),
    }


class RowKind:
    """How the rows of one layer are read, compared and put back (override what is the layer's own).

    ``ignored`` (or :meth:`skipped`, per table) are columns the agent moves on its own: never compared,
    never put back (``rowid`` and, for updates, ``id`` are never put back either). ``keeps_rowid``: a
    re-created row takes its old ``rowid`` again when that is still free, and a row with columns the
    table no longer has is refused (:meth:`columns_lost`) instead of failing in SQLite.
    """

    ignored: frozenset[str] = frozenset()
    keeps_rowid: bool = False

    # -- reading the audit entry and the table ---------------------------------------------------------

    def table(self, entry: AuditEntry) -> str:
        raise NotImplementedError

    def pairs(self, entry: AuditEntry) -> list[tuple[Any, Any]]:
        """The ``(before, after)`` states of the rows the edit changed, in the order it changed them."""
        return [(entry.before, entry.after)]

    def row_id(self, state: Row) -> Any:
        return state["id"]

    def get(self, conn: Connection, table: str, row_id: Any) -> dict[str, Any] | None:
        columns = 'rowid AS "rowid", *' if self.keeps_rowid else "*"
        row = conn.execute(f"SELECT {columns} FROM {table} WHERE id = ?", (row_id,)).fetchone()
        return None if row is None else dict(zip(row.keys(), tuple(row), strict=True))

    # -- comparing --------------------------------------------------------------------------------------

    def same(self, column: str, a: Any, b: Any) -> bool:
        """Whether ``a`` (in the table now) is the value ``b`` the step expects."""
        return a == b

    def column_changed(self, cur: Row, column: str, want: Any) -> bool:
        """Whether ``column`` of the row to delete no longer holds ``want``."""
        return not self.same(column, cur.get(column), want)

    def skipped(self, table: str) -> frozenset[str]:
        """The columns of ``table`` never compared and never put back."""
        return self.ignored

    def deleted_diff(self, table: str, cur: Row, src: Row) -> list[str]:
        """The compared columns of a row to delete that changed since the edit."""
        skip = self.skipped(table) | {"rowid"}
        return [k for k in src if k not in skip and self.column_changed(cur, k, src[k])]

    def moved(self, table: str, src: Row, dst: Row) -> list[str]:
        """The columns an update puts back: those ``dst`` holds otherwise than ``src``."""
        skip = self.skipped(table) | {"rowid", "id"}
        return [k for k in dst if k not in skip and not self.same(k, src.get(k), dst[k])]

    def value(self, dst: Row, column: str) -> Any:
        return dst[column]

    # -- writing ----------------------------------------------------------------------------------------

    def create(self, conn: Connection, table: str, row: Row, what: str, since: int | None = None) -> None:
        """Re-create ``row``: refused when a row with its id exists again. ``since``: the time of the edit
        being undone or redone (rows made after it were made since)."""
        current = self.get(conn, table, self.row_id(row))
        if current is not None:
            raise self.exists(what, table, row, current)
        self.insert(conn, table, row, what)

    def insert(self, conn: Connection, table: str, row: Row, what: str) -> None:
        cols = [k for k in row if k != "rowid"]
        rowid = None
        if self.keeps_rowid:
            existing = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
            lost = [k for k in cols if k not in existing]
            if lost:
                raise self.columns_lost(what, table, row, lost)
            rowid = row.get("rowid")
            taken = (
                isinstance(rowid, int)
                and conn.execute(f"SELECT 1 FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
            )
            if taken or not isinstance(rowid, int):
                rowid = None
        names = (["rowid"] if rowid is not None else []) + cols
        values = ([rowid] if rowid is not None else []) + [row[k] for k in cols]
        conn.execute(
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", tuple(values)
        )

    def before_update(
        self, conn: Connection, table: str, cur: Row, dst: Row, what: str, since: int | None = None
    ) -> None:
        """A last check before an update is written (nothing by default); ``since`` as for :meth:`create`."""

    # -- the layer's refusals ---------------------------------------------------------------------------

    def exists(self, what: str, table: str, row: Row, current: Row) -> ConflictError:
        raise NotImplementedError

    def gone(self, what: str, table: str, src: Row) -> ConflictError:
        raise NotImplementedError

    def changed(
        self, what: str, table: str, cur: Row, fields: list[str], want: Row, *, deleting: bool
    ) -> ConflictError:
        raise NotImplementedError

    def columns_lost(self, what: str, table: str, row: Row, lost: list[str]) -> ConflictError:
        raise NotImplementedError


def _move(
    conn: Connection, kind: RowKind, table: str, src: Any, dst: Any, what: str, since: int | None
) -> None:
    """Move one row from ``src`` (what must be there now) to ``dst``; ``since``: the edit's time."""
    if src is None and dst is None:
        return
    if src is None:
        kind.create(conn, table, dst, what, since)
        return
    row_id = kind.row_id(src)
    cur = kind.get(conn, table, row_id)
    if cur is None:
        raise kind.gone(what, table, src)
    if dst is None:
        diff = kind.deleted_diff(table, cur, src)
        if diff:
            raise kind.changed(what, table, cur, diff, src, deleting=True)
        conn.execute(f"DELETE FROM {table} WHERE id = ?", (row_id,))
        return
    fields = kind.moved(table, src, dst)
    diff = [f for f in fields if not kind.same(f, cur.get(f), src.get(f))]
    if diff:
        raise kind.changed(what, table, cur, diff, src, deleting=False)
    kind.before_update(conn, table, cur, dst, what, since)
    if fields:
        sets = ", ".join(f"{f} = ?" for f in fields)
        conn.execute(
            f"UPDATE {table} SET {sets} WHERE id = ?", (*(kind.value(dst, f) for f in fields), row_id)
        )


def apply(conn: Connection, kind: RowKind, entry: AuditEntry, *, forward: bool) -> None:
    """Redo (``forward``) or undo the row changes of ``entry``, all or none."""
    table = kind.table(entry)
    pairs = kind.pairs(entry)
    steps = pairs if forward else [(a, b) for (b, a) in reversed(pairs)]
    what = REDOING if forward else UNDOING
    for src, dst in steps:
        _move(conn, kind, table, src, dst, what, entry.at)


def register(kind: RowKind, actions: Iterable[str]) -> None:
    """Undo and redo ``actions`` with the row engine, the rows described by ``kind``."""

    def undo(conn: Connection, entry: AuditEntry) -> None:
        apply(conn, kind, entry, forward=False)

    def redo(conn: Connection, entry: AuditEntry) -> None:
        apply(conn, kind, entry, forward=True)

    for action in actions:
        curation.register(action, undo, redo)
