"""The facts the tab shows, prepared off the GUI thread (Qt-free).

:func:`load_facts` reads every row of ``memory_facts`` once (superseded and forgotten ones too) and
prepares each as a :class:`FactRow`: readable value text, effective tau and its source, decay anchor and,
when first asked for, the threshold crossing time. :func:`row_score` gives the score of a row at any
time with the exact arithmetic of :func:`core.decay.score_memory`. :func:`namespace_tree` nests the
namespaces by their dots with their counts.
"""

from __future__ import annotations

import heapq
import json
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
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

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
THRESHOLD = DEFAULT_FORGET_THRESHOLD
ONE_LINE_MAX = 140
FULL_MAX = 3000
SEARCH_MAX = 4000
STATUSES = ("active", "outside", "superseded", "forgotten")
#: :attr:`FactRow.hidden`'s bits: what the table hides unless asked to show it.
SUPERSEDED, FORGOTTEN = 1, 2
#: The time fields most facts leave empty, with their table column (see ``columns.py``).
OPTIONAL_TIMES = {"occurred_at": 10, "valid_from": 11, "valid_until": 12}


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


class FactRow:
    """One fact as the table shows it.

    Built on the worker for every fact of the file, so only what scoring needs is computed at once (the
    score plan and the decay anchor); the texts, the effective tau, the signature and the threshold
    crossing are computed when first asked for (most rows are never looked at, and a reload reuses the
    row of a fact that did not change).
    """

    __slots__ = (
        "_crossing",
        "_name",
        "_search",
        "_sig",
        "_tau",
        "_value_text",
        "anchor",
        "fact",
        "fast",
        "fid",
        "flat",
        "hidden",
        "order",
        "score",
        "status",
        "windowed",
    )

    def __init__(self, fact: Fact, order: int = 0, taus: dict[str, float] | None = None):
        self.fact = fact
        self.fid: str = fact.id
        anchor = fact.last_accessed_at if fact.last_accessed_at is not None else fact.created_at
        self.anchor = int(anchor) if anchor is not None else 0
        self.order = order
        self.fast, self.flat = _score_plan(fact, taus)
        self.score = math.nan
        self.status = "active"
        # only a fact with a validity window changes its status as the view time moves
        self.windowed = fact.valid_from is not None or fact.valid_until is not None
        self.hidden = (SUPERSEDED if fact.superseded_by is not None else 0) | (
            FORGOTTEN if fact.forgotten_at is not None else 0
        )
        self._name = self._value_text = self._search = self._sig = _NOT_YET
        self._crossing = _NOT_YET
        self._tau: Any = _NOT_YET

    def __repr__(self) -> str:
        return f"FactRow({self.fid!r}, {self.name!r})"

    @property
    def name(self) -> str:
        if self._name is _NOT_YET:
            self._name = f"{self.fact.namespace}.{self.fact.key}"
        return self._name

    @property
    def value_text(self) -> str:
        """The value on one line, shortened to :data:`ONE_LINE_MAX` characters."""
        if self._value_text is _NOT_YET:
            self._value_text = _one_line(compact_value(self.fact))
        return self._value_text

    @property
    def search(self) -> str:
        """What the text filter looks in: the name and the value, casefolded."""
        if self._search is _NOT_YET:
            self._search = f"{self.name}\n{compact_value(self.fact)[:SEARCH_MAX]}".casefold()
        return self._search

    def _tau_pair(self) -> tuple[float, str | None]:
        if self._tau is _NOT_YET:
            f = self.fact
            self._tau = (effective_tau(f.namespace, f.decay_tau_days), None)
        return self._tau

    @property
    def tau_eff(self) -> float:
        """The effective tau in days (the namespace's default when none is stored; ∞ when pinned)."""
        return self._tau_pair()[0]

    @property
    def tau_src(self) -> str:
        """Where tau comes from: ``namespace``, ``custom`` or ``pinned``."""
        tau, src = self._tau_pair()
        if src is None:
            src = tau_source(self.fact.namespace, self.fact.decay_tau_days)
            self._tau = (tau, src)
        return src

    @property
    def sig(self) -> tuple[Any, ...]:
        """What a reload compares to tell whether the fact changed."""
        if self._sig is _NOT_YET:
            self._sig = fact_signature(self.fact)
        return self._sig

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

    def reused(self, order: int) -> FactRow:
        """A copy of this row for a reload that found the fact unchanged (texts already computed kept)."""
        r = FactRow.__new__(FactRow)
        for name in FactRow.__slots__:
            setattr(r, name, getattr(self, name))
        r.order = order
        return r

    def with_fact(self, fact: Fact, tau_eff: float) -> FactRow:
        """This row with another fact (same key) and effective tau, for a what-if curve."""
        r = FactRow(fact, self.order)
        r._tau = (tau_eff, self.tau_src)
        r.score, r.status = self.score, self.status
        return r


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
        f.namespace,
        f.key,
    )


def build_row(fact: Fact, order: int = 0) -> FactRow:
    return FactRow(fact, order)


