"""Themes: follow the system, light or dark, switched at run time; everything repaints (palette, plots,
custom-painted delegates), checked on the pixels."""

from __future__ import annotations

import pytest

from philont_desktop.qt import QApplication, QColor, QImage, QPalette, QWidget
from philont_desktop.theme import Theme, dark_palette, light_palette


@pytest.fixture
def theme(qapp):
    """A theme for the test; the application's palette comes back afterwards."""
    saved = QPalette(qapp.palette())
    saved_classes = {cls: QPalette(qapp.palette(cls)) for cls in ("QCheckBox", "QRadioButton")}
    t = Theme("light")
    t.apply()
    yield t
    qapp.setPalette(saved)
    for cls, pal in saved_classes.items():
        qapp.setPalette(pal, cls)


def _count(image: QImage, color: QColor, step: int = 2) -> int:
    rgb = QColor(color).rgb()
    return sum(
        1
        for x in range(0, image.width(), step)
        for y in range(0, image.height(), step)
        if image.pixel(x, y) == rgb
    )


def _window(qapp) -> QColor:
    return qapp.palette().color(QPalette.ColorRole.Window)


# -- modes -----------------------------------------------------------------------------------------------


def test_light_and_dark_set_the_palette_and_announce_it(theme, qapp, qtbot) -> None:
    with qtbot.waitSignal(theme.changed):
        theme.set_mode("dark")
    assert theme.is_dark
    assert _window(qapp) == dark_palette().color(QPalette.ColorRole.Window)
    assert qapp.style().name().lower() == "fusion"
    with qtbot.waitSignal(theme.changed):
        theme.set_mode("light")
    assert not theme.is_dark
    assert _window(qapp) == light_palette().color(QPalette.ColorRole.Window)
    with pytest.raises(ValueError):
        theme.set_mode("sepia")


def test_follow_system_tracks_the_system_scheme(theme, qapp, monkeypatch) -> None:
    from philont_desktop import theme as theme_mod

    monkeypatch.setattr(theme_mod, "system_prefers_dark", lambda: True)
    theme.set_mode("system")
    assert theme.is_dark
    monkeypatch.setattr(theme_mod, "system_prefers_dark", lambda: False)
    theme._on_system_scheme()  # what QStyleHints.colorSchemeChanged calls
    assert not theme.is_dark
    assert _window(qapp) == light_palette().color(QPalette.ColorRole.Window)
    theme.set_mode("dark")
    monkeypatch.setattr(theme_mod, "system_prefers_dark", lambda: False)
    theme._on_system_scheme()  # an explicit choice ignores the system
    assert theme.is_dark


