"""Large text (zoom 150 % and 200 %; 144 and 192 dpi, in a window started for them) and scale factors
1.5 and 2 at 1280×820 and 1024×640: the window keeps its size and fits the screen, labels and buttons
keep their whole text, the Review summaries and the Timeline's conversation list keep their room, the
Facts filters and namespace names keep theirs, the Context budgets never draw text over text; what does
not fit scrolls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from philont_desktop import zoom
from philont_desktop.app import settle
from philont_desktop.qt import QApplication, QFontMetrics, QImage, QStyleOptionViewItem
from philont_desktop.tabs import tab_names
from philont_desktop.workers import spin_until
from tests.desktop.large_text_walk import squeezed

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def normal_size(qapp):
    zoom.reset_for_tests()
    yield
    zoom.reset_for_tests()


@pytest.mark.parametrize("size", [(1280, 820), (1024, 640)], ids=["1280x820", "1024x640"])
@pytest.mark.parametrize("level", [150, 200])
def test_large_text_keeps_every_label_whole_and_the_window_its_size(open_window, demo_db_path, size, level):
    w = open_window(demo_db_path, size=size)
    w.theme.set_zoom(level)
    problems = []
    for name in tab_names():
        tab = w.show_tab(name)
        assert settle(w, tab, 20_000)
        problems += [f"{name}: {p}" for p in squeezed(tab)]
        problems += [f"{name}: status bar: {p}" for p in squeezed(w.statusBar())]
        if tab.width() > w.width():
            problems.append(f"{name}: scrolls sideways ({tab.width()} px wide)")
        need = w.minimumSizeHint()
        assert need.width() <= size[0] and need.height() <= size[1], (name, need)
        assert (w.width(), w.height()) == size, name
    assert not problems, "\n".join(problems)
    facts = w.show_tab("facts")
    for edit in (facts.bar.filter_edit, facts.bar.column_edit):
        assert edit.width() >= edit.fontMetrics().horizontalAdvance("x" * 10)
    tree = facts.tree
    assert tree.columnWidth(0) >= tree.fontMetrics().horizontalAdvance("x" * 8)


def test_budget_texts_take_two_lines_rather_than_overlap(open_window, demo_db_path):
    from philont_desktop.context_tab.widgets.budgets import BudgetBar

    w = open_window(demo_db_path, size=(1024, 640))
    tab = w.show_tab("context")
    assert settle(w, tab, 20_000)
    w.theme.set_zoom(200)
    bars = tab.findChildren(BudgetBar)
    assert bars
    for bar in bars:
        bar.resize(180, bar.height())
        line = bar.fontMetrics().height()
        assert bar.two_lines(180)
        assert bar.heightForWidth(180) >= 2 * line + bar.BAR_H
        assert bar.minimumHeight() >= 2 * line + bar.BAR_H
        assert not bar.two_lines(2000) and bar.heightForWidth(2000) < 2 * line + bar.BAR_H


@pytest.mark.parametrize("factor", ["1.5", "2"])
def test_a_scale_factor_renders_the_same_window_sharper(demo_db_path, tmp_path, factor):
    env = dict(os.environ, QT_SCALE_FACTOR=factor, QT_QPA_PLATFORM="offscreen")
    out = tmp_path / "shots"
    command = [sys.executable, "-m", "philont_desktop", "--db", str(demo_db_path), "--screenshot", str(out)]
    done = subprocess.run(
        [*command, "--size", "1024x640"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    for name in tab_names():
        image = QImage(str(out / f"{name}.png"))
        assert (image.width(), image.height()) == (round(1024 * float(factor)), round(640 * float(factor))), (
            name
        )


@pytest.mark.parametrize("size", [(1280, 820), (1024, 640)], ids=["1280x820", "1024x640"])
@pytest.mark.parametrize("level", [150, 200])
def test_review_summaries_keep_their_first_40_characters_in_large_text(
    open_window, demo_db_path, size, level
):
    from philont_desktop.qt import Qt
    from philont_desktop.review.model import COL_CHANGE

    w = open_window(demo_db_path, size=size)
    w.theme.set_zoom(level)
    review = w.show_tab("review")
    assert settle(w, review, 20_000)
    tree, model = review.tree, review.model
    room = tree.header().sectionSize(COL_CHANGE) - 2 * tree.indentation()
    items = model.items()
    assert items
    for it in items:
        text = model.text(it)
        assert room >= tree.fontMetrics().horizontalAdvance(text[:40]), (text, room)
        index = model.index_of(it.id)
        option = QStyleOptionViewItem()
        option.initFrom(tree)
        option.rect = tree.visualRect(index)
        tree.itemDelegateForColumn(COL_CHANGE).initStyleOption(option, index)
        assert option.text.startswith(text[:40]), (option.text, text)  # as painted
        tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
        assert text in tip  # a summary cut in its middle is whole in the tooltip
    assert review.detail.width() >= 0.25 * review.width()  # the detail pane keeps its room
    assert review.width() <= w.width()  # beside the list or under it, never sideways out of sight


def test_a_long_summary_keeps_its_first_40_characters_and_its_end(qapp):
    from philont_desktop.review.widgets.summary_delegate import fit_summary

    metrics = QFontMetrics(QApplication.font())
    text = "project.deploy_target fell below the forget threshold 0.05 by decay, "
    text += "and a great deal more that does not fit"
    for chars in (45, 60):
        width = metrics.horizontalAdvance("x" * chars)
        shown = fit_summary(text, metrics, width)
        assert shown.startswith(text[:40]) and shown.endswith("not fit") and "…" in shown
        assert metrics.horizontalAdvance(shown) <= width
    assert fit_summary(text, metrics, 10_000) == text
    narrow = fit_summary(text, metrics, metrics.horizontalAdvance("x" * 20))
    assert narrow.startswith("project") and narrow.endswith("…")


def test_splitter_widths_for_text_follow_the_zoom(open_window, demo_db_path):
    w = open_window(demo_db_path, size=(1024, 640))
    timeline = w.show_tab("timeline")
    assert settle(w, timeline, 20_000)
    conversations = timeline.conversation_list
    before = conversations.width()
    w.theme.set_zoom(200)
    QApplication.processEvents()
    assert conversations.width() >= round(before * 1.5), (before, conversations.width())
    assert timeline.conversation.width() >= 0.4 * timeline.width()  # the conversation keeps its room
    w.theme.set_zoom(100)
    QApplication.processEvents()
    assert abs(conversations.width() - before) <= 0.1 * before


def test_a_text_pane_takes_at_most_its_share_of_the_splitter():
    assert zoom.fit_sizes([480, 900], [0], 2.0, 1380) == [960, 420]
    assert zoom.fit_sizes([760, 560], [0], 2.0, 1320) == [924, 396]
    assert zoom.fit_sizes([960, 420], [0], 0.5, 1380) == [480, 900]
    assert zoom.fit_sizes([300, 100], [0], 1.0, 400) == [300, 100]  # a wider pane is not shrunk


# 144 and 192 dpi as X11 gives them (Qt's own scaling off: the text is larger in the window's pixels),
# and the scale factors (the same layout in more device pixels).
SCREENS = {
    "144dpi": ({"QT_ENABLE_HIGHDPI_SCALING": "0", "QT_FONT_DPI": "144"}, 1.0),
    "192dpi": ({"QT_ENABLE_HIGHDPI_SCALING": "0", "QT_FONT_DPI": "192"}, 1.0),
    "scale1.5": ({"QT_SCALE_FACTOR": "1.5"}, 1.5),
    "scale2": ({"QT_SCALE_FACTOR": "2"}, 2.0),
}


@pytest.mark.parametrize("size", [(1280, 820), (1024, 640)], ids=["1280x820", "1024x640"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_window_started_at_high_dpi_keeps_every_label_whole_and_fits_the_screen(
    demo_db_path, tmp_path, screen, size
):
    """The window started on a screen of ``size`` (offscreen, its size in device pixels), every tab
    visited by ``large_text_walk.py``, which uses the checker of the zoom test above."""
    extra, scale = SCREENS[screen]
    config = tmp_path / "screen.json"
    device = {"width": round(size[0] * scale), "height": round(size[1] * scale)}
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, **device, "dpr": 1}]}))
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("QT_SCALE", "QT_FONT_DPI", "QT_ENABLE_HIGH"))
    }
    env.update(extra, QT_QPA_PLATFORM=f"offscreen:configfile={config}")
    env["PHILONT_DESKTOP_SETTINGS_DIR"] = str(tmp_path / "settings")
    walk = ROOT / "tests" / "desktop" / "large_text_walk.py"
    done = subprocess.run(
        [sys.executable, str(walk), str(demo_db_path), "{}x{}".format(*size)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["opened"] and report["tabs"] == list(tab_names())
    assert report["screen"] == [0, 0, *size]  # in the window's pixels
    base = QFontMetrics(QApplication.font()).height()
    if scale == 1.0:  # the text really is larger in the window's pixels
        assert report["text_height"] >= 1.4 * base * int(extra["QT_FONT_DPI"]) / 144
    else:
        assert report["device_pixel_ratio"] == scale
    assert report["window"][0] >= size[0] - 8 and report["window"][1] >= size[1] - 8  # less the frame
    assert not report["problems"], "\n".join(report["problems"])


def test_rows_that_wrapped_for_large_text_go_back_on_one_line_at_100(open_window, demo_db_path):
    w = open_window(demo_db_path, size=(1024, 640))
    facts, context = w.show_tab("facts"), w.show_tab("context")
    assert settle(w, context, 20_000)
    assert not context.inputs_panel.narrow and facts.bar.grid.rowCount() == 1
    w.theme.set_zoom(200)
    for name in ("facts", "context"):
        assert settle(w, w.show_tab(name), 20_000)
    assert context.inputs_panel.narrow and facts.bar.grid.itemAtPosition(1, 0) is not None
    w.theme.set_zoom(100)
    for name in ("facts", "context"):
        tab = w.show_tab(name)
        assert settle(w, tab, 20_000)
        assert tab.width() <= w.width(), name
    assert not context.inputs_panel.narrow and facts.bar.grid.itemAtPosition(1, 0) is None


def test_the_status_bar_shortens_the_path_in_its_middle_and_the_counts_by_whole_words(
    open_window, demo_db_path
):
    w = open_window(demo_db_path, size=(1024, 640))
    assert spin_until(lambda: w.counts_loaded, 20_000)
    w.theme.set_zoom(200)
    # the status bar lays itself out again once the zoom's font changes have reached every label
    spin_until(lambda: not squeezed(w.statusBar()), 5000)
    assert not squeezed(w.statusBar())
    path, counts = w.path_label, w.counts_label
    full = str(demo_db_path)
    assert path.text() == full and path.accessibleDescription() == full and full in path.toolTip()
    shown = small = path.shown_text()
    assert "…" in shown and not shown.endswith("…") and shown != full  # the middle goes
    assert full.startswith(shown.split("…")[0]) and full.endswith(shown.split("…")[1])
    assert path.fontMetrics().horizontalAdvance(shown) <= path.room()
    shown = few = counts.shown_text()
    assert shown.endswith("…") and counts.fontMetrics().horizontalAdvance(shown) <= counts.room()
    assert counts.text().startswith(shown[:-1].rstrip())  # whole words: no number cut in two
    assert counts.text() in counts.toolTip() and counts.accessibleDescription() == counts.text()
    w.theme.set_zoom(100)
    QApplication.processEvents()
    assert len(path.shown_text()) > len(small) and len(counts.shown_text()) > len(few)  # room again


def test_counts_lose_whole_words_from_their_end():
    from philont_desktop.widgets.elided import fit_words

    text = "messages ~3,000 · actions ~1,200 · notes 60"
    assert fit_words(text, 100, len) == text
    assert fit_words(text, 30, len) == "messages ~3,000 · actions …"
    assert fit_words(text, 20, len) == "messages ~3,000 …"
    assert fit_words(text, 12, len) == "messages …"
    assert fit_words(text, 5, len) == ""


def test_the_context_budgets_wrap_in_their_pane_rather_than_run_past_its_edge(open_window, demo_db_path):
    from philont_desktop.qt import QScrollArea

    w = open_window(demo_db_path, size=(1024, 640))
    tab = w.show_tab("context")
    assert settle(w, tab, 20_000)
    w.theme.set_zoom(200)
    assert settle(w, tab, 20_000)
    QApplication.processEvents()
    side = tab.findChild(QScrollArea, "contextSide")
    assert side.widget().width() <= side.viewport().width()  # the legend's entries wrap
    panel = tab.budget_panel
    for bar in panel.bars.values():
        assert bar.width() <= side.viewport().width()
        line = bar.fontMetrics().height()
        if bar.fontMetrics().horizontalAdvance(bar.title) > bar.width():  # the title takes two lines
            assert bar.heightForWidth(bar.width()) >= 3 * line + bar.BAR_H
    assert panel.legend_texts()


def test_the_facts_namespaces_grow_with_the_zoom(open_window, demo_db_path):
    w = open_window(demo_db_path, size=(1280, 820))
    facts = w.show_tab("facts")
    assert settle(w, facts, 20_000)
    tree = facts.tree
    before = tree.width()
    w.theme.set_zoom(200)
    assert settle(w, facts, 20_000)
    QApplication.processEvents()
    assert tree.width() >= round(before * 1.5), (before, tree.width())
    assert facts.table.width() >= 0.3 * facts.split.width()  # the facts keep their room
    w.theme.set_zoom(100)
    assert settle(w, facts, 20_000)
    QApplication.processEvents()
    assert abs(tree.width() - before) <= 0.1 * before


def test_the_skills_filters_and_revisions_go_under_each_other_in_large_text_and_back(
    open_window, demo_db_path
):
    from philont_desktop.qt import Qt

    w = open_window(demo_db_path, size=(1024, 640))
    skills = w.show_tab("skills")
    assert settle(w, skills, 20_000)
    bar, revisions = skills.board.bar, skills.detail_pane.revisions
    assert bar.grid.itemAtPosition(1, 0) is None and revisions.orientation() == Qt.Orientation.Horizontal
    w.theme.set_zoom(200)
    assert settle(w, skills, 20_000)
    assert bar.grid.itemAtPosition(2, 0) is not None  # three lines, two fields each
    assert revisions.orientation() == Qt.Orientation.Vertical  # the diff under the versions
    assert skills.width() <= w.width()
    w.theme.set_zoom(100)
    assert settle(w, skills, 20_000)
    assert bar.grid.itemAtPosition(1, 0) is None and revisions.orientation() == Qt.Orientation.Horizontal


def test_the_calendar_details_and_the_facts_plot_keep_room_for_their_text(open_window, demo_db_path):
    w = open_window(demo_db_path, size=(1024, 640))
    calendar = w.show_tab("calendar")
    assert settle(w, calendar, 20_000)
    before = calendar.details.width()
    w.theme.set_zoom(200)
    assert settle(w, calendar, 20_000)
    QApplication.processEvents()
    assert calendar.details.width() >= round(before * 1.4), (before, calendar.details.width())

    assert calendar.tables.width() >= 0.5 * calendar.splitter.width()  # the agenda keeps its share
    facts = w.show_tab("facts")
    assert settle(w, facts, 20_000)
    line = facts.table.fontMetrics().height()
    assert facts.table.height() >= 6 * line  # its header and a few rows, the tab scrolls instead
    assert facts.curves.plot.height() >= 6 * line  # the score ticks apart
    assert facts.width() <= w.width()
    versions = w.show_tab("skills").detail_pane.revisions.table
    assert versions.minimumHeight() >= 5 * versions.fontMetrics().height()


def test_the_calendar_details_break_their_times_between_words_in_large_text(open_window, demo_db_path):
    w = open_window(demo_db_path, size=(1024, 640))
    w.theme.set_zoom(200)
    calendar = w.show_tab("calendar")
    assert settle(w, calendar, 20_000)
    QApplication.processEvents()
    doc = calendar.details.document()
    block, cut = doc.begin(), []
    while block.isValid():
        text, layout = block.text(), block.layout()
        if "UTC" in text:
            for i in range(layout.lineCount() - 1):
                end = layout.lineAt(i).textStart() + layout.lineAt(i).textLength()
                if text[end - 1] not in " \u2028" and text[end] not in " \u2028":
                    cut.append(text[layout.lineAt(i).textStart() : end + 4])
        block = block.next()
    assert doc.toPlainText().count("UTC") and not cut, cut
