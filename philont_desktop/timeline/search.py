"""Search in the timeline: the core's semantics (``RawStore.search_page``), hits as one-line snippets.

The worker turns each hit into a :class:`HitRow` (a one-line snippet around the first match with the
matches inside it), so the GUI never holds or lays out a whole 10 MB message for a result. The results
are a :class:`~philont_desktop.widgets.rows_model.PagedRowsModel`: the first page chooses the mode
(full-text or substring, as the agent's search does), later pages (``fetchMore``) keep it. When there
are more hits than the first page, they are counted exactly in another worker op (``total``), so the
count reads "50+" only until it is known. A new search cancels the one still running.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.errors import Notice
from core.jsutil import now_ms
from core.timeline import RawStore, SearchPage, search_failure
from philont_desktop import humanize
from philont_desktop.ops import ReadOp
from philont_desktop.qt import QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from philont_desktop.timeline.state import SearchQuery
from philont_desktop.timeline.textutil import snippet
from philont_desktop.widgets.conversations import label_of_id
from philont_desktop.widgets.rows_model import Page, PagedRowsModel, Submit

SEARCH_PAGE = 50
HitRole = int(Qt.ItemDataRole.UserRole) + 40


@dataclass(frozen=True)
class HitRow:
    message_id: int
    conversation: str  # the id of the hit's conversation
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
    error: Notice | None = None  # why the search could not run (a coded notice, shown in words from its code)


def _to_rows(page: SearchPage) -> list[HitRow]:
    from core.conversations import conversation_of

    out = []
    for h in page.hits:
        m = h.message
        content = m.content if isinstance(m.content, str) else str(m.content)
        sn = snippet(content, h.match_spans)
        out.append(
            HitRow(
                message_id=m.id,
                conversation=conversation_of(m),
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
        limit=limit,
        before=before,
        mode=mode if mode in ("fts", "like") else None,
        **q.search_kwargs(),
    )
    return SearchResult(
        query=q,
        safe=page.safe,
        mode=page.mode,
        rows=_to_rows(page),
        next_before=page.next_before,
        error=page.notice,
    )


def job_count(db: Any, q: SearchQuery, mode: str) -> int:
    """How many hits every page of the search holds (counted, not read)."""
    return RawStore(db).count_hits(q.text, mode, **q.search_kwargs())  # type: ignore[arg-type]


class SearchResultsModel(PagedRowsModel):
    """Hits of the current search, newest first; more pages on demand; the exact count when known."""

    searchStarted = Signal()
    searchFinished = Signal(object)  # the SearchResult of the first page
    countChanged = Signal()  # hits loaded or the exact total changed

    def __init__(self, submit: Submit, parent: QObject | None = None, *, page_size: int = SEARCH_PAGE):
        super().__init__(submit, "timeline.search", page_size, parent)
        self._query: SearchQuery | None = None
        self._mode: str | None = None
        self._safe = ""
        self._next: tuple[int, int] | None = None
        self._first: SearchResult | None = None
        self._searching = False
        self._counting = False
        self.total: int | None = None  # every hit, once counted (or all loaded)
        self.error: Notice | None = None  # why the search could not run
        self.loaded.connect(self._after_load)
        self.failed.connect(self._on_failed)

    # -- Qt -----------------------------------------------------------------------------------------------
    def headers(self) -> list[str]:
        return [self.tr("Hit")]

    def key(self, row: HitRow) -> int:
        return row.message_id

    def display(self, h: HitRow, column: int) -> str:
        return h.snippet

    def tooltip(self, h: HitRow, column: int) -> str:
        return (
            f"#{h.message_id} · {label_of_id(h.conversation)} · {h.role} · "
            f"{humanize.when(h.timestamp, now_ms(), seconds=True)}"
        )

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == HitRole:
            return self.row_at(index.row()) if index.isValid() else None
        return super().data(index, role)

    # -- state ----------------------------------------------------------------------------------------------
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
    def counting(self) -> bool:
        return self._counting

    @property
    def busy(self) -> bool:
        return self.loading or self._counting

    @property
    def has_more(self) -> bool:
        return self._next is not None

    def hit_at(self, row: int) -> HitRow | None:
        return self.row_at(row)

    def hits(self) -> list[HitRow]:
        return self.rows()

    # -- searching -------------------------------------------------------------------------------------------
    def clear(self) -> None:
        """No search: no hits, nothing running."""
        self._new_generation()
        self._query, self._mode, self._safe, self._next, self._first = None, None, "", None, None
        self._searching = self._counting = False
        self.total, self.error = None, None
        self._complete = True
        self.set_rows([])
        self.countChanged.emit()

    def search(self, q: SearchQuery) -> None:
        """Start a new search (cancels the running one)."""
        self._query, self._mode, self._next, self._first = q, None, None, None
        self._searching, self._counting = True, False
        self.total, self.error = None, None
        self.searchStarted.emit()
        self.load_first_page()

    def page_op(self, after: HitRow | None, limit: int) -> ReadOp:
        q = self._query or SearchQuery("")
        if after is None:
            return ReadOp(job_search, (q, limit), label=self.tr("Searching the timeline"))
        return ReadOp(job_search, (q, limit, self._next, self._mode), label=self.tr("Searching the timeline"))

    def unpack(self, res: SearchResult, limit: int) -> Page:
        if self._searching:
            self._searching = False
            self._mode, self._safe, self.error = res.mode, res.safe, res.error
            self._first = res
        self._next = res.next_before
        return Page(res.rows, exhausted=res.next_before is None)

    def _after_load(self) -> None:
        if self._next is None:
            self.total = self.rowCount()
            self._counting = False
        first, self._first = self._first, None
        if first is not None and self.total is None:
            self._count()
        self.countChanged.emit()
        if first is not None:
            self.searchFinished.emit(first)

    def _count(self) -> None:
        q, mode, gen = self._query, self._mode, self._gen
        if q is None or mode not in ("fts", "like"):
            return
        self._counting = True

        def done(n: int) -> None:
            if gen == self._gen:
                self._counting = False
                self.total = n
                self.countChanged.emit()

        def failed(_exc: BaseException) -> None:
            if gen == self._gen:
                self._counting = False
                self.countChanged.emit()

        self._submit(
            ReadOp(job_count, (q, mode), key=f"{self._key}.count", label=self.tr("Counting hits")),
            on_result=done,
            on_error=failed,
        )

    def _on_failed(self, exc: BaseException) -> None:
        was = self._searching
        self._searching = False
        self._next = None
        self.error = search_failure(self._query.text if self._query is not None else "", exc)
        self.countChanged.emit()
        if was:
            q = self._query or SearchQuery("")
            self.searchFinished.emit(SearchResult(query=q, safe="", mode="empty", error=self.error))


def describe_mode(mode: str | None, tr: Callable[[str], str]) -> str:
    if mode == "fts":
        return tr("full-text")
    if mode == "like":
        return tr("substring")
    return ""