def _score_plan(
    f: Fact, taus: dict[str, float] | None = None
) -> tuple[tuple[float, float, float] | None, float | None]:
    """How :func:`row_score` computes this fact's score with the exact arithmetic of ``score_memory``.

    ``(None, conf)``: it does not decay (pinned, or a tau that is not finite); ``((conf, anchor, tau),
    None)``: ``conf × exp(−max(0, (t − anchor)/day)/tau)``; ``(None, None)``: an edge case (tau 0,
    missing or non-finite anchor) left to ``score_memory`` itself. ``taus``: the namespaces' default
    taus found so far (a load's rows share a few namespaces), filled as they are looked up.
    """
    c = f.confidence
    conf = 0.0 if c is None else float(c)
    tau_raw = f.decay_tau_days
    if tau_raw is not None and tau_raw < 0:
        return None, conf
    if tau_raw is not None:
        tau = float(tau_raw)
    elif taus is None:
        tau = namespace_tau_days(f.namespace)
    else:
        known = taus.get(f.namespace)
        if known is None:
            known = taus[f.namespace] = namespace_tau_days(f.namespace)
        tau = known
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
    tree: list[NamespaceNode] = field(default_factory=list)  # the namespaces, nested, with counts
    empty_columns: tuple[int, ...] = ()  # the table's time columns without a value in any row


def load_facts(
    db: Any,
    at: int | None = None,
    real_now: int | None = None,
    previous: dict[str, FactRow] | None = None,
    job: Any = None,
) -> FactsData:
    """Every fact row, prepared for the table and scored at ``at`` (runs on a worker connection).

    ``previous`` (the rows shown, by id) makes a reload reuse the row of every fact that did not change,
    with the texts already computed for it; the rows' signatures are then computed here, off the GUI
    thread, which compares them.
    """
    t0 = time.perf_counter()
    facts = FactStore(db).all_rows()
    rows: list[FactRow] = []
    counts: dict[str, list[int]] = {}
    taus: dict[str, float] = {}
    active = 0
    filled = {name: False for name in OPTIONAL_TIMES}
    for i, f in enumerate(facts):
        if job is not None and i % 2000 == 0 and job.cancelled:
            break
        old = previous.get(f.id) if previous is not None else None
        if old is not None and old.sig == fact_signature(f):
            r = old.reused(i)
        else:
            r = FactRow(f, i, taus)
            if previous is not None:
                r.sig  # noqa: B018 - computed here, compared on the GUI thread
        if at is not None:
            # a row neither superseded, forgotten nor with a validity window is active at any time
            r.status = status_at(f, at) if r.hidden or r.windowed else "active"
        is_active = not r.hidden
        active += is_active
        c = counts.get(f.namespace)
        if c is None:
            counts[f.namespace] = [int(is_active), 1]
        else:
            c[0] += is_active
            c[1] += 1
        rows.append(r)
        if f.occurred_at is not None or f.valid_from is not None or f.valid_until is not None:
            for name in OPTIONAL_TIMES:
                filled[name] = filled[name] or getattr(f, name) is not None
    if at is not None:
        score_rows(rows, at)  # the time control's loop: row_score() for every row, bit for bit
    empty = tuple(c for name, c in OPTIONAL_TIMES.items() if not filled[name])
    tree = _tree(counts)
    return FactsData(rows, now_ms(), time.perf_counter() - t0, at, real_now, active, tree, empty)


def load_pool(db: Any, threshold: float, at: int) -> list[tuple[Fact, float]]:
    """The forget candidates at ``at`` exactly as the core computes them (every one of them)."""
    return FactStore(db).forget_candidates(threshold=threshold, limit=1_000_000_000, now=at)


def load_pool_counted(
    db: Any, threshold: float, at: int, real_now: int
) -> tuple[list[tuple[Fact, float]], int]:
    """The forget candidates at ``at`` (:func:`load_pool`) and how many of them are candidates at
    ``real_now`` too (the pool's summary says so when ``at`` is ahead), both off the GUI thread."""
    cands = load_pool(db, threshold, at)
    if at == real_now:
        return cands, len(cands)
    now_count = sum(
        1
        for f, _s in cands
        if score_memory(
            f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, real_now
        )
        < threshold
    )
    return cands, now_count


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


def score_rows(rows: list[FactRow], at: int) -> None:
    """Every row's score at ``at``: :func:`row_score`'s arithmetic, bit for bit, in one loop (a time
    control step rescores every row)."""
    t = float(at)
    exp = math.exp
    for r in rows:
        fast = r.fast
        if fast is not None:
            conf, anchor, tau = fast
            age = (t - anchor) / DAY_MS
            if age < 0.0:
                age = 0.0
            r.score = conf * exp(-age / tau)
        else:
            r.score = row_score(r, at)


def leading_rows(rows: Iterable[FactRow], namespace: str | None, count: int) -> list[FactRow]:
    """The ``count`` most important facts of ``namespace`` (``None``: all), as the curves show them
    while nothing is selected: the active ones with the highest scores, decaying ones first (a pinned
    fact's curve is a flat line)."""
    ns = namespace
    shown = [
        r
        for r in rows
        if r.status == "active"
        and (ns is None or r.fact.namespace == ns or r.fact.namespace.startswith(ns + "."))
    ]
    return heapq.nlargest(
        count, shown, key=lambda r: (r.fast is not None, r.score if r.score == r.score else -1.0)
    )


def ranges(indices: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for i in indices:
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


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
    counts: dict[str, list[int]] = {}
    for r in rows:
        c = counts.setdefault(r.fact.namespace, [0, 0])
        c[0] += r.fact.active
        c[1] += 1
    return _tree(counts)


def _tree(counts: dict[str, list[int]]) -> list[NamespaceNode]:
    """The nested namespaces from ``{namespace: [active, rows]}``."""
    nodes = {ns: NamespaceNode(ns, active=a, rows=n, exists=True) for ns, (a, n) in counts.items()}
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