def test_text_stays_readable_in_both_themes(theme) -> None:
    """WCAG contrast of text on its backgrounds, and of muted text, at least 4.5 / 3."""

    def lum(c: QColor) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    def contrast(a: QColor, b: QColor) -> float:
        hi, lo = sorted((lum(a), lum(b)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    R = QPalette.ColorRole
    for mode in ("light", "dark"):
        theme.set_mode(mode)
        p = dark_palette() if mode == "dark" else light_palette()
        assert contrast(p.color(R.WindowText), p.color(R.Window)) >= 7
        assert contrast(p.color(R.Text), p.color(R.Base)) >= 7
        assert contrast(p.color(R.HighlightedText), p.color(R.Highlight)) >= 4.5
        assert contrast(theme.muted_text(), p.color(R.Base)) >= 3
        for role in ("user", "assistant", "tool", "system"):
            assert contrast(theme.role_text(role), theme.role_background(role)) >= 7
            assert contrast(theme.role_color(role), theme.role_background(role)) >= 3
        for kind in ("editing", "readonly", "error", "info"):
            bg, fg, _border = theme.banner_colors(kind)
            assert contrast(fg, bg) >= 7


def test_check_boxes_keep_a_visible_outline_in_dark(theme, qtbot) -> None:
    from philont_desktop.qt import QCheckBox

    theme.set_mode("dark")
    box = QCheckBox("Forgotten")
    qtbot.addWidget(box)
    box.resize(120, 24)
    box.show()
    image = box.grab().toImage()
    window = _window(QApplication.instance())
    outline = [
        QColor(image.pixel(x, y))
        for x in range(0, 20)
        for y in range(image.height())
        if abs(QColor(image.pixel(x, y)).lightness() - window.lightness()) > 60
    ]
    assert len(outline) > 20  # the unchecked box is drawn, not lost in the dark window


# -- plots -----------------------------------------------------------------------------------------------


def test_plot_background_and_axes_follow_a_switch(theme, qtbot) -> None:
    from philont_desktop.widgets.plots import ThemedPlotWidget, pg

    plot = ThemedPlotWidget(theme)
    qtbot.addWidget(plot)
    plot.resize(320, 200)
    plot.addItem(pg.BarGraphItem(x=[0, 1, 2], height=[3, 1, 2], width=0.6, brush="#1f6feb"))
    plot.show()
    light = plot.grab().toImage()
    light_bg = theme.plot_background()
    assert QColor(light.pixel(2, 2)) == light_bg
    assert _count(light, light_bg) > 1000
    restyled = []
    plot.themeChanged.connect(lambda: restyled.append(True))

    theme.set_mode("dark")
    dark = plot.grab().toImage()
    dark_bg = theme.plot_background()
    assert dark_bg.lightness() < 60 < light_bg.lightness()
    assert QColor(dark.pixel(2, 2)) == dark_bg
    assert _count(dark, light_bg) == 0  # no white left anywhere
    assert restyled
    assert plot.getAxis("left").textPen().color() == theme.plot_foreground()
    assert plot.getAxis("left").labelStyle.get("color") == theme.plot_foreground().name()


def test_a_plot_axis_is_drawn_anew_when_its_range_changes(theme, qtbot) -> None:
    """Axes are cached as pixmaps between paints: a new range (new tick labels) is drawn, not the old."""
    from philont_desktop.widgets.plots import ThemedPlotWidget

    plot = ThemedPlotWidget(theme)
    qtbot.addWidget(plot)
    plot.resize(320, 200)
    plot.show()
    axis = plot.getAxis("left")

    def axis_pixels() -> list[int]:
        image = plot.grab(axis.mapRectToScene(axis.boundingRect()).toRect()).toImage()
        return [image.pixel(x, y) for x in range(image.width()) for y in range(image.height())]

    plot.setYRange(0, 1, padding=0)
    small = axis_pixels()
    assert axis_pixels() == small  # unchanged: the same pixels again
    plot.setYRange(1000, 9000, padding=0)
    large = axis_pixels()
    assert large != small
    plot.setYRange(0, 1, padding=0)
    assert axis_pixels() == small


# -- custom-painted delegates and charts in the real tabs ----------------------------------------------------


@pytest.fixture
def window(theme, qtbot, demo_db_path, tmp_path, monkeypatch):
    from philont_desktop.main_window import MainWindow
    from philont_desktop.settings import Settings
    from philont_desktop.workers import spin_until

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    w = MainWindow(Settings(), theme, read_only=True, interactive=False)
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    w.open_database(demo_db_path)
    assert spin_until(lambda: w.ctx is not None, 20_000), w.open_error
    return w


def _show(window, name: str) -> QWidget:
    tab = window.show_tab(name)
    tab.ensure_activated()
    assert tab.wait_idle(20_000)
    QApplication.processEvents()
    return tab


def test_timeline_bubbles_and_chart_repaint_in_the_new_theme(window, theme) -> None:
    tab = _show(window, "timeline")
    conversation = window.findChild(QWidget, "conversation") or tab
    light = conversation.grab().toImage()
    light_user = theme.role_background("user")
    assert _count(light, light_user) > 200

    theme.set_mode("dark")
    QApplication.processEvents()
    dark = conversation.grab().toImage()
    assert _count(dark, theme.role_background("user")) > 200
    assert _count(dark, light_user) == 0
    chart = tab.findChild(QWidget, "activityCaption").parentWidget()
    chart_image = chart.grab().toImage()
    assert _count(chart_image, theme.plot_background()) > 1000
    assert _count(chart_image, QColor("#ffffff")) == 0


def test_skill_cards_repaint_in_the_new_theme(window, theme) -> None:
    from philont_desktop.skills.widgets.colors import Colors

    tab = _show(window, "skills")
    board = tab.board
    light = board.grab().toImage()
    light_card = Colors(False).card
    light_cards = _count(light, light_card)
    assert light_cards > 500

    theme.set_mode("dark")
    QApplication.processEvents()
    dark = board.grab().toImage()
    assert _count(dark, Colors(True).card) > 500
    assert _count(dark, light_card) < light_cards / 50  # white is left only in glyphs (badge texts)


def test_facts_and_actions_plots_repaint_in_the_new_theme(window, theme) -> None:
    theme.set_mode("dark")
    for name in ("actions", "facts"):
        tab = _show(window, name)
        from philont_desktop.widgets.plots import ThemedPlotWidget

        plots = [p for p in tab.findChildren(ThemedPlotWidget) if p.isVisible()]
        assert plots, name
        for plot in plots:
            image = plot.grab().toImage()
            assert _count(image, theme.plot_background()) > 500, (name, plot.objectName())
            assert _count(image, light_palette().color(QPalette.ColorRole.Base)) == 0, (
                name,
                plot.objectName(),
            )


# -- icons -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1.0, 1.5, 2.0, 3.0])
def test_ui_icons_are_sharp_at_every_scale_and_follow_the_theme(theme, scale) -> None:
    from philont_desktop.qt import QSize
    from philont_desktop.resources import icon

    def opaque_colours(mode: str) -> set[str]:
        theme.set_mode(mode)
        pixmap = icon("open").pixmap(QSize(16, 16), scale)
        assert pixmap.width() == round(16 * scale)  # drawn for the device pixels, not scaled up
        assert pixmap.devicePixelRatio() == scale
        image = pixmap.toImage()
        return {
            QColor(image.pixel(x, y)).name()
            for x in range(image.width())
            for y in range(image.height())
            if QColor.fromRgba(image.pixel(x, y)).alpha() == 255
        }

    light, dark = opaque_colours("light"), opaque_colours("dark")
    assert light == {light_palette().color(QPalette.ColorRole.ButtonText).name()}
    assert dark == {dark_palette().color(QPalette.ColorRole.ButtonText).name()}


def test_application_icon_has_large_sizes_for_hidpi(qapp) -> None:
    from philont_desktop.qt import QSize
    from philont_desktop.resources import app_icon

    ic = app_icon()
    assert QSize(512, 512) in ic.availableSizes()
    assert ic.pixmap(QSize(64, 64), 2.0).size() == QSize(128, 128)
