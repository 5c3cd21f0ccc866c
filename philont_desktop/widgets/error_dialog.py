"""Errors shown to a person: a readable message, the details one click away, never a traceback up front."""

from __future__ import annotations

import traceback

from core.errors import MemoryError_
from philont_desktop import __version__
from philont_desktop.qt import (
    QApplication,
    QCoreApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    Qt,
    QVBoxLayout,
    QWidget,
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ErrorDialog", text)


def readable_message(exc: BaseException | str) -> str:
    """What to tell a person: the core's own message, else a plain sentence naming the problem."""
    if isinstance(exc, str):
        return exc
    text = str(exc).strip()
    if isinstance(exc, MemoryError_) and text:
        from philont_desktop.messages import error_text

        return error_text(exc)
    if isinstance(exc, OSError) and exc.strerror:
        where = f" ({exc.filename})" if exc.filename else ""
        return _tr("The operating system reported: {0}{1}.").format(exc.strerror, where)
    if text:
        return _tr("Something went wrong: {0}").format(text.splitlines()[0])
    return _tr("Something went wrong ({0}).").format(type(exc).__name__)


def error_details(exc: BaseException | str, context: str = "") -> str:
    """Everything useful for a bug report: versions, context, the exception chain with traceback."""
    from core.engine import ENGINE, SQLITE_VERSION
    from philont_desktop.qt import PYSIDE_VERSION, QT_VERSION

    head = [
        f"philont-desktop {__version__}; Qt {QT_VERSION}; PySide6 {PYSIDE_VERSION}; "
        f"SQLite {SQLITE_VERSION} ({ENGINE})"
    ]
    if context:
        head.append(context)
    if isinstance(exc, str):
        return "\n".join([*head, "", exc])
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return "\n".join([*head, "", tb.rstrip()])


class ErrorDialog(QDialog):
    """``ErrorDialog(title, exc, parent)``: message, "Show details" and "Copy details"."""

    def __init__(
        self, title: str, exc: BaseException | str, parent: QWidget | None = None, context: str = ""
    ):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("errorDialog")
        self.message = readable_message(exc)
        self.details = error_details(exc, context)

        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(40, 40))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        heading = QLabel(f"<b>{_escape(title)}</b>")
        self.message_label = QLabel(self)
        self.message_label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote stored text
        self.message_label.setText(self.message)
        self.message_label.setWordWrap(True)
        self.message_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message_label.setMinimumWidth(380)

        text_box = QVBoxLayout()
        text_box.addWidget(heading)
        text_box.addWidget(self.message_label)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addLayout(text_box, 1)

        self.details_view = QPlainTextEdit(self.details)
        self.details_view.setReadOnly(True)
        self.details_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details_view.setMinimumHeight(160)
        self.details_view.setVisible(False)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.toggle_button = QPushButton(_tr("Show details"))
        self.toggle_button.setCheckable(True)
        self.toggle_button.toggled.connect(self._toggle)
        self.copy_button = QPushButton(_tr("Copy details"))
        self.copy_button.clicked.connect(self.copy_details)
        buttons.addButton(self.toggle_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.details_view, 1)
        layout.addWidget(buttons)

    def _toggle(self, on: bool) -> None:
        self.details_view.setVisible(on)
        self.toggle_button.setText(_tr("Hide details") if on else _tr("Show details"))
        self.adjustSize()

    def copy_details(self) -> None:
        QApplication.clipboard().setText(f"{self.message}\n\n{self.details}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def show_error(title: str, exc: BaseException | str, parent: QWidget | None = None) -> ErrorDialog:
    """Open an :class:`ErrorDialog` without blocking the event loop; returns it."""
    dlg = ErrorDialog(title, exc, parent)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg
