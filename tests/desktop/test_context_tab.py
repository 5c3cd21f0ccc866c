"""The Context tab shows what ``philont-memory context --json`` (core.context.build_context) returns."""

from __future__ import annotations

import contextlib
import io
import json
import stat
import threading
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from core.context import build_context
from core.db import MemoryDB
from core.facts import FactStore
from core.readable import readable
from core.skills import SkillStore
from core.timeline import RawStore
from philont_desktop.context_tab.diff import compute_diff
from philont_desktop.context_tab.render import excerpt
from philont_desktop.qt import QApplication, QUrl
from philont_desktop.selftest import check_tab
from tests.support import FIXED_NOW as NOW

MIN = 60_000
T0 = NOW - 10 * 86_400_000
ROWS = [
    ("global", "user", "我们上次讨论过数据库迁移的方案，你还记得吗", 1),
    ("global", "assistant", "记得：数据库迁移分三步，先备份。", 2),
    ("global", "user", "Let's deploy the gateway tomorrow.", 3),
    ("global", "system", "[system] nightly summary", 4),
    ("s2", "assistant", "Deploy plan: canary first, then everyone.", 5),
    ("global", "tool", '{"tool":"shell","success":true}', 6),
    ("global", "user", "好的，谢谢", 7),
]


def build_small(path: Path) -> Path:
    with MemoryDB.create(path, now=T0) as db:
        raw = RawStore(db)
        raw.start_session("s2", T0)
        for session, role, content, k in ROWS:
            raw.append_message(session, role, content, T0 + k * MIN)
        facts = FactStore(db)
        facts.store_fact("user", "name", "Alice", now=T0)
        facts.store_fact("user", "city", "Paris", now=T0 + MIN)
        facts.store_fact("user", "city", "Berlin", now=T0 + 5 * MIN)
        SkillStore(db).create_skill(
            "deploy-gateway",
            "Deploy the gateway safely",
            ["deploy"],
            "1. canary",
            maturity="validated",
            now=T0,
        )
    return path


@pytest.fixture
def small_db(tmp_path) -> Path:
    return build_small(tmp_path / "memory" / "memory.sqlite")


@pytest.fixture
def english():
    from philont_desktop import i18n

    i18n.install("en")  # the application's translator resolves the English plurals ("%n message(s)")
    yield
    i18n.uninstall()


@pytest.fixture
def tab_factory(qtbot, qapp, english):
    from philont_desktop.context import AppContext
    from philont_desktop.context_tab.view import ContextTab

    made = []

    def make(path: Path):
        ctx = AppContext.open(path, interactive=False)
        made.append(ctx)
        tab = ContextTab(ctx)
        qtbot.addWidget(tab)
        tab.resize(1300, 900)
        tab.show()
        tab.set_fixed_now(NOW)
        tab.set_host_os("linux")
        tab.reset_defaults()
        tab.set_sessions([])
        tab.set_home_session(None)
        tab.ensure_activated()
        assert tab.wait_idle(20_000)
        return tab

    yield make
    for c in made:
        c.close()


def cli_json(path: Path, message: str, *extra: str) -> tuple[dict, str]:
    from core.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(
            ["--db", str(path), "--json", "--now", str(NOW), "context", message, "--host-os", "linux", *extra]
        )
    assert code == 0
    return json.loads(out.getvalue()), out.getvalue()


def show(tab, message: str) -> dict:
    tab.set_message(message)
    assert tab.wait_idle(30_000)
    assert tab.error is None
    assert tab.result is not None and tab.result.message == message
    return tab.result.to_json()


def plain(tab) -> str:
    return tab.preview_text().replace("\xa0", " ").replace("\u2029", "\n")


