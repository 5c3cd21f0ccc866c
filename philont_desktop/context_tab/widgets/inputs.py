"""The inputs of a preview: the message, the sessions, the home conversation, the host OS and the budgets.

The panel shows the state's inputs (:meth:`InputsPanel.show_inputs`, without echoing them back) and
announces every edit a person makes through one signal per input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.prefix import agent_platform
from philont_desktop import humanize, zoom
from philont_desktop.context_tab.model import parse_session_list
from philont_desktop.context_tab.state import Budgets, ContextState
from philont_desktop.qt import (
    QAbstractListModel,
    QComboBox,
    QCompleter,
    QCoreApplication,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import plain
from philont_desktop.widgets.conversations import ConversationCombo, ConversationsModel
from philont_desktop.widgets.flow import FlowLayout

#: The panel's width at 100 % on a 96 dpi screen under which the fields wrap (they need ~910 px in a row).
NARROW = 960
LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
HOSTS = (("Linux", "linux"), ("Windows", "windows"), ("macOS", "darwin"))


class InputsPanel(QWidget):
    messageEdited = Signal(str)
    sessionsEdited = Signal(object)  # tuple[str, ...]
    homeEdited = Signal(object)  # str | None
    hostEdited = Signal(object)  # str | None
    budgetsEdited = Signal(object)  # Budgets
    defaultsRequested = Signal()
    pickRequested = Signal()

    def __init__(self, conversations: ConversationsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.message_edit = QPlainTextEdit(self)
        self.message_edit.setObjectName("contextMessage")
        self.message_edit.setPlaceholderText(
            self.tr("Type a message as the user would send it; the preview follows as you type.")
        )
        self.message_edit.setTabChangesFocus(True)
        self.message_edit.setFixedHeight(self.message_edit.fontMetrics().lineSpacing() * 3 + 14)
        self.pick_button = QPushButton(self.tr("Pick a past message…"), self)
        self.pick_button.setObjectName("pickMessage")
        self.pick_button.setToolTip(
            self.tr(
                "What did the agent see here? Choose a user message from the timeline: the preview uses "
                "only what existed before it."
            )
        )
        self.clear_button = QPushButton(self.tr("Clear"), self)
        self.session_combo = _session_combo(self, self.tr("All sessions (ids, comma-separated)"))
        self.session_combo.setObjectName("contextSessions")
        self.home_combo = ConversationCombo(conversations, self)
        self.home_combo.setObjectName("contextHome")
        conversations.loaded.connect(self._show_home)  # the home conversation, once it is listed
        self._home: str | None = None
        self.home_combo.setToolTip(
            self.tr(
                "The conversation the message arrives in: recent messages from other conversations are left "
                "out, recalled ones are labelled with where they came from."
            )
        )
        self.host_combo = QComboBox(self)
        self.host_combo.setObjectName("contextHostOs")
        self.host_combo.addItem(self._this_machine(), "")
        for label, key in HOSTS:
            self.host_combo.addItem(label, key)
        self.spins = {
            "recent_budget": _spin(self, "recentBudget", 10_000_000, 500),
            "recall_budget": _spin(self, "recallBudget", 10_000_000, 500),
            "recent_limit": _spin(self, "recentLimit", 100_000, 1),
            "recall_limit": _spin(self, "recallLimit", 100_000, 1),
        }
        self.defaults_button = QPushButton(self.tr("Defaults"), self)
        self.defaults_button.setToolTip(
            self.tr("8,000 / 4,000 tokens, 30 recent messages, 10 recall candidates")
        )
        self._layout()
        self._wire()

    def _this_machine(self) -> str:
        return self.tr("This machine (%1)").replace("%1", agent_platform(None))

    def _layout(self) -> None:
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 8, 8, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(4)
        grid.addWidget(QLabel(self.tr("Message"), self), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.message_edit, 0, 1, 1, 7)
        side = QVBoxLayout()
        side.setSpacing(4)
        side.addWidget(self.pick_button)
        side.addWidget(self.clear_button)
        side.addStretch(1)
        grid.addLayout(side, 0, 8)
        self._fields = [
            (QLabel(self.tr("Sessions"), self), self.session_combo, (1, 0), (1, 1, 1, 3)),
            (QLabel(self.tr("Home conversation"), self), self.home_combo, (1, 4), (1, 5, 1, 2)),
            (QLabel(self.tr("Host OS"), self), self.host_combo, (1, 7, RIGHT), (1, 8, 1, 1)),
        ]
        labels = (
            (self.tr("Recent tokens"), "recent_budget"),
            (self.tr("Recall tokens"), "recall_budget"),
            (self.tr("Recent messages"), "recent_limit"),
            (self.tr("Recall candidates"), "recall_limit"),
        )
        for i, (text, key) in enumerate(labels):
            align = RIGHT if i % 2 else LEFT
            self._fields.append(
                (QLabel(text, self), self.spins[key], (2, 2 * i, align), (2, 2 * i + 1, 1, 1))
            )
        self._grid = grid
        self._flow_box = QWidget(self)  # large text in a narrow window: the fields wrap (see :meth:`fit`)
        self._flow_box.setVisible(False)
        self._flow = FlowLayout(self._flow_box)
        self._flow.setContentsMargins(0, 0, 0, 0)
        self._pairs = [self._pair() for _ in self._fields]
        for pair in self._pairs:
            self._flow.addWidget(pair)
        self.narrow = None
        self._place(narrow=False)
        for col, stretch in ((1, 2), (3, 2), (5, 2), (6, 1), (7, 2)):
            grid.setColumnStretch(col, stretch)

    def _pair(self) -> QWidget:
        box = QWidget(self._flow_box)
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        return box

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fit()

    def fit(self) -> None:
        """Where the panel is narrower than the fields side by side need at 100 % (large text, a narrow
        window), each field with its label wraps to the next line; the grid otherwise."""
        narrow = self.width() / zoom.text_scale() < NARROW
        if narrow != self.narrow:
            self._place(narrow)

    def _place(self, narrow: bool) -> None:
        self.narrow = narrow
        grid = self._grid
        for (label, field, at, span), pair in zip(self._fields, self._pairs, strict=True):
            for w in (label, field):  # moved, not added twice
                grid.removeWidget(w)
                pair.layout().removeWidget(w)
            if narrow:
                pair.layout().addWidget(label)
                pair.layout().addWidget(field)
            else:
                grid.addWidget(label, *at)
                grid.addWidget(field, *span)
        if narrow:
            grid.removeWidget(self.defaults_button)
            self._flow.addWidget(self.defaults_button)
            grid.addWidget(self._flow_box, 1, 0, 1, 9)
        else:
            self._flow.removeWidget(self.defaults_button)
            grid.removeWidget(self._flow_box)
            grid.addWidget(self.defaults_button, 2, 8)
        self._flow_box.setVisible(narrow)

    def _wire(self) -> None:
        self.message_edit.textChanged.connect(
            lambda: self.messageEdited.emit(self.message_edit.toPlainText())
        )
        self.session_combo.currentTextChanged.connect(
            lambda t: self.sessionsEdited.emit(parse_session_list(t))
        )
        self.home_combo.activated.connect(lambda _i: self.homeEdited.emit(self.home_combo.current_id()))
        self.host_combo.currentIndexChanged.connect(
            lambda _i: self.hostEdited.emit(self.host_combo.currentData() or None)
        )
        for spin in self.spins.values():
            spin.valueChanged.connect(lambda _v: self.budgetsEdited.emit(self.budgets()))
        self.defaults_button.clicked.connect(self.defaultsRequested)
        self.clear_button.clicked.connect(self.message_edit.clear)
        self.pick_button.clicked.connect(self.pickRequested)

    # -- reading and showing --------------------------------------------------------------------------
    def budgets(self) -> Budgets:
        return Budgets(**{k: spin.value() for k, spin in self.spins.items()})

    def show_inputs(self, st: ContextState, names: frozenset[str] | None = None) -> None:
        """Show the state's inputs (all, or those in ``names``) without announcing them as edits."""
        every = names is None
        with _Quiet(self):
            if (every or "message" in names) and self.message_edit.toPlainText() != st.message:
                self.message_edit.setPlainText(st.message)
            if (every or "session_ids" in names) and parse_session_list(
                self.session_combo.currentText()
            ) != tuple(st.session_ids):
                self.session_combo.setEditText(", ".join(st.session_ids))
            if every or "home" in names:
                self._home = st.home
                self._show_home()
            if every or "host_os" in names:
                self.host_combo.setCurrentIndex(max(0, self.host_combo.findData(st.host_os or "")))
            if every or "budgets" in names:
                for key, spin in self.spins.items():
                    spin.setValue(int(getattr(st.budgets, key)))

    def set_sessions(self, sessions: Sequence[Any]) -> None:
        """The sessions offered for the restriction (``SessionChoice``), newest first. A thousand
        sessions are one list handed to the combo's model: each item's text and tooltip are made when
        the list shows it."""
        combo = self.session_combo
        with _Quiet(self):
            text = combo.currentText()
            model = combo.model()
            if isinstance(model, SessionsModel):
                model.set_sessions(sessions)
            combo.setEditText(text)

    def _show_home(self) -> None:
        """Choose the home conversation in the combo box (nothing chosen while it is not listed yet)."""
        combo = self.home_combo
        with _Quiet(self):
            stale = combo.current_id() != self._home or combo.currentIndex() < 0
            if stale and not combo.set_current_id(self._home):
                combo.setCurrentIndex(-1)

    def retranslate(self) -> None:
        self.host_combo.setItemText(0, self._this_machine())


