"""Start-up: command-line flags, the application object, and the ``--screenshot`` / ``--self-test`` runs.

``philont-desktop [--db PATH] [--demo] [--read-only] [--screenshot DIR] [--self-test] [--version]
[--theme system|light|dark|high-contrast] [--lang en|zh_CN] [--zoom PERCENT]``

Without ``--db`` the database is found as the core finds it (``$MEMORY_DB_PATH``, else
``~/.philont/memory/memory.sqlite``); when none exists, a start page offers to open a file or to create
a demo or an empty database. ``--demo`` makes that choice up front: when no database exists, the
demo database in the user data folder (or at ``--db``) is opened, generated first when missing; an
existing database is opened as usual.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from core import SCHEMA_VERSION
from core.engine import ENGINE, SQLITE_VERSION
from core.errors import DatabaseOpenError
from core.paths import resolve_db_path
from philont_desktop import APP_NAME, ORG_NAME, __version__

LOAD_TIMEOUT_MS = 60_000
DEMO_TIMEOUT_MS = 600_000


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=APP_NAME,
        description="Inspect and curate the memory database of a Philont agent, also while it runs.",
    )
    p.add_argument("--db", metavar="PATH", help="the memory database (default: as the core finds it)")
    p.add_argument(
        "--demo",
        action="store_true",
        help="when you have no database, open the demo database (generated first when missing)",
    )
    p.add_argument("--read-only", action="store_true", help="never allow editing in this run")
    p.add_argument("--screenshot", metavar="DIR", help="save every tab to DIR/<tab>.png and exit")
    p.add_argument(
        "--size",
        metavar="WxH",
        type=_size,
        default=(1280, 820),
        help="window size for --screenshot and --self-test (default 1280x820)",
    )
    p.add_argument("--self-test", action="store_true", help="open, visit every tab, check, exit 0 or 1")
    p.add_argument(
        "--theme", choices=("system", "light", "dark", "high-contrast"), help="appearance for this run"
    )
    p.add_argument(
        "--zoom", type=int, metavar="PERCENT", help="text size for this run, in percent (50-300, default 100)"
    )
    p.add_argument("--lang", metavar="LANG", help="user-interface language for this run (en, zh_CN)")
    p.add_argument("--version", action="store_true", help="print the versions and exit")
    return p


def _size(text: str) -> tuple[int, int]:
    """``1024x640`` → ``(1024, 640)``; a clear message for anything else."""
    w, sep, h = text.lower().partition("x")
    if (
        not sep
        or not w.isdigit()
        or not h.isdigit()
        or not (200 <= int(w) <= 10_000 and 200 <= int(h) <= 10_000)
    ):
        raise argparse.ArgumentTypeError(f"not a window size like 1024x640: {text!r}")
    return int(w), int(h)


def startup_zoom(args: argparse.Namespace, settings) -> int:
    """The text size to start with, in percent: ``--zoom``, else the one remembered."""
    from philont_desktop import zoom

    return zoom.clamp(args.zoom if args.zoom is not None else settings.zoom)


def version_text() -> str:
    from philont_desktop.qt import PYSIDE_VERSION, QT_VERSION

    return (
        f"{APP_NAME} {__version__} (Qt {QT_VERSION}, PySide6 {PYSIDE_VERSION}, "
        f"SQLite {SQLITE_VERSION} {ENGINE}, schema {SCHEMA_VERSION})"
    )


def _make_app(argv0: str):
    from philont_desktop.interpreter import favour_the_gui_thread, gui_collector
    from philont_desktop.qt import QApplication

    favour_the_gui_thread()
    app = QApplication.instance()
    if app is None:
        app = QApplication([argv0])
    gui_collector.install(app)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_NAME)
    try:
        from philont_desktop.resources import app_icon

        app.setWindowIcon(app_icon())
    except Exception:  # an install without icons still runs
        pass
    return app


_QUIET = ("propagateSizeHints",)


class _QtMessages:
    """Qt's messages: held back while the application object starts, so that a fatal start-up error
    (no display, a missing library) is reported as one clear message (:mod:`preflight`) instead of a
    SIGABRT; printed as they come once the application runs."""

    def __init__(self) -> None:
        self.starting = True
        self.held: list[str] = []

    def __call__(self, mode, context, message: str) -> None:
        from philont_desktop import preflight
        from philont_desktop.qt import QtMsgType

        if any(q in message for q in _QUIET):
            return
        if self.starting:
            if mode == QtMsgType.QtFatalMsg:
                preflight.report(preflight.fatal_problem([*self.held, message]))
                os._exit(preflight.EXIT_CODE)
            self.held.append(message)
            return
        print(message, file=sys.stderr)

    def started(self) -> None:
        self.starting = False
        for message in self.held:
            print(message, file=sys.stderr)
        self.held.clear()


def _install_message_filter() -> _QtMessages:
    """Drop Qt's offscreen-platform chatter that says nothing about the application."""
    from philont_desktop.qt import qInstallMessageHandler

    handler = _QtMessages()
    qInstallMessageHandler(handler)
    return handler


