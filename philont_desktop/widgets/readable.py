"""Stored JSON text shown in its readable form (:mod:`core.readable`), the stored text one click away.

:class:`ReadableText` is a read-only text pane with a "Raw" toggle: the readable form (the structure,
strings unescaped, times as local dates) by default, the text as stored when the toggle is on. Text that
is not JSON is shown as it is and the toggle is disabled. Both forms are plain text with control
characters and direction overrides spelled visibly (:mod:`philont_desktop.widgets.plain`); long texts
are shown in part and open whole in a :class:`~philont_desktop.widgets.fulltext.FullTextDialog` on a
double-click. :func:`raw_button` makes the same toggle for other views (the full-text dialog).
"""

from __future__ import annotations

from typing import Any

from core.readable import Readable, readable
from philont_desktop.fonts import monospace_font
from philont_desktop.qt import (
    QCoreApplication,
    QEvent,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    Qt,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import plain

SHOWN_CHARS = 200_000
# Texts longer than this are shown as stored: laying out megabytes of JSON would hold the window up.
PARSE_LIMIT = 2_000_000


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReadableText", text)


def readable_form(text: Any) -> Readable:
    """The readable form of a stored text (the text as it is when it is not JSON or very long)."""
    s = "" if text is None else text if isinstance(text, str) else str(text)
    if len(s) > PARSE_LIMIT:
        return Readable(s, False)
    return readable(s)


def raw_button(parent: QWidget, name: str = "rawToggle") -> QToolButton:
    """The checkable "Raw" toggle: keyboard-reachable, with an accessible name and a tooltip."""
    btn = QToolButton(parent)
    btn.setObjectName(name)
    btn.setCheckable(True)
    btn.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    retranslate_raw_button(btn)
    return btn


def retranslate_raw_button(btn: QToolButton) -> None:
    btn.setText(_tr("Raw"))
    btn.setAccessibleName(_tr("Show the stored text as it is"))
    btn.setToolTip(_tr("Show the text as it is stored (JSON with its escapes) instead of its readable form"))


class ReadableText(QWidget):
    """A stored text in readable form with a "Raw" toggle (``title``: a label beside the toggle)."""

    rawToggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, name: str = "readableText", title: str = ""):
        super().__init__(parent)
        self.setObjectName(name)
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName(name + "Edit")
        self.edit.setReadOnly(True)
        self.edit.setFont(monospace_font())
        self.edit.viewport().installEventFilter(self)
        self.title = QLabel(title, self)
        self.raw = raw_button(self, name + "Raw")
        self.raw.toggled.connect(self._on_raw)
        self._stored = ""
        self._form = Readable("", False)
        self._full_title = title
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title)
        head.addStretch(1)  # the toggle stays on the right, with or without a title
        head.addWidget(self.raw)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addLayout(head)
        lay.addWidget(self.edit, 1)
        self.title.setVisible(bool(title))
        self.title.setBuddy(self.edit)
        self.edit.setAccessibleName(title)

    # -- content ----------------------------------------------------------------------------------------
    def set_title(self, title: str) -> None:
        self.title.setText(title)
        self.title.setVisible(bool(title))
        self.edit.setAccessibleName(title)
        self._full_title = title

    def set_text(self, stored: Any, form: Readable | None = None) -> None:
        """Show ``stored`` (its readable form, or ``form`` when given: a composed readable text)."""
        self._stored = "" if stored is None else stored if isinstance(stored, str) else str(stored)
        self._form = form if form is not None else readable_form(self._stored)
        self.raw.setEnabled(self._form.is_json)
        self._show()

    def set_message(self, text: str) -> None:
        """A text of the app's own (a placeholder): shown as it is, no toggle."""
        self.set_text(text, Readable(text, False))

    @property
    def raw_shown(self) -> bool:
        return self.raw.isChecked() or not self._form.is_json

    def shown_text(self) -> str:
        """The whole text of the form on screen (the stored text when raw is shown)."""
        return self._stored if self.raw_shown else self._form.text

    def toPlainText(self) -> str:
        return self.edit.toPlainText()

    def _on_raw(self, on: bool) -> None:
        self._show()
        self.rawToggled.emit(on)

    def _show(self) -> None:
        """At most :data:`SHOWN_CHARS` characters; the whole text opens in a viewer on demand."""
        from philont_desktop.widgets.fulltext import break_long_lines

        text = self.shown_text()
        shown, broken = break_long_lines(plain.plain(text[:SHOWN_CHARS], None))
        self.edit.setProperty("fullText", text if (broken or len(text) > SHOWN_CHARS) else None)
        notes = []
        if len(text) > SHOWN_CHARS:
            notes.append(
                _tr("[… %1 more characters: double-click to see the whole text]").replace(
                    "%1", f"{len(text) - SHOWN_CHARS:,}"
                )
            )
        if broken:
            notes.append(_tr("[long lines are broken for display: double-click to see the text as it is]"))
        if self._form.truncated and not self.raw_shown:
            notes.append(_tr("[long values are cut here: Raw shows the text as stored]"))
        self.edit.setPlainText(shown + ("\n" + "\n".join(notes) if notes else ""))

    # -- the whole text ---------------------------------------------------------------------------------
    def eventFilter(self, obj: Any, event: Any) -> bool:
        dbl = event.type() == QEvent.Type.MouseButtonDblClick
        if dbl and obj is self.edit.viewport() and self.edit.property("fullText"):
            self.open_full_text()
            return True
        return super().eventFilter(obj, event)

    def open_full_text(self) -> Any:
        from philont_desktop.widgets.fulltext import FullTextDialog

        if not self.edit.property("fullText"):
            return None
        raw = self._stored if self._form.is_json else None
        dlg = FullTextDialog(self._full_title, self._form.text, self, monospace=True, raw=raw)
        dlg.set_raw(self.raw_shown)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.show()
        return dlg

    def retranslate(self) -> None:
        retranslate_raw_button(self.raw)
        self._show()