class _Quiet:
    """Blocks the panel's input widgets' signals while the state is shown in them."""

    def __init__(self, panel: InputsPanel):
        self.widgets = [
            panel.message_edit,
            panel.session_combo,
            panel.home_combo,
            panel.host_combo,
            *panel.spins.values(),
        ]

    def __enter__(self) -> None:
        self.was = [w.blockSignals(True) for w in self.widgets]

    def __exit__(self, *_exc: object) -> None:
        for w, was in zip(self.widgets, self.was, strict=True):
            w.blockSignals(was)


class SessionsModel(QAbstractListModel):
    """The session combo's items: an empty first item, then one per session (its id as text,
    controls visible; the id itself as the item's data; the message count and start as tooltip)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._sessions: list[Any] = []

    def set_sessions(self, sessions: Sequence[Any]) -> None:
        self.beginResetModel()
        self._sessions = list(sessions)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._sessions) + 1

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        row = index.row()
        if not index.isValid() or not 0 <= row <= len(self._sessions):
            return None
        s = self._sessions[row - 1] if row else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return plain.plain(s.id, 200, one_line=True) if s is not None else ""
        if role == Qt.ItemDataRole.UserRole:
            return s.id if s is not None else ""
        if role == Qt.ItemDataRole.ToolTipRole and s is not None:
            # the panel's words: the catalogue has them in the panel's context
            return QCoreApplication.translate("InputsPanel", "%n message(s) since %1", None, s.count).replace(
                "%1", humanize.abs_time(s.started_at)
            )
        return None


def _session_combo(parent: QWidget, placeholder: str) -> QComboBox:
    combo = QComboBox(parent)
    combo.setModel(SessionsModel(combo))
    combo.setEditable(True)
    combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    combo.setMaxVisibleItems(20)
    combo.lineEdit().setPlaceholderText(placeholder)
    combo.lineEdit().setClearButtonEnabled(True)
    # Items show ids as text (controls visible); choosing one puts the id itself in the field.
    combo.activated.connect(lambda i: combo.setEditText(str(combo.itemData(i) or "")))
    comp = combo.completer()
    if comp is not None:
        comp.setFilterMode(Qt.MatchFlag.MatchContains)
        comp.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
    combo.setMinimumContentsLength(12)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    return combo


def _spin(parent: QWidget, name: str, hi: int, step: int) -> QSpinBox:
    spin = QSpinBox(parent)
    spin.setObjectName(name)
    spin.setRange(0, hi)
    spin.setSingleStep(step)
    spin.setGroupSeparatorShown(True)
    spin.setAccelerated(True)
    return spin
