"""Search in the timeline: the core's semantics (``RawStore.search_page``), results as highlighted snippets.

The worker turns each hit into a :class:`HitRow` (a one-line snippet around the first match with the
matches inside it), so the GUI never holds or lays out a whole 10 MB message for a result. Pages after
the first come through ``canFetchMore``/``fetchMore`` (``next_before`` and the mode of the first page).
A new search cancels the one still running (``ctx.run`` key) and results of a stale search are dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.timeline import RawStore, SearchPage
from philont_desktop.qt import (
    QAbstractListModel,
    QColor,
    QFont,
    QFontMetrics,
    QModelIndex,
    QObject,
    QPainter,
    QPalette,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QSize,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
    Signal,
)
from philont_desktop.timeline.model import format_local
from philont_desktop.timeline.textutil import snippet

SEARCH_PAGE = 50


@dataclass(frozen=True)
class SearchQuery:
    text: str
    roles: tuple[str, ...] | None = None
    session_ids: tuple[str, ...] | None = None
    since: int | None = None
    until: int | None = None


@dataclass(frozen=True)
class HitRow:
    message_id: int
    session_id: str
    role: str
    timestamp: int
    length: int
    snippet: str
    snippet_spans: tuple[tuple[int, int], ...]
    spans: tuple[tuple[int, int], ...]  # in the whole content (for highlighting in the conversation)


@dataclass
class SearchResult:
    query: SearchQuery
    safe: str
    mode: str  # "fts" | "like" | "empty"
    rows: list[HitRow] = field(default_factory=list)
    next_before: tuple[int, int] | None = None
    error: str | None = None


def _to_rows(page: SearchPage) -> list[HitRow]:
    out = []
    for h in page.hits:
        m = h.message
        content = m.content if isinstance(m.content, str) else str(m.content)
        sn = snippet(content, h.match_spans)
        out.append(
            HitRow(
                message_id=m.id,
                session_id=m.session_id,
                role=m.role,
                timestamp=m.timestamp,
                length=len(content),
                snippet=sn.text,
                snippet_spans=sn.spans,
                spans=tuple(h.match_spans[:200]),
            )
        )
    return out


def job_search(
    db: Any,
    q: SearchQuery,
    limit: int = SEARCH_PAGE,
    before: tuple[int, int] | None = None,
    mode: str | None = None,
) -> SearchResult:
    """One page of results (never raises for any input: errors come back in ``error``)."""
    page = RawStore(db).search_page(
        q.text,
        since=q.since,
        until=q.until,
        session_ids=list(q.session_ids) if q.session_ids else None,
        roles=list(q.roles) if q.roles else None,
        limit=limit,
        before=before,
        mode=mode if mode in ("fts", "like") else None,
    )
    return SearchResult(
        query=q,
        safe=page.safe,
        mode=page.mode,
        rows=_to_rows(page),
        next_before=page.next_before,
        error=page.error,
    )


HitRole = Qt.ItemDataRole.UserRole + 40


class SearchResultsModel(QAbstractListModel):
    """Hits of the current search, newest first; more pages on demand."""

    searchStarted = Signal()
    searchFinished = Signal(object)  # SearchResult of the first page
    moreLoaded = Signal(int)
    countChanged = Signal()

    def __init__(
        self, run: Callable[..., Any], parent: QObject | None = None, *, page_size: int = SEARCH_PAGE
    ):
        super().__init__(parent)
        self._run = run
        self.page_size = page_size
        self._rows: list[HitRow] = []
        self._query: SearchQuery | None = None
        self._mode: str | None = None
        self._safe = ""
        self._next: tuple[int, int] | None = None
        self._gen = 0
        self._searching = False
        self._fetching = False
        self.error: str | None = None
        self._key = f"timeline.search.{id(self):x}"

    # -- Qt API ---------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        h = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return h.snippet
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"#{h.message_id} · {h.session_id} · {h.role} · {format_local(h.timestamp)}"
        if role == HitRole:
            return h
        return None

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> bool:
        return not parent.isValid() and self._next is not None and not self._fetching and not self._searching

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex) -> None:
        if parent.isValid() or not self.canFetchMore(parent) or self._query is None:
            return
        self._fetching = True
        gen = self._gen
        self._run(
            job_search,
            self._query,
            self.page_size,
            self._next,
            self._mode,
            on_result=lambda res: self._on_more(gen, res),
            on_error=lambda exc: self._on_error(gen, exc),
            key=f"{self._key}.more",
        )

    # -- state -------------------------------------------------------------------------------------------
    @property
    def query(self) -> SearchQuery | None:
        return self._query

    @property
    def mode(self) -> str | None:
        return self._mode

    @property
    def safe(self) -> str:
        return self._safe

    @property
    def searching(self) -> bool:
        return self._searching

    @property
    def busy(self) -> bool:
        return self._searching or self._fetching

    @property
    def has_more(self) -> bool:
        return self._next is not None

    def hit_at(self, row: int) -> HitRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def hits(self) -> list[HitRow]:
        return list(self._rows)

    def row_of(self, message_id: int) -> int:
        for i, h in enumerate(self._rows):
            if h.message_id == message_id:
                return i
        return -1

    # -- searching -----------------------------------------------------------------------------------
    def clear(self) -> None:
        self._gen += 1
        self._query = None
        self._mode = None
        self._safe = ""
        self._next = None
        self._searching = self._fetching = False
        self.error = None
        self.beginResetModel()
        self._rows = []
        self.endResetModel()
        self.countChanged.emit()

    def search(self, q: SearchQuery) -> None:
        """Start a new search (cancels the running one)."""
        self._gen += 1
        gen = self._gen
        self._query = q
        self._searching = True
        self._fetching = False
        self.searchStarted.emit()
        self._run(
            job_search,
            q,
            self.page_size,
            on_result=lambda res: self._on_first(gen, res),
            on_error=lambda exc: self._on_error(gen, exc),
            key=self._key,
        )

    def _on_first(self, gen: int, res: SearchResult) -> None:
        if gen != self._gen:
            return
        self._searching = False
        self._mode = res.mode
        self._safe = res.safe
        self._next = res.next_before
        self.error = res.error
        self.beginResetModel()
        self._rows = list(res.rows)
        self.endResetModel()
        self.countChanged.emit()
        self.searchFinished.emit(res)

    def _on_more(self, gen: int, res: SearchResult) -> None:
        if gen != self._gen:
            return
        self._fetching = False
        self._next = res.next_before
        seen = {h.message_id for h in self._rows}
        rows = [h for h in res.rows if h.message_id not in seen]
        if rows:
            n = len(self._rows)
            self.beginInsertRows(QModelIndex(), n, n + len(rows) - 1)
            self._rows.extend(rows)
            self.endInsertRows()
        self.countChanged.emit()
        self.moreLoaded.emit(len(rows))

    def _on_error(self, gen: int, exc: BaseException) -> None:
        if gen != self._gen:
            return
        self._searching = self._fetching = False
        self._next = None
        self.error = f"{type(exc).__name__}: {exc}"
        self.countChanged.emit()
        self.searchFinished.emit(
            SearchResult(query=self._query or SearchQuery(""), safe="", mode="empty", error=self.error)
        )


class HitDelegate(QStyledItemDelegate):
    """Two lines per hit: role · time · session, then the snippet with the matches highlighted."""

    def __init__(self, view: Any, theme: Any):
        super().__init__(view)
        self._view = view
        self._theme = theme

    def _hl(self) -> tuple[QColor, QColor]:
        dark = bool(getattr(self._theme, "is_dark", False))
        return (QColor("#7a5d00"), QColor("#fff6d5")) if dark else (QColor("#ffe066"), QColor("#1f2328"))

    def _role_label(self, role: str) -> str:
        labels = {
            "user": self.tr("User"),
            "assistant": self.tr("Assistant"),
            "tool": self.tr("Tool"),
            "system": self.tr("System"),
        }
        return labels.get(role, role or "?")

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        fm = QFontMetrics(self._view.font())
        return QSize(200, fm.height() * 2 + 14)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        h: HitRow | None = index.data(HitRole)
        if h is None:
            return
        painter.save()
        r = option.rect
        pal = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(r, pal.color(QPalette.ColorRole.Highlight))
        elif index.row() % 2:
            painter.fillRect(r, pal.color(QPalette.ColorRole.AlternateBase))
        font = QFont(self._view.font())
        fm = QFontMetrics(font)
        x, y, w = r.left() + 8, r.top() + 5, r.width() - 14
        rc = self._theme.role_colors(h.role)
        accent = QColor(rc.accent)
        painter.fillRect(QRect(r.left() + 2, r.top() + 4, 3, r.height() - 8), accent)
        bold = QFont(font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(pal.color(QPalette.ColorRole.HighlightedText) if selected else accent)
        role = self._role_label(h.role)
        role_w = QFontMetrics(bold).horizontalAdvance(role) + 8
        painter.drawText(QRect(x, y, role_w, fm.height()), Qt.AlignmentFlag.AlignVCenter, role)
        painter.setFont(font)
        muted = (
            pal.color(QPalette.ColorRole.HighlightedText) if selected else QColor(self._theme.muted_text())
        )
        painter.setPen(muted)
        meta = f"{format_local(h.timestamp)}  ·  {h.session_id}  ·  #{h.message_id}"
        painter.drawText(
            QRect(x + role_w, y, w - role_w, fm.height()),
            Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(meta, Qt.TextElideMode.ElideRight, max(0, w - role_w)),
        )
        # the snippet, one line, matches highlighted
        layout = QTextLayout(h.snippet, font)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.NoWrap)
        layout.setTextOption(opt)
        bg, fg = self._hl()
        fmts = []
        for s, e in h.snippet_spans:
            fr = QTextLayout.FormatRange()
            fr.start, fr.length = s, e - s
            f = QTextCharFormat()
            f.setBackground(bg)
            f.setForeground(fg)
            f.setFontWeight(QFont.Weight.Bold)
            fr.format = f
            fmts.append(fr)
        layout.setFormats(fmts)
        layout.beginLayout()
        line = layout.createLine()
        if line.isValid():
            line.setLineWidth(100_000)
        layout.endLayout()
        painter.setClipRect(QRect(x, y + fm.height() + 2, w, fm.height() + 2))
        painter.setPen(pal.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
        layout.draw(painter, QPointF(x, y + fm.height() + 2))
        painter.restore()


def describe_mode(mode: str | None, tr: Callable[[str], str]) -> str:
    if mode == "fts":
        return tr("full-text")
    if mode == "like":
        return tr("substring")
    return ""


def roles_tuple(roles: Sequence[str] | None) -> tuple[str, ...] | None:
    return tuple(roles) if roles else None