def assert_view_shows(tab, j: dict) -> None:
    """The preview (every section expanded) shows the JSON, in the order the agent receives it."""
    tab.expand_all(True)
    text = plain(tab)
    pos = 0
    for s in j["sections"]:
        i = text.find(s["text"].rstrip("\n"), pos)
        assert i >= 0, f"section {s['name']} not shown in order"
        pos = i + len(s["text"].rstrip("\n"))
        assert f"{s['chars']:,} chars · {s['tokens']:,} tokens" in text
    trig = j["recall_trigger"]
    if trig is not None:
        i = text.find(f"Recall trigger hit ({trig['pattern']}): “{trig['snippet']}”", pos)
        assert i >= 0
        pos = i
        i = text.find("请**立即调用 recall_sessions**", pos)
        assert i >= 0
        pos = i
    else:
        i = text.find("no hit: nothing is injected", pos)
        assert i >= 0
        pos = i
    keyword = (j["recall"] or {}).get("keyword") or {"hits": []}
    if keyword["hits"]:  # what a keyword query would recall: shown above the recalled messages
        pos = text.index("What a keyword query would recall — not what the agent does", pos)
        for hit in keyword["hits"][:8]:
            pos = text.index(hit["excerpt"], pos) + len(hit["excerpt"])
    stored_roles = {x.id: x.raw_role for x in tab.result.timeline.messages}
    for m in j["timeline"]["messages"]:
        # a tool message is shown in readable form, unless a recall hit highlights its stored text
        tool = stored_roles.get(m["id"]) == "tool" and not tab.result.highlights.get(m["id"])
        content = readable(m["content"]).text if tool else m["content"]
        i = text.find(excerpt(content), pos)
        assert i >= 0, f"message {m['id']} not shown in order"
        if m["id"] is not None:
            assert f"#{m['id']} " in text[max(0, i - 200) : i]
        pos = i + 1
    assert text.find(tab.result.message, pos) >= 0  # this turn, last
    table = tab.left_out_table.table
    rows = [
        (table.item(r, 0).text(), table.item(r, 1).text(), table.item(r, 2).toolTip())
        for r in range(table.rowCount())
    ]
    reasons = {
        "over_budget": "over the token budget",
        "already_recent": "already among the recent messages",
        "system_message": "system message (counted, not shown)",
        "candidate_limit": "beyond the candidate limit",
    }
    expected = [(f"#{e.id}", e.section, reasons[e.reason]) for e in tab.result.left_out]
    assert rows == expected
    assert [(f"#{e['id']}", reasons[e["reason"]]) for e in j["timeline"]["excluded"]] == [
        (a, c) for a, _b, c in rows
    ]
    bars = tab.budget_panel.bars
    r = tab.result
    assert (
        bars["recent_messages"].value_text == f"{j['timeline']['recencyCount']} / {r.recent_limit} messages"
    )
    assert bars["recent_tokens"].value_text == f"{r.recent_tokens:,} / {r.recent_budget:,} tokens"
    assert bars["recall_tokens"].value_text == f"{r.recall_tokens:,} / {r.recall_budget:,} tokens"
    assert tab.result.recent_tokens + tab.result.recall_tokens == j["timeline"]["totalTokens"]
    assert bars["prefix_chars"].value_text == f"{len(j['prefix'].encode('utf-16-le')) // 2:,} / 40,000 chars"


# -- the same answer as the command line ------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "你还记得我们上次讨论的数据库迁移吗？",  # trigger hit (Z2), recall through LIKE
        "数据库迁移",  # recall hits through FTS, no trigger
        "Do you still remember the deployment plan?",  # trigger hit (E5)
        "deployment rollback",  # English recall hits
    ],
)
def test_demo_database_same_as_cli(tab_factory, demo_db_path, message):
    tab = tab_factory(demo_db_path)
    j = show(tab, message)
    cli, cli_text = cli_json(demo_db_path, message)
    assert j == cli
    assert tab.result.to_json_text() == cli_text
    with MemoryDB.open(demo_db_path) as db:
        assert build_context(db, message, host_os="linux", now=NOW).to_json() == j
    assert_view_shows(tab, j)
    if tab.result.highlights:  # the recalled messages have their search hits marked
        assert tab.preview.toHtml().count("#ffe066") >= len(tab.result.highlights)


