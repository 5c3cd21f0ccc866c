"""At 1024×640 on the demo database: what matters is seen without scrolling sideways, stored times are
never broken inside, and dark mode keeps the Skills detail's chips readable; ``--size`` sets the window
size of a screenshot run."""

from __future__ import annotations

import argparse
import re

import pytest

pytest.importorskip("pytestqt")

from philont_desktop.app import _size, build_parser, settle
from philont_desktop.facts.columns import C_CROSSES, C_VALUE
from philont_desktop.facts.widgets.table import VALUE_MIN
from philont_desktop.qt import QColor, Qt
from philont_desktop.skills.widgets.colors import Colors, grade_color
from philont_desktop.theme import dark_palette, light_palette
from philont_desktop.workers import spin_until


@pytest.fixture
def window(open_window, demo_db_path):
    return open_window(demo_db_path, size=(1024, 640))


def _shown(w, name):
    tab = w.show_tab(name)
    assert settle(w, tab, 20_000)
    return tab


def _contrast(a: QColor, b: QColor) -> float:
    def lum(c: QColor) -> float:
        def ch(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF())

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_facts_below_threshold_column_is_seen_without_scrolling_at_1024(window):
    tab = _shown(window, "facts")
    table = tab.table
    hh = table.horizontalHeader()
    right = hh.sectionViewportPosition(C_CROSSES) + hh.sectionSize(C_CROSSES)
    assert 0 < right <= table.viewport().width()
    assert hh.sectionSize(C_VALUE) >= VALUE_MIN
    # What is cut short keeps its whole text in the tooltip.
    index = table.model().index(0, C_CROSSES)
    if table.model().data(index):
        assert table.model().data(index, 3)  # Qt.ToolTipRole


def test_calendar_details_keep_each_time_whole(window):
    tab = _shown(window, "calendar")
    agenda = tab.tables.views["upcoming"]
    assert agenda.model().rowCount() > 0
    agenda.selectRow(0)
    assert spin_until(lambda: "UTC" in tab.details.toPlainText(), 5000)
    text = tab.details.document().toRawText()  # keeps the non-breaking spaces
    utc = next(line for line in re.split("[\u2028\ufdd0\ufdd1\n]", text) if line.startswith("UTC"))
    # a line may break between the date and the time (large text), never inside either
    words = utc.split()
    assert words[0] == "UTC" and re.fullmatch(r"\d{4}-\d\d-\d\d", words[1]), utc
    assert re.fullmatch(r"\d\d:\d\d(:\d\d)?", words[2]), utc
    assert "T" not in utc.removeprefix("UTC")  # read as a date and a time, not the ISO form


def test_context_budget_legend_shows_every_section_at_1024(window):
    tab = _shown(window, "context")
    panel = tab.budget_panel
    assert spin_until(lambda: len(panel.legend_texts()) >= 5, 10_000)
    assert len(panel.legend_texts()) == len(tab.state.result.prefix.sections)
    legend = panel.legend
    # The legend has the height its wrapped entries need, every entry lies inside it whole, and the side
    # panel scrolls to it rather than cutting it off.
    assert legend.height() >= legend.layout().heightForWidth(legend.width())
    entries = [legend.layout().itemAt(i).widget() for i in range(legend.layout().count())]
    for e in entries:
        assert legend.rect().contains(e.geometry()), e.property("plain_text")
        assert e.width() >= e.sizeHint().width()
    side = legend.parentWidget().parentWidget()
    assert legend.mapTo(side, legend.rect().bottomLeft()).y() <= side.height()


@pytest.mark.parametrize("dark", [False, True])
def test_skills_detail_chips_are_readable_in_both_modes(dark):
    colors = Colors(dark)
    palette = dark_palette() if dark else light_palette()
    text, base = palette.text().color(), palette.base().color()
    assert _contrast(colors.chip, text) >= 4.5  # keyword chips: the text on the chip
    assert _contrast(colors.chip, base) >= 1.3  # and the chip seen against the pane
    for grade in ("playbook", "draft", "confirmed", "stable", "deprecated"):
        assert _contrast(colors.on_filled, grade_color(grade, dark)) >= 3.0, grade


def test_size_option_sets_the_window_size_of_batch_runs():
    assert build_parser().parse_args(["--size", "1024x640"]).size == (1024, 640)
    assert build_parser().parse_args([]).size == (1280, 820)
    for bad in ("1024", "axb", "10x10", "1024x"):
        with pytest.raises(argparse.ArgumentTypeError):
            _size(bad)


def test_review_summaries_are_readable_at_1024(window):
    from philont_desktop.qt import Qt
    from philont_desktop.review.model import COL_BY, COL_CHANGE, COL_TIME

    tab = _shown(window, "review")
    tree = tab.tree
    assert tree.isColumnHidden(COL_TIME)  # the exact time is in the tooltip and the detail pane
    # Room for about 45 characters of a summary (it was cut to about 25).
    need = tree.fontMetrics().horizontalAdvance("new fact session.focus = deploy checklist, …")
    assert tree.header().sectionSize(COL_CHANGE) - tree.indentation() * 2 >= need
    first = tab.model.index(0, COL_CHANGE, tab.model.index(0, 0))
    tip = tab.model.data(first, Qt.ItemDataRole.ToolTipRole)
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", tip)
    assert "derived" in tab.model.headerData(COL_BY, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)


def _model_texts(view) -> list[str]:
    model = view.model()
    return [
        str(model.index(r, c).data() or "")
        for r in range(min(model.rowCount(), 60))
        for c in range(model.columnCount())
    ]


def test_chinese_tab_walk_shows_no_internal_words(window):
    """The Calendar, Actions, Backups and Review tabs in Chinese at 1024 px: action types, creators, the
    global session and quick_check are said in words (the stored values stay in tooltips)."""
    from philont_desktop import i18n

    try:
        window.set_language("zh_CN")
        calendar = _shown(window, "calendar")
        texts = [t for name in ("upcoming", "tasks") for t in _model_texts(calendar.views[name])]
        raw = {"prompt", "tool_call", "reflect", "autonomous_turn", "llm_external"}
        assert raw.isdisjoint(texts) and "提醒消息" in texts
        model = calendar.views["tasks"].model().sourceModel()
        assert calendar.select("tasks", model.key(model.rows[0]))
        assert (
            "创建者\n智能体" in calendar.details.toPlainText() or "智能体" in calendar.details.toPlainText()
        )
        actions = _shown(window, "actions")
        header = actions.detail.header.text()
        assert "对话：" in header and "会话" not in header  # the conversation in words, its id in the tooltip
        backups = _shown(window, "backups")
        heads = [
            str(backups.view.model().headerData(c, Qt.Orientation.Horizontal))
            for c in range(backups.view.model().columnCount())
        ]
        assert "quick_check" not in " ".join(heads)
        review = _shown(window, "review")
        assert not any("autonomous_turn" in t or "skill_repair:" in t for t in _model_texts(review.tree))
    finally:
        window.set_language("en")
        i18n.install("en")
