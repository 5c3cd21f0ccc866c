"""The doctor's checks of the facts layer (``memory_facts``).

* ``health.facts.live_conflict`` (fail): several live values for one ``namespace``/``key``;
* ``health.facts.chain_missing`` (fail): ``superseded_by`` names a fact that does not exist;
* ``health.facts.chain_cycle`` (fail): following ``superseded_by`` comes back to where it started;
* ``health.facts.same_value`` (warn): one value (text compared case-folded, white space collapsed; lists
  and objects as JSON) under several live keys of a namespace; numbers, booleans and texts shorter than
  ``same_value_min_chars`` never (statuses such as "done" or "in review" are shared by nature);
* ``health.facts.expired_live`` (warn when shown in the prefix, info otherwise): ``valid_until`` passed,
  still live (the reference never looks at it, spec Part A §0.12);
* ``health.facts.decayed_shown`` (warn): shown in the prefix while its decay score is below the forget
  threshold (the prefix ignores decay, Part A §0.3);
* ``health.facts.cut_by_limit`` (warn): live ``user``/``project`` facts beyond the prefix's 100 / 20;
* ``health.facts.cut_by_chars`` (warn): facts whose prefix line falls (in part) beyond the 40 000 cap;
* ``health.facts.unread`` (info): live facts, not shown in the prefix, not read for ``unread_days``;
* ``health.facts.confidence_invalid`` and ``health.facts.invalid_json`` (fail when live, warn otherwise).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.decay import score_memory
from core.facts import FactStore
from core.health.context import DAY, Context, FactRow, finding
from core.health.finding import Finding, Fix
from core.jsutil import js_number_str, js_stringify, utf16_len
from core.models import Fact
from core.prefix_text import (
    FACT_VALUE_INJECT_CAP,
    MEMORY_PREFIX_TOTAL_CAP,
    PROJECT_FACTS_TOP_N,
    USER_FACTS_SAFETY_CAP,
    WRAPPER_OPEN,
    truncate_for_injection,
)

PREFIX_NAMESPACES = {"user": USER_FACTS_SAFETY_CAP, "project": PROJECT_FACTS_TOP_N}


def _live(ctx: Context) -> list[FactRow]:
    return [f for f in ctx.facts if f.active]


def _ids(facts: Sequence[Fact | FactRow]) -> list[str]:
    return [f.id for f in facts]


def _recency(f: Fact | FactRow) -> Any:
    return f.last_accessed_at if f.last_accessed_at is not None else f.created_at


def _time_key(t: Any) -> float:
    """A stored time for sorting: a damaged one (text, NULL) sorts as the oldest."""
    return (
        float(t) if isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t) else -math.inf
    )


@dataclass
class PrefixFacts:
    """Which live ``user``/``project`` facts the prefix shows (a line cut by the cap in part still
    shows), and which it leaves out and why."""

    shown: list[Fact] = field(default_factory=list)
    cut_by_limit: dict[str, list[Fact]] = field(default_factory=dict)
    cut_by_chars: list[tuple[Fact, int]] = field(default_factory=list)  # (fact, units cut from its line)
    live: dict[str, int] = field(default_factory=dict)


def _section_offsets(ctx: Context) -> dict[str, tuple[int, str]]:
    """``name -> (offset of the section in the uncut prefix text, section text)``."""
    out: dict[str, tuple[int, str]] = {}
    at = utf16_len(WRAPPER_OPEN)
    for s in ctx.prefix.sections:
        out[s.name] = (at, s.text)
        at += s.chars + 1
    return out


def _cut_lines(ns: str, top: list[Fact], offset: int, text: str) -> list[tuple[Fact, int]]:
    """The facts of a facts section whose line ends beyond the prefix's cap, with the units cut (the
    whole line's length when none of it is left)."""
    lines = [f"  {ns}.{f.key} = {_injected(ns, f)}" for f in top]
    heading = text.split("\n", 1)[0]
    if not text.startswith("\n".join([heading, *lines])):
        return []  # not the section this module expects: claim nothing
    out: list[tuple[Fact, int]] = []
    at = offset + utf16_len(heading) + 1
    for f, line in zip(top, lines, strict=True):
        end = at + utf16_len(line)
        if end > MEMORY_PREFIX_TOTAL_CAP:
            out.append((f, min(utf16_len(line), end - MEMORY_PREFIX_TOTAL_CAP)))
        at = end + 1
    return out


def _injected(ns: str, f: Fact) -> str:
    return truncate_for_injection(js_stringify(f.value), FACT_VALUE_INJECT_CAP, f"{ns}.{f.key}")


