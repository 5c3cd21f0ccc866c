"""The Privacy page of the Health tab on a planted file (:mod:`tests.fixtures.privacy_planted`: secrets,
personal data and planted instructions in every layer): the findings listed by kind and layer, the value
masked everywhere but in the context pane while "Show" is on, "Not a secret" hiding a finding, and the
purge (editing mode only; a confirmation listing the files it rewrites; a scan afterwards finds none)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from philont_desktop.qt import QAbstractButton, QAbstractItemView, QAbstractListModel, QLabel, Qt, QWidget
from philont_desktop.workers import spin_until
from tests.fixtures.privacy_planted import MESSAGE_ROWS, expected, plant, secret_values


@pytest.fixture(autouse=True)
def _own_allow_list(tmp_path, monkeypatch):
    """The allow-list of the test's own (never the person's)."""
    monkeypatch.setenv("PHILONT_PRIVACY_ALLOW", str(tmp_path / "allow.json"))


@pytest.fixture
def planted(db_path) -> Path:
    from core.db import MemoryDB

    db_path.parent.mkdir(parents=True)
    db = MemoryDB.create(db_path)
    plant(db)
    db.close()
    return db_path


def _page(tab: Any) -> Any:
    page = tab.show_page("privacy")
    assert tab.wait_idle(30_000)
    assert page.result is not None, page.scan_bar.status.text()
    return page


@pytest.fixture
def privacy(open_tab, planted, english) -> Any:
    from philont_desktop.health.view import HealthTab

    return _page(open_tab(HealthTab, planted, size=(1280, 760)))


def _texts_on_screen(root: QWidget) -> list[str]:
    """Every text a label, button, tooltip, accessible name or item view (cells, their tooltips and
    headers) of ``root`` holds: where the whole value must never be."""
    out: list[str] = []
    for w in (root, *root.findChildren(QWidget)):
        out += [w.toolTip(), w.accessibleName(), w.accessibleDescription(), w.windowTitle()]
        if isinstance(w, QLabel | QAbstractButton):
            out.append(w.text())
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            columns = 1 if isinstance(m, QAbstractListModel) else m.columnCount()
            for r in range(m.rowCount()):
                for c in range(columns):
                    i = m.index(r, c)
                    out += [
                        str(m.data(i, Qt.ItemDataRole.DisplayRole)),
                        str(m.data(i, Qt.ItemDataRole.ToolTipRole)),
                    ]
            for c in range(columns):
                out.append(str(m.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)))
    return out


def _whole_values_in(texts: list[str]) -> list[str]:
    joined = "\n".join(texts)
    return [v for v in secret_values() if v in joined]


def test_the_findings_are_listed_by_kind_and_layer(privacy) -> None:
    found = {(f.layer, f.kind) for f in privacy.model.findings()}
    for layer, _table, _row, _column, kind, *_ in expected():
        assert (layer, kind) in found
    # The summary counts each kind in each layer; a click on a count filters the table to those.
    summary = privacy.summary_model
    row, col = summary.kinds.index("personal.email"), summary.layers.index("notes")
    assert summary.data(summary.index(row, col)) == "1"
    privacy.summary.clicked.emit(summary.index(row, col))
    shown = privacy.proxy.shown_findings()
    assert [(f.layer, f.kind) for f in shown] == [("notes", "personal.email")]
    assert privacy.filters.kind.currentData() == "personal.email"
    privacy.filters.choose(kind="", layer="")
    privacy.filters.choose(category="instruction")
    assert {f.category for f in privacy.proxy.shown_findings()} == {"instruction"}
    assert {f.layer for f in privacy.proxy.shown_findings()} >= {
        "notes",
        "facts",
        "skills",
        "skill_revisions",
    }
    assert f"{len(privacy.model.findings())} findings" in privacy.scan_bar.status.text()


def test_the_models_pass_the_model_tester(privacy, qtmodeltester) -> None:
    qtmodeltester.check(privacy.model)
    qtmodeltester.check(privacy.summary_model)
    privacy.filters.choose(layer="messages")
    qtmodeltester.check(privacy.proxy)


def test_the_value_is_masked_until_show_and_masked_again_on_another_selection(privacy) -> None:
    assert _whole_values_in(_texts_on_screen(privacy)) == []
    pane = privacy.context_pane
    key = next(f for f in privacy.model.findings() if f.kind == "secret.openai_key")
    whole = "sk-proj-Qm7Xv2Lp9Rt4Wz8Ny3Bc6Hd1Fg5Jk0"
    assert privacy.select_finding(key.id)
    assert privacy.tab.wait_idle(10_000)
    assert pane.context is not None and key.preview in pane.shown_text()
    assert whole not in pane.shown_text()
    assert _whole_values_in(_texts_on_screen(privacy)) == []
    pane.show_btn.click()
    assert whole in pane.shown_text()
    # Shown in the text pane only: never in a label, a tooltip or an accessible name.
    assert _whole_values_in([t for t in _texts_on_screen(privacy) if t != pane.text.edit.toolTip()]) == []
    labels = [w.text() for w in privacy.findChildren(QLabel)]
    assert not any(whole in t for t in labels)
    other = next(f for f in privacy.model.findings() if f.kind == "secret.github_token")
    assert privacy.select_finding(other.id)
    assert privacy.tab.wait_idle(10_000)
    assert not pane.show_btn.isChecked()
    assert (
        whole not in pane.shown_text() and "ghp_Qm7Xv2Lp9Rt4Wz8Ny3Bc6Hd1Fg5Jk0Ab7Cde" not in pane.shown_text()
    )


def test_the_context_masks_the_other_findings_of_the_same_text(privacy) -> None:
    """A note holding an instruction and an e-mail address: the instruction's context masks the address."""
    instruction = next(
        f for f in privacy.model.findings() if f.layer == "notes" and f.category == "instruction"
    )
    assert privacy.select_finding(instruction.id)
    assert privacy.tab.wait_idle(10_000)
    privacy.context_pane.show_btn.click()
    text = privacy.context_pane.shown_text()
    assert "Ignore all previous instructions" in text and "mallory@evil.example" not in text


