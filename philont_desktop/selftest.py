"""The checks of ``--self-test``: each tab exercised as a user would, the problems found as lines.

Test support, not part of the views: ``python -m philont_desktop --self-test`` (and the packaged app's
smoke test) imports this module, opens the database, visits every tab and runs its check
(:data:`CHECKS`, by registered tab name). A check gets the tab once it has loaded, may wait for jobs
(``tab.wait_idle``, ``job.wait``) and returns the problems found, one readable line each (empty: all
good). A tab without a check is only visited and loaded.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any


def check_timeline(tab: Any) -> list[str]:
    errors: list[str] = []
    if not tab.messages.loaded_once:
        tab.wait_idle(10_000)
    for q in ("the", "a-b", '"', "role:user", "计划"):
        tab.search(q)
        tab.wait_idle(15_000)
        if tab.results.error:
            errors.append(f"timeline search {q!r}: {tab.results.error}")
    tab.search("")
    img = tab.chart.plot.grab().toImage()
    if img.isNull() or img.width() < 10:
        errors.append("timeline: the activity chart did not render")
    return errors


def check_actions(tab: Any) -> list[str]:
    errors: list[str] = []
    tab.wait_idle(10_000)
    img = tab.chart.plot.grab().toImage()
    if img.isNull() or img.width() < 10:
        errors.append("actions: the failure-rate chart did not render")
    return errors


def check_notes(tab: Any) -> list[str]:
    for q in ("note", "a-b", '"', "笔记"):
        tab.search_edit.setText(q)
        tab.reload()
        tab.wait_idle(10_000)
    tab.search_edit.clear()
    tab.reload()
    tab.wait_idle(10_000)
    return []


def check_facts(tab: Any) -> list[str]:
    from core.decay import score_memory

    problems: list[str] = []
    if not tab.wait_idle(30_000):
        return ["facts: still loading after 30 s"]
    rows = tab.model.rows()
    active = [r for r in rows if r.fact.active]
    tab.bottom.setCurrentWidget(tab.overview)
    from philont_desktop.facts.curves import drawable_confidence

    # facts whose confidence cannot be drawn are left out of the overview (its legend says so)
    drawable = [r for r in active if drawable_confidence(r.fact.confidence)]
    if tab.overview.x.size != len(drawable):
        problems.append(
            f"facts: overview shows {tab.overview.x.size} points for {len(drawable)} active facts "
            "with a valid confidence"
        )
    if len(tab.overview.invalid_ids) != len(active) - len(drawable):
        problems.append(
            f"facts: overview leaves out {len(tab.overview.invalid_ids)} facts, "
            f"{len(active) - len(drawable)} have an invalid confidence"
        )
    for r in rows[:50]:
        expected = score_memory(
            r.fact.namespace,
            r.fact.confidence,
            r.fact.created_at,
            r.fact.last_accessed_at,
            r.fact.decay_tau_days,
            tab.view_time,
        )
        if not (math.isnan(expected) and math.isnan(r.score)) and r.score != expected:
            problems.append(f"facts: score of {r.name} is {r.score}, the core says {expected}")
            break
    if active:
        tab.select_ids([r.fact.id for r in active[:3]])
        if not tab.curves.curve_items:
            problems.append("facts: no decay curve was drawn for the selected facts")
        image = tab.curves.plot.grab().toImage()
        if image.isNull() or image.width() < 10:
            problems.append("facts: the decay plot rendered an empty image")
    tab.wait_idle(10_000)
    return problems


def check_skills(tab: Any) -> list[str]:
    from core.maturity import explain_maturity
    from philont_desktop.skills.loaders import load_board, load_detail

    problems: list[str] = []
    job = tab.ctx.run(load_board, key="skills:selftest")
    if not job.wait(15_000):
        return ["skills: loading the board did not finish in 15 s"]
    if job.error is not None:
        return [f"skills: loading the board failed: {job.error}"]
    skills = job.result or []
    model = tab.board.model
    if model.rowCount() != len(skills):
        problems.append(f"skills: the board shows {model.rowCount()} skills, the database has {len(skills)}")
    shown = sum(p.rowCount() for p in tab.board.proxies.values())
    if not tab.board.filter.active and shown != model.rowCount():
        problems.append(f"skills: the columns show {shown} cards for {model.rowCount()} skills")
    for m, proxy in tab.board.proxies.items():
        for r in range(min(proxy.rowCount(), 50)):
            s = proxy.index(r, 0).data(model.SkillRole)
            if s is not None and s.maturity != m:
                problems.append(f"skills: {s.name} ({s.maturity}) is in the {m} column")
                break
    if skills:
        s = skills[0]
        tab.select_skill(s.name)
        detail_job = tab.ctx.run(load_detail, s.name, key="skills:selftest-detail")
        if not detail_job.wait(15_000) or detail_job.error is not None:
            problems.append(f"skills: loading the detail of {s.name} failed: {detail_job.error}")
        else:
            d = detail_job.result
            want = explain_maturity(s.maturity, s.success_count, s.failure_count, s.consecutive_failures)
            if d is not None and d.explanation.why != want.why:
                problems.append(f"skills: the explanation of {s.name} differs from the core's")
        tab.wait_idle(10_000)
    return problems


def check_context(tab: Any) -> list[str]:
    errors: list[str] = []
    for text, pattern in (
        ("你还记得我们上次讨论的数据库迁移吗？", "Z2"),
        ("Do you still remember the plan?", "E5"),
    ):
        tab.set_message(text)
        tab.compute_now()
        if not tab.wait_idle(30_000):
            errors.append(f"context: still computing {text!r}")
            continue
        r = tab.result
        if r is None or tab.error:
            errors.append(f"context: no preview for {text!r}: {tab.error}")
            continue
        if r.trigger is None or r.trigger.pattern != pattern:
            errors.append(f"context: recall trigger for {text!r}: {r.trigger}")
        j = r.to_json()
        if (
            list(j) != ["prefix", "sections", "recall_trigger", "timeline", "recall", "damaged_rows"]
            or not j["prefix"]
        ):
            errors.append("context: the JSON shape is not the command line's")
        if r.trigger is not None and r.trigger.snippet not in tab.preview.toPlainText():
            errors.append("context: the preview does not show the trigger snippet")
    return errors


def check_calendar(tab: Any) -> list[str]:
    problems: list[str] = []
    job = tab.controller.compare_with_tool()
    if not job.wait(30_000) or job.state != "finished":
        return [f"calendar: the list_upcoming comparison did not finish ({job.state}: {job.error})"]
    ours, ok, tool = job.result
    if ok and ours != tool:
        problems.append("calendar: the upcoming list differs from what list_upcoming returns")
    if tab.result is None:
        problems.append("calendar: nothing was loaded")
    return problems


def check_backups(tab: Any) -> list[str]:
    from philont_desktop.backups.controller import list_backups_job

    if tab.browsing:
        return []
    job = tab.ctx.run(list_backups_job, str(tab.ctx.db_path), label="backups tab-test")
    if not job.wait(30_000) or job.state != "finished":
        return [f"backups: listing failed ({job.state}: {job.error})"]
    return []


def check_audit(tab: Any) -> list[str]:
    from core import audit

    errors: list[str] = []
    job = tab.ctx.run(audit.list_entries, 5, key="audit:selftest")
    if not job.wait(10_000):
        errors.append("audit: reading the audit trail did not finish in 10 s")
    elif job.error is not None:
        errors.append(f"audit: reading the audit trail failed: {job.error}")
    if tab.model.rowCount() > 0:
        tab.table.selectRow(0)
        if not tab.detail.toPlainText().strip():
            errors.append("audit: the details of the first entry are empty")
    return errors


def check_review(tab: Any) -> list[str]:
    errors: list[str] = []
    if not tab.wait_idle(30_000):
        return ["review: the change set did not finish in 30 s"]
    if tab.state.error:
        errors.append(f"review: {tab.state.error}")
    elif tab.state.changes is None:
        errors.append("review: no change set was computed")
    for item in tab.model.items()[:3]:
        tab.select(item.id)
        tab.wait_idle(10_000)
        if not tab.detail.title.text().strip():
            errors.append(f"review: the detail of {item.id} is empty")
    return errors


CHECKS: dict[str, Callable[[Any], list[str]]] = {
    "timeline": check_timeline,
    "actions": check_actions,
    "notes": check_notes,
    "facts": check_facts,
    "skills": check_skills,
    "context": check_context,
    "calendar": check_calendar,
    "backups": check_backups,
    "audit": check_audit,
    "review": check_review,
}


def check_tab(tab: Any) -> list[str]:
    """Run the check of ``tab`` (by its name); an error tab reports why it could not be built."""
    message = getattr(tab, "load_error", None)
    if message:
        return [f"{tab.name}: {message}"]
    check = CHECKS.get(getattr(tab, "name", ""))
    return check(tab) if check is not None else []


def run_self_test(window) -> int:
    """Open the database, visit every tab, run each tab's self-test and a plot; report failures."""
    from philont_desktop.app import DEMO_TIMEOUT_MS, LOAD_TIMEOUT_MS, settle, wait_for_database
    from philont_desktop.qt import QApplication
    from philont_desktop.widgets.plots import render_plot_check
    from philont_desktop.workers import spin_until

    failures: list[str] = []
    timeout = DEMO_TIMEOUT_MS if window.session.creating is not None else LOAD_TIMEOUT_MS
    if not wait_for_database(window, timeout):
        err = window.open_error
        failures.append(f"database: {err}" if err is not None else "database: none could be opened")
    else:
        ctx = window.ctx
        if window.tab_widget.count() == 0:
            failures.append("tabs: no tab is available")
        for i in range(window.tab_widget.count()):
            before = len(ctx.errors)
            window.tab_widget.setCurrentIndex(i)
            tab = window.tab_at(i)  # built on first selection; a tab that cannot be built is an ErrorTab
            name = getattr(tab, "name", f"tab{i}")
            try:
                if not settle(window, tab, LOAD_TIMEOUT_MS):
                    failures.append(f"{name}: still loading after {LOAD_TIMEOUT_MS // 1000} s")
                problems = check_tab(tab)
                failures.extend(p if p.startswith(f"{name}") else f"{name}: {p}" for p in problems)
                tab.wait_idle(LOAD_TIMEOUT_MS)
            except Exception as exc:
                failures.append(f"{name}: self-test raised {type(exc).__name__}: {exc}")
            failures.extend(f"{name}: error shown: {e}" for e in ctx.errors[before:])
        failures[:0] = [f"tab {e}" for e in window.tab_errors]
        spin_until(lambda: ctx.report.quick_check is not None, LOAD_TIMEOUT_MS)
        if ctx.report.quick_check is None:
            failures.append("database: quick_check did not finish")
        elif ctx.report.quick_check != "ok":
            failures.append(f"database: quick_check: {ctx.report.quick_check.splitlines()[0]}")
        spin_until(lambda: ctx.live.polls > 0 or ctx.live.state in ("static", "error"), 5000)
        if ctx.live.state == "error":
            failures.append(f"live: {ctx.live.detail}")
    failures.extend(render_plot_check(window.theme))
    try:
        from philont_desktop import resources

        failures.extend(f"resources: {e}" for e in resources.self_test())
    except ImportError:
        pass
    QApplication.processEvents()
    for f in failures:
        print(f)
    if not failures:
        print(f"self-test passed ({window.tab_widget.count()} tabs)")
    return 1 if failures else 0