def prefix_facts(ctx: Context) -> PrefixFacts:
    """The prefix's facts, as :func:`core.prefix.build_memory_prefix` orders and caps them."""
    cached = getattr(ctx, "_prefix_facts", None)
    if cached is not None:
        return cached
    out = PrefixFacts()
    offsets = _section_offsets(ctx)
    store = FactStore(ctx.db)
    for ns, cap in PREFIX_NAMESPACES.items():
        ordered = sorted(store.list_facts(ns), key=_recency, reverse=True)  # as the prefix orders them
        out.live[ns] = len(ordered)
        top, rest = ordered[:cap], ordered[cap:]
        if rest:
            out.cut_by_limit[ns] = rest
        where = offsets.get(f"{ns}_facts")
        cut = _cut_lines(ns, top, *where) if where is not None and top else []
        out.cut_by_chars.extend(cut)
        gone = {f.id for f, n in cut if n >= utf16_len(f"  {ns}.{f.key} = {_injected(ns, f)}")}
        out.shown.extend(f for f in top if f.id not in gone)
    ctx._prefix_facts = out  # type: ignore[attr-defined]
    return out


def _merge_fix(facts: Sequence[Fact | FactRow]) -> Fix:
    return Fix("health.fix.merge_duplicates", {"layer": "facts", "ids": _ids(facts)})


def _forget_fix(facts: Sequence[Fact | FactRow]) -> Fix:
    return Fix("health.fix.forget", {"layer": "facts", "ids": _ids(facts)})


def check_live_conflicts(ctx: Context) -> list[Finding]:
    groups: dict[tuple[Any, Any], list[FactRow]] = defaultdict(list)
    for f in _live(ctx):
        groups[(f.namespace, f.key)].append(f)
    out = []
    for (ns, key), facts in groups.items():
        if len(facts) > 1:
            facts = sorted(facts, key=lambda f: (_time_key(f.created_at), f.rowid), reverse=True)
            out.append(
                finding(
                    "health.facts.live_conflict",
                    "fail",
                    _ids(facts),
                    {"count": len(facts), "limit": 1},
                    _merge_fix(facts),
                    namespace=ns,
                    key=key,
                    count=len(facts),
                )
            )
    return out


def check_chains(ctx: Context) -> list[Finding]:
    out = []
    by_id = ctx.facts_by_id
    for f in ctx.facts:
        if f.superseded_by is not None and f.superseded_by not in by_id:
            out.append(
                finding(
                    "health.facts.chain_missing",
                    "fail",
                    [f.id],
                    {"missing": f.superseded_by},
                    Fix("health.fix.repair_chain", {"ids": [f.id]}),
                    id=f.id,
                    namespace=f.namespace,
                    key=f.key,
                    missing=f.superseded_by,
                )
            )
    done: set[str] = set()
    for start in ctx.facts:
        path: list[str] = []
        on_path: set[str] = set()
        cur: str | None = start.id
        while cur is not None and cur in by_id and cur not in done and cur not in on_path:
            path.append(cur)
            on_path.add(cur)
            cur = by_id[cur].superseded_by
        if cur is not None and cur in on_path:
            cycle = path[path.index(cur) :]
            first = cycle.index(min(cycle))
            cycle = cycle[first:] + cycle[:first]
            f0 = by_id[cycle[0]]
            out.append(
                finding(
                    "health.facts.chain_cycle",
                    "fail",
                    cycle,
                    {"count": len(cycle)},
                    Fix("health.fix.repair_chain", {"ids": cycle}),
                    namespace=f0.namespace,
                    key=f0.key,
                    count=len(cycle),
                )
            )
        done.update(path)
    return out


def normalised_value(f: FactRow, min_chars: float) -> str | None:
    """The value compared across keys, or ``None`` when it says too little to compare."""
    if not f.json_valid:
        return None
    try:
        v = json.loads(f.value_json)
    except (TypeError, ValueError, RecursionError):
        return None
    if isinstance(v, str):
        t = " ".join(v.split()).casefold()
        return "s:" + t if len(t) >= min_chars else None
    if isinstance(v, list | dict) and v:
        return "j:" + js_stringify(v)
    return None


def check_same_value(ctx: Context) -> list[Finding]:
    groups: dict[tuple[Any, str], list[FactRow]] = defaultdict(list)
    for f in _live(ctx):
        norm = normalised_value(f, ctx.options.same_value_min_chars)
        if norm is not None:
            groups[(f.namespace, norm)].append(f)
    out = []
    for (ns, _), facts in groups.items():
        keys = sorted({str(f.key) for f in facts})
        if len(keys) > 1:
            facts = sorted(facts, key=lambda f: (str(f.key), str(f.id)))
            out.append(
                finding(
                    "health.facts.same_value",
                    "warn",
                    _ids(facts),
                    {"count": len(keys), "keys": keys},
                    _merge_fix(facts),
                    namespace=ns,
                    keys=keys,
                    count=len(keys),
                )
            )
    return out


