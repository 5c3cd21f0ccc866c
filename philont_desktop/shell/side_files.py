"""A file the app keeps beside the database (the review marks, the settings) that could not be used was
set aside (:mod:`core.sidefiles`): the status bar says so once, with the notice's code."""

from __future__ import annotations

from core import sidefiles
from core.errors import Notice
from philont_desktop.qt import QObject, QStatusBar, Qt, Signal

#: How long the status bar shows the message (ms).
SHOWN_MS = 30_000


class SideFileNotices(QObject):
    """Listens to :mod:`core.sidefiles` (from any thread) and shows each file set aside in ``bar``."""

    arrived = Signal(object)

    def __init__(self, bar: QStatusBar, parent: QObject | None = None):
        super().__init__(parent)
        self.bar = bar
        self.shown: list[str] = []
        self.arrived.connect(self._show, Qt.ConnectionType.QueuedConnection)
        listener = self.arrived.emit
        sidefiles.listen(listener)
        self.destroyed.connect(lambda *_: sidefiles.unlisten(listener))

    def _show(self, notice: Notice) -> None:
        from philont_desktop import messages

        text = f"⚠ {messages.notice_text(notice)} ({notice.code})"
        self.shown.append(text)
        self.bar.showMessage(text, SHOWN_MS)
