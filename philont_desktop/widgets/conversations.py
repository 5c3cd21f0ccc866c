"""The conversations of the timeline as one model, for every place that lists or picks a conversation.

A conversation is one id string (:mod:`core.conversations`): an origin (``web-ui:…``, ``wechat:…``,
``telegram:…``, ``system:scheduled:<task>``), an older session's id, or ``global`` for the messages of
unknown origin. :class:`ConversationsModel` lists them most recent first, with their channel, message
count and first and last message, optionally after a first row standing for all of them (or for "none")::

    model = ConversationsModel(controller.submit, conversation_index(ctx), all_label=tr("All conversations"))
    model.load_first_page()          # off the GUI thread; model.refresh() on each live tick
    view.setModel(model)             # a table: conversation, messages, first, last
    combo = ConversationCombo(model) # or a combo box: combo.current_id(), combo.set_current_id(cid)

The rows' key (``KeyRole``) is the conversation id, ``None`` for the first row. One
:class:`~core.conversations.ConversationIndex` per open database (:func:`conversation_index`) is shared by
every model: the first listing scans the indexes, every later one (a live refresh) reads only the rows
appended since. A refresh keeps the selection and the current row on their conversation.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from core.conversations import Conversation, ConversationIndex
from core.jsutil import now_ms
from philont_desktop import humanize, i18n
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QComboBox, QCoreApplication, QFont, QObject, Qt, QWidget
from philont_desktop.widgets.rows_model import KeyRole, Page, PagedRowsModel, Submit

COL_NAME, COL_COUNT, COL_FIRST, COL_LAST = range(4)
_INDEXES: weakref.WeakKeyDictionary[Any, ConversationIndex] = weakref.WeakKeyDictionary()


def conversation_index(owner: Any) -> ConversationIndex:
    """The conversation index of an open database (``owner``: its AppContext), made on first use."""
    index = _INDEXES.get(owner)
    if index is None:
        index = _INDEXES[owner] = ConversationIndex()
    return index


def _tr(text: str) -> str:
    return QCoreApplication.translate("Conversations", text)


_CHANNEL_NAMES = {
    "web": lambda: _tr("Web"),
    "wechat": lambda: _tr("WeChat"),
    "telegram": lambda: _tr("Telegram"),
    "scheduled": lambda: _tr("Scheduled task"),
    "background": lambda: _tr("Background run"),
    "session": lambda: _tr("Session"),
    "unknown": lambda: _tr("Unknown origin"),
}


def channel_name(channel: str) -> str:
    """The channel of a conversation in words: ``Web``, ``WeChat``, ``Scheduled task``, ..."""
    name = _CHANNEL_NAMES.get(channel)
    return name() if name is not None else channel


def conversation_label(conv: Conversation) -> str:
    """``WeChat · wxid_6cc24b81994a``, ``Scheduled task · daily-digest``, ``Unknown origin``."""
    name = channel_name(conv.channel)
    detail = conv.detail or ("" if conv.channel == "unknown" else conv.id)
    return f"{name} · {detail}" if detail else name


_LABELS: dict[tuple[str, str], str] = {}
_LABELS_MAX = 4096


def label_of_id(conversation_id: str) -> str:
    """The label of a conversation known only by its id (a message's): :func:`conversation_label`.
    Remembered per language: every card and search hit painted asks for its conversation's label."""
    key = (conversation_id, i18n.current_language())
    got = _LABELS.get(key)
    if got is None:
        from core.conversations import channel_of

        channel, detail = channel_of(conversation_id)
        got = conversation_label(
            Conversation.model_construct(id=conversation_id, kind="origin", channel=channel, detail=detail)
        )
        if len(_LABELS) >= _LABELS_MAX:
            _LABELS.clear()
        _LABELS[key] = got
    return got


@dataclass(frozen=True)
class AllConversations:
    """The first row: every conversation at once (or none, as its label says)."""

    label: str
    message_count: int | None = None
    first_at: int | None = None
    last_at: int | None = None
    id: None = None


def job_conversations(db: Any, index: ConversationIndex) -> tuple[list[Conversation], dict[str | None, int]]:
    """The conversations and where each one's row is (:attr:`Page.index`, made here, off the GUI thread)."""
    rows = index.list(db)
    return rows, {c.id: i for i, c in enumerate(rows)}


def job_conversations_summed(
    db: Any, index: ConversationIndex
) -> tuple[list[Conversation], int, int | None, int | None, dict[str | None, int]]:
    """The conversations, their messages in all, the first and last time of all, and where each one's row
    is below the first row (:class:`AllConversations`, key ``None``). Summed and indexed here, off the
    GUI thread: a big timeline has tens of thousands of conversations."""
    rows = index.list(db)
    firsts = [c.first_at for c in rows if c.first_at is not None]
    lasts = [c.last_at for c in rows if c.last_at is not None]
    total = sum(c.message_count for c in rows)
    keys: dict[str | None, int] = {None: 0}
    keys.update((c.id, i) for i, c in enumerate(rows, 1))
    return rows, total, min(firsts) if firsts else None, max(lasts) if lasts else None, keys


class ConversationsModel(PagedRowsModel):
    """The conversations, most recent first, after an optional first row (``all_label``)."""

    def __init__(
        self,
        submit: Submit,
        index: ConversationIndex,
        parent: QObject | None = None,
        *,
        all_label: str | None = None,
    ):
        super().__init__(submit, "conversations", 1, parent)
        self.index_ = index
        self.all_label = all_label
        self.now_fn = now_ms  # tests and screenshots pin the clock
        self.loaded_once = False
        self.loaded.connect(self._mark_loaded)
        if all_label is not None:
            self.set_rows([AllConversations(all_label)])

    def _mark_loaded(self) -> None:
        self.loaded_once = True

    # -- loading --------------------------------------------------------------------------------------
    def page_op(self, after: Any | None, limit: int) -> ReadOp:
        job = job_conversations if self.all_label is None else job_conversations_summed
        return ReadOp(job, (self.index_,), label=_tr("Listing conversations"))

    def unpack(self, result: Any, limit: int) -> Page:
        if self.all_label is None:
            conversations, keys = result
            return Page(conversations, exhausted=True, index=keys)
        conversations, total, first, last, keys = result
        rows = [AllConversations(self.all_label, total, first, last), *conversations]
        return Page(rows, exhausted=True, index=keys)

    def canFetchMore(self, parent: Any) -> bool:  # the whole list comes in one page
        return False

    # -- rows -----------------------------------------------------------------------------------------
    def key(self, row: Any) -> str | None:
        return row.id

    def conversation_at(self, row: int) -> Conversation | None:
        """The conversation of a row (``None`` for the first row or no row)."""
        r = self.row_at(row)
        return r if isinstance(r, Conversation) else None

    def conversation(self, conversation_id: str) -> Conversation | None:
        r = self.row_at(self.row_of(conversation_id))
        return r if isinstance(r, Conversation) else None

    def conversations(self) -> list[Conversation]:
        return [r for r in self._rows if isinstance(r, Conversation)]

    def count(self) -> int:
        """How many conversations are listed (the first row, every conversation at once, aside)."""
        rows = self._rows
        return len(rows) - (1 if rows and isinstance(rows[0], AllConversations) else 0)

    def total(self) -> int | None:
        """Messages in every conversation (known once loaded)."""
        if not self.loaded_once:
            return None
        first = self.row_at(0)
        if isinstance(first, AllConversations) and first.message_count is not None:
            return first.message_count  # summed once when the list came in (thousands of rows)
        return sum(c.message_count for c in self.conversations())

    # -- columns --------------------------------------------------------------------------------------
    def headers(self) -> list[str]:
        return [self.tr("Conversation"), self.tr("Messages"), self.tr("First"), self.tr("Last")]

    def display(self, row: Any, column: int) -> str:
        if column == COL_NAME:
            return row.label if isinstance(row, AllConversations) else conversation_label(row)
        if column == COL_COUNT:
            return "…" if row.message_count is None else humanize.count_text(row.message_count)
        if column == COL_FIRST:
            return humanize.abs_time(row.first_at, date_only=True)
        if column == COL_LAST:
            return humanize.rel_time(row.last_at, self.now_fn()) if row.last_at is not None else ""
        return ""

    def tooltip(self, row: Any, column: int) -> str:
        now = self.now_fn()
        lines = [self.display(row, COL_NAME)]
        if isinstance(row, Conversation):
            lines.append(row.id)
        if row.message_count is None:
            lines.append(self.tr("Counting messages…"))
        else:
            lines.append(self.tr("%Ln message(s)", None, row.message_count))
        if row.first_at is not None:
            lines.append(self.tr("First message: %1").replace("%1", humanize.when(row.first_at, now)))
        if row.last_at is not None:
            lines.append(self.tr("Last message: %1").replace("%1", humanize.when(row.last_at, now)))
        return "\n".join(lines)

    def font(self, row: Any, column: int) -> Any:
        if isinstance(row, AllConversations) and column == COL_NAME:
            f = QFont()
            f.setBold(True)
            return f
        return None

    def alignment(self, column: int) -> Any:
        if column == COL_COUNT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ConversationCombo(QComboBox):
    """A combo box picking a conversation from a :class:`ConversationsModel` (column 0)."""

    def __init__(self, model: ConversationsModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.setModel(model)
        self.setModelColumn(COL_NAME)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(16)

    def current_id(self) -> str | None:
        """The chosen conversation's id (``None``: the first row, or nothing chosen)."""
        return self.currentData(KeyRole) if self.currentIndex() >= 0 else None

    def set_current_id(self, conversation_id: str | None) -> bool:
        """Choose a conversation by id; ``False`` when the model does not list it (yet)."""
        row = self.model().row_of(conversation_id)
        if row < 0:
            return False
        self.setCurrentIndex(row)
        return True
