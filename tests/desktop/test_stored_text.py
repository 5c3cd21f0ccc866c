"""Stored text is data: no label, tooltip or detail pane of any tab renders markup from the memory, and
control characters and direction overrides are shown, never applied. A damaged value is marked.

A database whose every text column holds ``<img src=file:///…>``, ``<h1>``, an ANSI escape and a
right-to-left override is opened in the main window; every tab is visited, the first row of every view
selected, and every string Qt could render as rich text (tooltips and status tips of every model role,
labels, widget tooltips, text documents) is checked.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from core import curation
from core.actions import ActionStore
from core.calendar import CalendarStore
from core.db import MemoryDB
from core.facts import FactStore
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore
from philont_desktop.main_window import MainWindow
from philont_desktop.qt import (
    QAbstractItemModel,
    QAbstractItemView,
    QApplication,
    QLabel,
    QModelIndex,
    QPlainTextEdit,
    Qt,
    QTextBrowser,
    QTextEdit,
    QtGui,
    QWidget,
)
from philont_desktop.settings import Settings
from philont_desktop.theme import Theme
from philont_desktop.widgets import plain
from philont_desktop.workers import spin_until
from tests.support import FIXED_NOW

HOSTILE = '<img src="file:///etc/hostname"><h1>HEAD</h1>\x1b[31mred\x1b[0m photo_\u202egnp.exe'
# Raw markup a rich-text renderer would apply (escaped forms like &lt;img are fine).
RAW_MARKUP = re.compile(r"<\s*(img|h1)\b", re.IGNORECASE)
TIP_ROLES = (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.StatusTipRole, Qt.ItemDataRole.WhatsThisRole)
IDLE_MS = 30_000


def _hostile_db(path: Path) -> None:
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        raw.start_session(HOSTILE, started_at=FIXED_NOW - 1000)
        raw.append_message(HOSTILE, "user", HOSTILE + " deploy", FIXED_NOW)
        raw.append_message("global", "assistant", HOSTILE, FIXED_NOW + 1)
        ActionStore(db).append(HOSTILE, HOSTILE, {"q": HOSTILE}, HOSTILE, False, FIXED_NOW, HOSTILE, HOSTILE)
        # JSON escapes the controls (\u001b, \u202e): the readable form must not unescape them into the text
        as_json = json.dumps({"result": HOSTILE, HOSTILE: [HOSTILE]})
        raw.append_message("global", "tool", as_json, FIXED_NOW + 2)
        ActionStore(db).append("global", "shell", {"q": HOSTILE}, as_json, True, FIXED_NOW + 2)
        NotesStore(db).upsert(HOSTILE, HOSTILE, 0.5, HOSTILE, FIXED_NOW)
        NotesStore(db).upsert("newest-note", HOSTILE, 0.5, HOSTILE, FIXED_NOW + 10)  # the first row shown
        facts = FactStore(db)
        facts.store_fact("user", HOSTILE.replace(" ", "_"), HOSTILE, 0.9, now=FIXED_NOW)
        facts.store_fact("project", "k", {"v": HOSTILE}, 0.9, now=FIXED_NOW)
        skills = SkillStore(db)
        skills.create_skill(
            HOSTILE, HOSTILE, [HOSTILE], HOSTILE, when_to_use=HOSTILE, verification={"kind": "assert",
            "check": HOSTILE}, now=FIXED_NOW,
        )  # fmt: skip
        skills.create_skill("plain-skill", HOSTILE, ["kw"], HOSTILE, kind="negative", now=FIXED_NOW)
        CalendarStore(db).create(HOSTILE, FIXED_NOW + 3_600_000, None, "FREQ=DAILY", HOSTILE, now=FIXED_NOW)
        ScheduleStore(db).create(
            HOSTILE, FIXED_NOW + 3_600_000, "prompt", {"message": HOSTILE}, now=FIXED_NOW
        )
        curation.perform(
            db, actor=HOSTILE, action="toy.note", target_type="note", target_id=HOSTILE,
            fn=lambda conn: ({"v": HOSTILE}, {"v": HOSTILE + "!"}),
        )  # fmt: skip
        with db.write() as conn:  # and damaged values beside them
            conn.execute(
                "UPDATE memory_notes SET content = CAST(X'3C68313EFF' AS TEXT) WHERE id = ?", (HOSTILE,)
            )
            conn.execute(
                "UPDATE memory_actions SET timestamp = 'yesterday', params_json = '{bad' WHERE tool_name = ?",
                (HOSTILE,),
            )
    finally:
        db.close()


@pytest.fixture(scope="module")
def hostile_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "memory.sqlite"
    _hostile_db(path)
    return path


def _rich_problem(where: str, text: object) -> str | None:
    if not isinstance(text, str) or not text:
        return None
    if QtGui.Qt.mightBeRichText(text) and RAW_MARKUP.search(text):
        return f"{where}: stored markup rendered as rich text: {text[:200]!r}"
    if "\u202e" in text or "\x1b" in text:
        return f"{where}: a direction override or escape shown raw: {text[:200]!r}"
    return None


def _walk_model(
    name: str, model: QAbstractItemModel, parent: QModelIndex | None = None, depth: int = 0
) -> list[str]:
    parent = parent if parent is not None else QModelIndex()
    found: list[str] = []
    rows = min(model.rowCount(parent), 200)
    try:
        cols = max(1, model.columnCount(parent))
    except TypeError:  # a list model: one column
        cols = 1
    for r in range(rows):
        for c in range(cols):
            idx = model.index(r, c, parent)
            for role in TIP_ROLES:
                p = _rich_problem(f"{name}[{r},{c}] role {int(role)}", model.data(idx, role))
                if p:
                    found.append(p)
            display = model.data(idx, Qt.ItemDataRole.DisplayRole)
            if isinstance(display, str) and ("\u202e" in display or "\x1b" in display):
                found.append(f"{name}[{r},{c}] display: a direction override or escape shown raw")
            if depth < 3 and c == 0 and _has_children(model, idx):
                found += _walk_model(name, model, idx, depth + 1)
    return found


def _has_children(model: QAbstractItemModel, idx: QModelIndex) -> bool:
    try:
        return model.hasChildren(idx)
    except TypeError:
        return False


def _walk_widgets(root: QWidget) -> list[str]:
    found: list[str] = []
    for w in [root, *root.findChildren(QWidget)]:
        where = f"{type(w).__name__} {w.objectName()!r}"
        p = _rich_problem(f"{where} tooltip", w.toolTip())
        if p:
            found.append(p)
        if isinstance(w, QLabel) and w.textFormat() != Qt.TextFormat.PlainText:
            p = _rich_problem(f"{where} label", w.text())
            if p:
                found.append(p)
        if isinstance(w, QTextEdit | QTextBrowser | QPlainTextEdit):
            doc_html = w.document().toHtml()
            if RAW_MARKUP.search(doc_html):
                found.append(f"{where}: the document holds an <img> or <h1> element")
        shown = w.isVisible() and isinstance(w, QTextEdit | QTextBrowser | QPlainTextEdit)
        if shown and "\u202e" in w.document().toPlainText():
            found.append(f"{where}: a direction override shown raw")
    return found


def _walk_cards(root: QWidget) -> list[str]:
    """The message cards a delegate paints (the Timeline's conversation and search results)."""
    from philont_desktop.timeline.widgets.message_card import MessageDelegate

    found: list[str] = []
    for view in root.findChildren(QAbstractItemView):
        delegate, model = view.itemDelegate(), view.model()
        if not isinstance(delegate, MessageDelegate) or model is None:
            continue
        for r in range(min(model.rowCount(), 50)):
            card = delegate.card(model.index(r, 0))
            text = card.layout.text() if card is not None else ""
            if "\u202e" in text or "\x1b" in text:
                found.append(f"{type(view).__name__} card {r}: a direction override or escape shown raw")
    return found


def _select_first_rows(window: MainWindow) -> None:
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if model is not None and model.rowCount() > 0 and view.isVisible():
            view.setCurrentIndex(model.index(0, 0))
    QApplication.processEvents()


def _tab_problems(window: MainWindow, name: str) -> list[str]:
    tab = window.show_tab(name)
    tab.ensure_activated()
    assert tab.wait_idle(IDLE_MS), name
    _select_first_rows(window)
    tab.wait_idle(IDLE_MS)
    QApplication.processEvents()
    problems: list[str] = []
    for model in tab.findChildren(QAbstractItemModel):
        problems += _walk_model(f"{name}/{type(model).__name__}", model)
    return problems + [f"{name}: {p}" for p in _walk_widgets(tab) + _walk_cards(tab)]


TAB_NAMES = [
    "timeline",
    "actions",
    "notes",
    "facts",
    "skills",
    "context",
    "calendar",
    "backups",
    "audit",
    "review",
    "health",
]


@pytest.mark.parametrize("name", TAB_NAMES)
def test_no_tab_renders_stored_markup_or_raw_control_characters(name, hostile_path, tmp_path, qtbot):
    path = tmp_path / "memory.sqlite"
    shutil.copy2(hostile_path, path)
    window = MainWindow(Settings(), Theme("light"), interactive=False, live_interval_ms=60_000)
    qtbot.addWidget(window)
    window.show()
    window.open_database(path)
    assert spin_until(lambda: window.ctx is not None or window.open_error is not None, IDLE_MS)
    assert window.ctx is not None, window.open_error
    assert set(window.tabs_by_name) == set(TAB_NAMES)
    problems = _tab_problems(window, name) + _walk_widgets(window.statusBar())
    window.close()
    assert not problems, "\n".join(dict.fromkeys(problems))


def test_the_helpers_show_text_as_text(qapp):
    tip = plain.tooltip(HOSTILE)
    assert QtGui.Qt.mightBeRichText(tip) and not RAW_MARKUP.search(tip)
    assert "&lt;img" in tip and "\\u202e" in tip and "\\x1b[31m" in tip
    assert plain.tooltip("") == "" and plain.tooltip(None) == ""
    cut = plain.plain("x" * 5000, 100)
    assert cut.startswith("x" * 100 + " … (") and "4900 more" in cut
    label = QLabel()
    plain.set_plain(label, HOSTILE)
    assert label.textFormat() == Qt.TextFormat.PlainText and "\u202e" not in label.text()
    assert plain.html("a\nb<") == "a<br>b&lt;"


def test_with_offsets_moves_highlights_onto_the_spelled_text():
    text = "a\u202egnp.exe\r\x1b[0m ok"
    shown, offsets = plain.with_offsets(text)
    assert shown == plain.plain(text, None) and offsets is not None and len(offsets) == len(text) + 1
    for i, ch in enumerate(text):  # each character lands on its own spelling
        assert shown[offsets[i] : offsets[i + 1]] == plain.plain(ch, None)
    start = text.index("gnp")
    assert shown[offsets[start] : offsets[start + 7]] == "gnp.exe"
    assert plain.with_offsets("plain text") == ("plain text", None)


def test_the_message_card_highlights_the_match_behind_a_direction_override(qapp):
    from philont_desktop.timeline.widgets.message_card import _display

    shown, offsets = _display("see \u202egnp.exe\r\nnext")
    assert "\u202e" not in shown and "\\u202egnp.exe \u2028next" in shown
    assert offsets is not None and shown[offsets[5] : offsets[12]] == "gnp.exe"  # the search hit


def test_a_hit_in_the_cut_end_of_a_collapsed_card_with_an_override(qtbot):
    from types import SimpleNamespace

    from philont_desktop.qt import QListView
    from philont_desktop.timeline.widgets.message_card import MessageDelegate

    view = QListView()
    qtbot.addWidget(view)
    delegate = MessageDelegate(view, Theme("light"))
    head = "\u202egnp.exe " + "x" * 566  # 575 characters, then spaces up to the 600 a collapsed card shows
    content = head + " " * 25 + "tail"
    m = SimpleNamespace(id=1, role="user", content=content)
    card = delegate._build(m, False, [(570, 600)], 600)  # the hit ends in the spaces the card cuts
    assert "\u202e" not in card.layout.text() and card.layout.text().startswith("\\u202egnp.exe")


def test_the_notes_pane_spells_controls_and_edits_the_stored_text(qtbot):
    from core.models import Note
    from philont_desktop.notes.widgets.editor import NoteEditor

    editor = NoteEditor()
    qtbot.addWidget(editor)
    note = Note.model_construct(id="n", content=HOSTILE, importance=0.5, session_id=None,
                                created_at=FIXED_NOW, last_accessed_at=None, forgotten_at=None)  # fmt: skip
    editor.show_note(note)
    shown = editor.content_edit.toPlainText()
    assert "\u202e" not in shown and "photo_\\u202egnp.exe" in shown
    editor.set_editing(True)  # the editor holds the stored text: an unedited save writes nothing new
    assert editor.content_edit.toPlainText() == HOSTILE and not editor.dirty()
    editor.set_editing(False)
    assert editor.content_edit.toPlainText() == shown


def test_damaged_values_are_marked_with_their_bytes_on_hover(hostile_path, tmp_path):
    from core.notes import NotesStore as Notes

    db = MemoryDB.open(hostile_path)
    try:
        note = Notes(db).get(HOSTILE)
        action = ActionStore(db).list(limit=None, tool=HOSTILE)[0]
    finally:
        db.close()
    tip = plain.damage_tooltip(note)
    assert tip.startswith(plain.MARK) and "content" in tip and "3c 68 31 3e ff" in tip
    assert plain.mark("x", note, ("content",)) == f"{plain.MARK} x"
    assert plain.mark("x", note, ("id",)) == "x"
    assert plain.mark("⚠ unreadable", note, ("content",)) == "⚠ unreadable"  # one marker, not two
    assert {"timestamp", "params_json"} <= set(action.damaged)
    lines = plain.damage_lines(action)
    assert any("not a time" in ln for ln in lines) and any("not valid JSON" in ln for ln in lines)
