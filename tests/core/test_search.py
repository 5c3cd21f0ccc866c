"""core.search: the message search as a component; a substring strategy plugs in by composition."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core.search import Filters, MessageSearch, PlainScan
from core.timeline import RawStore

T0 = 1_781_000_000_000


class Recording:
    """A substring strategy that records the hooks it receives and scans as the reference does."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    @contextmanager
    def searching(self) -> Iterator[None]:
        self.calls.append(("searching",))
        yield
        self.calls.append(("done",))

    def fts_ran(self, rows: int, error: str | None, queried: bool) -> None:
        self.calls.append(("fts", rows, error is not None, queried))

    def substring(self, search: MessageSearch, safe: str, f: Filters, limit: Any) -> list:
        self.calls.append(("substring", safe, f.session_ids, limit))
        return PlainScan().substring(search, safe, f, limit)


def _store(mem_db, strategy=None) -> RawStore:
    raw = RawStore(mem_db, substring=strategy)
    raw.start_session("s2", T0)
    for i, text in enumerate(["deploy the plan", "旺财 is here", "deploy? maybe", "旺财 again"]):
        raw.append_message("s2" if i % 2 else "global", "user", text, T0 + i)
    return raw


def test_a_substring_strategy_answers_the_fallback_and_sees_each_step(mem_db):
    rec = Recording()
    raw = _store(mem_db, rec)
    rows, mode = raw.search_with_mode("旺财", session_ids=["s2"], limit=5)
    assert mode == "like" and [m.id for m in rows] == [4, 2]
    assert rec.calls == [("searching",), ("substring", "旺财", ["s2"], 5), ("done",)]
    rec.calls.clear()
    rows, mode = raw.search_with_mode("deploy", limit=5)
    assert mode == "fts" and [m.id for m in rows] == [3, 1]
    assert rec.calls == [("searching",), ("fts", 2, False, True), ("done",)]
    rec.calls.clear()
    rows, mode = raw.search_with_mode("deploy?", limit=5)  # an FTS5 syntax error: zero rows, then LIKE
    assert mode == "like" and [m.id for m in rows] == [3]
    assert rec.calls == [("searching",), ("fts", 0, True, True), ("substring", "deploy?", None, 5), ("done",)]


def test_the_store_delegates_to_its_search_with_the_same_answers(mem_db):
    raw = _store(mem_db)
    search = MessageSearch(raw)
    for q in ("deploy", "旺财", "deploy?", "nothing here", ""):
        assert raw.search_with_mode(q, limit=3) == search.search_with_mode(q, limit=3)
        assert raw.search_page(q, limit=3) == search.search_page(q, limit=3)
    assert raw.count_hits("deploy", "fts") == search.count_hits("deploy", "fts") == 2