def test_small_database_budgets_sessions_and_home(tab_factory, small_db):
    tab = tab_factory(small_db)
    tab.set_budgets(recent_budget=30, recall_budget=5, recent_limit=3, recall_limit=1)
    tab.set_home_session("global")
    for message in ("还记得 数据库迁移", "Deploy"):
        j = show(tab, message)
        args = ("--recent-budget", "30", "--recall-budget", "5", "--recent-limit", "3", "--recall-limit", "1")
        cli, _ = cli_json(small_db, message, *args, "--home-session", "global")
        assert j == cli
        assert_view_shows(tab, j)
    tab.set_sessions(["s2"])
    tab.set_home_session(None)
    j = show(tab, "Deploy")
    assert (
        j
        == cli_json(
            small_db,
            "Deploy",
            "--session",
            "s2",
            "--recent-budget",
            "30",
            "--recall-budget",
            "5",
            "--recent-limit",
            "3",
            "--recall-limit",
            "1",
        )[0]
    )
    assert [m["id"] for m in j["timeline"]["messages"]] == [5]
    assert tab.result.prefix_session_id == "s2"


def test_the_sessions_are_offered_with_their_counts_and_choosing_one_fills_the_field(tab_factory, small_db):
    from philont_desktop.qt import Qt

    tab = tab_factory(small_db)
    combo = tab.inputs_panel.session_combo
    ids = [combo.itemData(i) for i in range(combo.count())]
    assert ids[0] == "" and set(ids[1:]) == {"global", "s2"}
    row = ids.index("s2")
    assert combo.itemText(row) == "s2"
    assert combo.itemData(row, Qt.ItemDataRole.ToolTipRole).startswith("1 message since ")
    combo.activated.emit(row)
    assert combo.currentText() == "s2" and tab.session_ids() == ("s2",)


def test_chinese_trigger_banner_and_recall_highlights(tab_factory, small_db):
    tab = tab_factory(small_db)
    tab.set_budgets(recent_limit=2)
    j = show(tab, "还记得 数据库迁移")
    assert j == cli_json(small_db, "还记得 数据库迁移", "--recent-limit", "2")[0]
    assert j["recall_trigger"] == {"hit": True, "snippet": "还记得", "pattern": "Z2"}
    assert tab.result.highlights == {1: [(7, 12), (17, 20)]}
    html = tab.preview.toHtml()
    assert html.count("#ffe066") == 2
    text = plain(tab)
    assert "Recall trigger hit (Z2): “还记得”" in text
    assert '## ⚠️ 用户在引用过去对话(命中"还记得")' in text
    assert text.index(ROWS[0][2]) < text.index("[—— 旧记忆与近期对话之间 ——]") < text.index(ROWS[6][2])
    j = show(tab, "Deploy")
    assert j["recall_trigger"] is None and "no hit: nothing is injected" in plain(tab)


# -- typing: debounce and stale results ------------------------------------------------------------------------


def test_typing_is_debounced_into_one_computation(qtbot, tab_factory, small_db):
    from philont_desktop.context_tab.view import DEBOUNCE_MS

    tab = tab_factory(small_db)
    assert DEBOUNCE_MS == 250
    started, shown = tab.computations_started, tab.results_shown
    tab.message_edit.setFocus()
    qtbot.keyClicks(tab.message_edit, "Deploy")
    assert tab.computations_started == started  # nothing yet: the keystrokes came faster than 250 ms
    assert tab.controller.debouncing
    qtbot.waitUntil(lambda: tab.results_shown == shown + 1, timeout=5000)
    assert tab.computations_started == started + 1
    assert tab.result.message == "Deploy"
    assert tab.last_input_to_shown_ms is not None and tab.last_input_to_shown_ms >= 200


