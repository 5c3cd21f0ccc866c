"""Exact row-level comparison of two memory databases by primary key, streamed in chunks.

The baseline is attached read-only (``immutable=1``: nothing is created beside it) to a connection on
the other side as schema ``b``; each table is walked in chunks of primary keys ``(lo, hi]`` taken from
both sides' key indexes, and per chunk SQLite finds the rows only one side has and the rows whose
columns differ (``IS NOT``, so NULLs compare as values). A column that only one side has is compared
with its default there (or NULL). Memory holds one chunk at a time: the layer tables (facts, notes,
skills, calendar, schedules) keep their differing rows, the two big append-only logs (messages,
actions) have their new rows grouped by SQLite chunk by chunk (the groups go to a callback) and keep only
counts and a few sample ids of rows that changed or disappeared. ``progress(done, total)`` follows the rows walked; ``check()`` is
called between chunks and raises to cancel.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.changes.context import Reader

__all__ = ["CHUNK_ROWS", "Aggregate", "RowDiffer", "TableDiff"]

#: ``(select list, GROUP BY, callback(rows))`` of a streamed table: how its new rows are tallied.
Aggregate = tuple[str, str, Callable[[list[Any]], Any]]

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
    if isinstance(row, dict):
        return row
    return dict(zip(row.keys(), tuple(row), strict=True))


def _strip(row: Any) -> dict[str, Any]:
    """A row of the chunk query without its bookkeeping columns."""
    return {k: v for k, v in zip(row.keys(), tuple(row), strict=True) if k not in ("_pk_", "_new_")}


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
        self._rowid: dict[tuple[str, str], bool] = {}
        self._max: dict[tuple[str, str, str], Any] = {}

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
    def compare(self, table: str, pk: str = "id", *, aggregate: Aggregate | None = None) -> TableDiff:
        """Compare one table. With ``aggregate`` the table is streamed: the new rows of each chunk are
        grouped by SQLite (``aggregate``'s select list and GROUP BY, alias ``m``) and the groups go to
        its callback; nothing is kept but counts and a few sample keys of changed or missing rows."""
        d = TableDiff(table)
        ca, cb = self.a.columns(table), self.b.columns(table)
        if not ca or not cb:
            d.missing = "after" if not ca else "before"
            if ca or cb:
                self._one_sided(d, table, pk, aggregate, after_side=bool(ca))
            return d
        d.only_after = [c for c in ca if c not in cb]
        d.only_before = [c for c in cb if c not in ca]
        expr = self._differs(table, ca, cb)
        lo: Any = None
        while True:
            self.check()
            hi = self._boundary(table, pk, lo)
            self._chunk(d, table, pk, expr, lo, hi, aggregate)
            self.done += self.chunk if hi is not None else 0
            self._report()
            if hi is None:
                break
            lo = hi
        return d

    def _one_sided(
        self, d: TableDiff, table: str, pk: str, aggregate: Aggregate | None, *, after_side: bool
    ) -> None:
        lo: Any = None
        side, alias = (self.a, "m") if after_side else (self.b, "o")
        while True:
            self.check()
            hi = self._boundary(table, pk, lo)
            rng, args = self._range(alias, pk, lo, hi)
            if after_side and aggregate is not None:
                d.added_count += self._aggregate(aggregate, table, rng, args, exclude_before=None)
            else:
                rows = side.rows(f"SELECT {alias}.* FROM {side.t(table)} {alias} WHERE {rng}", args)
                self._take(d, rows, after_side, aggregate is not None, pk)
            if hi is None:
                break
            lo = hi

    def _aggregate(
        self, agg: Aggregate, table: str, rng: str, args: list[Any], *, exclude_before: str | None
    ) -> int:
        select, group_by, callback = agg
        missing = ""
        if exclude_before is not None:
            k = _q(exclude_before)
            missing = f" AND NOT EXISTS (SELECT 1 FROM {self.b.t(table)} o WHERE o.{k} = m.{k})"
        rows = self.a.rows(
            f"SELECT count(*) AS _n_, {select} FROM {self.a.t(table)} m WHERE {rng}{missing} GROUP BY {group_by}",
            args,
        )
        callback(rows)
        return sum(int(r["_n_"]) for r in rows)

    def _take(self, d: TableDiff, rows: list[Any], added: bool, streamed: bool, pk: str) -> None:
        if added:
            d.added_count += len(rows)
            if not streamed:
                d.added += [_dict(r) for r in rows]
        else:
            d.removed_count += len(rows)
            if streamed:
                d.removed_sample += [r[pk] for r in rows[: SAMPLE_IDS - len(d.removed_sample)]]
            else:
                d.removed += [_dict(r) for r in rows]

    def _chunk(
        self, d: TableDiff, table: str, pk: str, expr: str, lo: Any, hi: Any, aggregate: Aggregate | None
    ) -> None:
        """One pass over the after side's chunk finds what is new and what changed; the rows the
        baseline has and the after side lacks are looked for only when the counts say there are some."""
        ta, tb, k = self.a.t(table), self.b.t(table), _q(pk)
        rng_m, args = self._range("m", pk, lo, hi)
        rng_o, _ = self._range("o", pk, lo, hi)
        streamed = aggregate is not None
        cols = "" if streamed else ", m.*"
        rows = self.a.rows(
            f"SELECT m.{k} AS _pk_, o.{k} IS NULL AS _new_{cols} FROM {ta} m LEFT JOIN {tb} o "
            f"ON o.{k} = m.{k} WHERE {rng_m} AND (o.{k} IS NULL OR {expr})",
            args,
        )
        added = [r for r in rows if r["_new_"]]
        ids = [r["_pk_"] for r in rows if not r["_new_"]]
        if aggregate is not None and added:
            d.added_count += self._aggregate(aggregate, table, rng_m, args, exclude_before=pk)
        elif not streamed:
            self._take(d, [_strip(r) for r in added], True, False, pk)
        n_after = self.a.one(f"SELECT count(*) FROM {ta} m WHERE {rng_m}", args)[0]
        n_before = self.a.one(f"SELECT count(*) FROM {tb} o WHERE {rng_o}", args)[0]
        if n_before > n_after - len(added):  # some baseline rows have no counterpart
            removed = self.a.rows(
                f"SELECT o.* FROM {tb} o WHERE {rng_o} AND NOT EXISTS (SELECT 1 FROM {ta} m WHERE m.{k} = o.{k})",
                args,
            )
            self._take(d, removed, False, streamed, pk)
        d.changed_count += len(ids)
        if streamed:
            d.changed_sample += ids[: SAMPLE_IDS - len(d.changed_sample)]
        elif ids:
            sql = "SELECT * FROM {t} WHERE " + k + " IN ({ids})"
            before = {r[pk]: _dict(r) for r in self.b.in_chunks(sql.replace("{t}", tb), ids)}
            after = {r[pk]: _dict(r) for r in self.a.in_chunks(sql.replace("{t}", ta), ids)}
            d.changed += [(before[i], after[i]) for i in ids if i in before and i in after]

    # -- SQL pieces ----------------------------------------------------------------------------------------
    def _boundary(self, table: str, pk: str, lo: Any) -> Any:
        """The upper key of the next chunk: at most ``chunk`` rows of either side lie in ``(lo, hi]``;
        ``None`` when the rest of both sides fits. An integer primary key (the rowid) is cut by value
        from the next key either side has (two seeks); other keys by walking their index."""
        if self._rowid_key(table, pk):
            return self._rowid_boundary(table, pk, lo)
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

    def _rowid_key(self, table: str, pk: str) -> bool:
        key = (table, pk)
        if key not in self._rowid:
            is_rowid = True
            for side in (self.a, self.b):
                for r in side.rows(f'PRAGMA {side.s}.table_info("{table}")'):
                    if r[1] == pk and (r[5] != 1 or str(r[2]).upper() != "INTEGER"):
                        is_rowid = False
            self._rowid[key] = is_rowid
        return self._rowid[key]

    def _rowid_boundary(self, table: str, pk: str, lo: Any) -> Any:
        k = _q(pk)
        nxt, top = [], []
        for side in (self.a, self.b):
            if not side.has_table(table):
                continue
            where, args = (f"WHERE {k} > ?", [lo]) if lo is not None else ("", [])
            first = side.one(f"SELECT min({k}) FROM {side.t(table)} {where}", args)[0]  # one seek each:
            if first is not None:  # min() and max() in one SELECT would walk the range
                nxt.append(first)
                top.append(self._max_key(side, table, pk))
        if not nxt:
            return None
        hi = min(nxt) + self.chunk - 1
        return None if hi >= max(top) else hi

    def _max_key(self, side: Reader, table: str, pk: str) -> Any:
        key = (side.s, table, pk)
        if key not in self._max:
            self._max[key] = side.one(f"SELECT max({_q(pk)}) FROM {side.t(table)}")[0]
        return self._max[key]

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
