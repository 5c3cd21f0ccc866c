"""Start the main window the way a screen with large text starts it, visit every tab and report what
does not fit, as JSON on stdout (exit 0: the walk ran; what it found is in the report).

``python tests/desktop/large_text_walk.py DB WIDTHxHEIGHT`` with the environment of the case: 144 or
192 dpi (``QT_FONT_DPI`` with Qt's own scaling off, as X11 gives it: the text is larger in the
window's pixels) or a scale factor (``QT_SCALE_FACTOR``: the same layout, drawn sharper), on an
offscreen screen of that size. Used by ``test_scaling.py``; the checker is the one its zoom test uses.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def squeezed(tab) -> list[str]:
    """The labels and buttons of ``tab`` that are shown narrower than their text (a wrapping label
    takes more lines instead, and a label that shortens its text with "…" on purpose, its whole text in
    its tooltip, is left out), and the panes that cut their content at their right edge (a scroll area
    that does not scroll sideways holding a wider widget)."""
    from philont_desktop.qt import QAbstractButton, QLabel, QScrollArea, Qt, QWidget

    out = []
    for x in tab.findChildren(QWidget):
        if isinstance(x, QScrollArea) and x.isVisible() and x.widget() is not None:
            off = x.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            if off and x.widget().width() > x.viewport().width():
                out.append(f"{x.objectName()!r} cuts its pane: {x.viewport().width()} < {x.widget().width()}")
        if not x.isVisible() or not isinstance(x, (QLabel, QAbstractButton)) or not x.text():
            continue
        if isinstance(x, QLabel) and (x.wordWrap() or x.property("elidesText")):
            continue
        if x.width() < x.sizeHint().width() - 1:
            out.append(
                f"{type(x).__name__} {x.objectName()!r} {x.text()[:30]!r}: {x.width()} < {x.sizeHint().width()}"
            )
    return out


def walk(db: Path, size: tuple[int, int]) -> dict:
    from philont_desktop.app import _make_app, settle
    from philont_desktop.main_window import MainWindow
    from philont_desktop.qt import QApplication, QFontMetrics
    from philont_desktop.settings import Settings
    from philont_desktop.shell import placement
    from philont_desktop.tabs import tab_names
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    app = _make_app("philont-desktop")
    theme = Theme("light")
    theme.apply()
    w = MainWindow(Settings(), theme, interactive=False, live_interval_ms=60_000)
    w.persist = False
    w.resize(*size)
    w.show()
    placement.fit_to_screen(w)  # with the frame the window system drew (offscreen: 2 px)
    w.open_database(db)
    report: dict = {"opened": spin_until(lambda: w.ctx is not None, 30_000), "problems": [], "tabs": []}
    screen = w.screen()
    report["text_height"] = QFontMetrics(app.font()).height()
    report["device_pixel_ratio"] = screen.devicePixelRatio()
    report["screen"] = screen.availableGeometry().getRect()
    placed = (w.width(), w.height())
    report["window"] = placed
    for name in tab_names() if report["opened"] else []:
        tab = w.show_tab(name)
        if not settle(w, tab, 20_000):
            report["problems"].append(f"{name}: not settled")
        report["tabs"].append(name)
        report["problems"] += [f"{name}: {p}" for p in squeezed(tab)]
        report["problems"] += [f"{name}: status bar: {p}" for p in squeezed(w.statusBar())]
        if tab.width() > w.width():
            report["problems"].append(f"{name}: scrolls sideways ({tab.width()} px wide)")
        need = w.minimumSizeHint()
        if need.width() > placed[0] or need.height() > placed[1]:
            report["problems"].append(f"{name}: the window needs {need.width()}x{need.height()}")
        if (w.width(), w.height()) != placed or not screen.availableGeometry().contains(w.frameGeometry()):
            report["problems"].append(f"{name}: the window is {w.frameGeometry().getRect()}")
    if report["opened"]:
        report["problems"] += _cut_summaries(w.show_tab("review"))
    w.close()
    QApplication.processEvents()
    return report


def _cut_summaries(review) -> list[str]:
    """The Review tab's change summaries whose first 40 characters do not fit their column."""
    from philont_desktop.review.model import COL_CHANGE

    tree, model = review.tree, review.model
    room = tree.header().sectionSize(COL_CHANGE) - 2 * tree.indentation()
    texts = [model.text(it) for it in model.items()]
    cut = [t for t in texts if tree.fontMetrics().horizontalAdvance(t[:40]) > room]
    return [f"review: {t[:40]!r} in {room} px" for t in cut] if texts else ["review: no changes listed"]


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("PHILONT_DESKTOP_SETTINGS_DIR", tempfile.mkdtemp(prefix="large-text-"))
    width, height = (int(v) for v in argv[2].split("x"))
    print(json.dumps(walk(Path(argv[1]), (width, height))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