def test_a_newer_input_cancels_the_running_computation(qtbot, tab_factory, small_db):
    from philont_desktop.context_tab import model

    tab = tab_factory(small_db)
    gate = threading.Event()
    entered = threading.Event()
    seen: list[str] = []

    def slow(db, inputs, prefix, job=None):
        if inputs.recall_budget > 0:  # not the quick pass without recall
            seen.append(inputs.message)
            if inputs.message == "first":
                entered.set()
                gate.wait(10)
        return model.job_build_context(db, inputs, prefix, job)

    tab.controller.job_fn = slow
    shown = tab.results_shown
    tab.set_message("first")
    first = tab.compute_now()
    assert entered.wait(5)
    tab.set_message("second")
    second = tab.compute_now()
    qtbot.waitUntil(lambda: second.is_done, timeout=10_000)
    assert tab.result.message == "second"
    gate.set()
    qtbot.waitUntil(lambda: first.is_done, timeout=10_000)
    assert first.state == "cancelled" and second.state == "finished"
    assert tab.wait_idle(5000)
    assert tab.result.message == "second"
    assert tab.results_shown == shown + 1
    assert seen == ["first", "second"]


def test_a_slow_recall_search_shows_the_rest_first(qtbot, tab_factory, small_db):
    from philont_desktop.context_tab import model
    from philont_desktop.context_tab.view import PROVISIONAL_AFTER_MS

    tab = tab_factory(small_db)
    gate = threading.Event()

    def slow(db, inputs, prefix, job=None):
        if inputs.recall_budget > 0:
            gate.wait(10)
        return model.job_build_context(db, inputs, prefix, job)

    tab.controller.job_fn = slow
    assert PROVISIONAL_AFTER_MS == 150
    tab.set_message("还记得 数据库迁移")
    job = tab.compute_now()
    qtbot.waitUntil(lambda: tab.provisional is not None, timeout=5000)
    assert not job.is_done and tab.result.message == ""
    text = plain(tab)
    assert "Searching the timeline for recall candidates…" in text
    assert "Recall trigger hit (Z2): “还记得”" in text and ROWS[6][2] in text
    assert not tab.copy_button.isEnabled() and not tab.pin_button.isEnabled()
    gate.set()
    assert tab.wait_idle(10_000)
    assert tab.provisional is None and tab.result.message == "还记得 数据库迁移"
    assert "Searching the timeline" not in plain(tab) and tab.copy_button.isEnabled()
    assert tab.result.to_json() == cli_json(small_db, "还记得 数据库迁移")[0]


def test_prefix_is_reused_while_typing_and_rebuilt_after_a_change(tab_factory, small_db):
    tab = tab_factory(small_db)
    show(tab, "Deploy")
    p1 = tab.result.prefix
    show(tab, "Deploy the")
    assert tab.result.prefix is p1 and tab.result.timings_ms["prefix"] == 0.0
    tab.set_host_os("windows")
    assert tab.wait_idle(10_000)
    assert tab.result.prefix is not p1 and "**Windows** (shell is cmd.exe)" in tab.result.prefix.text
    tab.refresh()  # the database changed: rebuild
    assert tab.wait_idle(10_000)
    assert tab.result.timings_ms["prefix"] > 0.0


# -- time travel -----------------------------------------------------------------------------------------------


def test_pick_a_past_message_shows_what_existed_before_it(qtbot, tab_factory, small_db):
    tab = tab_factory(small_db)
    picker = tab.open_picker()
    assert tab.wait_idle(10_000)
    # user messages newest first: 7, 3, 1 (the tool message is not a user message)
    assert [m.id for m in picker.messages] == [7, 3, 1]
    picker.search.setText("deploy")
    picker.load("deploy")
    assert tab.wait_idle(10_000)
    assert [m.id for m in picker.messages] == [3]
    picker.list.setCurrentRow(0)
    picker.accept()
    assert tab.wait_idle(10_000)
    r = tab.result
    assert tab.as_of == (T0 + 3 * MIN, 3) and r.as_of_id == 3
    assert tab.message_edit.toPlainText() == ROWS[2][2]
    with MemoryDB.open(small_db) as db:
        expected = build_context(db, ROWS[2][2], as_of_id=3, host_os="linux", now=NOW).to_json()
    assert r.to_json() == expected
    assert [m["id"] for m in expected["timeline"]["messages"]] == [1, 2]
    assert '  user.city = "Paris"' in expected["prefix"] and "Berlin" not in expected["prefix"]
    assert tab.travel_banner.isVisible() and "#3" in tab.travel_banner.label.text()
    assert "What cannot be rewound" in plain(tab)
    tab.back_to_now()
    assert tab.wait_idle(10_000)
    assert tab.as_of is None and not tab.travel_banner.isVisible()
    assert tab.result.as_of is None and "Berlin" in tab.result.prefix.text


