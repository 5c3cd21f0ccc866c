#!/usr/bin/python3
"""Walk the application's accessibility tree the way a screen reader sees it, through AT-SPI.

    /usr/bin/python3 tests/a11y/atspi_walk.py [--timeout S] [--json FILE] -- <command to start the app...>

Runs with the system Python (``python3-pyatspi`` is a Debian package for it), not the application's:
the application is started with the command given after ``--`` (``python -m philont_desktop --db
demo.sqlite``, an installed ``philont-desktop``, a bundle), on a D-Bus session bus with the AT-SPI bus
(``dbus-run-session`` and ``at-spi-bus-launcher`` when there is none) and on ``Xvfb`` when there is no
display, with ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``. The walker finds the application by its process,
selects every tab of the window's tab bar in turn, and checks every control a person can focus in the
tab: a role that is not "unknown", and a name (its own, or a label's through ``labelled-by``). Tables,
lists and trees are checked themselves, not cell by cell.

Exit status: 0 when every tab was visited and every control is named, 1 with a report of what is not,
77 when the walk cannot run here (no AT-SPI bus, no ``pyatspi``, no ``Xvfb``), with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CANNOT_RUN = 77
BUS_LAUNCHERS = ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")
REEXEC = "PHILONT_ATSPI_WALK_IN_SESSION"
# Containers checked as one control: their items are the data they hold, named by their cells.
ITEM_CONTAINERS = {"table", "tree table", "tree", "list", "list box", "table cell", "list item", "tree item"}
SKIPPED_SUBTREES = {"menu bar", "menu", "popup menu", "scroll bar", "tool tip"}


def cannot_run(reason: str) -> int:
    print(f"atspi_walk: cannot run: {reason}", file=sys.stderr)
    return CANNOT_RUN


# -- the environment: a session bus, the AT-SPI bus, a display ---------------------------------------------


def in_session(argv: list[str]) -> int | None:
    """Run this script again inside ``dbus-run-session`` when there is no session bus."""
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS") or os.environ.get(REEXEC):
        return None
    runner = shutil.which("dbus-run-session")
    if runner is None:
        return cannot_run("no D-Bus session bus and no dbus-run-session (package dbus)")
    env = dict(os.environ, **{REEXEC: "1"})
    return subprocess.call([runner, "--", sys.executable, os.path.abspath(__file__), *argv], env=env)


def start_display(procs: list[subprocess.Popen]) -> str | None:
    """``$DISPLAY``, or a new Xvfb display (``None``: none could be had)."""
    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"]
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return None
    for n in range(90, 140):
        if Path(f"/tmp/.X11-unix/X{n}").exists() or Path(f"/tmp/.X{n}-lock").exists():
            continue
        proc = subprocess.Popen(
            [xvfb, f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(proc)
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                return f":{n}"
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    return None


def start_accessibility_bus(procs: list[subprocess.Popen]) -> str | None:
    """Start the AT-SPI bus on the session bus; ``None`` when it is up, else why it is not."""
    launcher = next((p for p in BUS_LAUNCHERS if os.path.exists(p)), None)
    if launcher is None:
        return "at-spi-bus-launcher not found (package at-spi2-core)"
    procs.append(
        subprocess.Popen(
            [launcher, "--launch-immediately"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    )
    dbus_send = shutil.which("dbus-send")
    for _ in range(100):
        if dbus_send is None:
            time.sleep(1.0)
            return None
        out = subprocess.run(
            [
                dbus_send,
                "--session",
                "--print-reply",
                "--dest=org.a11y.Bus",
                "/org/a11y/bus",
                "org.a11y.Bus.GetAddress",
            ],
            capture_output=True,
            text=True,
        )
        if out.returncode == 0 and "unix:" in out.stdout:
            return None
        time.sleep(0.1)
    return "the AT-SPI bus did not start (org.a11y.Bus.GetAddress has no answer)"


# -- the walk -----------------------------------------------------------------------------------------------


def states_of(node) -> set[str]:
    import pyatspi

    try:
        return {pyatspi.stateToString(s) for s in node.getState().getStates()}
    except Exception:
        return set()


def role_of(node) -> str:
    try:
        return node.getRoleName()
    except Exception:
        return "unknown"


def name_of(node) -> str:
    """The node's name, or the name of what labels it."""
    import pyatspi

    try:
        name = (node.name or "").strip()
    except Exception:
        return ""
    if name:
        return name
    try:
        for rel in node.getRelationSet():
            if rel.getRelationType() == pyatspi.RELATION_LABELLED_BY:
                for i in range(rel.getNTargets()):
                    text = (rel.getTarget(i).name or "").strip()
                    if text:
                        return text
    except Exception:
        pass
    return ""