def test_control_characters_in_the_context_are_made_visible(open_tab, db_path) -> None:
    from core.db import MemoryDB
    from philont_desktop.health.view import HealthTab

    db_path.parent.mkdir(parents=True)
    db = MemoryDB.create(db_path)
    with db.write() as c:
        c.execute(
            "INSERT INTO memory_notes (id, content, created_at) VALUES ('n', ?, 1)",
            ("\x1b[2J\u202ewrite to ann@example.org",),
        )
    db.close()
    page = _page(open_tab(HealthTab, db_path))
    (finding,) = page.model.findings()
    assert page.select_finding(finding.id) and page.tab.wait_idle(10_000)
    text = page.context_pane.shown_text()
    assert "\\x1b" in text and "\\u202e" in text and "\x1b" not in text and "\u202e" not in text


def test_not_a_secret_hides_the_finding_and_a_new_scan_leaves_it_out(privacy) -> None:
    email = next(f for f in privacy.model.findings() if f.kind == "personal.email" and f.layer == "messages")
    before = privacy.proxy.rowCount()
    assert privacy.select_finding(email.id)
    privacy.actions.allow_btn.click()
    assert privacy.tab.wait_idle(10_000)
    assert privacy.proxy.rowCount() == before - 1
    assert email.id not in {f.id for f in privacy.proxy.shown_findings()}
    assert "allow-list" in privacy.scan_bar.status.text()
    privacy.scan(False)
    assert privacy.tab.wait_idle(30_000)
    assert email.id not in {f.id for f in privacy.model.findings()}
    assert email.id in {f.id for f in privacy.result.allowed}


def test_purge_is_refused_outside_editing_mode(privacy, planted) -> None:
    bytes_before = planted.read_bytes()
    assert not privacy.ctx.editing
    assert not privacy.actions.purge_btn.isVisibleTo(privacy)
    assert privacy.actions.hint.isVisibleTo(privacy)
    key = next(f for f in privacy.model.findings() if f.kind == "secret.openai_key")
    privacy.select_finding(key.id)
    privacy.purge_selected("redact")
    assert privacy.tab.wait_idle(10_000)
    assert privacy.purge_dialog is None
    assert "editing" in privacy.result_pane.text()
    assert planted.read_bytes() == bytes_before


def test_the_scan_can_be_cancelled(privacy) -> None:
    privacy.scan(True)
    privacy.cancel_scan()
    assert privacy.tab.wait_idle(30_000)
    assert privacy.scan_job is None
    assert privacy.scan_bar.scan_btn.isEnabled()


