"""Every control of every tab has a name a screen reader can announce, in English and in Chinese, and
Tab leaves tables and text panes."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pytestqt")

from philont_desktop.app import settle
from philont_desktop.tabs import tab_names
from philont_desktop.widgets import accessible

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def lang(qapp):
    from philont_desktop import fonts, i18n

    font = qapp.font()
    yield i18n.install
    i18n.uninstall()
    qapp.setFont(font)
    fonts._fonts_applied = False


def _every_tab(w):
    """Every tab shown in turn, and every page of a tab of pages (the Health tab's)."""
    for name in tab_names():
        tab = w.show_tab(name)
        assert settle(w, tab, 20_000), name
        yield name, tab
        for view, show in getattr(tab, "screenshot_views", list)():
            assert show(60_000), view
            yield view, tab


def _describe(widget) -> str:
    return f"{type(widget).__name__} {widget.objectName()!r} in {type(widget.parentWidget()).__name__}"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_control_of_every_tab_has_an_accessible_name(open_window, demo_db_path, lang, language):
    lang(language)
    w = open_window(demo_db_path)
    unnamed, declared, checked = [], 0, 0
    for name, tab in _every_tab(w):
        for widget in accessible.interactive_widgets(tab):
            checked += 1
            text = accessible.accessible_name(widget)
            if not text.strip():
                unnamed.append(f"{name}: {_describe(widget)}")
            elif accessible.entry_for(widget.objectName()) is not None:
                declared += 1
                if language == "zh_CN":  # the declared names are translated
                    assert CJK.search(text), f"{name}: {_describe(widget)} is named {text!r}"
    from philont_desktop.tabs.base import BaseTab

    for widget in accessible.interactive_widgets(w):  # the window's own: the tab bar, the status bar
        inside = widget.parentWidget()
        while inside is not None and not isinstance(inside, BaseTab):
            inside = inside.parentWidget()
        if inside is None and widget.isVisible() and not accessible.accessible_name(widget).strip():
            unnamed.append(f"window: {_describe(widget)}")
    assert not unnamed, "\n".join(unnamed)
    assert checked > 100 and declared > 50


def test_tables_and_text_panes_let_tab_leave(open_window, demo_db_path):
    from philont_desktop.qt import QAbstractItemView, QPlainTextEdit, QTextEdit

    w = open_window(demo_db_path)
    trapping = []
    for name, tab in _every_tab(w):
        for widget in accessible.interactive_widgets(tab):
            if isinstance(widget, QAbstractItemView) and widget.tabKeyNavigation():
                trapping.append(f"{name}: {_describe(widget)}")
            if isinstance(widget, (QPlainTextEdit, QTextEdit)) and not widget.tabChangesFocus():
                trapping.append(f"{name}: {_describe(widget)}")
    assert not trapping, "\n".join(trapping)


def test_names_follow_a_language_switch(open_window, demo_db_path, lang):
    lang("en")
    w = open_window(demo_db_path)
    tab = w.show_tab("facts")
    assert settle(w, tab, 20_000)
    slider = tab.findChild(accessible.QWidget, "viewTimeSlider")
    assert slider.accessibleName() == "View time"
    assert slider.accessibleDescription().startswith("Moves")
    w.set_language("zh_CN")
    assert CJK.search(slider.accessibleName()) and CJK.search(slider.accessibleDescription())
    w.set_language("en")
    assert slider.accessibleName() == "View time"


def _tab_walk(qtbot, w, backwards: bool = False, limit: int = 200) -> list:
    """Focus the tab bar, press Tab (or Shift+Tab) until the focus is back on it; the widgets visited."""
    from philont_desktop.qt import QApplication, Qt, QtTest

    bar = w.tab_widget.tabBar()
    bar.setFocus(Qt.FocusReason.TabFocusReason)
    assert qtbot.waitUntil(lambda: QApplication.focusWidget() is bar, timeout=2000) is None
    key = Qt.Key.Key_Backtab if backwards else Qt.Key.Key_Tab
    mods = Qt.KeyboardModifier.ShiftModifier if backwards else Qt.KeyboardModifier.NoModifier
    seen = []
    for _ in range(limit):
        QtTest.QTest.keyClick(QApplication.focusWidget(), key, mods)
        current = w.tab_widget.currentWidget()
        current.wait_idle(10_000)  # what the new focus selected is shown, as a person would wait
        QApplication.processEvents()
        focus = QApplication.focusWidget()
        if focus is bar:
            return seen
        seen.append(focus)
    raise AssertionError(f"Tab never came back to the tab bar: stuck around {seen[-5:]}")


def _reachable(tab) -> list:
    from philont_desktop.qt import Qt

    return [
        x
        for x in accessible.interactive_widgets(tab)
        if x.isVisible() and x.isEnabled() and x.focusPolicy() & Qt.FocusPolicy.TabFocus
    ]


@pytest.mark.parametrize("backwards", [False, True], ids=["tab", "shift-tab"])
def test_tab_visits_every_control_of_every_tab_from_the_tab_bar(qtbot, open_window, demo_db_path, backwards):
    w = open_window(demo_db_path)
    w.activateWindow()
    missed = []
    for name, tab in _every_tab(w):
        _tab_walk(qtbot, w, backwards)  # a first round selects rows: the panes that show a row appear
        seen = _tab_walk(qtbot, w, backwards)
        ids = {id(x) for x in seen}
        for x in _reachable(tab):
            if id(x) not in ids and not any(id(p) in ids for p in _proxied(x)):
                missed.append(f"{name}: {_describe(x)}")
    assert not missed, "\n".join(missed)


def _proxied(x) -> list:
    """Widgets whose focus stands for ``x`` (its focus proxy)."""
    proxy = x.focusProxy()
    return [proxy] if proxy is not None else []


class _Heard:
    """Stands in for QAccessible with a screen reader listening: records what is announced."""

    def __init__(self):
        self.texts: list[str] = []

    def isActive(self) -> bool:
        return True

    def updateAccessibility(self, event) -> None:
        self.texts.append(event.message())


def test_the_view_time_and_the_hit_count_are_announced(open_window, demo_db_path, monkeypatch, qtbot):
    from philont_desktop import qt
    from philont_desktop.facts.widgets.time_control import TimeControl

    heard = _Heard()
    monkeypatch.setattr(qt, "QAccessible", heard, raising=False)
    w = open_window(demo_db_path)
    facts = w.show_tab("facts")
    assert settle(w, facts, 20_000)
    control = facts.findChild(TimeControl)
    control.slider.setValue(30)
    assert qtbot.waitUntil(lambda: control.label.text() in heard.texts, timeout=5000) is None
    assert control.label.text() != facts.tr("now")
    timeline = w.show_tab("timeline")
    assert settle(w, timeline, 20_000)
    timeline.bar.search_edit.setText("memory")
    timeline.bar.search_edit.returnPressed.emit()
    assert qtbot.waitUntil(lambda: timeline.hits_label.text() in heard.texts, timeout=10_000) is None


def _press(widget, sequence: str) -> None:
    from philont_desktop.qt import QApplication, QKeySequence, QtTest

    combo = QKeySequence(sequence)[0]
    QtTest.QTest.keyClick(widget, combo.key(), combo.keyboardModifiers())
    QApplication.processEvents()


def test_every_registered_tab_has_a_key_and_a_go_to_tab_entry(open_window, demo_db_path):
    from philont_desktop.help_dialog import _plain
    from philont_desktop.tabs import registry

    w = open_window(demo_db_path)
    w.activateWindow()
    names = tab_names()
    assert "review" in names
    go_menu = next(a.menu() for a in w.menuBar().actions() if a.menu() and "View" in a.text()).actions()
    go = next(a.menu() for a in go_menu if a.menu() and "Go to tab" in _plain(a.text()))
    entries = [_plain(a.text()) for a in go.actions() if a.isVisible() and not a.isSeparator()]
    for i, entry in enumerate(registry()):
        assert any(entry.title() in text for text in entries), entry.name
        keys = [k.toString() for k in w.tab_actions[i].shortcuts()]
        assert keys, entry.name  # the eleventh and later: Alt+Shift+1 …
        _press(w.tab_widget.currentWidget(), keys[-1])
        assert w.tab_widget.currentIndex() == i, (entry.name, keys)
    assert [k.toString() for k in w.tab_actions[names.index("review")].shortcuts()] == ["Alt+0"]
    assert [k.toString() for k in w.tab_actions[names.index("health")].shortcuts()] == ["Alt+Shift+1"]


def test_ctrl_tab_reaches_every_tab_from_inside_a_tab_of_tabs(open_window, demo_db_path):
    from philont_desktop.qt import QApplication, QTabWidget

    w = open_window(demo_db_path)
    w.activateWindow()
    skills = w.show_tab("skills")
    assert settle(w, skills, 20_000)
    inner = skills.findChild(QTabWidget, "skillsDetailTabs")
    inner.tabBar().setFocus()
    QApplication.processEvents()
    start = w.tab_widget.currentIndex()
    visited = []
    for _ in range(w.tab_widget.count()):
        _press(QApplication.focusWidget() or w, "Ctrl+Tab")
        visited.append(w.tab_widget.currentIndex())
    assert sorted(visited) == list(range(w.tab_widget.count()))
    assert visited[-1] == start
    _press(QApplication.focusWidget() or w, "Ctrl+Shift+Tab")
    assert w.tab_widget.currentIndex() == (start - 1) % w.tab_widget.count()


@pytest.mark.parametrize("mode", ["light", "dark", "high-contrast"])
def test_the_focused_control_has_a_2px_ring_in_the_theme_colour(open_window, demo_db_path, qtbot, mode):
    from philont_desktop.qt import QApplication, QImage, QPainter, QPoint, QRegion, Qt, QWidget
    from philont_desktop.widgets import focus_ring

    w = open_window(demo_db_path)
    w.set_theme(mode)
    w.activateWindow()
    facts = w.show_tab("facts")
    assert settle(w, facts, 20_000)
    for name in ("factsTable", "factsFilter", "viewTimeDays"):
        target = facts.findChild(QWidget, name)
        target.setFocus(Qt.FocusReason.TabFocusReason)
        QApplication.processEvents()
        ring = focus_ring.ring()
        assert ring is not None and ring.widget() is target and ring.isVisible(), name
        assert ring.parentWidget() is target and ring.geometry() == target.rect()
        image = QImage(ring.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        ring.render(painter, QPoint(), QRegion(), QWidget.RenderFlag.DrawChildren)
        painter.end()
        left = 0
        middle = ring.height() // 2
        colour = w.theme.focus_color()
        for x in (left, left + 1):  # two pixels wide, on the control's own edge
            pixel = image.pixelColor(x, middle)
            assert pixel.alpha() > 200 and abs(pixel.blue() - colour.blue()) < 40, (name, x, pixel.name())
        assert image.pixelColor(left + 3, middle).alpha() == 0  # the control itself shows through
    # The spin box's line edit is ringed as the spin box.
    spin = facts.findChild(QWidget, "viewTimeDays")
    assert focus_ring.ringed(spin.findChild(QWidget, "qt_spinbox_lineedit")) is spin


def test_the_ring_outlives_the_control_it_was_around(qapp, qtbot):
    from philont_desktop.qt import QApplication, QColor, QLineEdit, QVBoxLayout, QWidget
    from philont_desktop.widgets import focus_ring

    focus_ring.install(QColor("#0550ae"))
    host = QWidget()
    qtbot.addWidget(host)
    first, second = QLineEdit(host), QLineEdit(host)
    lay = QVBoxLayout(host)
    lay.addWidget(first)
    lay.addWidget(second)
    host.show()
    host.activateWindow()
    first.setFocus()
    QApplication.processEvents()
    assert focus_ring.ring().widget() is first
    first.deleteLater()
    QApplication.processEvents()
    second.setFocus()
    QApplication.processEvents()
    assert focus_ring.ring().widget() is second and focus_ring.ring().isVisible()


def _contrast(a, b) -> float:
    def lum(c) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_high_contrast_is_a_theme_beside_light_and_dark(open_window, demo_db_path, qapp):
    from philont_desktop.app import build_parser
    from philont_desktop.qt import QPalette

    assert build_parser().parse_args(["--theme", "high-contrast"]).theme == "high-contrast"
    w = open_window(demo_db_path)
    assert "high-contrast" in w.theme_actions
    w.theme_actions["high-contrast"].trigger()
    try:
        assert w.theme.mode == "high-contrast" and w.theme.is_dark
        p, R, C = qapp.palette(), QPalette.ColorRole, QPalette.ColorGroup
        for fg, bg, least in (
            (R.Text, R.Base, 7),
            (R.WindowText, R.Window, 7),
            (R.ButtonText, R.Button, 7),
            (R.HighlightedText, R.Highlight, 7),
            (R.PlaceholderText, R.Base, 7),
            (R.Link, R.Base, 7),
        ):
            assert _contrast(p.color(fg), p.color(bg)) >= least, (fg, bg)
        assert _contrast(p.color(C.Disabled, R.Text), p.color(C.Disabled, R.Base)) >= 4.5
        assert _contrast(w.theme.focus_color(), p.color(R.Window)) >= 7
        assert _contrast(w.theme.plot_foreground(), w.theme.plot_background()) >= 7
        assert _contrast(w.theme.muted_text(), p.color(R.Base)) >= 7
        assert "border: 1px solid #ffffff" in qapp.styleSheet()  # outlines Fusion draws black on black
    finally:
        w.set_theme("light")
    assert qapp.styleSheet() == ""


def test_every_action_has_a_key_or_a_menu_entry(open_window, demo_db_path):
    from philont_desktop.qt import QAction, QGraphicsScene, QMenu

    w = open_window(demo_db_path)
    shown = [name for name, _tab in _every_tab(w)]  # every tab and page built, its actions made
    assert [n for n in shown if n in tab_names()] == tab_names() and "health-privacy" in shown
    lacking = []
    for action in w.findChildren(QAction):
        if action.isSeparator() or not action.text() or action.menu() is not None:
            continue
        if isinstance(action.parent(), QGraphicsScene):  # pyqtgraph's own export menu (turned off)
            continue
        in_menu = any(isinstance(o, QMenu) for o in action.associatedObjects())
        if not in_menu and not action.shortcuts():
            lacking.append(action.text())
    assert not lacking, lacking


def test_tabs_after_the_tenth_have_alt_shift_keys_listed_in_the_help(open_window, demo_db_path):
    from philont_desktop import tabs
    from philont_desktop.help_dialog import collect_shortcuts

    extra = ("extra_one", "extra_two")
    for name in extra:  # tabs that cannot be loaded: shown as their error, cheap to make
        tabs.register(name, f"philont_desktop.nonexistent.{name}:Tab", name.replace("_", " ").title())
    try:
        w = open_window(demo_db_path)
        w.activateWindow()
        names = tab_names()
        assert len(names) >= 12
        entries = collect_shortcuts(w)
        for i in range(10, len(names)):
            keys = [k.toString() for k in w.tab_actions[i].shortcuts()]
            assert keys == [f"Alt+Shift+{(i + 1) % 10}"], (names[i], keys)
            _press(w.tab_widget.currentWidget(), keys[0])
            assert w.tab_widget.currentIndex() == i, names[i]
            title = w.tab_widget.tabText(i)
            assert any(e.text == f"Tab {i + 1}: {title}" and e.keys == tuple(keys) for e in entries), title
        used: dict[str, list[str]] = {}
        for e in entries:
            for key in e.keys:
                used.setdefault(key, []).append(e.text)
        clashes = {k: v for k, v in used.items() if "Alt+Shift+" in k and len(v) > 1}
        assert not clashes
    finally:
        for name in extra:
            tabs.registry().unregister(name)
