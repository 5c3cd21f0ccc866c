"""A "Loading…" sign over a tab until its first read arrives.

Every tab reads off the GUI thread; until the first answer comes its tables, boards, plots and previews
are empty, which on a big file looks broken rather than busy. :class:`LoadingOverlay` sits in the middle
of the tab (on top of its children, following its size) with a spinning mark and "Loading…", and goes
away for good when the tab first becomes idle (:meth:`philont_desktop.tabs.base.BaseTab.ensure_activated`).
"""

from __future__ import annotations

from typing import Any

from philont_desktop.qt import QEvent, QFrame, QHBoxLayout, QLabel, QObject, Qt, QTimer, QWidget

SPINNER = "◐◓◑◒"
SPIN_MS = 150


class LoadingOverlay(QFrame):
    """A small framed "Loading…" box centred over ``parent``; :meth:`finish` removes it."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("loadingOverlay")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        row = QHBoxLayout(self)
        row.setContentsMargins(14, 8, 14, 8)
        self.mark = QLabel(SPINNER[0])
        self.label = QLabel(self.tr("Loading…"))
        row.addWidget(self.mark)
        row.addWidget(self.label)
        self._step = 0
        self._timer = QTimer(self)
        self._timer.setInterval(SPIN_MS)
        self._timer.timeout.connect(self._spin)
        self._timer.start()
        parent.installEventFilter(self)
        self._place()
        self.raise_()
        self.show()

    @property
    def text(self) -> str:
        return self.label.text()

    def _spin(self) -> None:
        self._step = (self._step + 1) % len(SPINNER)
        self.mark.setText(SPINNER[self._step])

    def _place(self) -> None:
        parent = self.parentWidget()
        if parent is None:
            return
        self.adjustSize()
        size = self.sizeHint()
        self.setGeometry(
            (parent.width() - size.width()) // 2,
            (parent.height() - size.height()) // 3,
            size.width(),
            size.height(),
        )

    def eventFilter(self, watched: QObject, event: Any) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._place()
            self.raise_()
        return False

    def finish(self) -> None:
        """The first read arrived: stop and go away."""
        self._timer.stop()
        parent = self.parentWidget()
        if parent is not None:
            parent.removeEventFilter(self)
        self.hide()
        self.deleteLater()
