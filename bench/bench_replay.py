"""Benchmark of the recall replay (``core.replay``) on a large database, each case beside its floor.

    python bench/bench_replay.py --db /path/to/memory.sqlite            # every case
    python bench/bench_replay.py --db ... --cases last30,incremental    # some of them
    python bench/run.py --only replay                                    # the same through the table

Each case runs in a process of its own, so that its peak memory (``ru_maxrss``) is its own:

* ``full``: every user turn replayed (every strategy), each turn handed to a ``sink`` as it is made and
  not kept (as the app's saved result takes them); seconds, turns/s, the time to the first progress
  callback (``replay`` calls ``progress(0, total)`` once the turns are counted) and to the first turn
  replayed, and the peak RSS;
* ``floor``: the agent's own recall query alone for the same turns: the search the replay runs for a
  turn (``ProvingRawStore.search_with_mode`` of the message, limit 15, before the turn, in its session
  when restricted) with nothing else, each turn on its own (nothing kept from one turn to the next).
  Timed on a uniform sample of ``--sample`` turns; the floor of the full replay is its mean per turn
  times the number of turns (named so in the output);
* ``last30``: the user turns of the last 30 days (``--since`` the newest message minus 30 days), with
  the floor of those turns measured the same way;
* ``saved``: the last 30 days answered from the saved replay, as ``philont-memory replay --saved --since
  T`` answers them: the saved replay of every turn is made first when ``--store`` holds none for the
  file (minutes, reported apart as ``setup``), then the command is run twice in a process of its own,
  timed from its start to its exit: the plain output (the summary and the worst misses) and ``--json``
  (every turn of the range), both written to ``/dev/null``;
* ``incremental``: the file copied (with ``cp``; the original is never written), 1,000 messages
  appended to it as the agent appends them (one transaction through ``RawStore.append_many``, the FTS
  triggers keeping the index in step): the 1,000 messages before the newest, same conversations,
  roles and texts, at times after the newest message; then ``replay(after_id=<the newest id before the
  append>)``, which replays only the user turns among them, given the window counts a saved replay
  keeps (``ReplayStore.update`` reads them from ``<digest>.windows.json``; reading the file is timed).
  Those counts are made first, in a process of their own, by a replay of the :data:`WARM_TURNS` user
  turns before the 1,000 messages the appended ones copy: none of the appended texts was replayed
  (a saved replay of every turn keeps more). ``cold_seconds``: the same replay without kept counts.

The database is ``--db`` (the table's is ``bench/.cache/run-1000000-…sqlite``). Reads only, except the
copy of ``incremental``, removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DAY_MS = 86_400_000
#: The user turns replayed before the appended messages to make the window counts ``incremental`` uses.
WARM_TURNS = 20_000
CASES = ("incremental", "last30", "saved", "floor", "full")
FLOOR_NAME = "the agent's recall query alone (the replay's search of each turn, nothing kept)"


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _replay(db_path: Path, windows_file: Path | None = None, **options: object) -> dict:
    """One replay, timed: seconds, turns, first progress and first turn latencies, peak RSS.
    ``windows_file``: window counts kept by an earlier replay, read (timed) and given to it, as
    ``ReplayStore.update`` gives them."""
    from core.db import MemoryDB
    from core.replay import ReplayOptions, replay
    from core.replay.windows import WindowCounts

    t_open = time.perf_counter()
    db = MemoryDB.open(db_path)  # opening is timed apart: it is not the replay's
    opened = time.perf_counter() - t_open
    t0 = time.perf_counter()
    windows = None if windows_file is None else WindowCounts.read(windows_file)
    first: dict[str, float] = {}

    def progress(done: int, total: int) -> None:
        first.setdefault("progress", time.perf_counter() - t0)
        if done >= 1:
            first.setdefault("turn", time.perf_counter() - t0)
        if total >= 20_000 and done % 20_000 == 0:
            print(
                f"    {done}/{total} turns, {time.perf_counter() - t0:.0f} s, peak RSS {_rss_mib():.0f} MiB",
                file=sys.stderr,
                flush=True,
            )

    turns = [0]

    def sink(_turn: object) -> None:  # each turn handed on as made and not kept, as the app's store does
        turns[0] += 1

    with db:
        r = replay(db, ReplayOptions(**options), progress=progress, sink=sink, windows=windows)  # type: ignore[arg-type]
    seconds = time.perf_counter() - t0
    s = r.summary()
    return {
        "seconds": seconds,
        "open_seconds": opened,
        "turns": turns[0],
        "first_progress": first.get("progress"),
        "first_turn": first.get("turn"),
        "rss_mib": _rss_mib(),
        "hit_rate": s["hitRate"],
        "with_need": s["withNeed"],
    }


def _turn_ids(db_path: Path, since: int | None = None, after_id: int | None = None) -> list[int]:
    """The ids of the user turns (since ``since``, after ``after_id``), in ``(timestamp, id)`` order."""
    from core.db import MemoryDB

    with MemoryDB.open(db_path) as db:
        sql = "SELECT id FROM memory_raw_messages WHERE role = 'user'"
        args: tuple = ()
        if since is not None:
            sql += " AND timestamp >= ?"
            args = (since,)
        if after_id is not None:
            sql += " AND id > ?"
            args = (*args, after_id)
        return [r[0] for r in db.conn.execute(sql + " ORDER BY timestamp, id", args)]


def _floor(db_path: Path, since: int | None, sample: int, after_id: int | None = None) -> dict:
    """The agent's recall search alone on a uniform sample of the turns: mean seconds per turn."""
    from core.db import MemoryDB
    from core.jsutil import js_trim, utf16_len
    from core.replay.turn import restriction
    from core.substring import ProvingRawStore
    from core.timeline import RawStore

    keys = _turn_ids(db_path, since, after_id)
    step = max(1, len(keys) // sample) if sample > 0 else 1
    picked = keys[::step]
    spent = 0.0
    with MemoryDB.open(db_path) as db:
        for m in RawStore(db).get_messages(picked):
            query = js_trim(m.content)
            if utf16_len(query) < 2:
                continue
            store = ProvingRawStore(db)  # a store of its own: nothing kept from another turn
            restricted = restriction(m)
            t = time.perf_counter()
            store.search_with_mode(query, session_ids=restricted, limit=15, before=(int(m.timestamp), m.id))
            spent += time.perf_counter() - t
    per_turn = spent / max(1, len(picked))
    return {"turns": len(keys), "sampled": len(picked), "per_turn": per_turn, "seconds": per_turn * len(keys)}


def _newest(db_path: Path) -> tuple[int, int]:
    from core.db import MemoryDB

    with MemoryDB.open(db_path) as db:
        row = db.conn.execute(
            "SELECT max(timestamp), max(id) FROM memory_raw_messages WHERE typeof(timestamp) = 'integer'"
        ).fetchone()
    return int(row[0]), int(row[1])


def _warm(db_path: Path, until: int, turns: int, out: Path) -> int:
    """The window counts a saved replay keeps (``ReplayStore.update``), as a replay of the ``turns`` user
    turns up to ``until`` leaves them, written to ``out``; how many."""
    from core.db import MemoryDB
    from core.replay import ReplayOptions, replay
    from core.replay.windows import WindowCounts

    windows = WindowCounts()
    with MemoryDB.open(db_path) as db:
        replay(db, ReplayOptions(until=until, limit=turns), sink=lambda _t: None, windows=windows)
    windows.write(out)
    return len(windows.entries)


def _incremental(db_path: Path, n: int = 1000, warm: int = WARM_TURNS) -> dict:
    """The file copied, ``n`` messages appended as the agent appends them, then the new turns replayed:
    with the window counts the saved replay keeps (as the update runs; made by a replay of the ``warm``
    turns before the ``n`` messages the appended ones copy, so none of their texts was replayed) and
    without them (``cold``)."""
    from core.db import MemoryDB
    from core.timeline import RawStore

    tmp = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    copy = tmp / "memory.sqlite"
    try:
        subprocess.run(["cp", str(db_path), str(copy)], check=True)
        newest_t, newest_id = _newest(copy)
        with MemoryDB.open(copy) as db:
            held = db.conn.execute(
                "SELECT min(timestamp) FROM memory_raw_messages WHERE id > ?", (newest_id - n,)
            ).fetchone()[0]
        windows = tmp / "windows.json"
        kept = _child_call("_warm", str(db_path), int(held) - 1, warm, str(windows))
        with MemoryDB.open(copy, writable=True) as db:
            rows = db.conn.execute(
                "SELECT session_id, role, content, origin_session_id FROM memory_raw_messages "
                "WHERE id > ? ORDER BY id",
                (newest_id - n,),
            ).fetchall()
            new = [
                {
                    "session_id": r[0],
                    "role": r[1],
                    "content": r[2],
                    "timestamp": newest_t + 1000 * (i + 1),
                    "origin_session_id": r[3],
                }
                for i, r in enumerate(rows)
            ]
            RawStore(db).append_many(new)
        out = _replay(copy, windows_file=windows, after_id=newest_id)
        out["cold_seconds"] = _replay(copy, after_id=newest_id)["seconds"]
        out["appended"] = len(new)
        out["windows_kept"] = kept
        out["warm_turns"] = warm
        out["floor"] = _floor(copy, None, 0, newest_id)
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _saved(db_path: Path, store_dir: Path, since: int) -> dict:
    """The saved replay of every turn made in ``store_dir`` if it is not there, then the command-line
    answers of the range from it, each run as a person runs it."""
    from core.db import MemoryDB
    from core.replay.store import ReplayStore

    t = time.perf_counter()
    with MemoryDB.open(db_path) as db:
        up = ReplayStore(store_dir).update(db, db_path)
    out: dict = {"setup_s": time.perf_counter() - t, "setup": up.how, "saved_turns": up.saved.count}
    env = dict(os.environ, PHILONT_REPLAY_STORE=str(store_dir))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for name, extra in (("plain", []), ("json", ["--json"])):
        cmd = [sys.executable, "-c", "import sys; from core.cli import main; sys.exit(main())"]
        cmd += ["--db", str(db_path), "replay", "--saved", "--since", str(since), *extra]
        t = time.perf_counter()
        with open(os.devnull, "w") as null:
            subprocess.run(cmd, check=True, stdout=null, env=env)
        out[f"{name}_s"] = time.perf_counter() - t
    out["turns"] = len(_turn_ids(db_path, since))
    return out


def run_case(case: str, db_path: Path, sample: int, store: Path | None = None) -> dict:
    if case == "full":
        return _replay(db_path)
    if case == "floor":
        return _floor(db_path, None, sample)
    newest_t, _id = _newest(db_path)
    since = newest_t - 30 * DAY_MS
    if case == "last30":
        out = _replay(db_path, since=since)
        out["floor"] = _floor(db_path, since, sample)
        return out
    if case == "incremental":
        return _incremental(db_path)
    if case == "saved":
        if store is not None:
            return _saved(db_path, store, since)
        with tempfile.TemporaryDirectory(prefix="bench-replay-store-") as tmp:
            return _saved(db_path, Path(tmp), since)
    raise ValueError(case)


def _child_call(name: str, *args: object) -> object:
    """``name(*args)`` of this module in a process of its own (its caches are not the caller's); its
    JSON result."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    code = (
        "import json, sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import bench_replay as b; "
        f"print(json.dumps(b.{name}(Path(sys.argv[2]), *json.loads(sys.argv[3]))))"
    )
    cmd = [
        sys.executable,
        "-c",
        code,
        str(Path(__file__).resolve().parent),
        str(args[0]),
        json.dumps(args[1:]),
    ]
    done = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(case: str, db_path: Path, sample: int, store: Path | None = None) -> dict:
    """``case`` in a process of its own (its own peak RSS)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--db", str(db_path), "--case", case]
    cmd += ["--sample", str(sample)] + (["--store", str(store)] if store is not None else [])
    done = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(
    db_path: Path, cases: tuple[str, ...] = CASES, sample: int = 2000, log=print, store: Path | None = None
) -> dict[str, dict]:
    """Every case of ``cases`` (each in a child process); what each printed."""
    out: dict[str, dict] = {}
    for case in cases:
        t = time.perf_counter()
        out[case] = _child(case, db_path, sample, store)
        log(f"  {case}: {json.dumps(out[case])} ({time.perf_counter() - t:.0f} s)")
    return out


def results(got: dict[str, dict], result) -> list[dict]:
    """The figures for ``bench/run.py`` (``result(name, value, unit, floor_name, floor_value, runs)``)."""
    out = []
    full, floor = got.get("full"), got.get("floor")
    if full is not None:
        n = full["turns"]
        floor_s = floor["seconds"] if floor else 0.0
        name = f"replay of every user turn ({n:,} turns, {n / full['seconds']:.0f} turns/s)"
        fname = FLOOR_NAME + (f", mean of {floor['sampled']:,} sampled turns x {n:,}" if floor else "")
        out.append(result(name, full["seconds"], "s", fname, floor_s, 1))
        out.append(result("replay: first progress callback", full["first_progress"] * 1000, "ms", "-", 0, 1))
        out.append(result("replay: first turn replayed", full["first_turn"] * 1000, "ms", "-", 0, 1))
        out.append(result("replay of every user turn: peak RSS", full["rss_mib"], "MiB", "-", 0, 1))
    last = got.get("last30")
    if last is not None:
        fl = last["floor"]
        out.append(
            result(
                f"replay of the last 30 days ({last['turns']:,} turns)",
                last["seconds"],
                "s",
                FLOOR_NAME + f", mean of {fl['sampled']:,} sampled turns x {fl['turns']:,}",
                fl["seconds"],
                1,
            )
        )
    saved = got.get("saved")
    if saved is not None:
        for name, what in (("plain", "the summary and worst misses"), ("json", "--json, every turn")):
            out.append(
                result(
                    f"the last 30 days from the saved replay ({saved['turns']:,} turns; {what})",
                    saved[f"{name}_s"],
                    "s",
                    "-",
                    0,
                    1,
                )
            )
    inc = got.get("incremental")
    if inc is not None:
        fl = inc.get("floor") or {"turns": 0, "seconds": 0.0}
        out.append(
            result(
                f"replay after {inc['appended']:,} new messages (after_id: {inc['turns']} new turns)",
                inc["seconds"],
                "s",
                FLOOR_NAME + f", each of the {fl['turns']:,} new turns",
                fl["seconds"],
                1,
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="the database to measure (read only)")
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ",".join(CASES))
    ap.add_argument("--sample", type=int, default=2000, help="turns timed for a floor (uniform sample)")
    ap.add_argument(
        "--store", help="where the saved replay of case saved is kept (default: a temporary folder)"
    )
    ap.add_argument("--case", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    db = Path(args.db).expanduser()
    store = Path(args.store).expanduser() if args.store else None
    if args.case:
        print(json.dumps(run_case(args.case, db, args.sample, store)), flush=True)
        return 0
    cases = tuple(c.strip() for c in args.cases.split(",") if c.strip())
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)}")
    got = measure(db, cases, args.sample, store=store)
    for r in results(got, lambda *a: a):
        print(r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