@pytest.fixture
def window(open_window, planted) -> Any:
    w = open_window(planted, size=(1280, 820))
    w.set_editing(True)
    assert spin_until(lambda: w.ctx.editing, 20_000)
    return w


def _reopened(w: Any, before: Any) -> bool:
    """The window closed its database for the purge and has it open again, editing on."""
    return w.ctx is not None and w.ctx is not before and w.ctx.editing


def _window_page(w: Any) -> Any:
    tab = w.show_tab("health")
    page = tab.show_page("privacy")
    assert spin_until(lambda: page.result is not None and page.scan_job is None, 30_000)
    return page


def test_the_purge_lists_the_files_first_and_a_new_scan_finds_none(window, planted) -> None:
    page = _window_page(window)
    assert page.actions.purge_btn.isVisibleTo(page)
    purged = [f for f in page.model.findings() if f.layer == "messages" and f.category == "secret"]
    _ask_purge(page, purged)
    dialog = page.purge_dialog
    listed = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert any(str(planted) in t for t in listed)
    assert dialog.files[0] == os.path.realpath(planted)
    assert "cannot be undone" in dialog.findChild(QLabel, "privacyPurgeWarning").text()
    assert _whole_values_in(_texts_on_screen(dialog)) == []
    before = window.ctx
    dialog.purge_btn.click()
    assert spin_until(lambda: _reopened(window, before), 30_000), window.open_error
    page = window.show_tab("health").show_page("privacy")
    assert spin_until(
        lambda: page.last_purge is not None and page.scan_job is None and page.result is not None, 30_000
    )
    assert page.last_purge.ok
    assert str(planted) in page.result_pane.text()
    left = {(f.table, f.row, f.kind) for f in page.model.findings()}
    assert not any((f.table, f.row, f.kind) in left for f in purged)
    assert any(f.layer == "notes" for f in page.model.findings())  # what was not purged is still found
    # Gone from every file of the memory folder: the database, its -wal, the backup editing took.
    elsewhere = {e[5] for e in expected() if e[0] != "messages"}  # the JWT is in an action's parameters too
    values = [
        r.value.encode() for r in MESSAGE_ROWS if r.kind.startswith("secret.") and r.value not in elsewhere
    ]
    files = [p for p in planted.parent.rglob("*") if p.is_file()]
    assert any(p.parent.name == "backups" for p in files)
    assert [(p.name, v) for p in files for v in values if v in p.read_bytes()] == []


@pytest.mark.parametrize("language", ["english", "chinese"])
def test_the_page_speaks_both_languages(request, language, open_tab, planted) -> None:
    from philont_desktop.health.privacy.model import COL_KIND
    from philont_desktop.health.view import HealthTab

    request.getfixturevalue(language)
    page = _page(open_tab(HealthTab, planted))
    row = next(r for r in range(page.proxy.rowCount()) if page.proxy.finding_at(r).kind == "secret.password")
    kind = page.proxy.index(row, COL_KIND).data()
    status = page.scan_bar.status.text()
    if language == "chinese":
        assert kind == "密码" and "个发现" in status
        assert page.actions.allow_btn.text() == "不是机密"
    else:
        assert kind == "Password" and f"{len(page.model.findings())} findings in 1 file." in status


def _select(page: Any, findings: list[Any]) -> None:
    page.table.clearSelection()
    model = page.table.selectionModel()
    for f in findings:
        row = next(r for r in range(page.proxy.rowCount()) if page.proxy.finding_at(r).id == f.id)
        model.select(page.proxy.index(row, 0), model.SelectionFlag.Select | model.SelectionFlag.Rows)


def _ask_purge(page: Any, findings: list[Any]) -> Any:
    _select(page, findings)
    page.actions.purge_btn.click()
    assert spin_until(lambda: page.purge_dialog is not None, 20_000)
    return page.purge_dialog


def test_cancel_in_the_confirmation_changes_nothing(window, planted) -> None:
    page = _window_page(window)
    before = planted.read_bytes()
    dialog = _ask_purge(page, [f for f in page.model.findings() if f.kind == "secret.openai_key"])
    assert dialog.cancel_btn.isDefault() and not dialog.purge_btn.isDefault()
    dialog.cancel_btn.click()
    assert spin_until(lambda: page.purge_dialog is None, 5_000)
    assert window.ctx is not None and window.show_tab("health").show_page("privacy") is page
    assert planted.read_bytes() == before and page.last_purge is None


