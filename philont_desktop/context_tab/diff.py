"""A line diff with changes highlighted inside lines, for comparing two context previews (Qt-free).

:func:`compute_diff` returns side-by-side rows; the unified form is derived from them
(:meth:`DiffResult.unified`). Equal runs longer than twice the context are folded into one ``skip`` row.
Inside a changed pair of lines the differing characters are marked (``spans``, Python string indices),
unless a line is very long (then the whole line is marked).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Literal

INTRALINE_MAX = 2000  # longer lines are marked as a whole (character matching is quadratic)

RowKind = Literal["equal", "replace", "delete", "insert", "skip"]


@dataclass(frozen=True)
class Side:
    number: int  # 1-based line number
    text: str
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Row:
    kind: RowKind
    old: Side | None = None
    new: Side | None = None
    skipped: int = 0  # for ``skip``: how many equal lines are folded


@dataclass(frozen=True)
class UnifiedLine:
    kind: Literal["equal", "delete", "insert", "skip", "hunk"]
    old_number: int | None
    new_number: int | None
    text: str
    spans: tuple[tuple[int, int], ...] = ()
    skipped: int = 0


@dataclass
class DiffResult:
    rows: list[Row] = field(default_factory=list)
    added: int = 0
    removed: int = 0

    @property
    def identical(self) -> bool:
        return self.added == 0 and self.removed == 0

    def unified(self) -> list[UnifiedLine]:
        """The rows as a unified diff: deletions before insertions, equal lines as context."""
        out: list[UnifiedLine] = []
        pending_new: list[UnifiedLine] = []

        def flush() -> None:
            out.extend(pending_new)
            pending_new.clear()

        for r in self.rows:
            if r.kind == "skip":
                flush()
                out.append(UnifiedLine("skip", None, None, "", (), r.skipped))
            elif r.kind == "equal":
                flush()
                assert r.old is not None and r.new is not None
                out.append(UnifiedLine("equal", r.old.number, r.new.number, r.old.text))
            else:
                if r.old is not None:
                    out.append(UnifiedLine("delete", r.old.number, None, r.old.text, r.old.spans))
                if r.new is not None:
                    pending_new.append(UnifiedLine("insert", None, r.new.number, r.new.text, r.new.spans))
        flush()
        return out


def _intraline(a: str, b: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    if len(a) > INTRALINE_MAX or len(b) > INTRALINE_MAX:
        return ((0, len(a)),) if a else (), ((0, len(b)),) if b else ()
    sa: list[tuple[int, int]] = []
    sb: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            sa.append((i1, i2))
        if j2 > j1:
            sb.append((j1, j2))
    return tuple(sa), tuple(sb)


def compute_diff(old: str, new: str, context: int = 3) -> DiffResult:
    """Side-by-side rows of the line diff of ``old`` → ``new`` with ``context`` equal lines kept around
    each change (``context < 0``: keep every line)."""
    a = old.split("\n")
    b = new.split("\n")
    res = DiffResult()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    opcodes = matcher.get_opcodes()
    for n, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            length = i2 - i1
            first, last = n == 0, n == len(opcodes) - 1
            keep_head = 0 if first else context
            keep_tail = 0 if last else context
            if context < 0 or length <= keep_head + keep_tail + 1:
                res.rows += [
                    Row("equal", Side(i1 + k + 1, a[i1 + k]), Side(j1 + k + 1, b[j1 + k]))
                    for k in range(length)
                ]
                continue
            res.rows += [
                Row("equal", Side(i1 + k + 1, a[i1 + k]), Side(j1 + k + 1, b[j1 + k]))
                for k in range(keep_head)
            ]
            res.rows.append(Row("skip", skipped=length - keep_head - keep_tail))
            res.rows += [
                Row(
                    "equal",
                    Side(i2 - keep_tail + k + 1, a[i2 - keep_tail + k]),
                    Side(j2 - keep_tail + k + 1, b[j2 - keep_tail + k]),
                )
                for k in range(keep_tail)
            ]
            continue
        res.removed += i2 - i1
        res.added += j2 - j1
        if tag == "delete":
            res.rows += [
                Row("delete", old=Side(i + 1, a[i], ((0, len(a[i])),) if a[i] else ())) for i in range(i1, i2)
            ]
        elif tag == "insert":
            res.rows += [
                Row("insert", new=Side(j + 1, b[j], ((0, len(b[j])),) if b[j] else ())) for j in range(j1, j2)
            ]
        else:  # replace: pair the lines one to one, the rest are plain deletions / insertions
            pairs = min(i2 - i1, j2 - j1)
            for k in range(pairs):
                sa, sb = _intraline(a[i1 + k], b[j1 + k])
                res.rows.append(
                    Row("replace", Side(i1 + k + 1, a[i1 + k], sa), Side(j1 + k + 1, b[j1 + k], sb))
                )
            for i in range(i1 + pairs, i2):
                res.rows.append(Row("delete", old=Side(i + 1, a[i], ((0, len(a[i])),) if a[i] else ())))
            for j in range(j1 + pairs, j2):
                res.rows.append(Row("insert", new=Side(j + 1, b[j], ((0, len(b[j])),) if b[j] else ())))
    return res
