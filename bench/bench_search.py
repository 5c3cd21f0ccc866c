"""Benchmark of RawStore.search_messages against the reference's SQL on a large bilingual timeline.

    python bench/bench_search.py                 # 1,000,000 messages (built once, cached)
    python bench/bench_search.py --messages 50000

The database is cached under ``bench/.cache/`` (keyed by size, seed and generator) and reused: an
existing cache of either generator is taken first. A new one is built with ``core.demo.generate`` when
that generator exists (``--generator demo``), otherwise with the small generator below through
``RawStore.append_many`` (``--generator bench``). Building 1M messages takes a few minutes (the FTS5
trigram index dominates). The bench generator plants the query words at known rates; on demo data the
words are picked from a sample of the messages (closest to the target rates).

Each query is timed through ``search_messages`` and through the reference's SQL run raw on the same
connection (``... JOIN fts ... WHERE fts MATCH ? ORDER BY m.timestamp DESC LIMIT ?``, then the ``LIKE``
fallback when it gives no rows). The table shows the median of several warm runs, the ratio, and
whether the two first pages agree (same ids in the same order; ties in timestamp, which the reference
leaves unordered, are compared as sets).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.db import MemoryDB  # noqa: E402
from core.timeline import RawStore  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"

RARE_EN = "zephyrine"  # ~0.01% of rows
COMMON_EN = "deployment"  # 25% of rows
ZH3 = "数据库"  # ~5% of rows
ZH2 = "旺财"  # ~2% of rows (2 characters: always the LIKE path)

_EN_TEXT = (
    "the a to and of in for on with at by from about into over after before under between "
    "memory agent session timeline message note fact skill recipe query index search result "
    "user assistant project config server client request response error retry cache token "
    "budget window recall recent schedule reminder calendar event weather coffee music travel "
    "python sqlite trigram window widget layout render chart report backup restore version "
    "monday tuesday friday morning evening tonight tomorrow yesterday quickly slowly carefully"
)
EN_WORDS = _EN_TEXT.split()
# Common characters without 数 据 库 旺 财 so that the planted words occur only where planted.
ZH_CHARS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定"
    "行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些"
    "然前外天政四日那社义事平形相全表间样与关各重新线内正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无"
    "系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见"
    "计别她手角期根论运农指几九区强放决西被干做必战先回则任取完举色或"
)


def _sentence(rng: random.Random) -> str:
    parts: list[str] = []
    while sum(len(p) for p in parts) < rng.randint(120, 260):
        if rng.random() < 0.5:
            parts.append(" ".join(rng.choice(EN_WORDS) for _ in range(rng.randint(3, 9))))
        else:
            parts.append("".join(rng.choice(ZH_CHARS) for _ in range(rng.randint(6, 20))) + "。")
    return " ".join(parts)


def _plant(rng: random.Random, text: str, word: str) -> str:
    i = rng.randint(0, len(text))
    return text[:i] + " " + word + " " + text[i:]


def _rows(n: int, seed: int, start_ms: int):
    rng = random.Random(seed)
    t = start_ms
    roles = ("user", "assistant", "user", "assistant", "tool", "system")
    for i in range(n):
        t += rng.choice((0, 1, 5, 20, 300, 4000, 60_000, 600_000))
        ts = t
        if rng.random() < 0.0005:  # a few out-of-order rows (clock skew, imports)
            ts = t - rng.randint(1, 3_600_000)
        text = _sentence(rng)
        r = rng.random()
        if r < 0.25:
            text = _plant(rng, text, COMMON_EN)
        if rng.random() < 0.0001:
            text = _plant(rng, text, RARE_EN)
        if rng.random() < 0.05:
            text = _plant(rng, text, ZH3)
        if rng.random() < 0.02:
            text = _plant(rng, text, ZH2)
        sid = "system:scheduled:daily" if rng.random() < 0.01 else "global"
        yield (sid, roles[i % 6] if rng.random() < 0.1 else roles[i % 2], text, ts, None)


def demo_generator():
    try:
        from core import demo
    except ImportError:
        return None
    return getattr(demo, "generate", None)


def build(path: Path, n: int, seed: int, generator: str) -> None:
    gen = demo_generator() if generator == "demo" else None
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".building")
    for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
        p.unlink(missing_ok=True)
    t0 = time.perf_counter()
    if gen is not None:
        print(f"building {n:,} messages with core.demo.generate ...", flush=True)
        gen(tmp, messages=n, seed=seed)
    else:
        print(f"building {n:,} messages with the bench generator ...", flush=True)
        db = MemoryDB.create(tmp, now=1_700_000_000_000)
        raw = RawStore(db)
        raw.start_session("system:scheduled:daily", 1_700_000_000_000)
        rows = _rows(n, seed, 1_700_000_000_000)
        done = 0
        batch = 50_000
        while done < n:
            chunk = [next(rows) for _ in range(min(batch, n - done))]
            raw.append_many(chunk)
            done += len(chunk)
            print(f"  {done:,} / {n:,}  ({time.perf_counter() - t0:.0f} s)", flush=True)
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
    tmp.rename(path)
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    print(f"built {path} in {time.perf_counter() - t0:.0f} s", flush=True)


REF_FTS = (
    "SELECT m.* FROM memory_raw_messages m JOIN memory_raw_messages_fts fts ON fts.rowid = m.rowid "
    "WHERE memory_raw_messages_fts MATCH ? ORDER BY m.timestamp DESC LIMIT ?"
)
REF_LIKE = "SELECT m.* FROM memory_raw_messages m WHERE m.content LIKE '%' || ? || '%' ORDER BY m.timestamp DESC LIMIT ?"


def reference(
    conn, query: str, limit: int, until: int | None = None, sessions: list[str] | None = None
) -> list:
    safe = query.replace("'", " ").replace('"', " ").replace("*", " ").replace("(", " ").replace(")", " ")
    safe = safe.strip()
    conds, args = "", []
    if until is not None:
        conds += " AND m.timestamp <= ?"
        args.append(until)
    if sessions:
        conds += f" AND m.session_id IN ({','.join('?' * len(sessions))})"
        args += sessions
    rows = []
    if len(safe.encode("utf-16-le")) // 2 >= 3:
        try:
            rows = conn.execute(
                REF_FTS.replace(" ORDER BY", conds + " ORDER BY"), (safe, *args, limit)
            ).fetchall()
        except Exception:
            rows = []
    if not rows:
        rows = conn.execute(
            REF_LIKE.replace(" ORDER BY", conds + " ORDER BY"), (safe, *args, limit)
        ).fetchall()
    return [(r["timestamp"], r["id"]) for r in rows]


def pick_queries(conn, seed: int) -> dict[str, str]:
    """Words of the data at about the target rates, from a random sample of messages."""
    hi = conn.execute("SELECT max(rowid) FROM memory_raw_messages").fetchone()[0] or 0
    lo = conn.execute("SELECT min(rowid) FROM memory_raw_messages").fetchone()[0] or 0
    rng = random.Random(seed)
    ids = sorted({rng.randint(lo, hi) for _ in range(3000)}) if hi else []
    docs = []
    for i in range(0, len(ids), 500):
        part = ids[i : i + 500]
        docs += [
            r[0]
            for r in conn.execute(
                f"SELECT content FROM memory_raw_messages WHERE id IN ({','.join('?' * len(part))})", part
            )
        ]
    n = max(1, len(docs))
    en: dict[str, int] = {}
    zh2: dict[str, int] = {}
    zh3: dict[str, int] = {}
    for d in docs:
        for w in set(re.findall(r"[A-Za-z]{5,}", d.lower())):
            en[w] = en.get(w, 0) + 1
        runs = re.findall(r"[\u4e00-\u9fff]+", d)
        for size, table in ((2, zh2), (3, zh3)):
            seen = {r[i : i + size] for r in runs for i in range(len(r) - size + 1)}
            for g in seen:
                table[g] = table.get(g, 0) + 1

    def closest(table: dict[str, int], rate: float, fallback: str) -> str:
        if not table:
            return fallback
        return min(sorted(table), key=lambda w: abs(table[w] / n - rate))

    rare = sorted((w for w, c in en.items() if c == 1), key=lambda w: (-len(w), w))
    return {
        "rare": rare[0] if rare else RARE_EN,
        "zh3": closest(zh3, 0.05, ZH3),
        "zh2": closest(zh2, 0.02, ZH2),
        "common": closest(en, 0.25, COMMON_EN),
    }


def same_page(ours: list, ref: list) -> bool:
    """Equal, treating runs of equal timestamps as sets (the reference has no tiebreak)."""
    if [t for t, _ in ours] != [t for t, _ in ref]:
        return False
    groups: dict[int, tuple[set, set]] = {}
    for (t, a), (_t, b) in zip(ours, ref):
        g = groups.setdefault(t, (set(), set()))
        g[0].add(a)
        g[1].add(b)
    last_t = ours[-1][0] if ours else None
    # A tie group cut by the LIMIT may legitimately hold different members.
    return all(x == y for t, (x, y) in groups.items() if t != last_t)


def timeit(fn, repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--generator", choices=("auto", "demo", "bench"), default="auto")
    ap.add_argument("--build-only", action="store_true")
    args = ap.parse_args(argv)

    def cached(gen: str) -> Path:
        return CACHE / f"bench-{args.messages}-s{args.seed}-{gen}.sqlite"

    generator = args.generator
    if generator == "auto":
        existing = [g for g in ("bench", "demo") if cached(g).exists()]
        generator = existing[0] if existing else ("demo" if demo_generator() else "bench")
    if generator == "demo" and demo_generator() is None:
        generator = "bench"
    path = cached(generator)
    if not path.exists():
        build(path, args.messages, args.seed, generator)
    if args.build_only:
        return 0
    db = MemoryDB.open(path)
    raw = RawStore(db)
    n = raw.count_estimate()
    print(f"{path.name}: ~{n:,} messages ({generator} generator), SQLite {db.report.sqlite_version}\n")
    if generator == "bench":
        words = {"rare": RARE_EN, "zh3": ZH3, "zh2": ZH2, "common": COMMON_EN}
    else:
        words = pick_queries(db.conn, args.seed)

    lo, hi = raw.time_range() or (0, 0)
    mid = (lo + hi) // 2
    sched = ["system:scheduled:daily"]
    cases = [
        ("rare English word", words["rare"], {}),
        ("3-char Chinese word", words["zh3"], {}),
        ("2-char Chinese word", words["zh2"], {}),
        ("common word (25%)", words["common"], {}),
        ("common, until=middle", words["common"], {"until": mid}),
    ]
    if generator == "bench":
        cases += [
            ("common, 1% session", words["common"], {"sessions": sched}),
            ("2-char zh, 1% session", words["zh2"], {"sessions": sched}),
        ]
    head = f"{'query':<22} {'text':<12} {'hits':>8} {'ours ms':>9} {'ref ms':>9} {'ratio':>7}  same"
    print(head)
    print("-" * len(head))
    for label, q, f in cases:

        def ours_fn(q=q, f=f):
            return raw.search_messages(
                q, until=f.get("until"), session_ids=f.get("sessions"), limit=args.limit
            )

        def ref_fn(q=q, f=f):
            return reference(db.conn, q, args.limit, **f)

        ours = [(m.timestamp, m.id) for m in ours_fn()]
        ref = ref_fn()
        t_ours = timeit(ours_fn, args.repeat)
        t_ref = timeit(ref_fn, args.repeat)
        ratio = t_ref / t_ours if t_ours > 0 else float("inf")
        print(
            f"{label:<22} {q:<12} {len(ours):>8} {t_ours:>9.2f} {t_ref:>9.2f} {ratio:>6.1f}x  "
            f"{'yes' if same_page(ours, ref) else 'NO'}"
        )
    print()
    for label, fn in (
        ("count_estimate()", raw.count_estimate),
        ("list_sessions()", raw.list_sessions),
        ("daily_counts()", raw.daily_counts),
        ("query_timeline(limit=50)", lambda: raw.query_timeline(limit=50)),
        ("search_page(common)", lambda: raw.search_page(words["common"], limit=50)),
    ):
        print(f"{label:<28} {timeit(fn, args.repeat):>9.2f} ms")
    db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
