"""The Notes tab's bar: search, hide forgotten, order, add, and how many notes are shown."""

from __future__ import annotations

from philont_desktop.notes.state import NotesQuery
from philont_desktop.qt import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTimer,
    QWidget,
    Signal,
)

SEARCH_DEBOUNCE_MS = 250


class NotesFilterBar(QWidget):
    """Emits ``queryChanged`` (debounced while typing; at once for Enter and the other controls)."""

    queryChanged = Signal()
    addRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.search_edit = QLineEdit(self)
        self.search_edit.setObjectName("notesSearch")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setPlaceholderText(
            self.tr("Search notes (the agent's search: 3+ characters full-text)")
        )
        self.hide_forgotten = QCheckBox(self.tr("Hide forgotten"), self)
        self.order_combo = QComboBox(self)
        self.order_combo.addItem(self.tr("Newest first"), "created")
        self.order_combo.addItem(self.tr("Most important first"), "importance")
        self.add_btn = QPushButton(self.tr("Add note…"), self)
        self.add_btn.setObjectName("addNote")
        self.count_label = QLabel(self)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(6, 6, 6, 2)
        bar.addWidget(self.search_edit, 3)
        bar.addWidget(self.hide_forgotten)
        bar.addWidget(self.order_combo)
        bar.addWidget(self.add_btn)
        bar.addWidget(self.count_label)

        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self.debounce.timeout.connect(self.queryChanged)
        self.search_edit.textChanged.connect(lambda _t: self.debounce.start())
        self.search_edit.returnPressed.connect(self.queryChanged)
        self.hide_forgotten.toggled.connect(lambda _b: self.queryChanged.emit())
        self.order_combo.currentIndexChanged.connect(lambda _i: self.queryChanged.emit())
        self.add_btn.clicked.connect(self.addRequested)

    def query(self) -> NotesQuery:
        return NotesQuery(
            text=self.search_edit.text(),
            include_forgotten=not self.hide_forgotten.isChecked(),
            order=self.order_combo.currentData() or "created",
        )

    def show_query(self, query: NotesQuery) -> None:
        """Search results come in the agent's order: the order choice is off while searching."""
        self.debounce.stop()
        self.order_combo.setEnabled(not query.searching)
        self.order_combo.setToolTip(
            self.tr("Search results come as the agent's search orders them: most important first")
            if query.searching
            else ""
        )

    def show_count(self, n: int, complete: bool, searching: bool, total: int | None = None) -> None:
        """``n`` notes loaded (all when ``complete``) of ``total`` (``None``: not counted)."""
        if searching:
            text = self.tr("1 note found") if n == 1 else self.tr("%1 notes found").replace("%1", f"{n:,}")
        elif not complete and total is not None and total > n:
            text = (
                self.tr("%1 notes · %2 shown, more as you scroll")
                .replace("%1", f"{total:,}")
                .replace("%2", f"{n:,}")
            )
        else:
            text = self.tr("1 note") if n == 1 else self.tr("%1 notes").replace("%1", f"{n:,}")
            if not complete:
                text = self.tr("%1+ notes").replace("%1", f"{n:,}")
        self.count_label.setText(text)

    def set_editing(self, on: bool) -> None:
        self.add_btn.setVisible(on)