# -- compare, copy, export ----------------------------------------------------------------------------------------


def test_pin_and_diff_before_and_after_editing_a_fact(tab_factory, small_db):
    tab = tab_factory(small_db)
    show(tab, "Deploy")
    tab.pin()
    assert tab.wait_idle(10_000)
    assert tab.diff_view.diff is not None and tab.diff_view.diff.identical
    assert "The two previews are identical." in tab.diff_view.browser.toPlainText()
    with MemoryDB.open(small_db, writable=True) as w:
        FactStore(w).store_fact("user", "city", "東京", now=NOW)
    tab.refresh()
    assert tab.wait_idle(10_000)
    assert '  user.city = "東京"' in tab.result.prefix.text
    d = tab.diff_view.diff
    assert d is not None and not d.identical
    removed = [u.text for u in d.unified() if u.kind == "delete"]
    added = [u.text for u in d.unified() if u.kind == "insert"]
    assert '  user.city = "Berlin"' in removed and '  user.city = "東京"' in added
    assert any(line.startswith("=== Memory prefix:") for line in removed)  # the sizes changed too
    text = tab.diff_view.browser.toPlainText().replace("\xa0", " ")
    assert '−  user.city = "Berlin"' in text and '+  user.city = "東京"' in text
    assert tab.diff_view.summary.text() == f"+{d.added} −{d.removed} lines"
    tab.diff_view.mode.setCurrentIndex(1)  # side by side
    assert tab.wait_idle(10_000)
    side = tab.diff_view.browser.toPlainText().replace("\xa0", " ")
    assert '  user.city = "Berlin"' in side and '  user.city = "東京"' in side and "−" not in side
    tab.unpin()
    assert tab.pinned is None and tab.diff_view.diff is None


def test_copy_as_text_and_export_json_with_mode_0600(tab_factory, small_db, tmp_path):
    tab = tab_factory(small_db)
    j = show(tab, "还记得 数据库迁移")
    tab.copy_text()
    assert QApplication.clipboard().text() == tab.result.to_text()
    target = tmp_path / "out" / "context.json"
    target.parent.mkdir()
    job = tab.export_to(target)
    assert job is not None and job.wait(10_000) and job.state == "finished"
    assert tab.last_export == target
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    text = target.read_text(encoding="utf-8")
    assert json.loads(text) == j
    assert text == cli_json(small_db, "还记得 数据库迁移")[1]


def test_sections_collapse_and_expand_by_link(tab_factory, small_db):
    tab = tab_factory(small_db)
    show(tab, "Deploy")
    tab.expand_all(False)
    facts = next(s for s in tab.result.prefix.sections if s.name == "user_facts")
    assert facts.text.rstrip("\n") not in plain(tab)
    assert 'user.city = "Berlin"' in plain(tab)  # the collapsed gist: the first line after the heading
    tab.preview.anchorClicked.emit(QUrl("toggle:user_facts"))
    assert tab.expanded_sections == {"user_facts"}
    assert facts.text.rstrip("\n") in plain(tab)
    tab.preview.anchorClicked.emit(QUrl("toggle:user_facts"))
    assert tab.expanded_sections == set()
    tab.preview.anchorClicked.emit(QUrl("expand:all"))
    assert all(s.text.rstrip("\n") in plain(tab) for s in tab.result.prefix.sections)


