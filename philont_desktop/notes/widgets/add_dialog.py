"""The dialog that asks for the text and importance of a new note."""

from __future__ import annotations

from philont_desktop.qt import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)


class AddNoteDialog(QDialog):
    """Text and importance of a new note."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add a note"))
        self.setObjectName("addNoteDialog")
        self.resize(520, 320)
        self.text = QPlainTextEdit(self)
        self.text.setPlaceholderText(self.tr("What should be remembered?"))
        self.importance = importance_spin(self)
        self.importance.setValue(0.5)
        form = QFormLayout()
        form.addRow(self.tr("Importance"), self.importance)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Add"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.text.textChanged.connect(self._update)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text, 1)
        lay.addLayout(form)
        lay.addWidget(self.buttons)
        self._update()

    def _update(self) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            bool(self.text.toPlainText().strip())
        )


def importance_spin(parent: QWidget) -> QDoubleSpinBox:
    """A spin box for an importance in [0, 1], two decimals."""
    spin = QDoubleSpinBox(parent)
    spin.setRange(0.0, 1.0)
    spin.setSingleStep(0.05)
    spin.setDecimals(2)
    return spin
