"""Exact row-level comparison of two memory databases by primary key, streamed in chunks.

The baseline is attached read-only (``immutable=1``: nothing is created beside it) to a connection on
the other side as schema ``b``; each table is walked in chunks of primary keys ``(lo, hi]`` taken from
both sides' key indexes, and per chunk SQLite finds the rows only one side has and the rows whose
columns differ (``IS NOT``, so NULLs compare as values). A column that only one side has is compared
with its default there (or NULL). Memory holds one chunk at a time: the layer tables (facts, notes,
skills, calendar, schedules) keep their differing rows, the two big append-only logs (messages,
actions) hand their new rows to a callback chunk by chunk and keep only counts and a few sample ids of
rows that changed or disappeared. ``progress(done, total)`` follows the rows walked; ``check()`` is
called between chunks and raises to cancel.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.changes.context import Reader

__all__ = ["CHUNK_ROWS", "RowDiffer", "TableDiff"]

CHUNK_ROWS = 20_000
SAMPLE_IDS = 20
_LITERAL = re.compile(r"^(?:-?\d+(?:\.\d+)?|'(?:[^']|'')*'|NULL)$", re.IGNORECASE)


@dataclass
class TableDiff:
    """What differs in one table. ``added``/``removed`` are rows (dicts) of one side only, ``changed``
    pairs ``(before, after)``; for a streamed table they stay empty and the counts and samples say how
    many rows differed."""

    table: str
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    changed: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    added_count: int = 0
    removed_count: int = 0
    changed_count: int = 0
    removed_sample: list[Any] = field(default_factory=list)
    changed_sample: list[Any] = field(default_factory=list)
    only_after: list[str] = field(default_factory=list)
    only_before: list[str] = field(default_factory=list)
    missing: str | None = None  # "before" or "after" when the table is missing on that side


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _dict(row: Any) -> dict[str, Any]:
    return dict(zip(row.keys(), tuple(row), strict=True))


class RowDiffer:
    """Compares the tables of ``after`` (schema ``main``) with ``before`` (schema ``b``) on one connection."""

    def __init__(
        self,
        after: Reader,
        before: Reader,
        *,
        progress: Callable[[int, int], Any] | None = None,
        check: Callable[[], None] | None = None,
        chunk_rows: int = CHUNK_ROWS,
    ):
        self.a, self.b = after, before
        self.progress = progress
        self.check = check or (lambda: None)
        self.chunk = max(1, int(chunk_rows))
        self.done = 0
        self.total = 0

    # -- planning -----------------------------------------------------------------------------------------
    def estimate(self, tables: Sequence[str]) -> int:
        """Rows to walk (from ``max(rowid)``, no count) and the start of progress reporting."""
        total = 0
        for t in tables:
            for side in (self.a, self.b):
                if side.has_table(t):
                    row = side.one(f"SELECT max(rowid) FROM {side.t(t)}")
                    total += int(row[0] or 0) if isinstance(row[0], int) else 0
        self.total = max(1, total)
        self._report()
        return self.total

    def _report(self) -> None:
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)

    # -- the walk -----------------------------------------------------------------------------------------
    def compare(
        self,
        table: str,
        pk: str = "id",
        *,
        on_added: Callable[[list[Any]], Any] | None = None,
        added_columns: Sequence[str] | None = None,
    ) -> TableDiff:
        """Compare one table. With ``on_added`` the table is streamed: new rows (``added_columns`` of
        them) go to the callback chunk by chunk and nothing is kept but counts and samples."""
        d = TableDiff(table)
        ca, cb = self.a.columns(table), self.b.columns(table)
        if not ca or not cb:
            d.missing = "after" if not ca else "before"
            if ca or cb:
                self._one_sided(d, table, pk, on_added, added_columns, present=self.a if ca else self.b)
            return d
        d.only_after = [c for c in ca if c not in cb]
        d.only_before = [c for c in cb if c not in ca]
        expr = self._differs(table, ca, cb)
        cols_a = self._cols("m", added_columns or ca)
        lo: Any = None
        while True:
            self.check()
            hi = self._boundary(table, pk, lo)
            rng_m, args = self._range("m", pk, lo, hi)
            rng_o, _ = self._range("o", pk, lo, hi)
            self._chunk(d, table, pk, expr, cols_a, rng_m, rng_o, args, on_added)
            self.done += self.chunk if hi is not None else 0
            self._report()
            if hi is None:
                break
            lo = hi
        return d

    def _one_sided(
        self, d: TableDiff, table: str, pk: str, on_added: Any, cols: Any, *, present: Reader
    ) -> None:
        lo: Any = None
        alias = "m" if present is self.a else "o"
        col_sql = self._cols(alias, cols or present.columns(table)) if alias == "m" else f"{alias}.*"
        while True:
            self.check()
            hi = self._boundary(table, pk, lo)
            rng, args = self._range(alias, pk, lo, hi)
            rows = present.rows(f"SELECT {col_sql} FROM {present.t(table)} {alias} WHERE {rng}", args)
            self._take(d, rows, alias == "m", on_added, pk)
            if hi is None:
                break
            lo = hi

    def _take(self, d: TableDiff, rows: list[Any], added: bool, on_added: Any, pk: str) -> None:
        if added:
            d.added_count += len(rows)
            if on_added is not None:
                on_added(rows)
            else:
                d.added += [_dict(r) for r in rows]
        else:
            d.removed_count += len(rows)
            if on_added is not None:
                d.removed_sample += [r[pk] for r in rows[: SAMPLE_IDS - len(d.removed_sample)]]
            else:
                d.removed += [_dict(r) for r in rows]

    def _chunk(
        self,
        d: TableDiff,
        table: str,
        pk: str,
        expr: str,
        cols_a: str,
        rng_m: str,
        rng_o: str,
        args: list[Any],
        on_added: Any,
    ) -> None:
        ta, tb, k = self.a.t(table), self.b.t(table), _q(pk)
        changed = self.a.rows(
            f"SELECT m.{k} FROM {ta} m JOIN {tb} o ON o.{k} = m.{k} WHERE {rng_m} AND ({expr})", args
        )
        added = self.a.rows(
            f"SELECT {cols_a} FROM {ta} m WHERE {rng_m} AND NOT EXISTS (SELECT 1 FROM {tb} o WHERE o.{k} = m.{k})",
            args,
        )
        removed = self.a.rows(
            f"SELECT o.* FROM {tb} o WHERE {rng_o} AND NOT EXISTS (SELECT 1 FROM {ta} m WHERE m.{k} = o.{k})",
            args,
        )
        self._take(d, added, True, on_added, pk)
        self._take(d, removed, False, on_added, pk)
        ids = [r[0] for r in changed]
        d.changed_count += len(ids)
        if on_added is not None:
            d.changed_sample += ids[: SAMPLE_IDS - len(d.changed_sample)]
        elif ids:
            sql = "SELECT * FROM {t} WHERE " + k + " IN ({ids})"
            before = {r[pk]: _dict(r) for r in self.b.in_chunks(sql.replace("{t}", tb), ids)}
            after = {r[pk]: _dict(r) for r in self.a.in_chunks(sql.replace("{t}", ta), ids)}
            d.changed += [(before[i], after[i]) for i in ids if i in before and i in after]

    # -- SQL pieces ----------------------------------------------------------------------------------------
    def _boundary(self, table: str, pk: str, lo: Any) -> Any:
        """The upper key of the next chunk: at most ``chunk`` rows of either side lie in ``(lo, hi]``;
        ``None`` when the rest of both sides fits."""
        k = _q(pk)
        bounds = []
        for side in (self.a, self.b):
            if not side.has_table(table):
                continue
            where = f"WHERE {k} > ?" if lo is not None else ""
            args = [lo] if lo is not None else []
            row = side.one(
                f"SELECT {k} FROM {side.t(table)} {where} ORDER BY {k} LIMIT 1 OFFSET ?",
                (*args, self.chunk - 1),
            )
            if row is not None:
                bounds.append(row[0])
        if not bounds:
            return None
        try:
            return min(bounds)
        except TypeError:  # keys of different types on the two sides: SQLite's order puts numbers first
            return min(bounds, key=lambda v: (not isinstance(v, int | float), str(v)))

    @staticmethod
    def _range(alias: str, pk: str, lo: Any, hi: Any) -> tuple[str, list[Any]]:
        parts, args = [], []
        if lo is not None:
            parts.append(f"{alias}.{_q(pk)} > ?")
            args.append(lo)
        if hi is not None:
            parts.append(f"{alias}.{_q(pk)} <= ?")
            args.append(hi)
        return (" AND ".join(parts) or "1"), args

    @staticmethod
    def _cols(alias: str, cols: Sequence[str]) -> str:
        return ", ".join(f"{alias}.{_q(c)}" for c in cols)

    def _differs(self, table: str, ca: list[str], cb: list[str]) -> str:
        da, db = self._defaults(self.a, table), self._defaults(self.b, table)
        parts = []
        for c in ca:
            parts.append(
                f"m.{_q(c)} IS NOT o.{_q(c)}" if c in cb else f"m.{_q(c)} IS NOT {da.get(c, 'NULL')}"
            )
        parts += [f"o.{_q(c)} IS NOT {db.get(c, 'NULL')}" for c in cb if c not in ca]
        return " OR ".join(parts) or "0"

    @staticmethod
    def _defaults(side: Reader, table: str) -> dict[str, str]:
        """Simple literal defaults of the columns (anything else counts as NULL)."""
        out = {}
        for r in side.rows(f'PRAGMA {side.s}.table_info("{table}")'):
            dv = r[4]
            if isinstance(dv, str) and _LITERAL.match(dv.strip()):
                out[r[1]] = dv.strip()
        return out