def children(node) -> list:
    try:
        return [c for c in (node.getChildAtIndex(i) for i in range(node.childCount)) if c is not None]
    except Exception:
        return []


def controls(root, limit: int = 5000) -> list:
    """The focusable, shown nodes below ``root`` (not inside menus, scroll bars or item containers)."""
    out, stack, seen = [], [root], 0
    while stack and seen < limit:
        node = stack.pop()
        seen += 1
        role, states = role_of(node), states_of(node)
        if "showing" not in states and node is not root:
            continue
        if role in SKIPPED_SUBTREES:
            continue
        if "focusable" in states and role not in {"table cell", "list item", "tree item", "page tab"}:
            out.append(node)
        if role in ITEM_CONTAINERS:
            continue
        stack.extend(reversed(children(node)))
    return out


def find_application(pid: int, timeout: float):
    import pyatspi

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for app in children(desktop):
            try:
                if app.get_process_id() == pid:
                    frames = [f for f in children(app) if role_of(f) == "frame"]
                    if frames:
                        return app
            except Exception:
                continue
        time.sleep(0.5)
    return None


def find_tab_bar(frame):
    """The window's tab bar: the page tab list with the most tabs (a tab's own tabs have fewer)."""
    lists, stack = [], [frame]
    while stack:
        node = stack.pop()
        role = role_of(node)
        if role == "page tab list" and "showing" in states_of(node):
            lists.append(node)
        if role in ITEM_CONTAINERS or role in SKIPPED_SUBTREES:
            continue
        stack.extend(children(node))
    pages = [(sum(1 for c in children(t) if role_of(c) == "page tab"), t) for t in lists]
    return max(pages, key=lambda p: p[0])[1] if pages else None


def select_tab(tab) -> None:
    try:
        action = tab.queryAction()
        for i in range(action.nActions):
            if action.getName(i) in ("press", "click", "switch", "activate"):
                action.doAction(i)
                return
        if action.nActions:
            action.doAction(0)
    except NotImplementedError:
        pass


def settle(frame, wait: float) -> list:
    """The frame's controls once their number stops changing (the tab has loaded)."""
    previous, found = -1, []
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.7)
        found = controls(frame)
        if len(found) == previous:
            break
        previous = len(found)
    return found


def inner_tab_lists(frame, bar) -> list:
    """The page tab lists shown inside the current tab (a tab of pages: the Health tab's pages)."""
    found, stack = [], [frame]
    while stack:
        node = stack.pop()
        role = role_of(node)
        if role == "page tab list" and "showing" in states_of(node) and node != bar:
            found.append(node)
        if role in ITEM_CONTAINERS or role in SKIPPED_SUBTREES:
            continue
        stack.extend(children(node))
    return found


def unnamed_of(found: list) -> tuple[dict[str, int], list[str]]:
    roles: dict[str, int] = {}
    unnamed = []
    for node in found:
        role = role_of(node)
        roles[role] = roles.get(role, 0) + 1
        if role in ("unknown", "invalid", "") or not name_of(node):
            unnamed.append(f"{role or 'no role'} (child of {role_of(node.parent)} {name_of(node.parent)!r})")
    return roles, unnamed


def walk_pages(frame, bar, settle_s: float) -> list[dict]:
    """Each page of the tab's page tab lists that is not shown yet: selected, its controls checked."""
    pages = []
    for inner in inner_tab_lists(frame, bar):
        for page in [c for c in children(inner) if role_of(c) == "page tab"]:
            if "selected" in states_of(page):
                continue
            select_tab(page)
            found = settle(frame, settle_s)
            roles, unnamed = unnamed_of(found)
            pages.append({"page": name_of(page), "controls": len(found), "roles": roles, "unnamed": unnamed})
    return pages


