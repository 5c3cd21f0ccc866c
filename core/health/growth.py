"""The doctor's checks of the file and its growth (layer ``file``).

Measurements, each an ``info`` finding that becomes a warning past its threshold:

* ``health.file.size``: the file's size, its ``-wal`` and free pages, and month by month (UTC) the
  messages and actions that came in and the characters of the messages (from the timestamp indexes);
  warn above ``size_max_mb``;
* ``health.file.free_pages`` (warn, only when over): free pages a ``VACUUM`` would reclaim, over
  ``free_ratio`` of the file *and* ``free_min_mb``;
* ``health.file.wal_size`` (warn, only when over): the ``-wal`` file above ``wal_max_mb``;
* ``health.file.backups`` / ``health.file.no_backup``: the backups' total size and the age of the newest
  one that passes ``quick_check`` (either owner); warn when older than ``backup_max_age_days`` or when
  there is none (a database with a path only);
* ``health.file.prefix_size``: the memory prefix's size now and at the start of each of the last
  ``prefix_months`` months (characters before the cap, tokens, the cap); warn over ``prefix_warn_ratio``
  of the cap;
* ``health.file.messages_per_day``: messages per UTC day over the last ``messages_days`` days; warn when
  the busiest day is over ``messages_per_day_max``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from datetime import UTC, datetime
from typing import Any

from core.backups.listing import check_backup_file, list_backups_info
from core.damage import JS_TIME_MAX
from core.health.context import DAY, MB, Context, finding
from core.health.finding import Finding
from core.prefix import MEMORY_PREFIX_TOTAL_CAP, build_memory_prefix
from core.timeline import RawStore

MAX_MONTHS = 120  # the growth table covers at most the last ten years


def _month_starts(lo: int, hi: int, limit: int) -> list[int]:
    """UTC month starts (epoch ms) from the month of ``lo`` to the month after ``hi``; the last ``limit``."""
    d = datetime.fromtimestamp(lo / 1000, UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    out = []
    while True:
        ms = int(d.timestamp() * 1000)
        out.append(ms)
        if ms > hi:
            break
        d = d.replace(year=d.year + 1, month=1) if d.month == 12 else d.replace(month=d.month + 1)
    return out[-(limit + 1) :]


def _month(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m")


def _span(ctx: Context, table: str) -> tuple[int, int] | None:
    row = ctx.one(
        f"SELECT min(timestamp), max(timestamp) FROM {table} WHERE timestamp BETWEEN 0 AND ?", (JS_TIME_MAX,)
    )
    return None if row is None or row[0] is None else (int(row[0]), int(row[1]))


def monthly_growth(ctx: Context) -> list[dict[str, Any]]:
    """Per UTC month with messages: ``{"month", "start", "messages", "chars", "actions"}``."""
    span = _span(ctx, "memory_raw_messages")
    if span is None:
        return []
    starts = _month_starts(span[0], span[1], MAX_MONTHS)
    has_actions = ctx.has_table("memory_actions")
    out = []
    for a, b in itertools.pairwise(starts):
        n, chars = ctx.one(
            "SELECT count(*), total(length(content)) FROM memory_raw_messages WHERE timestamp >= ? AND timestamp < ?",
            (a, b),
        )
        acts = (
            ctx.one("SELECT count(*) FROM memory_actions WHERE timestamp >= ? AND timestamp < ?", (a, b))[0]
            if has_actions
            else 0
        )
        out.append({"month": _month(a), "start": a, "messages": n, "chars": int(chars), "actions": acts})
    return out


def _file_sizes(ctx: Context) -> dict[str, int]:
    page_size = int(ctx.one("PRAGMA page_size")[0])
    pages = int(ctx.one("PRAGMA page_count")[0])
    free = int(ctx.one("PRAGMA freelist_count")[0])
    size = pages * page_size
    wal = 0
    if ctx.db.path is not None:
        with contextlib.suppress(OSError):
            size = os.stat(ctx.db.path).st_size
        try:
            wal = os.stat(f"{ctx.db.path}-wal").st_size
        except OSError:
            wal = 0
    return {"bytes": size, "wal_bytes": wal, "page_size": page_size, "pages": pages, "free_pages": free}


def _mb(n: float) -> float:
    return round(n / MB, 1)


def check_size(ctx: Context) -> list[Finding]:
    o = ctx.options
    sizes = _file_sizes(ctx)
    months = monthly_growth(ctx)
    last = months[-1] if months else {"month": _month(ctx.now), "messages": 0, "chars": 0}
    sev = "warn" if sizes["bytes"] > o.size_max_mb * MB else "info"
    out = [
        finding(
            "health.file.size",
            sev,
            [],
            {**sizes, "threshold_mb": o.size_max_mb, "months": months},
            size_mb=_mb(sizes["bytes"]),
            month=last["month"],
            month_messages=last["messages"],
        )
    ]
    free = sizes["free_pages"] * sizes["page_size"]
    ratio = free / sizes["bytes"] if sizes["bytes"] else 0.0
    if free >= o.free_min_mb * MB and ratio >= o.free_ratio:
        out.append(
            finding(
                "health.file.free_pages",
                "warn",
                [],
                {"free_bytes": free, "ratio": round(ratio, 4), "threshold_ratio": o.free_ratio},
                free_mb=_mb(free),
                ratio=f"{round(ratio * 100)}%",
            )
        )
    if sizes["wal_bytes"] > o.wal_max_mb * MB:
        out.append(
            finding(
                "health.file.wal_size",
                "warn",
                [],
                {"wal_bytes": sizes["wal_bytes"], "threshold_mb": o.wal_max_mb},
                wal_mb=_mb(sizes["wal_bytes"]),
                limit_mb=o.wal_max_mb,
            )
        )
    return out


def check_backups(ctx: Context) -> list[Finding]:
    if ctx.db.path is None:
        return []
    infos = list_backups_info(ctx.db.path, check=False, now=ctx.now)
    total = sum(b.size for b in infos)
    newest = next((b for b in infos if b.kind == "file" and check_backup_file(b.path) == "ok"), None)
    measure: dict[str, Any] = {"count": len(infos), "total_bytes": total}
    if newest is None:
        return [finding("health.file.no_backup", "warn", [], measure, count=len(infos))]
    age = (ctx.now - newest.created_at) if newest.created_at is not None else None
    age_days = None if age is None else round(age / DAY, 1)
    measure.update(
        {
            "newest": newest.name,
            "owner": newest.owner,
            "age_ms": age,
            "threshold_days": ctx.options.backup_max_age_days,
        }
    )
    old = age is None or age > ctx.options.backup_max_age_days * DAY
    return [
        finding(
            "health.file.backups",
            "warn" if old else "info",
            [newest.name],
            measure,
            count=len(infos),
            total_mb=_mb(total),
            age_days=age_days,
        )
    ]


def prefix_history(ctx: Context) -> list[dict[str, Any]]:
    """The prefix's size at the start of each of the last ``prefix_months`` months (UTC)."""
    months = int(ctx.options.prefix_months)
    if months <= 0:
        return []
    starts = _month_starts(ctx.now - 40 * DAY * months, ctx.now, months)
    out = []
    for t in starts:
        if t > ctx.now:
            continue
        p = build_memory_prefix(ctx.db, now=t, as_of=t)
        out.append({"month": _month(t - 1), "at": t, "chars": p.raw_chars, "tokens": p.tokens})
    return out[-months:]


