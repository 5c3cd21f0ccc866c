"""Data of the Facts tab: the loaders (run on a worker), the facts table model and its filter proxy,
the namespace summary and the forget-pool model.

Every row of ``memory_facts`` is loaded once (superseded and forgotten ones too) and prepared on the
worker: readable value text, effective tau and its source, decay anchor, threshold crossing time. The
GUI thread only computes the scores at the view time (the time control moves it into the future).

Sorting is done by :class:`FactsModel` itself (a Python sort of prepared keys, ~10 ms for 10,000 rows);
:class:`FactsProxy` filters and forwards ``sort()`` to it, because a ``QSortFilterProxyModel`` that
sorts calls back into Python for every comparison (seconds for 10,000 rows). Updates after a reload
are merged row by row (removed, changed, appended), so selection and scroll position survive.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from core.decay import (
    DEFAULT_FORGET_THRESHOLD,
    effective_tau,
    forget_crossing_time,
    namespace_tau_days,
    score_memory,
    tau_source,
)
from core.facts import FactStore
from core.jsutil import now_ms
from core.models import Fact
from philont_desktop.qt import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
THRESHOLD = DEFAULT_FORGET_THRESHOLD
ONE_LINE_MAX = 140
FULL_MAX = 3000
SEARCH_MAX = 4000

# Columns of the facts table.
# The decay columns come right after the value, so they are seen without scrolling.
(
    C_NAMESPACE,
    C_KEY,
    C_VALUE,
    C_SCORE,
    C_STATUS,
    C_CROSSES,
    C_TAU,
    C_TAU_SOURCE,
    C_CONFIDENCE,
    C_KIND,
    C_OCCURRED,
    C_VALID_FROM,
    C_VALID_UNTIL,
    C_CREATED,
    C_ACCESSED,
) = range(15)
N_COLUMNS = 15
TIME_COLUMNS = (C_OCCURRED, C_VALID_FROM, C_VALID_UNTIL, C_CREATED, C_ACCESSED, C_CROSSES)
NUMBER_COLUMNS = (C_CONFIDENCE, C_TAU, C_SCORE)
STATUSES = ("active", "outside", "superseded", "forgotten")

FactRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
SortRole = Qt.ItemDataRole.UserRole + 3


def _tr(text: str) -> str:
    return QCoreApplication.translate("FactsModel", text)


_STATUS_RANK = {s: i for i, s in enumerate(STATUSES)}
#: The value each column sorts and filters by (``None`` / NaN: empty, sorted last).
SORT_KEYS: dict[int, Callable[[Any], Any]] = {
    C_NAMESPACE: lambda r: r.fact.namespace,
    C_KEY: lambda r: r.fact.key,
    C_VALUE: lambda r: r.value_text,
    C_CONFIDENCE: lambda r: r.fact.confidence,
    C_KIND: lambda r: r.fact.fact_kind,
    C_OCCURRED: lambda r: r.fact.occurred_at,
    C_VALID_FROM: lambda r: r.fact.valid_from,
    C_VALID_UNTIL: lambda r: r.fact.valid_until,
    C_CREATED: lambda r: r.fact.created_at,
    C_ACCESSED: lambda r: r.fact.last_accessed_at,
    C_TAU: lambda r: r.tau_eff,
    C_TAU_SOURCE: lambda r: r.tau_src,
    C_SCORE: lambda r: r.score,
    C_CROSSES: lambda r: r.crossing,
    C_STATUS: lambda r: _STATUS_RANK[r.status],
}


# -- formatting (no Qt objects needed) ---------------------------------------------------------------------


def fmt_time(ms: Any, seconds: bool = False) -> str:
    """Local time ``YYYY-MM-DD HH:MM``; empty for ``None``."""
    if ms is None:
        return ""
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M", time.localtime(ms / 1000))
    except (OverflowError, OSError, ValueError, TypeError):
        return str(ms)


def parse_time(text: str) -> int | None:
    """``YYYY-MM-DD`` or ``YYYY-MM-DD HH:MM[:SS]`` (local time) → epoch ms; ``None`` if not a date."""
    text = text.strip().replace("T", " ")
    for f in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return int(datetime.strptime(text, f).timestamp() * 1000)
        except ValueError:
            continue
    return None


def fmt_duration(ms: float) -> str:
    """``12 d``, ``5 h``, ``40 min``, ``1.5 y`` (absolute value)."""
    ms = abs(ms)
    if ms >= 365 * DAY_MS:
        return _tr("{0} y").format(f"{ms / (365 * DAY_MS):.1f}".rstrip("0").rstrip("."))
    if ms >= 2 * DAY_MS:
        return _tr("{0} d").format(round(ms / DAY_MS))
    if ms >= 2 * HOUR_MS:
        return _tr("{0} h").format(round(ms / HOUR_MS))
    return _tr("{0} min").format(max(0, round(ms / 60_000)))


def fmt_relative(ms: int, now: int) -> str:
    """``in 12 d`` / ``12 d ago``."""
    d = ms - now
    return _tr("in {0}").format(fmt_duration(d)) if d >= 0 else _tr("{0} ago").format(fmt_duration(d))


def fmt_number(x: Any, digits: int = 3) -> str:
    if x is None:
        return ""
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "-∞"
    s = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


def fmt_score(s: float) -> str:
    if math.isnan(s):
        return "NaN"
    if 0 < s < 0.0001:
        return f"{s:.1e}"
    return f"{s:.4f}"


def fmt_tau(tau: float) -> str:
    if math.isnan(tau):
        return "NaN"
    if math.isinf(tau):
        return "∞"
    return _tr("{0} d").format(fmt_number(tau, 2))


def namespace_tau_text(ns: str) -> str:
    return fmt_tau(namespace_tau_days(ns))


def compact_value(fact: Fact) -> str:
    """The whole value on one line: a string as it is, other JSON compact with spaces."""
    if fact.json_errors:
        return fact.value_json or ""
    v = fact.value
    if isinstance(v, str):
        return v
    try:
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        return str(v)


def readable_value(fact: Fact) -> tuple[str, str]:
    """``(one line, full text)``: strings as they are, other JSON compact with spaces / indented."""
    if fact.json_errors:
        raw = fact.value_json or ""
        return _one_line(raw), raw[:FULL_MAX]
    v = fact.value
    if isinstance(v, str):
        return _one_line(v), v[:FULL_MAX]
    try:
        compact = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        full = json.dumps(v, ensure_ascii=False, indent=2)
    except (TypeError, ValueError):
        compact = full = str(v)
    return _one_line(compact), full[:FULL_MAX]


def _one_line(s: str) -> str:
    s = " ⏎ ".join(part.strip() for part in s.splitlines() if part.strip()) if "\n" in s or "\r" in s else s
    return s if len(s) <= ONE_LINE_MAX else s[: ONE_LINE_MAX - 1] + "…"


# -- prepared rows (built on the worker) -----------------------------------------------------------------


_NOT_YET: Any = object()


@dataclass(slots=True, eq=False)
class FactRow:
    """One fact as the table shows it; the threshold crossing and the pretty value are computed when
    first asked for (most rows are never looked at)."""

    fact: Fact
    fid: str
    name: str
    value_text: str
    search: str
    tau_eff: float
    tau_src: str
    anchor: int
    sig: tuple[Any, ...]
    order: int
    sort_text: tuple[str, str, str]  # namespace, key, value casefolded (for sorting)
    fast: tuple[float, float, float] | None  # (confidence, anchor, tau) when the plain formula applies
    flat: float | None  # the constant score of a fact that does not decay (pinned, tau ∞)
    score: float = math.nan
    status: str = "active"
    _crossing: Any = field(default=_NOT_YET, init=False, repr=False, compare=False)

    @property
    def crossing(self) -> int | None:
        """When the score falls below the forget threshold without another read (``None``: never)."""
        if self._crossing is _NOT_YET:
            f = self.fact
            self._crossing = forget_crossing_time(
                f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days
            )
        return self._crossing

    @property
    def value_full(self) -> str:
        return readable_value(self.fact)[1]


def fact_signature(f: Fact) -> tuple[Any, ...]:
    return (
        f.value_json,
        f.confidence,
        f.superseded_by,
        f.supersedes,
        f.created_at,
        f.occurred_at,
        f.valid_from,
        f.valid_until,
        f.last_accessed_at,
        f.decay_tau_days,
        f.forgotten_at,
        f.fact_kind,
    )


def build_row(fact: Fact, order: int = 0) -> FactRow:
    compact = compact_value(fact)
    one = _one_line(compact)
    anchor = fact.last_accessed_at if fact.last_accessed_at is not None else fact.created_at
    tau_eff = effective_tau(fact.namespace, fact.decay_tau_days)
    fast, flat = _score_plan(fact)
    return FactRow(
        fact=fact,
        fid=fact.id,
        name=f"{fact.namespace}.{fact.key}",
        value_text=one,
        search=f"{fact.namespace}.{fact.key}\n{compact[:SEARCH_MAX]}".casefold(),
        tau_eff=tau_eff,
        tau_src=tau_source(fact.namespace, fact.decay_tau_days),
        anchor=int(anchor) if anchor is not None else 0,
        sig=fact_signature(fact),
        order=order,
        sort_text=(fact.namespace.casefold(), fact.key.casefold(), one.casefold()),
        fast=fast,
        flat=flat,
    )


def _score_plan(f: Fact) -> tuple[tuple[float, float, float] | None, float | None]:
    """How :func:`row_score` computes this fact's score with the exact arithmetic of ``score_memory``.

    ``(None, conf)``: it does not decay (pinned, or a tau that is not finite); ``((conf, anchor, tau),
    None)``: ``conf × exp(−max(0, (t − anchor)/day)/tau)``; ``(None, None)``: an edge case (tau 0,
    missing or non-finite anchor) left to ``score_memory`` itself.
    """
    c = f.confidence
    conf = 0.0 if c is None else float(c)
    tau_raw = f.decay_tau_days
    if tau_raw is not None and tau_raw < 0:
        return None, conf
    tau = float(tau_raw) if tau_raw is not None else namespace_tau_days(f.namespace)
    if not math.isfinite(tau):
        return None, conf
    anchor = f.last_accessed_at if f.last_accessed_at is not None else f.created_at
    if tau == 0 or anchor is None or not math.isfinite(float(anchor)):
        return None, None
    return (conf, float(anchor), tau), None


@dataclass
class FactsData:
    rows: list[FactRow]
    loaded_at: int
    seconds: float = 0.0
    scored_at: int | None = None  # the view time the rows' scores were computed for
    real_now: int | None = None  # "now" when the load started
    active: int = 0


def load_facts(db: Any, at: int | None = None, real_now: int | None = None, job: Any = None) -> FactsData:
    """Every fact row, prepared for the table and scored at ``at`` (runs on a worker connection)."""
    t0 = time.perf_counter()
    facts = FactStore(db).all_rows()
    rows: list[FactRow] = []
    active = 0
    for i, f in enumerate(facts):
        if job is not None and i % 2000 == 0 and job.cancelled:
            break
        r = build_row(f, i)
        if at is not None:
            r.score = row_score(r, at)
            r.status = status_at(f, at)
        active += f.superseded_by is None and f.forgotten_at is None
        rows.append(r)
    return FactsData(rows, now_ms(), time.perf_counter() - t0, at, real_now, active)


def load_pool(db: Any, threshold: float, at: int) -> list[tuple[Fact, float]]:
    """The forget candidates at ``at`` exactly as the core computes them (every one of them)."""
    return FactStore(db).forget_candidates(threshold=threshold, limit=1_000_000_000, now=at)


def load_history(db: Any, namespace: str, key: str) -> list[Fact]:
    return FactStore(db).history(namespace, key)


def status_at(f: Fact, at: int) -> str:
    if f.forgotten_at is not None:
        return "forgotten"
    if f.superseded_by is not None:
        return "superseded"
    if (f.valid_from is not None and f.valid_from > at) or (f.valid_until is not None and f.valid_until < at):
        return "outside"
    return "active"


def row_score(r: FactRow, at: int) -> float:
    """``score_memory`` of the row at ``at``, bit for bit, without its per-call overhead."""
    if r.fast is not None:
        conf, anchor, tau = r.fast
        age = (float(at) - anchor) / DAY_MS
        if age < 0.0:
            age = 0.0
        return conf * math.exp(-age / tau)
    if r.flat is not None:
        return r.flat
    f = r.fact
    return score_memory(f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, at)


# -- filtering ----------------------------------------------------------------------------------------------

_CMP_RE = re.compile(r"^\s*(<=|>=|!=|<|>|=)\s*(.+?)\s*$")
_RANGE_RE = re.compile(r"^\s*(.+?)\s*\.\.\s*(.+?)\s*$")


@dataclass
class FactsFilter:
    namespace: str | None = None  # exact namespace or a parent of it ("project" → "project.x" too)
    text: str = ""  # case-insensitive, over namespace.key and the value
    column: int | None = None  # column filter: None = none
    expr: str = ""
    show_superseded: bool = False
    show_forgotten: bool = False
    ids: frozenset[str] | None = None  # restrict to these ids (e.g. "selected in overview")
    _compiled: Callable[[Any, str], bool] | None = field(default=None, repr=False)


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "."))
    except ValueError:
        return None


def compile_column_filter(column: int, expr: str) -> Callable[[Any, str], bool] | None:
    """A predicate ``(sort_value, display_text) -> bool`` for ``expr`` on ``column``.

    Numbers and times accept ``< 0.05``, ``>= 2026-05-01``, ``0.2 .. 0.8``; every column accepts plain
    text (substring of what the cell shows, case-insensitive).
    """
    expr = expr.strip()
    if not expr:
        return None
    is_time = column in TIME_COLUMNS
    is_num = column in NUMBER_COLUMNS

    def conv(s: str) -> float | None:
        if is_time:
            t = parse_time(s)
            return float(t) if t is not None else None
        if is_num:
            s = s.strip()
            if s in ("∞", "inf", "infinity"):
                return math.inf
            return _number(s)
        return None

    if is_time or is_num:
        m = _RANGE_RE.match(expr)
        if m and conv(m.group(1)) is not None and conv(m.group(2)) is not None:
            lo, hi = conv(m.group(1)), conv(m.group(2))
            assert lo is not None and hi is not None
            return lambda v, _t: v is not None and not _isnan(v) and lo <= v <= hi
        m = _CMP_RE.match(expr)
        if m and conv(m.group(2)) is not None:
            op, ref = m.group(1), conv(m.group(2))
            assert ref is not None

            def cmp(v: Any, _t: str) -> bool:
                if v is None or _isnan(v):
                    return op == "!="
                return {
                    "<": v < ref,
                    ">": v > ref,
                    "<=": v <= ref,
                    ">=": v >= ref,
                    "=": v == ref,
                    "!=": v != ref,
                }[op]

            return cmp
    needle = expr.casefold()
    return lambda _v, text: needle in text.casefold()


def _isnan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


# -- the table model ------------------------------------------------------------------------------------------


class FactsModel(QAbstractTableModel):
    """Every loaded fact row; scores and status at :attr:`view_time`."""

    def headers(self) -> tuple[str, ...]:
        h = {
            C_NAMESPACE: self.tr("Namespace"),
            C_KEY: self.tr("Key"),
            C_VALUE: self.tr("Value"),
            C_CONFIDENCE: self.tr("Confidence"),
            C_KIND: self.tr("Kind"),
            C_OCCURRED: self.tr("Occurred"),
            C_VALID_FROM: self.tr("Valid from"),
            C_VALID_UNTIL: self.tr("Valid until"),
            C_CREATED: self.tr("Created"),
            C_ACCESSED: self.tr("Last accessed"),
            C_TAU: self.tr("Tau"),
            C_TAU_SOURCE: self.tr("Tau from"),
            C_SCORE: self.tr("Score"),
            C_CROSSES: self.tr("Below threshold from"),
            C_STATUS: self.tr("Status"),
        }
        return tuple(h[c] for c in range(N_COLUMNS))

    def __init__(self, theme: Any = None, parent: QObject | None = None):
        super().__init__(parent)
        self._theme = theme
        self._rows: list[FactRow] = []
        self._pos: dict[str, int] = {}
        self.view_time = now_ms()
        self.real_now = self.view_time
        self.threshold = THRESHOLD
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._gen = 0  # bumped whenever rows or their scores change
        self._sorted_gen = -1
        self._display_cache: dict[tuple[int, int], str] = {}

    # -- Qt API ----------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else N_COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < N_COLUMNS:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section == C_SCORE and self.view_time != self.real_now:
                days = round((self.view_time - self.real_now) / DAY_MS)
                return self.tr("Score (+{0} d)").format(days)
            return self.headers()[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._header_tip(section)
        return None

    def _header_tip(self, section: int) -> str | None:
        tips = {
            C_TAU: self.tr("Decay time constant in days (∞: never decays)"),
            C_TAU_SOURCE: self.tr("Where tau comes from: the namespace default, a custom value, or a pin"),
            C_SCORE: self.tr(
                "confidence × exp(−age / tau) at the view time; below the threshold = forget candidate"
            ),
            C_CROSSES: self.tr(
                "When the score drops below the forget threshold if the fact is not read again"
            ),
            C_STATUS: self.tr(
                "active, superseded by a newer version, forgotten, or outside its validity window"
            ),
        }
        return tips.get(section)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r = self._rows[index.row()]
        c = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(r, c)
        if role == SortRole:
            return self.sort_value(r, c)
        if role == FactRole:
            return r.fact
        if role == IdRole:
            return r.fact.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(r, c)
        if role == Qt.ItemDataRole.TextAlignmentRole and c in (C_CONFIDENCE, C_TAU, C_SCORE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and self._theme is not None:
            if r.status in ("superseded", "forgotten"):
                return self._theme.muted_text()
            if c == C_SCORE and r.score < self.threshold and r.tau_src != "pinned":
                return self._theme.status_color("error")
            if c == C_CONFIDENCE and not r.fact.confidence_valid:
                return self._theme.status_color("error")
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # -- texts -----------------------------------------------------------------------------------------
    def status_text(self, status: str) -> str:
        return {
            "active": self.tr("active"),
            "outside": self.tr("outside validity window"),
            "superseded": self.tr("superseded"),
            "forgotten": self.tr("forgotten"),
        }[status]

    def tau_source_text(self, src: str, ns: str) -> str:
        if src == "pinned":
            return self.tr("pinned")
        if src == "custom":
            return self.tr("custom")
        return self.tr("namespace default")

    def display(self, r: FactRow, c: int) -> str:
        f = r.fact
        if c == C_NAMESPACE:
            return f.namespace
        if c == C_KEY:
            return f.key
        if c == C_VALUE:
            return r.value_text
        if c == C_CONFIDENCE:
            return fmt_number(f.confidence)
        if c == C_KIND:
            return self.tr("event") if f.fact_kind == "event" else self.tr("state")
        if c == C_OCCURRED:
            return fmt_time(f.occurred_at)
        if c == C_VALID_FROM:
            return fmt_time(f.valid_from)
        if c == C_VALID_UNTIL:
            return fmt_time(f.valid_until)
        if c == C_CREATED:
            return fmt_time(f.created_at)
        if c == C_ACCESSED:
            return fmt_time(f.last_accessed_at)
        if c == C_TAU:
            return fmt_tau(r.tau_eff)
        if c == C_TAU_SOURCE:
            return self.tau_source_text(r.tau_src, f.namespace)
        if c == C_SCORE:
            return fmt_score(r.score)
        if c == C_CROSSES:
            if r.crossing is None:
                return self.tr("never") if r.status in ("active", "outside") else ""
            return f"{fmt_time(r.crossing)} · {fmt_relative(r.crossing, self.real_now)}"
        if c == C_STATUS:
            return self.status_text(r.status)
        return ""

    def sort_value(self, r: FactRow, c: int) -> Any:
        key = SORT_KEYS.get(c)
        return key(r) if key is not None else None

    def _tooltip(self, r: FactRow, c: int) -> str | None:
        f = r.fact
        if c == C_VALUE:
            text = r.value_full
            if f.json_errors:
                text = self.tr("Not valid JSON; shown as stored:") + "\n" + text
            return text
        if c in (C_TAU, C_TAU_SOURCE):
            if r.tau_src == "pinned":
                return self.tr("Pinned: never decays and never enters the forget pool")
            if r.tau_src == "custom":
                return self.tr("Custom tau {0} (namespace default: {1})").format(
                    fmt_tau(r.tau_eff), namespace_tau_text(f.namespace)
                )
            if math.isinf(r.tau_eff):
                return self.tr("user.* facts never decay")
            return self.tr("Default of namespace root '{0}'").format(f.namespace.split(".", 1)[0])
        if c == C_SCORE:
            return self.tr("Score at {0}: {1}").format(fmt_time(self.view_time), fmt_score(r.score))
        if c == C_CROSSES and r.crossing is not None:
            return fmt_time(r.crossing, seconds=True)
        if c == C_CONFIDENCE and not f.confidence_valid:
            return self.tr("Confidence outside 0…1 as stored")
        if c in (C_NAMESPACE, C_KEY):
            return r.name
        return None

    # -- access -------------------------------------------------------------------------------------------
    def rows(self) -> list[FactRow]:
        return self._rows

    def row(self, i: int) -> FactRow:
        return self._rows[i]

    def row_of(self, fact_id: str) -> int:
        return self._pos.get(fact_id, -1)

    def fact_row(self, fact_id: str) -> FactRow | None:
        i = self._pos.get(fact_id, -1)
        return self._rows[i] if i >= 0 else None

    def ids(self) -> list[str]:
        return [r.fact.id for r in self._rows]

    # -- loading ---------------------------------------------------------------------------------------------
    def _score_rows(self, rows: Iterable[FactRow]) -> None:
        t = self.view_time
        for r in rows:
            r.score = row_score(r, t)
            r.status = status_at(r.fact, t)

    def set_data(self, data: FactsData) -> bool:
        """Merge a fresh load: removed rows go, changed rows update in place, new rows are appended.

        Returns whether rows changed in place (a filtering proxy should then filter again)."""
        self._gen += 1
        new = data.rows
        fresh = data.scored_at is not None and data.scored_at == self.view_time
        if not self._rows:
            self.beginResetModel()
            self._rows = list(new)
            if not fresh:
                self._score_rows(self._rows)
            order = self._sorted_order()
            if order is not None:
                self._rows = [self._rows[i] for i in order]
            self._reindex()
            self.endResetModel()
            return False
        new_by_id = {r.fact.id: r for r in new}
        gone = [i for i, r in enumerate(self._rows) if r.fact.id not in new_by_id]
        for start, end in reversed(_ranges(gone)):
            self.beginRemoveRows(QModelIndex(), start, end)
            del self._rows[start : end + 1]
            self.endRemoveRows()
        changed: list[int] = []
        for i, r in enumerate(self._rows):
            n = new_by_id[r.fact.id]
            if n.sig != r.sig:
                self._rows[i] = n
                changed.append(i)
            else:
                r.order = n.order
                if fresh:
                    r.score, r.status = n.score, n.status
        if not fresh:
            self._score_rows(self._rows[i] for i in changed)
        elif self._rows:
            self.dataChanged.emit(self.index(0, C_SCORE), self.index(len(self._rows) - 1, C_CROSSES))
        for start, end in _ranges(changed):
            self.dataChanged.emit(self.index(start, 0), self.index(end, N_COLUMNS - 1))
        present = {r.fact.id for r in self._rows}
        added = [r for r in new if r.fact.id not in present]
        if added:
            if not fresh:
                self._score_rows(added)
            n0 = len(self._rows)
            self.beginInsertRows(QModelIndex(), n0, n0 + len(added) - 1)
            self._rows.extend(added)
            self.endInsertRows()
        self._reindex()
        if (
            gone
            or changed
            or added
            or (fresh and self._sort is not None and self._sort[0] in (C_SCORE, C_STATUS))
        ):
            self._resort()
        return bool(changed)

    def clear(self) -> None:
        self.beginResetModel()
        self._rows = []
        self._pos = {}
        self.endResetModel()

    def _reindex(self) -> None:
        self._pos = {r.fid: i for i, r in enumerate(self._rows)}

    def set_view_time(self, at: int, real_now: int | None = None) -> None:
        """Scores and status at ``at`` (the time control); ``real_now`` for relative texts."""
        self._gen += 1
        self.view_time = int(at)
        if real_now is not None:
            self.real_now = int(real_now)
        if not self._rows:
            return
        self._score_rows(self._rows)
        self.dataChanged.emit(self.index(0, C_SCORE), self.index(len(self._rows) - 1, C_CROSSES))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, C_SCORE, C_SCORE)
        if self._sort is not None and self._sort[0] in (C_SCORE, C_STATUS, C_CROSSES):
            self._resort()

    # -- sorting ------------------------------------------------------------------------------------------------
    @property
    def sort_state(self) -> tuple[int, Qt.SortOrder] | None:
        return self._sort

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < N_COLUMNS:
            self._sort = None
            return
        if self._sort == (column, order) and self._sorted_gen == self._gen:
            return  # QTableView.sortByColumn asks twice (directly and through the header's signal)
        self._sort = (column, order)
        self._resort()

    def _sorted_order(self) -> list[int] | None:
        """The row order of the current sort (``None``: no sort, or already in order)."""
        if self._sort is None or not self._rows:
            return None
        column, order = self._sort
        desc = order == Qt.SortOrder.DescendingOrder
        keyed: list[tuple[Any, int, int]] = []
        missing: list[int] = []
        text = {C_NAMESPACE: 0, C_KEY: 1, C_VALUE: 2}.get(column)
        if text is not None:
            keyed = [(r.sort_text[text], r.order, i) for i, r in enumerate(self._rows)]
        else:
            key = SORT_KEYS[column]
            for i, r in enumerate(self._rows):
                v = key(r)
                if v is None or v != v:  # None and NaN go last
                    missing.append(i)
                else:
                    keyed.append((v, r.order, i))
        keyed.sort(reverse=desc)
        missing.sort(key=lambda i: self._rows[i].order)
        new_order = [t[2] for t in keyed] + missing
        if new_order == list(range(len(self._rows))):
            return None
        return new_order

    def _resort(self) -> None:
        self._sorted_gen = self._gen
        new_order = self._sorted_order()
        if new_order is None:
            return
        self.layoutAboutToBeChanged.emit()
        old_pers = self.persistentIndexList()
        inv = [0] * len(new_order)
        for new_pos, old_pos in enumerate(new_order):
            inv[old_pos] = new_pos
        self._rows = [self._rows[i] for i in new_order]
        self._reindex()
        self.changePersistentIndexList(old_pers, [self.index(inv[p.row()], p.column()) for p in old_pers])
        self.layoutChanged.emit()

    # -- filtering ------------------------------------------------------------------------------------------------
    def accepts(self, i: int, flt: FactsFilter) -> bool:
        r = self._rows[i]
        f = r.fact
        if f.superseded_by is not None and not flt.show_superseded:
            return False
        if f.forgotten_at is not None and not flt.show_forgotten:
            return False
        if flt.ids is not None and f.id not in flt.ids:
            return False
        ns = flt.namespace
        if ns is not None and f.namespace != ns and not f.namespace.startswith(ns + "."):
            return False
        if flt.text and flt.text not in r.search:
            return False
        if flt._compiled is not None and flt.column is not None:
            c = flt.column
            return flt._compiled(self.sort_value(r, c), self.display(r, c))
        return True


def _ranges(indices: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for i in indices:
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


class FactsProxy(QSortFilterProxyModel):
    """Filters :class:`FactsModel`; ``sort()`` is forwarded to the source (see the module docstring)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.flt = FactsFilter()
        self._src: FactsModel | None = None
        # Rows are re-filtered when the filter or the rows change (refilter()), not on every score update.
        self.setDynamicSortFilter(False)

    @property
    def time_dependent(self) -> bool:
        """Whether the filter looks at values that move with the view time (score, status, crossing)."""
        return self.flt._compiled is not None and self.flt.column in (C_SCORE, C_STATUS, C_CROSSES)

    def refilter(self) -> None:
        self.beginFilterChange()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def setSourceModel(self, model: Any) -> None:
        self._src = model
        super().setSourceModel(model)

    def source(self) -> FactsModel:
        assert self._src is not None
        return self._src

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        return self._src.accepts(source_row, self.flt)  # type: ignore[union-attr]

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.source().sort(column, order)

    def set_filter(self, **changes: Any) -> None:
        """Change filter fields (``text``, ``namespace``, ``column``/``expr``, ``show_*``, ``ids``)."""
        self.beginFilterChange()
        for k, v in changes.items():
            if k == "text":
                v = v.strip().casefold()
            setattr(self.flt, k, v)
        self.flt._compiled = (
            compile_column_filter(self.flt.column, self.flt.expr) if self.flt.column is not None else None
        )
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def fact_at(self, proxy_row: int) -> FactRow:
        return self.source().row(self.mapToSource(self.index(proxy_row, 0)).row())


