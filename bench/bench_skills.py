"""Benchmark of the Skills tab's board load: 2,000 skills and 200,000 linked actions.

    python bench/bench_skills.py                      # 2,000 skills, 200,000 linked actions
    python bench/bench_skills.py --skills 500 --actions 50000

The database is built once with the core stores (``SkillStore.create_skill``, ``ActionStore.append``,
``SkillStore.record_skill_outcome``, ``revise_recipe``, ``set_maturity``) and cached under
``bench/.cache/`` (keyed by the sizes and the seed).

Printed, as medians of warm runs in this process (``gc.collect()`` before each):

* ``floor``: ``SkillStore.list_every()`` alone, the least any board load must do;
* ``board data``: what the tab's worker runs (:func:`philont_desktop.skills.loaders.load_board_rows`:
  every skill, and the board's rows prepared: sorted, filter fields, columns);
* ``board model``: handing that to the board on the GUI thread (model reset, five column proxies);
* ``first paint``: rendering the whole board widget offscreen (``QWidget.grab``);
* ``filter``: typing a filter text (all five proxies re-filter);
* ``detail``: what the tab loads when a card is selected (:func:`load_detail`).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.actions import ActionStore  # noqa: E402
from core.db import MemoryDB  # noqa: E402
from core.skills import SkillStore  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
DAY = 86_400_000
NOW = 1_781_524_800_000  # 2026-06-15T12:00:00Z
TOOLS = ("shell", "readFile", "writeFile", "webFetch", "webSearch", "pariGp", "z3Verify", "browser")
TOPICS_EN = ("deploy", "backup", "migrate", "profile", "search", "index", "release", "triage", "report")
TOPICS_ZH = ("部署", "备份", "迁移", "检索", "发布", "整理", "旅行", "日程", "翻译")


def build(path: Path, n_skills: int, n_actions: int, seed: int) -> None:
    rng = random.Random(seed)
    tmp = path.with_name(path.name + ".partial")
    for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
        p.unlink(missing_ok=True)
    t0 = time.perf_counter()
    db = MemoryDB.create(tmp, now=NOW - 400 * DAY)
    skills, actions = SkillStore(db), ActionStore(db)
    # Zipf-like weights: a few skills get most of the actions.
    weights = [1.0 / (i + 1) ** 0.8 for i in range(n_skills)]
    total_w = sum(weights)
    per_skill = [int(n_actions * w / total_w) for w in weights]
    per_skill[0] += n_actions - sum(per_skill)
    order = list(range(n_skills))
    rng.shuffle(order)
    done = 0
    for i, idx in enumerate(order):
        zh = i % 3 == 0
        topic = rng.choice(TOPICS_ZH if zh else TOPICS_EN)
        name = f"{topic}-{i:04d}"
        recipe = rng.random() < 0.45
        created = NOW - rng.randint(30, 380) * DAY
        policy = rng.sample(TOOLS, rng.randint(1, 3))
        steps = "\n".join(
            f"{k + 1}. {rng.choice(policy)} {rng.choice(TOPICS_ZH if zh else TOPICS_EN)}" for k in range(4)
        )
        with db.write():
            skills.create_skill(
                name,
                (f"{topic}：按步骤执行并核对结果" if zh else f"How to {topic} safely and check the result"),
                [topic, rng.choice(TOOLS)],
                steps,
                kind="negative" if rng.random() < 0.08 else "positive",
                source=rng.choice((None, "self:reflect-r1", "github:acme/agent-skills@3f9c2a1")),
                when_to_use=f"when asked to {topic}",
                verification={"kind": "assert", "check": f"{topic} verified"} if recipe else None,
                tool_policy=policy if recipe else None,
                now=created,
            )
            n = per_skill[idx]
            p_fail = rng.choice((0.0, 0.02, 0.05, 0.15, 0.4))
            times = sorted(rng.randint(created, NOW) for _ in range(n))
            revise_at = sorted(rng.sample(times, min(len(times), rng.randint(0, 3)))) if recipe else []
            for ts in times:
                while revise_at and revise_at[0] <= ts:
                    at = revise_at.pop(0)
                    skills.revise_recipe(
                        name,
                        reason=f"skill_repair:init-{at % 997}: tighten step",
                        action_template=steps + "\n+",
                        now=at,
                    )
                ok = rng.random() >= p_fail
                actions.append(
                    "global",
                    rng.choice(policy),
                    {"step": 1},
                    "ok" if ok else "error",
                    ok,
                    ts,
                    linked_skill=name,
                )
                skills.record_skill_outcome(name, ok, ts)
            if rng.random() < 0.05:
                skills.set_maturity(name, "playbook")
        done += per_skill[idx]
        if (i + 1) % 200 == 0:
            print(f"  {i + 1:,} skills, {done:,} actions ({time.perf_counter() - t0:.0f} s)", flush=True)
    db.close()
    tmp.rename(path)
    for suffix in ("-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    print(f"built {path} in {time.perf_counter() - t0:.0f} s", flush=True)


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skills", type=int, default=2000)
    ap.add_argument("--actions", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    CACHE.mkdir(exist_ok=True)
    path = CACHE / f"skills-{args.skills}-{args.actions}-s{args.seed}.sqlite"
    if not path.exists():
        print(f"building {args.skills:,} skills and {args.actions:,} linked actions ...", flush=True)
        build(path, args.skills, args.actions, args.seed)
    return measure(path, args.repeat)


def tab_loads(path: Path, repeat: int, n_skills: int, now: int = NOW) -> tuple[list[float], list[float]]:
    """End to end: the tab through the worker layer, from activation until the board is filled, and until
    the sparklines in view and the detail of the selected skill are shown too (ms, one per run)."""
    from philont_desktop.context import AppContext
    from philont_desktop.qt import QApplication
    from philont_desktop.skills.view import SkillsTab
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    app = QApplication.instance() or QApplication([])
    theme = Theme("light")
    theme.apply()
    shown: list[float] = []
    ends: list[float] = []
    for _ in range(repeat):
        ctx = AppContext.open(path, theme=theme, interactive=False)
        tab = SkillsTab(ctx, now=now)
        tab.resize(1280, 820)
        tab.show()
        app.processEvents()
        gc.collect()
        t = time.perf_counter()
        tab.ensure_activated()
        spin_until(lambda tab=tab: tab.loaded, 60_000)
        shown.append((time.perf_counter() - t) * 1000)
        ok = tab.wait_idle(60_000)
        ends.append((time.perf_counter() - t) * 1000)
        assert ok and tab.board.model.rowCount() == n_skills
        tab.close()
        ctx.close()
    return shown, ends


def measure_board(path: Path, repeat: int = 7, now: int = NOW) -> list[dict]:
    """Board load beside ``SkillStore.list_every()``, as result rows for ``bench/run.py`` (one warm-up,
    then medians of ``repeat`` runs)."""
    with MemoryDB.open(path) as db:
        store = SkillStore(db)
        n = len(store.list_every())
        store.list_every()  # warm-up
        floor = median_ms(store.list_every, repeat)
    tab_loads(path, 1, n, now)  # warm-up
    shown, _ends = tab_loads(path, repeat, n, now)
    return [
        {
            "name": f"skills board load ({n:,} skills)",
            "value": statistics.median(shown),
            "unit": "ms",
            "floor_name": "SkillStore.list_every()",
            "floor_value": floor,
            "runs": repeat,
        }
    ]


def measure(path: Path, repeat: int) -> int:
    from philont_desktop.qt import QApplication
    from philont_desktop.skills.loaders import load_board_rows, load_detail, load_histories
    from philont_desktop.skills.widgets.board import BoardWidget
    from philont_desktop.theme import Theme

    app = QApplication.instance() or QApplication([])
    theme = Theme("light")
    theme.apply()
    db = MemoryDB.open(path)
    store = SkillStore(db)
    skills = store.list_every()
    n_actions = db.conn.execute(
        "SELECT COUNT(*) FROM memory_actions WHERE linked_skill IS NOT NULL"
    ).fetchone()[0]
    print(
        f"{path.name}: {len(skills):,} skills, {n_actions:,} linked actions, SQLite {db.report.sqlite_version}"
    )
    print(f"medians of {repeat} warm runs\n")
    rows: list[tuple[str, float]] = []

    floor = median_ms(store.list_every, repeat)
    rows.append(("floor: SkillStore.list_every()", floor))
    rows.append(("board data: load_board_rows()", median_ms(lambda: load_board_rows(db), repeat)))

    board = BoardWidget(False, now=NOW)
    board.resize(1280, 460)
    board.show()
    app.processEvents()

    prepared = board.model.prepare(skills)  # what the worker hands over

    def fresh_model() -> None:
        board.model.set_skills([])
        board.model.set_skills(skills, prepared)

    rows.append(("board model: reset + 5 columns, rows prepared", median_ms(fresh_model, repeat)))
    visible = board.visible_names()
    rows.append(
        (
            f"sparklines of the {len(visible)} cards in view",
            median_ms(lambda: load_histories(db, visible), repeat),
        )
    )
    board.model.set_histories(load_histories(db, visible), visible)
    rows.append(("first paint of the board (grab)", median_ms(lambda: board.grab(), repeat)))
    changed = [
        s.model_copy(update={"use_count": s.use_count + 1}) if i % 400 == 0 else s
        for i, s in enumerate(skills)
    ]
    flip = [(changed, board.model.prepare(changed)), (skills, prepared)]
    rows.append(
        (
            "live refresh: merge with 5 changed skills",
            median_ms(lambda: board.model.set_skills(*(flip.reverse() or flip[0])), repeat),
        )
    )

    def type_filter() -> None:
        board.set_filter(text="deploy")
        board.set_filter(text="")

    rows.append(("filter: type 'deploy', then clear (2 passes)", median_ms(type_filter, repeat)))

    def sort_twice() -> None:
        board.set_sort_mode("uses")
        board.set_sort_mode("name")

    rows.append(("sort: most used, then name (2 passes)", median_ms(sort_twice, repeat)))
    top = max(skills, key=lambda s: s.use_count)
    rows.append(
        (
            f"detail of the busiest skill ({top.use_count:,} uses)",
            median_ms(lambda: load_detail(db, top.name), repeat),
        )
    )
    rows.append(
        (
            "(all 2,000 sparklines at once, not done by the tab)",
            median_ms(lambda: load_histories(db, [s.name for s in skills]), 1),
        )
    )
    board.close()

    shown, ends = tab_loads(path, repeat, len(skills))
    board_ms = statistics.median(shown)
    end = statistics.median(ends)
    rows.insert(0, ("BOARD LOAD (tab: activation until the cards are in the model)", board_ms))
    rows.insert(1, ("tab idle: + sparklines in view, + detail of the selected skill", end))

    width = max(len(r[0]) for r in rows)
    for label, ms in rows:
        print(f"  {label:<{width}}  {ms:9.1f} ms")
    print(f"\nboard load {board_ms:.0f} ms beside the floor {floor:.0f} ms ({board_ms / floor:.1f}x)")
    db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