def preflight_problem(args: argparse.Namespace) -> int | None:
    """Before Qt: the gui extra, a display, Qt's libraries. An exit code when the app cannot start."""
    from philont_desktop import preflight

    missing = preflight.missing_packages()
    if missing:
        return preflight.report(preflight.packages_problem(missing))
    if not args.version:
        problem = preflight.display_problem()
        batch = bool(args.screenshot or args.self_test)
        if problem is not None and batch and not preflight.platform_name(os.environ):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a batch run needs no display
        elif problem is not None:
            return preflight.report(problem)
    try:
        import philont_desktop.qt  # noqa: F401
    except ImportError as exc:
        return preflight.report(preflight.import_problem(exc))
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(argv) if argv is not None else sys.argv[1:])
    code = preflight_problem(args)
    if code is not None:
        return code
    if args.version:
        # Imports Qt on purpose: a version check that passes while Qt cannot load would lie.
        print(version_text())
        return 0

    from philont_desktop import i18n
    from philont_desktop.main_window import MainWindow, demo_default_path
    from philont_desktop.qt import QApplication
    from philont_desktop.settings import Settings
    from philont_desktop.theme import Theme

    messages = _install_message_filter()
    app = _make_app(sys.argv[0] if sys.argv else APP_NAME)
    messages.started()
    settings = Settings()
    batch = bool(args.screenshot or args.self_test)
    i18n.install(args.lang if args.lang is not None else settings.language)
    theme = Theme(args.theme or settings.theme)
    theme.apply()
    theme.set_zoom(startup_zoom(args, settings))

    window = MainWindow(settings, theme, read_only=args.read_only or batch, interactive=not batch)
    if batch:
        window.persist = False
        window.resize(*args.size)

    path = resolve_db_path(args.db)
    if args.demo and not path.exists() and not args.db:
        path = demo_default_path()
    window.show()

    # A link that leads nowhere (a loop of links) is opened too: the core's error says what it is.
    there = os.path.lexists(path)
    if args.demo and not there:
        window.create_demo(path)
    elif there and batch:
        window.open_database(path)
    elif there:  # after the window's first paint: opening imports the core meanwhile
        window.after_first_paint(lambda: window.open_database(path))
    else:
        window.show_start_page(
            path, DatabaseOpenError(path, "missing", "No database file exists at this path.")
        )

    if args.screenshot:
        code = run_screenshots(window, Path(args.screenshot))
    elif args.self_test:
        from philont_desktop.selftest import run_self_test

        code = run_self_test(window)
    else:
        return app.exec()
    window.close()
    QApplication.processEvents()
    return code


# --------------------------------------------------------------------------------------------------
# Batch runs
# --------------------------------------------------------------------------------------------------


def wait_for_database(window, timeout_ms: int) -> bool:
    """Wait until a database is shown, or opening/creating it ended without one."""
    from philont_desktop.workers import spin_until

    spin_until(lambda: window.ctx is not None or window.session.settled, timeout_ms)
    return window.ctx is not None


def settle(window, tab, timeout_ms: int) -> bool:
    from philont_desktop.qt import QApplication
    from philont_desktop.workers import spin_until

    tab.ensure_activated()
    ok = tab.wait_idle(timeout_ms)
    spin_until(lambda: window.counts_loaded or window.ctx is None, 3000)
    spin_until(lambda: window.ctx is None or window.ctx.report.quick_check is not None, 5000)
    for _ in range(3):
        QApplication.processEvents()
        time.sleep(0.02)
    ok = tab.wait_idle(timeout_ms) and ok
    QApplication.processEvents()
    return ok


def _save(window, target: Path) -> bool:
    """Save a picture of the window to ``target``: only a new or regular file is written (a FIFO or a
    device there would block the save or be replaced; it is refused)."""
    from core.errors import ValidationError_
    from core.paths import replaceable_target

    try:
        real = replaceable_target(target, "the screenshot")
    except ValidationError_ as exc:
        print(exc, file=sys.stderr)
        return False
    return bool(window.grab().save(str(real)))


def run_screenshots(window, out_dir: Path) -> int:
    """Save ``out_dir/<tab>.png`` for every tab, and ``<tab>-<page>.png`` for the other pages of a tab
    of pages (``screenshot_views``: the Health tab's); ``start.png`` when no database could be shown."""
    from philont_desktop.qt import QApplication

    out_dir.mkdir(parents=True, exist_ok=True)
    timeout = DEMO_TIMEOUT_MS if window.session.creating is not None else LOAD_TIMEOUT_MS
    if not wait_for_database(window, timeout):
        QApplication.processEvents()
        target = out_dir / "start.png"
        if _save(window, target):
            print(target)
        err = window.open_error
        if err is not None and not (isinstance(err, DatabaseOpenError) and err.problem == "missing"):
            return 1
        return 0
    code = 0
    for i in range(window.tab_widget.count()):
        window.tab_widget.setCurrentIndex(i)
        tab = window.tab_at(i)
        name = getattr(tab, "name", f"tab{i}")
        if not settle(window, tab, LOAD_TIMEOUT_MS):
            print(f"{name}: still loading after {LOAD_TIMEOUT_MS // 1000} s", file=sys.stderr)
            code = 1
        views = [(name, lambda _ms: True), *getattr(tab, "screenshot_views", list)()]
        for view, show in views:  # a tab of pages (Health): one picture per page
            if not show(LOAD_TIMEOUT_MS):
                print(f"{view}: still loading after {LOAD_TIMEOUT_MS // 1000} s", file=sys.stderr)
                code = 1
            QApplication.processEvents()
            target = out_dir / f"{view}.png"
            if not _save(window, target):
                print(f"{view}: cannot write {target}", file=sys.stderr)
                code = 1
            else:
                print(target)
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