def walk(app, settle_s: float, timeout: float) -> dict:
    frame = next(f for f in children(app) if role_of(f) == "frame")
    report: dict = {"window": name_of(frame), "tabs": [], "problems": []}
    bar, deadline = None, time.monotonic() + timeout
    tabs: list = []
    while not tabs and time.monotonic() < deadline:  # the database opens after the first paint
        bar = find_tab_bar(frame)  # (on a busy machine the bar is on the bus before its tabs)
        tabs = [c for c in children(bar) if role_of(c) == "page tab"] if bar is not None else []
        if not tabs:
            time.sleep(0.5)
    if bar is None:
        report["problems"].append("the window has no tab bar")
        return report
    for tab in tabs:
        title = name_of(tab)
        select_tab(tab)
        found = settle(frame, settle_s)
        roles, unnamed = unnamed_of(found)
        if "selected" not in states_of(tab):
            report["problems"].append(f"{title}: the tab could not be selected")
        pages = walk_pages(frame, bar, settle_s)
        entry = {"tab": title, "controls": len(found), "roles": roles, "unnamed": unnamed, "pages": pages}
        report["tabs"].append(entry)
        report["problems"] += [f"{title}: {u}" for u in unnamed]
        report["problems"] += [f"{title} › {p['page']}: {u}" for p in pages for u in p["unnamed"]]
        if not found:
            report["problems"].append(f"{title}: no control was found")
    if not tabs:
        report["problems"].append("the tab bar has no tabs")
    return report


def print_report(report: dict) -> None:
    print(f"window: {report['window']!r}")
    for t in report["tabs"]:
        roles = ", ".join(f"{n} {r}" for r, n in sorted(t["roles"].items()))
        print(f"  {t['tab']}: {t['controls']} controls ({roles}); unnamed: {len(t['unnamed'])}")
        for u in t["unnamed"]:
            print(f"    unnamed: {u}")
    print("problems:" if report["problems"] else "no problems: every tab visited, every control named")
    for p in report["problems"]:
        print(f"  {p}")


# -- main ---------------------------------------------------------------------------------------------------


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the window")
    p.add_argument("--settle", type=float, default=8.0, help="seconds at most for a tab to load")
    p.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command that starts the app")
    args = p.parse_args(argv)
    if args.command[:1] == ["--"]:
        args.command = args.command[1:]
    if not args.command:
        p.error("give the command that starts the application after --")
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        import pyatspi  # noqa: F401
    except ImportError:
        return cannot_run(f"pyatspi is not importable by {sys.executable} (package python3-pyatspi)")
    code = in_session(argv)
    if code is not None:
        return code
    procs: list[subprocess.Popen] = []
    app_proc = None
    try:
        display = start_display(procs)
        if display is None:
            return cannot_run("no display and no Xvfb (package xvfb)")
        why = start_accessibility_bus(procs)
        if why is not None:
            return cannot_run(why)
        env = dict(os.environ, DISPLAY=display, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1")
        env["QT_QPA_PLATFORM"] = "xcb"
        with tempfile.TemporaryFile() as log:
            app_proc = subprocess.Popen(args.command, env=env, stdout=log, stderr=log, start_new_session=True)
            app = find_application(app_proc.pid, args.timeout)
            if app is None:
                log.seek(0)
                output = log.read().decode(errors="replace")[-3000:]
                state = "still running" if app_proc.poll() is None else f"exited with {app_proc.returncode}"
                print(f"the application ({state}) never showed a window on the AT-SPI bus\n{output}")
                return 1
            report = walk(app, args.settle, args.timeout)
        print_report(report)
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        return 1 if report["problems"] else 0
    finally:
        if app_proc is not None and app_proc.poll() is None:
            os.killpg(app_proc.pid, signal.SIGTERM)
            try:
                app_proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(app_proc.pid, signal.SIGKILL)
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
