"""A realistic bilingual demo memory, written through the core stores.

:func:`generate` builds a new memory database the way the agent would have filled it over half a year
with one person, 林晓 (Lin Xiao), who leads a platform team in Hangzhou, writes in Chinese and English
and has a shiba called 旺财:

* her dated episodes (``data/stories.toml``): getting to know each other, a Friday deploy that went
  wrong and the rule that came of it, trips to Chengdu and Berlin (planned over several days, then looked
  back on: "Do you remember what we discussed about the Berlin trip last time?"), a talk in Lisbon ahead;
  each fact, calendar entry and reminder is stored by the tool call of the conversation that mentions it,
  and a later version supersedes it where she says it changed;
* everyday conversations (``data/dialogues/*.toml``) about databases, deploys, debugging, code, travel,
  旺财, plans and backups, whose follow-ups build on the earlier turns, and later talks that refer back
  to them; runs of her schedules and the agent's background work;
* skills whose grades follow from their runs in the action log (``data/skills.toml``): recipes revised
  on review and repaired after failures (``skill_repair:``), lessons kept as playbooks, rules that hold;
* notes that summarise real conversations and the lessons they taught.

The older part of the timeline uses named sessions, then ``global`` without an origin, then origins
(``web-ui:…``, ``wechat:…``, ``telegram:…``, ``system:scheduled:<id>``, ``system:autonomous-…``).
Everything is written through the public store APIs; the one bulk path is the raw timeline
(:func:`core.demo.write.bulk_load_messages`: the FTS insert trigger suspended, one ``rebuild``, in the
same transaction).

Determinism: the same ``seed`` and the same ``now`` give the same rows, byte for byte (every random
choice comes from :class:`random.Random` streams derived from the seed, every time from ``now``, and
row ids from a seeded stream, see :func:`core.ids.seeded`). Without ``now`` the current time is used,
so the content is the same but the times differ; ``philont-memory --now T demo ...`` is reproducible.

Scale: the other layers grow with ``messages`` (:func:`default_counts`; 1,000,000 messages give 200,000
actions, 20,000 notes, 10,000 facts and 2,000 skills). The database is written under a temporary name
next to ``path`` (``.<name>.partial-<pid>``) and renamed into place when complete, so an interrupted
run never leaves a half-written database at ``path``; the temporary files of a run that was killed (its
process no longer runs, or they are older than a day) are removed by the next run for the same path
(:func:`remove_stale_partials`).

:data:`BENCH_TERMS` names the search terms the benchmarks use and roughly how often they occur.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import random
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, Field

from core import demofile, ids
from core.db import MemoryDB, check_new_database_path
from core.demo.text import DAY_MS
from core.demo.write import ProgressFn, Sizes, write_all
from core.files import process_alive
from core.jsutil import now_ms
from core.paths import expand_user

__all__ = [
    "BENCH_TERMS",
    "DEFAULT_SPAN_DAYS",
    "GenerateReport",
    "default_counts",
    "generate",
    "remove_stale_partials",
]

DEFAULT_SPAN_DAYS = 182

# Search terms with a known frequency in the generated timeline, for the benchmarks. Measured share of
# all messages containing the term (1M messages, seed 0): rare_en 0.013 % (135 messages), zh3 1.2 %,
# zh2 4.1 % (two characters: always the LIKE path), common 6 % (status updates, "Any update?", tool
# output); "数据库迁移" (the context benchmark's recall hit) 0.15 %.
BENCH_TERMS: dict[str, str] = {
    "rare_en": "zeppelin",
    "zh3": "数据库",
    "zh2": "旺财",
    "common": "update",
}


class GenerateReport(BaseModel):
    """What :func:`generate` wrote (counts of rows), and how long each phase took (seconds)."""

    path: str
    seed: int
    now: int
    span_days: int
    messages: int
    sessions: int
    actions: int
    notes: int
    facts: int
    skills: int
    calendar_events: int
    schedules: int
    seconds: float
    phases: dict[str, float] = Field(default_factory=dict)


def default_counts(messages: int) -> dict[str, int]:
    """The size of the other layers for ``messages`` messages (1M -> 200k / 20k / 10k / 2k).

    Small demos keep a floor so that every kind of row is present.
    """
    m = max(0, int(messages))
    return {
        "actions": max(200, m // 5, min(2 * m // 5, 2_000)),  # a small demo keeps every call it shows
        "notes": max(60, m // 50),
        "facts": max(150, m // 100),
        "skills": max(48, m // 500),
        "calendar_events": max(16, m // 20_000),
        "schedules": 10 + m // 200_000,
    }


#: A partial file older than this is stale even when its process id is in use (by another program).
STALE_PARTIAL_S = 24 * 3600


def _partial_name(target: Path, pid: int) -> Path:
    return target.with_name(f".{target.name}.partial-{pid}")


def remove_stale_partials(path: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files of demo runs for ``path`` that were killed before they finished.

    Only ``.<name>.partial-<pid>`` (and its ``-wal``, ``-shm``, ``-journal``) beside ``path`` are
    touched, and only those of a process that no longer runs (or older than a day, as a process id may
    be reused); this process's own are left alone. Returns what was deleted.
    """
    target = expand_user(path)
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.partial-(\d+)(?:-wal|-shm|-journal)?$")
    removed: list[Path] = []
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return removed
    now = time.time()
    for p in entries:
        m = pattern.match(p.name)
        if m is None or int(m.group(1)) == os.getpid():
            continue
        try:
            st = p.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if now - st.st_mtime > STALE_PARTIAL_S or not process_alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
    return removed