def check_prefix(ctx: Context) -> list[Finding]:
    p = ctx.prefix
    cap = MEMORY_PREFIX_TOTAL_CAP
    over = p.raw_chars > cap or p.raw_chars >= ctx.options.prefix_warn_ratio * cap
    measure = {
        "cap": cap,
        "chars": p.raw_chars,
        "shown_chars": p.chars,
        "tokens": p.tokens,
        "truncated": p.truncated,
        "threshold_ratio": ctx.options.prefix_warn_ratio,
        "months": prefix_history(ctx),
    }
    return [
        finding(
            "health.file.prefix_size",
            "warn" if over else "info",
            [],
            measure,
            chars=p.raw_chars,
            cap=cap,
            tokens=p.tokens,
        )
    ]


def check_messages_per_day(ctx: Context) -> list[Finding]:
    days = max(1, int(ctx.options.messages_days))
    since = ctx.now - days * DAY
    counts = RawStore(ctx.db).daily_counts(since=since, until=ctx.now)
    total = sum(n for _, n in counts)
    busiest = max((n for _, n in counts), default=0)
    average = round(total / days, 1)
    limit = ctx.options.messages_per_day_max
    measure = {
        "days": days,
        "total": total,
        "average": average,
        "max": busiest,
        "threshold": limit,
        "per_day": [{"day": d, "messages": n} for d, n in counts],
    }
    return [
        finding(
            "health.file.messages_per_day",
            "warn" if busiest > limit else "info",
            [],
            measure,
            average=average,
            days=days,
            max=busiest,
        )
    ]


CHECKS = [check_size, check_backups, check_prefix, check_messages_per_day]