def check_expired(ctx: Context) -> list[Finding]:
    shown = {f.id for f in prefix_facts(ctx).shown}
    expired = [f for f in _live(ctx) if isinstance(f.valid_until, int) and f.valid_until < ctx.now]
    if not expired:
        return []
    n_shown = sum(f.id in shown for f in expired)
    measure = {
        "count": len(expired),
        "shown": n_shown,
        "facts": [{"id": f.id, "valid_until": f.valid_until, "shown": f.id in shown} for f in expired],
    }
    sev = "warn" if n_shown else "info"
    return [
        finding(
            "health.facts.expired_live",
            sev,
            _ids(expired),
            measure,
            _forget_fix(expired),
            count=len(expired),
            shown=n_shown,
        )
    ]


def _score(ctx: Context, f: Fact) -> float:
    return score_memory(
        f.namespace, f.confidence, f.created_at, f.last_accessed_at, f.decay_tau_days, ctx.now
    )


def check_decayed_shown(ctx: Context) -> list[Finding]:
    limit = ctx.options.forget_threshold
    low = [(f, _score(ctx, f)) for f in prefix_facts(ctx).shown]
    low = [(f, s) for f, s in low if s < limit]  # NaN < x is False: never low
    if not low:
        return []
    measure = {"threshold": limit, "count": len(low), "scores": {f.id: s for f, s in low}}
    facts = [f for f, _ in low]
    return [
        finding(
            "health.facts.decayed_shown",
            "warn",
            _ids(facts),
            measure,
            _forget_fix(facts),
            count=len(low),
            threshold=limit,
        )
    ]


def check_prefix_cuts(ctx: Context) -> list[Finding]:
    pf = prefix_facts(ctx)
    out = []
    for ns, cut in pf.cut_by_limit.items():
        limit = PREFIX_NAMESPACES[ns]
        measure = {"namespace": ns, "limit": limit, "live": pf.live[ns], "count": len(cut)}
        out.append(
            finding(
                "health.facts.cut_by_limit",
                "warn",
                _ids(cut),
                measure,
                namespace=ns,
                limit=limit,
                count=len(cut),
            )
        )
    if pf.cut_by_chars:
        raw = ctx.prefix.raw_chars
        over = raw - MEMORY_PREFIX_TOTAL_CAP
        measure = {
            "cap": MEMORY_PREFIX_TOTAL_CAP,
            "chars": raw,
            "over": over,
            "count": len(pf.cut_by_chars),
            "cut": {f.id: n for f, n in pf.cut_by_chars},
        }
        facts = [f for f, _ in pf.cut_by_chars]
        out.append(
            finding(
                "health.facts.cut_by_chars",
                "warn",
                _ids(facts),
                measure,
                over=over,
                cap=MEMORY_PREFIX_TOTAL_CAP,
                count=len(facts),
            )
        )
    return out


def check_unread(ctx: Context) -> list[Finding]:
    days = ctx.options.unread_days
    before = ctx.now - days * DAY
    shown = {f.id for f in prefix_facts(ctx).shown}
    stale = [
        f for f in _live(ctx) if f.id not in shown and isinstance(_recency(f), int) and _recency(f) < before
    ]
    if not stale:
        return []
    oldest = min(_recency(f) for f in stale)
    measure = {"days": days, "count": len(stale), "oldest_read": oldest}
    return [
        finding(
            "health.facts.unread",
            "info",
            _ids(stale),
            measure,
            _forget_fix(stale),
            count=len(stale),
            days=days,
        )
    ]


def _shown_number(v: Any) -> str:
    if isinstance(v, float):
        return js_number_str(v)
    return str(v) if isinstance(v, int) and not isinstance(v, bool) else repr(v)


def _confidence_ok(c: Any) -> bool:
    return isinstance(c, int | float) and not isinstance(c, bool) and math.isfinite(c) and 0 <= c <= 1


def check_damaged(ctx: Context) -> list[Finding]:
    out = []
    for f in ctx.facts:
        sev = "fail" if f.active else "warn"
        if not _confidence_ok(f.confidence):
            value = _shown_number(f.confidence)
            out.append(
                finding(
                    "health.facts.confidence_invalid",
                    sev,
                    [f.id],
                    {"value": value, "min": 0, "max": 1},
                    namespace=f.namespace,
                    key=f.key,
                    value=value,
                )
            )
        if not f.json_valid:
            row = ctx.one("SELECT * FROM memory_facts WHERE rowid = ?", (f.rowid,))
            model = None if row is None else Fact.from_row(row)  # the stores' reading decides (JSON.parse)
            if model is not None and model.json_errors:
                out.append(
                    finding(
                        "health.facts.invalid_json",
                        sev,
                        [f.id],
                        {"errors": list(model.json_errors)},
                        namespace=f.namespace,
                        key=f.key,
                    )
                )
    return out


CHECKS = [
    check_live_conflicts,
    check_chains,
    check_same_value,
    check_expired,
    check_decayed_shown,
    check_prefix_cuts,
    check_unread,
    check_damaged,
]
