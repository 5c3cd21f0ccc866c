"""Set-up shared by the tab tests: a database path in the test's folder, an AppContext on a database, a
tab opened on a database the way the window does it (its own AppContext, shown, activated, idle), the
main window opened on a database, and editing mode turned on."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def db_path(tmp_path) -> Path:
    """Where a test's memory database goes (not created): ``<tmp>/memory/memory.sqlite``."""
    return tmp_path / "memory" / "memory.sqlite"


@pytest.fixture
def open_context(qapp) -> Iterator[Callable[..., Any]]:
    """``open_context(path, **options)``: an :class:`~philont_desktop.context.AppContext` on ``path``
    (``interactive=False``), closed when the test ends."""
    from philont_desktop.context import AppContext

    made: list[Any] = []

    def make(path: Path, **kw) -> Any:
        ctx = AppContext.open(path, interactive=False, **kw)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture
def open_tab(qtbot, open_context) -> Callable[..., Any]:
    """``open_tab(TabClass, path, size=(w, h), idle_ms=10_000, prepare=None, **context_options)``: the
    tab on its own :class:`~philont_desktop.context.AppContext`, shown at ``size``, activated and idle.
    ``prepare(tab)`` runs before the tab is shown (a fixed clock, the window's wiring). Every context
    opened is closed when the test ends."""

    def make(
        tab_class: type,
        path: Path,
        *,
        size: tuple[int, int] = (1200, 700),
        idle_ms: int = 10_000,
        prepare: Callable[[Any], Any] | None = None,
        **kw,
    ):
        tab = tab_class(open_context(path, **kw))
        if prepare is not None:
            prepare(tab)
        qtbot.addWidget(tab)
        tab.resize(*size)
        tab.show()
        tab.ensure_activated()
        assert tab.wait_idle(idle_ms)
        return tab

    return make


@pytest.fixture
def start_editing(qtbot) -> Callable[..., None]:
    """``start_editing(tab)``: editing mode on for the tab's context (backup taken, writer open), and
    the tab told so, as the main window forwards ``editingChanged`` to every tab."""

    def turn_on(tab: Any, idle_ms: int = 20_000) -> None:
        with qtbot.waitSignal(tab.ctx.editingChanged, timeout=15_000):
            tab.ctx.set_editing(True)
        assert tab.ctx.editing
        tab.set_editing(True)
        assert tab.wait_idle(idle_ms)

    return turn_on


@pytest.fixture
def open_window(qtbot, tmp_path, monkeypatch) -> Callable[..., Any]:
    """``open_window(path, size=(1280, 820))``: the main window, with settings of the test's own that it
    does not save, shown at ``size`` with the database at ``path`` open."""
    from philont_desktop.main_window import MainWindow
    from philont_desktop.settings import Settings
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))

    def make(path: Path, *, size: tuple[int, int] = (1280, 820)) -> Any:
        w = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=60_000)
        w.persist = False
        qtbot.addWidget(w)
        w.resize(*size)
        w.show()
        w.open_database(path)
        assert spin_until(lambda: w.ctx is not None, 20_000), w.open_error
        return w

    return make


@pytest.fixture
def english(qapp):
    """The application's English translator, as the app installs it: plural forms (``%n change(s)`` →
    ``2 changes``, "1 skill")."""
    from philont_desktop import i18n

    i18n.install("en")
    yield
    i18n.uninstall()


@pytest.fixture
def chinese(qapp):
    """The application's Chinese translator."""
    from philont_desktop import i18n

    i18n.install("zh_CN")
    yield
    i18n.uninstall()
