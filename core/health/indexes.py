"""The doctor's checks of the three full-text indexes against their tables.

Each index's documents are the rowids of its ``<index>_docsize`` shadow table (one row per indexed row);
they are compared with the table's rowids both ways (at once when both are the same gap-free range, as
the append-only messages usually are; otherwise by a look-up per row):

* ``health.indexes.missing_rows`` (fail): rows of the table the index lacks (search cannot find them);
  targets are the rows' ids (messages: ``id``; notes and skills: ``id``);
* ``health.indexes.orphan_rows`` (fail): index documents whose row is gone (targets: their rowids);
* ``health.indexes.absent`` (fail): the index table does not exist.

At most :data:`MAX_TARGETS` targets are listed; ``measure["count"]`` is the whole number. An index
without ``_docsize`` (``columnsize=0``, never written by the agent) is not measured.
"""

from __future__ import annotations

from typing import Any

from core.health.context import Context, finding, stored_text
from core.health.finding import Finding, Fix

INDEXES = (
    ("memory_raw_messages_fts", "memory_raw_messages"),
    ("memory_notes_fts", "memory_notes"),
    ("memory_skills_fts", "memory_skills"),
)
MAX_TARGETS = 1000


def _one(ctx: Context, index: str, table: str) -> list[Finding]:
    if not ctx.has_table(table):
        return []
    fix = Fix("health.fix.rebuild_index", {"index": index, "table": table})
    if not ctx.has_table(index):
        return [
            finding("health.indexes.absent", "fail", [index], {"table": table}, fix, index=index, table=table)
        ]
    docsize = f"{index}_docsize"
    if not ctx.has_table(docsize):
        return []
    if _same_gapless_range(ctx, table, docsize):
        return []
    missing = [
        r[0] if table == "memory_raw_messages" else stored_text(r[0])  # a message's id is its rowid
        for r in ctx.rows(
            f'SELECT t.id FROM "{table}" AS t WHERE NOT EXISTS '
            f'(SELECT 1 FROM "{docsize}" AS d WHERE d.id = t.rowid) ORDER BY t.rowid'
        )
    ]
    orphans = [
        r[0]
        for r in ctx.rows(
            f'SELECT d.id FROM "{docsize}" AS d WHERE NOT EXISTS '
            f'(SELECT 1 FROM "{table}" AS t WHERE t.rowid = d.id) ORDER BY d.id'
        )
    ]
    out = []
    for code, rows in (("health.indexes.missing_rows", missing), ("health.indexes.orphan_rows", orphans)):
        if rows:
            measure: dict[str, Any] = {"index": index, "table": table, "count": len(rows)}
            measure["listed"] = min(len(rows), MAX_TARGETS)
            out.append(
                finding(
                    code, "fail", rows[:MAX_TARGETS], measure, fix, index=index, table=table, count=len(rows)
                )
            )
    return out


def _range(ctx: Context, table: str, key: str) -> tuple[Any, Any, Any]:
    """``(count, smallest, largest)`` of a rowid column, each read on its own so that the ends are
    index look-ups (asked together, SQLite scans the table)."""
    n = ctx.one(f'SELECT count(*) FROM "{table}"')[0]
    lo = ctx.one(f'SELECT min({key}) FROM "{table}"')[0]
    hi = ctx.one(f'SELECT max({key}) FROM "{table}"')[0]
    return n, lo, hi


def _same_gapless_range(ctx: Context, table: str, docsize: str) -> bool:
    """Both rowid sets are one gap-free range with the same ends: then they are equal (two counts and
    four look-ups, read in one snapshot, instead of a probe per row)."""
    with ctx.db.read_snapshot():
        a = _range(ctx, table, "rowid")
        b = _range(ctx, docsize, "id")
    if a != b:
        return False
    n, lo, hi = a
    return n == 0 or (isinstance(lo, int) and isinstance(hi, int) and hi - lo + 1 == n)


def check_indexes(ctx: Context) -> list[Finding]:
    out: list[Finding] = []
    for index, table in INDEXES:
        out.extend(_one(ctx, index, table))
    return out


CHECKS = [check_indexes]