# -- namespace summary -------------------------------------------------------------------------------------------


@dataclass
class NamespaceNode:
    namespace: str
    active: int = 0  # active facts in this namespace itself
    rows: int = 0  # every row in it (superseded / forgotten included)
    subtree_active: int = 0
    children: list[NamespaceNode] = field(default_factory=list)
    exists: bool = False  # has rows itself (else only a parent of others)


def namespace_tree(rows: Iterable[FactRow]) -> list[NamespaceNode]:
    """Namespaces nested by their dots (``project`` > ``project.mycox``), sorted, with counts."""
    nodes: dict[str, NamespaceNode] = {}
    for r in rows:
        ns = r.fact.namespace
        n = nodes.get(ns)
        if n is None:
            n = nodes[ns] = NamespaceNode(ns)
        n.exists = True
        n.rows += 1
        if r.fact.active:
            n.active += 1
    for ns in list(nodes):
        parts = ns.split(".")
        for k in range(1, len(parts)):
            parent = ".".join(parts[:k])
            if parent and parent not in nodes:
                nodes[parent] = NamespaceNode(parent)
    roots: list[NamespaceNode] = []
    for ns in sorted(nodes):
        n = nodes[ns]
        parent = ns.rsplit(".", 1)[0] if "." in ns else None
        if parent and parent in nodes:
            nodes[parent].children.append(n)
        else:
            roots.append(n)

    def total(n: NamespaceNode) -> int:
        n.subtree_active = n.active + sum(total(c) for c in n.children)
        return n.subtree_active

    for n in roots:
        total(n)
    return roots