def test_a_preview_is_laid_out_and_swapped_in_turns_of_its_own(qtbot, tab_factory, small_db):
    tab = tab_factory(small_db)
    show(tab, "Deploy")
    pane, st = tab.preview, tab.state
    shown = pane.document()
    pane.show_result(st.shown, {"user_facts"})  # parsed now, on screen a few turns later
    assert pane.pending and pane.document() is shown
    pane.show_result(st.shown, set())  # replaced before its turn: the latest is shown
    qtbot.waitUntil(lambda: not pane.pending, timeout=5000)
    doc = pane.document()
    assert doc is not shown
    assert doc.pageSize().width() == pane.viewport().width()  # laid out at the view's width
    facts = next(s for s in tab.result.prefix.sections if s.name == "user_facts")
    assert facts.text.rstrip("\n") not in plain(tab)
    assert 'user.city = "Berlin"' in plain(tab)


def test_self_test_and_registry(tab_factory, demo_db_path):
    from philont_desktop.context_tab.view import ContextTab
    from philont_desktop.tabs import registry, tab_names

    assert registry().load_class(registry().get("context")) is ContextTab
    assert "context" in tab_names()
    tab = tab_factory(demo_db_path)
    assert tab.title() == "Context"
    assert check_tab(tab) == []


# -- the diff itself ----------------------------------------------------------------------------------------------


def test_compute_diff_rows_intraline_and_folding():
    old = "\n".join(f"line {i}" for i in range(20))
    new = old.replace("line 10", "line ten").replace("line 19", "line 19\nextra")
    d = compute_diff(old, new, context=2)
    assert (d.added, d.removed) == (2, 1)
    kinds = [r.kind for r in d.rows]
    assert kinds == [
        "skip",
        "equal",
        "equal",
        "replace",
        "equal",
        "equal",
        "skip",
        "equal",
        "equal",
        "insert",
    ]
    rep = d.rows[3]
    assert (rep.old.text, rep.new.text) == ("line 10", "line ten")
    assert rep.old.spans == ((5, 7),) and rep.new.spans == ((5, 8),)
    assert d.rows[0].skipped == 8 and d.rows[6].skipped == 5
    uni = d.unified()
    assert [(u.kind, u.text) for u in uni if u.kind in ("delete", "insert")] == [
        ("delete", "line 10"),
        ("insert", "line ten"),
        ("insert", "extra"),
    ]
    assert compute_diff("a\nb", "a\nb").identical
    assert len(compute_diff(old, new, context=-1).rows) == 21


# -- recall, explained: the question of issue 16 on a database with Berlin messages ----------------------------

BERLIN = "Do you remember what we discussed about the Berlin trip last time?"
BERLIN_ROWS = [
    ("user", "Book the Berlin trip for the Mycox offsite: two nights near Alexanderplatz."),
    ("assistant", "Booked: Hotel Indigo Berlin, two nights, 14-16 November."),
    ("user", "Finance wants the receipts of the Berlin trip."),
    ("user", "柏林之行的发票在哪里？"),
    ("assistant", "The trip receipts are in the shared folder."),
    ("user", "Deploy the gateway tomorrow."),
]


@pytest.fixture
def berlin_db(tmp_path) -> Path:
    path = tmp_path / "memory" / "memory.sqlite"
    with MemoryDB.create(path, now=T0) as db:
        raw = RawStore(db)
        for k, (role, content) in enumerate(BERLIN_ROWS):
            raw.append_message("global", role, content, T0 + k * MIN)
    return path


