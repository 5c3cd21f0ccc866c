"""First launch on the demo database: every tab says "Loading…" until its first read arrives, and the
counts a tab shows agree with the status bar's once loaded ("N+" only while loading)."""

from __future__ import annotations

import re
import threading

import pytest

pytest.importorskip("pytestqt")

from philont_desktop import tabs
from philont_desktop.app import settle
from philont_desktop.qt import QLabel
from philont_desktop.workers import Workers, spin_until


@pytest.fixture(autouse=True)
def english(qapp):
    """The application's English translator: plural forms (``%n fact(s)`` → ``2 facts``)."""
    from philont_desktop import i18n

    i18n.install("en")
    yield
    i18n.uninstall()


@pytest.fixture
def held_reads(monkeypatch):
    """The tabs' reads wait until ``gate.set()`` (a slow first read on a big file)."""
    gate = threading.Event()
    execute = Workers._execute

    def _execute(self, job):
        if job.lane == "read":
            gate.wait(30)
        execute(self, job)

    monkeypatch.setattr(Workers, "_execute", _execute)
    yield gate
    gate.set()


def test_every_tab_says_loading_until_its_first_read_arrives(open_window, demo_db_path, held_reads):
    w = open_window(demo_db_path)
    for name in tabs.tab_names():
        tab = w.show_tab(name)
        assert tab.loading, name
        overlay = tab.loading_overlay
        if name == "timeline":  # says it in its own places
            assert overlay is None
            assert "loading…" in tab.status_label.text()
            assert tab.activity.loading_label.isVisibleTo(tab)  # "Counting messages per day…"
            continue
        if name == "health":  # each page says it in its own place: the doctor, "Checking…"
            assert overlay is None
            assert "Checking…" in tab.page("doctor").status.text()
            continue
        assert overlay.isVisible() and overlay.text == "Loading…", name
        assert overlay.geometry() == tab.rect(), name  # over the whole tab: its empty tables and plots
        assert overlay.box.isVisible() and tab.rect().contains(overlay.box.geometry()), name
        hint = getattr(tab, "empty_hint", None)
        assert hint is None or not hint.isVisibleTo(tab), name  # loading, not empty
    held_reads.set()
    for name in tabs.tab_names():
        tab = w.tab(name)
        assert spin_until(lambda t=tab: not t.loading, 20_000), name
        assert tab.wait_idle(20_000), name
        assert tab.loading_overlay is None, name
        hint = getattr(tab, "empty_hint", None)
        if hint is not None:  # an empty table says why it is empty
            assert hint.isVisibleTo(tab) == (hint.view.model().rowCount() == 0), name
            assert not hint.isVisibleTo(tab) or hint.text() in (
                "No backups yet. “Back up now” writes the first one.",
                "No manual edits yet.",
            )
        assert not any(c.objectName() == "loadingOverlay" and c.isVisible() for c in tab.children()), name
    timeline = w.show_tab("timeline")
    assert "loading" not in timeline.status_label.text()
    assert spin_until(lambda: not timeline.activity.loading_label.isVisibleTo(timeline), 10_000)


# What each tab calls the rows the status bar counts: (the status bar's key, the tab's words).
COUNTED = {
    "timeline": ("messages", r"([\d,]+) messages"),
    "actions": ("actions", r"([\d,]+) actions"),
    "notes": ("notes", r"([\d,]+) notes"),
    "facts": ("facts", r"([\d,]+) active facts"),
    "skills": ("skills", r"([\d,]+) skills"),
}


def _texts(tab) -> list[str]:
    return [label.text() for label in tab.findChildren(QLabel) if label.isVisibleTo(tab) and label.text()]


def test_counts_agree_between_every_tab_and_the_status_bar(open_window, demo_db_path):
    w = open_window(demo_db_path)
    assert spin_until(lambda: w.counts_loaded, 20_000)
    counts = w.counts
    status = w.counts_label.text()
    for key in ("messages", "actions", "notes", "facts", "skills"):
        assert counts[key] and f"{counts[key]:,}" in status, key
    seen = set()
    for name in tabs.tab_names():
        tab = w.show_tab(name)
        assert settle(w, tab, 20_000), name
        texts = _texts(tab)
        for text in texts:
            assert not re.search(r"\d\+", text), (name, text)  # "N+" only while loading
        if name in COUNTED:
            key, words = COUNTED[name]
            found = [int(m.group(1).replace(",", "")) for t in texts if (m := re.search(words, t))]
            assert found and set(found) == {counts[key]}, (name, texts, counts[key])
            seen.add(name)
    assert seen == set(COUNTED)