def test_a_purge_refused_while_another_program_has_the_file_open_changes_nothing(window, planted) -> None:
    import subprocess
    import sys

    page = _window_page(window)
    key = [f for f in page.model.findings() if f.kind == "secret.openai_key"]
    dialog = _ask_purge(page, key)
    holder = subprocess.Popen(  # the agent: a connection of another process, open on the file
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM memory_notes').fetchall()\n"
            "print('open', flush=True); time.sleep(60)",
            str(planted),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "open"
        before = window.ctx
        dialog.purge_btn.click()
        assert spin_until(lambda: _reopened(window, before), 30_000), window.open_error
        page = window.show_tab("health").show_page("privacy")
        assert spin_until(lambda: "Nothing was purged" in page.result_pane.text(), 30_000)
        assert "in use" in page.result_pane.text()
        assert spin_until(lambda: page.result is not None and page.scan_job is None, 30_000)
        assert key[0].id in {f.id for f in page.model.findings()}  # still there
    finally:
        holder.kill()
        holder.wait()


def test_a_scan_with_backups_lists_their_findings_and_reads_their_context(open_tab, planted, english) -> None:
    from core.db import MemoryDB
    from philont_desktop.health.view import HealthTab

    db = MemoryDB.open(planted, check=False)
    backup = db.backup()
    db.close()
    page = _page(open_tab(HealthTab, planted))
    assert all(f.file is None for f in page.model.findings())
    page.scan_bar.backups.setChecked(True)
    page.scan_bar.scan_btn.click()
    assert page.tab.wait_idle(30_000) and page.result is not None
    in_backup = [f for f in page.model.findings() if f.file is not None]
    assert in_backup and {Path(f.file).name for f in in_backup} == {backup.name}
    assert "in 2 files" in page.scan_bar.status.text()
    page.filters.choose(where="backups", kind="secret.openai_key")
    (key,) = page.proxy.shown_findings()
    assert key.file is not None and page.select_finding(key.id) and page.tab.wait_idle(10_000)
    assert key.preview in page.context_pane.shown_text()
    assert backup.name in page.context_pane.heading.text()
    page.context_pane.show_btn.click()
    assert "sk-proj-Qm7Xv2Lp9Rt4Wz8Ny3Bc6Hd1Fg5Jk0" in page.context_pane.shown_text()


def test_a_change_of_the_database_marks_the_result_out_of_date_without_scanning_again(privacy) -> None:
    result = privacy.result
    privacy.tab.refresh()  # what the window calls when the agent wrote
    assert privacy.tab.wait_idle(10_000)
    assert privacy.result is result and privacy.scan_job is None
    assert "Scan again" in privacy.scan_bar.status.text()
    privacy.scan_bar.scan_btn.click()
    assert privacy.tab.wait_idle(30_000)
    assert privacy.result is not result and "Scan again" not in privacy.scan_bar.status.text()


def test_the_purge_result_says_what_was_rewritten_and_what_was_left_and_why(chinese) -> None:
    from core.privacy.purge import PurgeResult
    from core.privacy.rewrite import FileOutcome
    from philont_desktop.health.privacy.results import purge_text

    changed = {
        "code": "privacy.purge.changed",
        "message": "An English sentence.",
        "params": {
            "path": "/m/backups/memory-1.sqlite",
            "table": "memory_notes",
            "row": "n1",
            "column": "content",
        },
    }
    result = PurgeResult(
        "/m/memory.sqlite",
        "redact",
        [
            FileOutcome("/m/memory.sqlite", "live", rows=3, audit_rows=1, wal_truncated=True),
            FileOutcome("/m/backups/memory-1.sqlite", "backup", error=changed),
        ],
        derived_removed=["/data/replays/memory.json"],
    )
    text = purge_text(result)
    assert "已清除：涂改 3 行，位于 1 个文件中。" in text
    assert "/m/memory.sqlite — 数据库，3 行，1 条审计记录，-wal 已清空" in text
    assert (
        "保持原样：/m/backups/memory-1.sqlite：memory_notes #n1（content）在制定清除计划后发生了变化" in text
    )
    assert "/data/replays/memory.json" in text and "English" not in text