def test_berlin_question_recall_explained_proven_not_scanned(tab_factory, berlin_db):
    from philont_desktop import i18n

    tab = tab_factory(berlin_db)
    j = show(tab, BERLIN)
    assert j == cli_json(berlin_db, BERLIN)[0]
    recall = j["recall"]
    assert (recall["mode"], recall["substring"], recall["recalled"]) == ("like", "proven", 0)
    text = plain(tab)
    # the summary opens the preview: the trigger, what recall found, how the search ran, why
    top = [
        "⚠ Recall trigger hit (E1): “remember what”. The agent is told to call recall_sessions.",
        "Recall: nothing recalled · substring search, proven from the full-text index: no message was scanned",
        "so the agent's search looked for the whole message as one piece of text, and no message contains it.",
        "1. Memory prefix",
    ]
    assert [text.index(s) for s in top] == sorted(text.index(s) for s in top)
    # the explanation above the recalled messages: the exact query, each word's count, the keyword query
    pos = text.index("3. Recalled messages")
    for s in (
        f"The agent's search received:\n{BERLIN}",
        "Proven, not scanned: no message contains all of “you”, “remember”",
        "Words of the message are in other messages (“Berlin” (3), “trip” (3))",
        "Berlin 3 messages  ·  trip 3 messages",
        "What a keyword query would recall — not what the agent does",
        "A keyword query such as “Berlin trip” would find 2 messages in 1 session.",
        BERLIN_ROWS[2][1],
        "4. Recent messages",
    ):
        pos = text.index(s, pos) + len(s)
    assert (
        "Proven without scanning" not in text
    )  # the core's English sentence is never shown for a known code
    # in Chinese: the same explanation, from the codes
    i18n.install("zh_CN")
    text = plain(tab)
    assert "子串搜索，由全文索引证明：没有扫描任何消息" in text
    assert "已证明，未扫描：没有消息同时包含 “you”、“remember”" in text
    assert "关键词查询会召回什么 —— 这不是智能体的做法" in text
    assert "Words of the message" not in text and "Proven, not scanned" not in text
    j = show(tab, "上次讨论过的柏林之行")
    assert j["recall_trigger"] == {"hit": True, "snippet": "上次讨论过", "pattern": "Z1"}
    assert "命中召回触发词（Z1）：“上次讨论过”" in plain(tab)


def test_every_code_of_the_recall_explanation_has_a_translated_template():
    from core import recall_explain, substring
    from philont_desktop.context_tab import recall_text

    # the core's tables of English sentences, one per code it can report
    core_codes = {
        *recall_explain._TEXT,
        *recall_explain._TOKEN_NOTE,
        *substring._INDEX_TEXT,
        *substring._SUBSTRING_TEXT,
    }
    assert core_codes <= recall_text.codes()


# -- a 10 MB message: a bounded excerpt with "show the full text" ---------------------------------------------


def test_a_10_mb_message_previews_as_a_bounded_excerpt(tab_factory, tmp_path):
    from philont_desktop.widgets.fulltext import FullTextDialog

    path = tmp_path / "memory" / "memory.sqlite"
    big = "Berlin trip notes, day by day. " * 340_000  # 10.5 MB in one paragraph
    with MemoryDB.create(path, now=T0) as db:
        raw = RawStore(db)
        raw.append_message("global", "user", "Keep these notes.", T0 + MIN)
        big_id = raw.append_message("global", "assistant", big, T0 + 2 * MIN).id
        raw.append_message("global", "user", "Thanks", T0 + 3 * MIN)
    tab = tab_factory(path)
    tab.set_budgets(recent_budget=10_000_000)
    j = show(tab, "hello")
    assert big_id in [m["id"] for m in j["timeline"]["messages"]]
    text = plain(tab)
    assert len(text) < 20_000  # never 10 MB of text laid out
    shown = excerpt(big)
    assert shown in text and big[: len(shown) + 40] not in text
    hidden = f"… {len(big) - len(shown):,} more characters: show the full text"
    assert hidden in text
    tab.preview.anchorClicked.emit(QUrl(f"full:{big_id}"))
    dialogs = tab.findChildren(FullTextDialog)
    assert len(dialogs) == 1 and dialogs[0].page_count > 1  # the whole text, a page at a time
    # comparing with a pinned preview stays quick: messages are compared as excerpts
    tab.pin()
    show(tab, "hello again")
    d = tab.diff_view.diff
    assert d is not None and not d.identical
    assert "hello again" in tab.diff_view.browser.toPlainText()
    assert len(tab.diff_view.browser.toPlainText()) < 20_000
    for d in dialogs:
        d.close()


