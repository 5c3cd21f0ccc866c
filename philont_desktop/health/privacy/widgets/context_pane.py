"""The selected finding in its context: where it is, the text around it with the value masked, and "Show",
which puts the whole value in the text pane until it is turned off or the selection changes.

The whole value is only ever in the text pane, and only while "Show" is on: never in a label, a tooltip
or an accessible name. The text is stored text: shown as plain text with control characters and
direction overrides spelled visibly (:class:`~philont_desktop.widgets.readable.ReadableText`).
"""

from __future__ import annotations

from core.privacy.finding import PrivacyFinding
from core.readable import Readable
from philont_desktop.health.privacy.model import place_text, where_text
from philont_desktop.health.privacy.ops import FindingContext
from philont_desktop.health.privacy.texts import category_name, kind_name, layer_name
from philont_desktop.qt import QHBoxLayout, QLabel, QPushButton, Qt, QVBoxLayout, QWidget, Signal
from philont_desktop.widgets import plain
from philont_desktop.widgets.readable import ReadableText

__all__ = ["ContextPane"]


class ContextPane(QWidget):
    """:meth:`show_finding` (what is selected), :meth:`set_context` (its text, once read);
    ``contextWanted(finding)`` asks for the text when a finding is shown."""

    contextWanted = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privacyContextPane")
        self.finding: PrivacyFinding | None = None
        self.context: FindingContext | None = None
        self.heading = QLabel(self)
        self.heading.setObjectName("privacyContextHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.text = ReadableText(self, name="privacyContext", title=self.tr("Context"))
        self.text.raw.hide()  # the context is shown as stored: no readable form to switch from
        self.show_btn = QPushButton(self.tr("Show"), self)
        self.show_btn.setObjectName("privacyShowValue")
        self.show_btn.setCheckable(True)
        self.show_btn.setToolTip(
            self.tr("Show the whole value in the text above (hidden again when you choose another)")
        )
        self.hint = QLabel(self)
        self.hint.setObjectName("privacyShowHint")
        self.hint.setTextFormat(Qt.TextFormat.PlainText)
        self.hint.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.show_btn)
        row.addWidget(self.hint, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.heading)
        lay.addWidget(self.text, 1)
        lay.addLayout(row)
        self.show_btn.toggled.connect(self._render)
        self.show_finding(None)

    # -- content -----------------------------------------------------------------------------------------
    def show_finding(self, finding: PrivacyFinding | None) -> None:
        """Another finding (or none): the value masked again, its context asked for."""
        self.finding, self.context = finding, None
        self.show_btn.blockSignals(True)
        self.show_btn.setChecked(False)
        self.show_btn.blockSignals(False)
        self.show_btn.setEnabled(False)
        self._heading()
        self._render()
        if finding is not None:
            self.contextWanted.emit(finding)

    def set_context(self, finding: PrivacyFinding, context: FindingContext | None) -> None:
        """The text around ``finding`` (``None``: the row is no longer there)."""
        if finding is not self.finding:
            return
        self.context = context
        self.show_btn.setEnabled(context is not None and context.value != "")
        self._render()

    @property
    def shown(self) -> bool:
        return self.show_btn.isChecked() and self.context is not None

    def shown_text(self) -> str:
        """The text on screen (tests)."""
        return self.text.toPlainText()

    def _heading(self) -> None:
        f = self.finding
        if f is None:
            self.heading.setText(self.tr("Choose a finding to see it in its context."))
            return
        self.heading.setText(
            self.tr("{kind} ({category}) in {layer}, {place}, {file}").format(
                kind=kind_name(f.kind),
                category=category_name(f.category),
                layer=layer_name(f.layer),
                place=place_text(f),
                file=plain.plain(where_text(f, in_sentence=True), 200, one_line=True),
            )
        )

    def _render(self) -> None:
        f, c = self.finding, self.context
        if f is None:
            text, hint = "", ""
        elif c is None:
            text, hint = self.tr("Reading the text around it…"), ""
        elif self.show_btn.isChecked():
            text = c.before + c.value + c.after
            hint = self.tr("The whole value is shown. It is masked again when you choose another finding.")
        else:
            text = c.before + "⟦" + f.preview + "⟧" + c.after
            hint = self.tr("The value is masked: Show puts it whole in the text above.")
        self.text.set_text(text, Readable(text, False))
        self.hint.setText(hint)
        self.show_btn.setText(self.tr("Hide") if self.show_btn.isChecked() else self.tr("Show"))

    def retranslate(self) -> None:
        self._heading()
        self._render()
        self.text.set_title(self.tr("Context"))