# -- the forget pool --------------------------------------------------------------------------------------------


class PoolModel(QAbstractTableModel):
    """Forget candidates (score below the threshold, not pinned) at a time, lowest score first."""

    N_COLUMNS = 6

    def headers(self) -> tuple[str, ...]:
        return (
            self.tr("Fact"),
            self.tr("Value"),
            self.tr("Score"),
            self.tr("Below threshold from"),
            self.tr("Last accessed"),
            self.tr("Tau"),
        )

    def __init__(self, theme: Any = None, parent: QObject | None = None):
        super().__init__(parent)
        self._theme = theme
        self._rows: list[tuple[Fact, float, int | None, str]] = []
        self.at = now_ms()
        self.real_now = self.at

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.N_COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < self.N_COLUMNS
        ):
            return self.headers()[section]
        return None

    def set_candidates(self, cands: list[tuple[Fact, float]], at: int, real_now: int) -> None:
        self.beginResetModel()
        self.at, self.real_now = at, real_now
        self._rows = []
        for f, s in cands:
            crossing = forget_crossing_time(
                f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days
            )
            self._rows.append((f, s, crossing, readable_value(f)[0]))
        self.endResetModel()

    def fact(self, row: int) -> Fact:
        return self._rows[row][0]

    def score(self, row: int) -> float:
        return self._rows[row][1]

    def facts(self) -> list[Fact]:
        return [r[0] for r in self._rows]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        f, s, crossing, value = self._rows[index.row()]
        c = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if c == 0:
                return f"{f.namespace}.{f.key}"
            if c == 1:
                return value
            if c == 2:
                return fmt_score(s)
            if c == 3:
                if crossing is None:
                    return ""
                return f"{fmt_time(crossing)} · {fmt_relative(crossing, self.real_now)}"
            if c == 4:
                return fmt_time(f.last_accessed_at)
            if c == 5:
                return fmt_tau(effective_tau(f.namespace, f.decay_tau_days))
        if role == FactRole:
            return f
        if role == IdRole:
            return f.id
        if role == Qt.ItemDataRole.TextAlignmentRole and c in (2, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and c == 3
            and crossing is not None
            and crossing > self.real_now
        ):
            return self._theme.status_color("changed") if self._theme is not None else None
        if (
            role == Qt.ItemDataRole.ToolTipRole
            and c == 3
            and crossing is not None
            and crossing > self.real_now
        ):
            return self.tr("Not a candidate yet: it falls below the threshold at the chosen future time")
        return None