def test_home_conversation_is_picked_from_the_conversations_model(qtbot, tab_factory, small_db):
    from philont_desktop.widgets.conversations import ConversationsModel

    tab = tab_factory(small_db)
    combo = tab.inputs_panel.home_combo
    model = combo.model()
    assert isinstance(model, ConversationsModel)  # the model the Timeline lists conversations with
    qtbot.waitUntil(lambda: model.loaded_once, timeout=10_000)
    assert combo.currentIndex() == 0 and combo.currentText() == "No home conversation"
    ids = [c.id for c in model.conversations()]
    assert {"global", "s2"} <= set(ids)
    show(tab, "Deploy")
    row = model.row_of("s2")
    combo.setCurrentIndex(row)
    combo.activated.emit(row)  # as a person picking it
    assert tab.wait_idle(20_000)
    assert tab.result.to_json() == cli_json(small_db, "Deploy", "--home-session", "s2")[0]
    tab.set_home_session("global")
    assert tab.wait_idle(20_000) and combo.current_id() == "global"
    assert tab.result.to_json() == cli_json(small_db, "Deploy", "--home-session", "global")[0]


# -- damaged rows the agent would be given ---------------------------------------------------------------------


def test_each_damaged_row_is_noted_on_its_row_in_words_from_its_code(english):
    from types import SimpleNamespace

    from core.errors import Notice
    from philont_desktop.context_tab.row_notes import notes_by_row

    fact = Notice(
        "context.row.agent_cannot_read",
        "The agent cannot read user.bad (value_json: invalid JSON): …",
        {"layer": "facts", "id": 7, "label": "user.bad", "section": "user_facts", "columns": "value_json"},
    )
    message = Notice(
        "context.row.replacement_chars",
        "message #2: content holds bytes that are not UTF-8 …",
        {"layer": "messages", "id": 2, "label": "message #2", "section": "recent", "columns": "content"},
    )
    skill = Notice(
        "context.row.damaged", "…", {"layer": "skills", "id": 4, "section": "skill_index", "columns": "x"}
    )
    sections, messages = notes_by_row(SimpleNamespace(row_notices=[fact, message, skill]))
    assert sections == {
        "user_facts": [
            "⚠ The fact user.bad cannot be read by the agent (value): its own reading of this layer fails on "
            "this row. Shown here as stored."
        ],
        "skill_index": [
            "⚠ Skill #4 has damaged values (x); the agent reads them as stored, so what it makes of this row can "
            "differ from what is shown here."
        ],
    }
    assert messages == {
        2: [
            "⚠ This message: text holds bytes that are not UTF-8; the agent reads them as U+FFFD (�), as shown."
        ]
    }
    assert notes_by_row(SimpleNamespace()) == ({}, {})  # a result without notes


def test_a_tool_message_reads_as_its_structure_with_the_stored_text_one_click_away(tab_factory, tmp_path):
    from philont_desktop.widgets.fulltext import FullTextDialog

    path = tmp_path / "memory" / "memory.sqlite"
    stored = json.dumps({"tool": "shell", "success": True, "result": 'a "b"\nc'})
    with MemoryDB.create(path, now=T0) as db:
        raw = RawStore(db)
        raw.append_message("global", "user", "run it", T0 + MIN)
        tool_id = raw.append_message("global", "tool", stored, T0 + 2 * MIN).id
    tab = tab_factory(path)
    j = show(tab, "hello")
    assert tool_id in [m["id"] for m in j["timeline"]["messages"]]
    text = plain(tab)
    assert 'tool: shell\nsuccess: true\nresult:\n  a "b"\n  c' in text
    assert stored not in text and '\\"' not in text
    tab.preview.anchorClicked.emit(QUrl(f"raw:{tool_id}"))
    dlg = tab.findChildren(FullTextDialog)[-1]
    assert dlg.edit.toPlainText() == stored and dlg.raw_btn.isChecked()
    dlg.raw_btn.click()
    assert dlg.edit.toPlainText().startswith("tool: shell")
    dlg.close()
