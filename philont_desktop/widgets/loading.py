"""A "Loading…" sign over a tab until its first read arrives.

Every tab reads off the GUI thread; until the first answer comes its tables, boards, plots and previews
are empty (an empty plot even shows a meaningless axis), which on a big file looks broken rather than
busy. :class:`LoadingOverlay` veils the whole tab (following its size) and shows a spinning mark and
"Loading…" in a small box in the middle; it goes away for good when the tab first becomes idle
(:meth:`philont_desktop.tabs.base.BaseTab.ensure_activated`).
"""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import (
    QColor,
    QEvent,
    QFrame,
    QHBoxLayout,
    QLabel,
    QObject,
    QPainter,
    QPalette,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)

SPINNER = "◐◓◑◒"
SPIN_MS = 150
VEIL_ALPHA = 200  # how much of the empty tab shows through (0-255)


class LoadingOverlay(QWidget):
    """Covers ``parent`` with a veil and a framed "Loading…" box; :meth:`finish` removes it."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("loadingOverlay")
        self.box = QFrame(self)
        self.box.setFrameShape(QFrame.Shape.StyledPanel)
        self.box.setAutoFillBackground(True)
        self.box.setBackgroundRole(QPalette.ColorRole.Base)
        row = QHBoxLayout(self.box)
        row.setContentsMargins(16, 10, 16, 10)
        self.mark = QLabel(SPINNER[0])
        self.label = QLabel(self.tr("Loading…"))
        row.addWidget(self.mark)
        row.addWidget(self.label)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        outer.addWidget(self.box, 0, Qt.AlignmentFlag.AlignHCenter)
        outer.addStretch(2)
        self._step = 0
        self._timer = QTimer(self)
        self._timer.setInterval(SPIN_MS)
        self._timer.timeout.connect(self._spin)
        self._timer.start()
        parent.installEventFilter(self)
        self.setGeometry(parent.rect())
        self.raise_()
        self.show()

    @property
    def text(self) -> str:
        return self.label.text()

    def _spin(self) -> None:
        self._step = (self._step + 1) % len(SPINNER)
        self.mark.setText(SPINNER[self._step])

    def paintEvent(self, event: Any) -> None:
        veil = QColor(self.palette().color(QPalette.ColorRole.Window))
        veil.setAlpha(VEIL_ALPHA)
        p = QPainter(self)
        p.fillRect(self.rect(), veil)
        p.end()

    def eventFilter(self, watched: QObject, event: Any) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            parent = self.parentWidget()
            if parent is not None:
                self.setGeometry(parent.rect())
            self.raise_()
        elif event.type() == QEvent.Type.ChildAdded:
            QTimer.singleShot(0, self.raise_)  # a widget made later stays under the veil
        return False

    def finish(self) -> None:
        """The first read arrived: stop and go away."""
        self._timer.stop()
        parent = self.parentWidget()
        if parent is not None:
            parent.removeEventFilter(self)
        self.hide()
        # a widget deleted repaints the place it had, hidden or not: without a place, the tab is not
        # painted a second time (it was painted when the veil went)
        self.setGeometry(0, 0, 0, 0)
        self.deleteLater()
