"""Undo and redo of fact edits through the row engine (:mod:`core.curation.rows`).

An edit or an add made a new version (and, when the key had one, superseded the old head): undoing it
removes the new version, which must be unchanged and still the head, and makes the old one the head
again. A bulk edit lists its rows; a single-row action holds the row before and after.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core import curation
from core.audit import AuditEntry
from core.curation import rows
from core.curation.facts.common import (
    ACTION_ADD,
    ACTION_EDIT,
    BULK_ACTIONS,
    IGNORED,
    TABLE,
    fmt,
    head_of,
    name_of,
    newer_version,
    same,
)
from core.errors import ConflictError

if TYPE_CHECKING:
    from core.engine import Connection


def _pairs(entry: AuditEntry) -> list[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """The row transitions an entry made, in the order they were made."""
    before, after = entry.before, entry.after
    if entry.action in (ACTION_EDIT, ACTION_ADD):
        if not isinstance(after, dict):
            raise ConflictError(
                f"Audit entry #{entry.id} does not describe the new version; it cannot be undone.",
                code="audit.unreadable",
                params={"audit_id": entry.id},
            )
        pairs: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
        if isinstance(before, dict):
            pairs.append((before, {**before, "superseded_by": after["id"]}))
        pairs.append((None, after))
        return pairs
    if entry.action in BULK_ACTIONS.values():
        return rows.listed_pairs(entry)
    if not isinstance(before, dict) or not isinstance(after, dict):
        raise ConflictError(
            f"Audit entry #{entry.id} does not hold the row states; it cannot be undone.",
            code="audit.unreadable",
            params={"audit_id": entry.id},
        )
    return [(before, after)]


def _step_conflict(
    what: str, cur: Mapping[str, Any], fields: list[str], want: Mapping[str, Any]
) -> ConflictError:
    if "superseded_by" in fields and cur["superseded_by"] is not None:
        conn = _conn_of_current()
        newer = head_of(conn, cur["namespace"], cur["key"]) if conn is not None else None
        return newer_version(
            cur,
            newer,
            f"{what} would drop or overwrite that newer version, so nothing was changed.",
            code="fact.newer_version.step",
            step=rows.step_of(what),
        )
    detail = ", ".join(f"{f} is {fmt(cur[f])} (expected {fmt(want[f])})" for f in fields[:4])
    return ConflictError(
        f"{name_of(cur)} was changed after this edit ({detail}). {what} would overwrite that change, "
        "so nothing was changed.",
        cur,
        code="fact.changed_after_edit",
        params={
            "fact": name_of(cur),
            "fields": fields[:4],
            "values": [{"field": f, "now": cur[f], "expected": want[f]} for f in fields[:4]],
            "step": rows.step_of(what),
        },
    )


def _conn_of_current() -> Any:
    db = curation.current_db()
    return None if db is None else db.conn


class FactRows(rows.RowKind):
    """Facts for the row engine: every column but ``last_accessed_at`` compared and put back; a version
    is re-created only where it does not put an older value on top of a newer head."""

    ignored = IGNORED

    def table(self, entry: AuditEntry) -> str:
        return TABLE

    def pairs(self, entry: AuditEntry) -> list[tuple[Any, Any]]:
        return list(_pairs(entry))

    def same(self, column: str, a: Any, b: Any) -> bool:
        return same(a, b)

    def column_changed(self, cur: Mapping[str, Any], column: str, want: Any) -> bool:
        return column in cur and not same(cur[column], want)

    def insert(self, conn: Connection, table: str, row: Mapping[str, Any], what: str) -> None:
        if row.get("superseded_by") is None:
            head = head_of(conn, row["namespace"], row["key"])
            if head is not None:
                raise newer_version(
                    row,
                    head,
                    f"{what} would put an older value on top of it, so nothing was changed.",
                    code="fact.newer_version.older_on_top",
                    step=rows.step_of(what),
                )
        super().insert(conn, table, row, what)

    def exists(self, what: str, table: str, row: Mapping[str, Any], current: Any) -> ConflictError:
        return ConflictError(
            f"{name_of(row)}: the version {row['id']} exists already; nothing was changed.",
            code="fact.version_exists",
            params={"fact": name_of(row), "id": row["id"]},
        )

    def gone(self, what: str, table: str, src: Mapping[str, Any]) -> ConflictError:
        return ConflictError(
            f"{name_of(src)} (version {src['id']}) no longer exists; nothing was changed.",
            code="fact.version_missing",
            params={"fact": name_of(src), "id": src["id"]},
        )

    def changed(
        self, what: str, table: str, cur: Any, fields: list[str], want: Any, *, deleting: bool
    ) -> ConflictError:
        return _step_conflict(what, cur, fields, want)