def _remove_db_files(p: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(p) + suffix).unlink()


def _sizes(messages: int, **given: int | None) -> Sizes:
    d = default_counts(messages)
    pick = {k: d[k] if given.get(k) is None else max(0, int(given[k] or 0)) for k in d}
    return Sizes(messages, pick["actions"], pick["notes"], pick["facts"], pick["skills"],
                 pick["calendar_events"], pick["schedules"])  # fmt: skip


def _build(
    tmp: Path,
    target: Path,
    rng: Callable[[str], random.Random],
    sizes: Sizes,
    start: int,
    now: int,
    progress: ProgressFn | None,
    lap: Callable[[str], None],
) -> dict[str, int]:
    """Write the database under ``tmp`` in one transaction, then rename it (and its -wal) to ``target``."""
    _remove_db_files(tmp)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # millions of small tuples: the cyclic collector would walk them again and again
    try:
        with ids.seeded(rng("ids")):
            db = MemoryDB.create(tmp, now=start + int((now - start) * 0.35))
            try:
                db.conn.execute("PRAGMA cache_size=-262144")
                demofile.mark(db.conn)
                with db.write():
                    counts = write_all(db, rng, sizes, start, now, progress, lap)
            finally:
                db.close()
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(str(tmp) + suffix, str(target) + suffix)
        os.replace(tmp, target)
    except BaseException:
        _remove_db_files(tmp)
        raise
    finally:
        if gc_was_enabled:
            gc.enable()
    return counts


def _checked_target(path: str | os.PathLike[str], messages: int, span_days: int) -> Path:
    """The path a new demo database goes to, refused when something is there or the sizes are wrong."""
    target = expand_user(path)
    if target.is_file():
        raise FileExistsError(
            errno.EEXIST, "A file already exists at this path; it was left alone", str(target)
        )
    check_new_database_path(target)  # no special file, no orphan -wal/-shm to merge
    if messages < 0 or span_days < 1:
        raise ValueError("messages must be >= 0 and span_days >= 1")
    return target


def generate(
    path: str | os.PathLike[str],
    *,
    messages: int = 3000,
    seed: int = 0,
    now: int | None = None,
    progress: ProgressFn | None = None,
    actions: int | None = None,
    notes: int | None = None,
    facts: int | None = None,
    skills: int | None = None,
    calendar_events: int | None = None,
    schedules: int | None = None,
    span_days: int = DEFAULT_SPAN_DAYS,
) -> GenerateReport:
    """Write a new demo memory database at ``path`` and return what it holds.

    ``messages`` raw messages spread over ``span_days`` days before ``now`` (default: the current time;
    pass it to make the file reproducible). The other layers default to :func:`default_counts`; the
    action log holds one linked action per skill outcome, so ``actions`` is a minimum when it is smaller
    than the skills' histories need; ``schedules`` is a minimum too (the persona's own are always there).
    ``progress(phase, done, total)`` is called as the work proceeds (phases: ``schedules``, ``plan``,
    ``messages``, ``fts``, ``skills``, ``actions``, ``facts``, ``notes``, ``calendar``).

    Raises :class:`FileExistsError` when ``path`` exists; nothing is written then. On any error the
    partial file is removed.
    """
    t_begin = time.perf_counter()
    target = _checked_target(path, messages, span_days)
    now = now_ms() if now is None else int(now)
    sizes = _sizes(messages, actions=actions, notes=notes, facts=facts, skills=skills,
                   calendar_events=calendar_events, schedules=schedules)  # fmt: skip
    start = now - span_days * DAY_MS
    phases: dict[str, float] = {}
    clock = [time.perf_counter()]

    def lap(name: str) -> None:
        t = time.perf_counter()
        phases[name] = round(phases.get(name, 0.0) + t - clock[0], 3)
        clock[0] = t
        if progress is not None:
            progress(name, 1, 1)

    def rng(stream: str) -> random.Random:
        return random.Random(f"{seed}:{stream}")

    remove_stale_partials(target)
    tmp = _partial_name(target, os.getpid())
    counts = _build(tmp, target, rng, sizes, start, now, progress, lap)
    return GenerateReport(
        path=str(target),
        seed=seed,
        now=now,
        span_days=span_days,
        seconds=round(time.perf_counter() - t_begin, 3),
        phases=phases,
        **counts,
    )
