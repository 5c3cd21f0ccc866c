"""The core's codes in the interface's language: every code the core can produce has a template, the
Chinese interface shows each one translated with its parameters filled, and the core's English wording
never reaches the Chinese interface for a code that has a template."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
HAN = re.compile(r"[\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _has_lrelease() -> bool:
    from philont_desktop.i18n import find_lrelease

    return find_lrelease() is not None


needs_lrelease = pytest.mark.skipif(not _has_lrelease(), reason="no lrelease (PySide6-Essentials ships one)")


@pytest.fixture
def lang(qapp):
    """Switch languages in a test; English comes back afterwards."""
    from philont_desktop import fonts, i18n

    font = qapp.font()
    yield i18n.install
    i18n.uninstall()
    qapp.setFont(font)
    fonts._fonts_applied = False


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_name(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _dict_keys(node: ast.AST | None) -> set[str] | None:
    """The keys of a ``{...}`` literal or ``dict(k=...)`` call (``None`` when not spelled out)."""
    if isinstance(node, ast.Dict) and all(_literal(k) for k in node.keys):
        return {_literal(k) or "" for k in node.keys}
    return None


def _codes_of(node: ast.AST | None) -> list[str]:
    """The codes a ``code=`` argument spells out: a literal, or both sides of ``a if c else b``."""
    if isinstance(node, ast.IfExp):
        return _codes_of(node.body) + _codes_of(node.orelse)
    code = _literal(node)
    return [code] if code else []


def scan_core() -> dict[str, list[tuple[str, set[str] | None]]]:
    """Every code the core spells out, with where and the parameter names given there (``None`` when the
    parameters are built elsewhere): ``code=`` of an error, the first argument of a ``Notice``, a
    class's ``default_code``, the ``reason`` of an open error."""
    found: dict[str, list[tuple[str, set[str] | None]]] = defaultdict(list)
    for path in sorted(CORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = lambda n, path=path: f"{path.relative_to(ROOT)}:{n.lineno}"  # noqa: E731
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                code = _literal(node.value)
                # The defaults of errors.py's base classes are fallbacks; another class's is its code.
                if isinstance(target, ast.Name) and target.id == "default_code" and path.name != "errors.py":
                    found[code or ""].append((where(node), None))
            if not isinstance(node, ast.Call):
                continue
            name = _call_name(node)
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            if name == "Notice" and node.args and _literal(node.args[0]):
                params = _dict_keys(node.args[2]) if len(node.args) > 2 else _dict_keys(kw.get("params"))
                found[_literal(node.args[0]) or ""].append((where(node), params))
            elif name == "_refusal" and len(node.args) > 1 and _literal(node.args[1]):  # the MCP server's
                found[_literal(node.args[1]) or ""].append((where(node), _dict_keys(node.args[2])))
            elif name == "warn" and node.args and _literal(node.args[0]):  # warn(code, message, **params)
                found[_literal(node.args[0]) or ""].append((where(node), set(kw)))
            elif name == "HeaderProblem":
                reason = _literal(node.args[3]) if len(node.args) > 3 else _literal(kw.get("reason"))
                params = _dict_keys(node.args[4]) if len(node.args) > 4 else _dict_keys(kw.get("params"))
                if reason:
                    found[reason].append((where(node), params))
            elif name == "DatabaseOpenError" and _literal(kw.get("reason")):
                found[_literal(kw.get("reason")) or ""].append(
                    (where(node), _dict_keys(kw.get("reason_params")))
                )
            else:
                for code in _codes_of(kw.get("code")):
                    found[code].append((where(node), _dict_keys(kw.get("params"))))
    # Areas that keep their English texts in a table keyed by code.
    from core.changes.model import CODES as change_codes
    from core.recall_explain import _TEXT as recall_texts
    from core.recall_explain import _TOKEN_NOTE as token_notes
    from core.substring import _INDEX_TEXT as index_texts
    from core.substring import _SUBSTRING_TEXT as substring_texts

    for code in (*change_codes, *recall_texts, *token_notes, *index_texts, *substring_texts):
        found[code].append(("table", None))
    return dict(found)


def test_the_scan_sees_codes_of_every_kind() -> None:
    """The scan is not empty-handed: it finds spelled-out codes of errors, notices, open errors' reasons,
    maturity explanations and the tables."""
    codes = scan_core()
    for expected in (
        "db.closed",
        "db.read_only.missing_tables",
        "db.open.why.truncated",
        "db.warning.immutable",
        "maturity.next.stable_run",
        "prefix.self_null",
        "recall.found",
        "change.fact.new",
        "mcp.sdk_missing",
    ):
        assert expected in codes, expected


def test_every_code_the_core_can_produce_has_a_template() -> None:
    from philont_desktop import messages

    known = messages.codes()
    missing = {code: sites[0][0] for code, sites in scan_core().items() if code not in known}
    assert not missing, "codes without a template in philont_desktop/messages.py (or the area's table):\n" + (
        "\n".join(f"{site}: {code}" for code, site in sorted(missing.items()))
    )


def test_templates_use_only_the_parameters_the_core_gives() -> None:
    """A template's placeholders are parameters the raise site passes (or values the GUI derives)."""
    from philont_desktop import message_templates

    derived = {"counts", "kind", "reason", "newer"}
    problems = []
    for code, sites in scan_core().items():
        source = message_templates.TEMPLATES.get(code)
        if source is None:
            continue
        wanted = set(PLACEHOLDER.findall(source())) - derived
        for site, params in sites:
            if params is not None and not wanted <= params:
                problems.append(f"{site}: {code} gives {sorted(params)}, its template needs {sorted(wanted)}")
    assert not problems, "\n".join(problems)


def _sample(code: str, template: str) -> dict[str, object]:
    params: dict[str, object] = {name: f"«{name}»" for name in PLACEHOLDER.findall(template)}
    if code.startswith("maturity."):
        params.update(successes=2, failures=1, consecutive=1, n=3, grade="draft")
    if "kind" in params:
        params["kind"] = "fifo"
    if "newer" in params:
        params["preview"] = "«preview»"
    if code == "db.write_refused":
        params.update(reason="db.read_only.missing_tables", reason_params={"names": ["memory_facts"]})
    if "at" in params:
        params["at"] = 1_700_000_000_000
    if "score" in params:
        params["score"] = 0.012
    if "action" in params:
        params["action"] = "set_grade"
    if "problem" in params:
        params.update(problem="changed", fields=["«fields»"])
    if "changes" in params:
        params["changes"] = [
            {"fact": "«changes»", "code": "fact.skip.gone", "params": {}},
            {"fact": "«changes»", "code": "fact.plan.new_version", "params": {"at": 0}},
        ]
    return params


# Sample parameters for the areas whose templates live beside their views: every name those templates
# read, with a value of the type the core gives.
_AREA_NUMBERS = [
    "age_s",
    "attempts",
    "calls",
    "candidates",
    "cap",
    "changed",
    "chars",
    "count",
    "failures",
    "found",
    "indexed",
    "indexed_first",
    "indexed_last",
    "known",
    "limit",
    "messages",
    "missing",
    "new_confidence",
    "new_tau",
    "old_confidence",
    "old_tau",
    "previous_calls",
    "recalled",
    "rows",
    "sessions",
    "successes",
    "threshold",
    "user",
    "version",
]
_AREA_TEXTS = [
    "action_type",
    "backup",
    "code",
    "columns",
    "conversation",
    "detail",
    "error",
    "first",
    "id",
    "kept",
    "key",
    "kind",
    "last",
    "layer",
    "listed",
    "name",
    "new",
    "old",
    "path",
    "preview",
    "problem",
    "query",
    "reason",
    "result",
    "row",
    "section",
    "staged",
    "table",
    "title",
    "tool",
    "value",
]


def _area_sample(code: str) -> dict[str, object]:
    params: dict[str, object] = {name: f"«{name}»" for name in _AREA_TEXTS}
    params.update({name: 3 for name in _AREA_NUMBERS})
    params.update(words=["«word»", {"text": "«word2»", "count": 2}], fields=["«fields»"], pieces=["«piece»"])
    if code.startswith("change."):
        params.update(maturity="draft", path=["draft", "confirmed"], missing=1)
        params.update({"from": "confirmed", "to": "stable"})
    if code == "backup.not_memory":
        params["missing"] = ["memory_facts"]
    return params


@needs_lrelease
def test_the_chinese_interface_shows_every_template_translated_with_its_parameters(lang) -> None:
    from philont_desktop import message_templates, messages

    lang("en")
    sources = {code: template() for code, template in message_templates.TEMPLATES.items()}
    lang("zh_CN")
    problems = []
    for code, source in sources.items():
        params = _sample(code, source)
        shown = messages.text(code, params, "An English sentence the core may reword one day.")
        if not HAN.search(shown) or "English sentence" in shown:
            problems.append(f"{code}: not translated: {shown!r}")
        if PLACEHOLDER.search(shown):
            problems.append(f"{code}: a placeholder is left: {shown!r}")
        for name, value in params.items():
            if (
                isinstance(value, str)
                and value.startswith("«")
                and name not in ("kind", "counts", "newer")
                and value not in shown
            ):
                problems.append(f"{code}: {name} is not shown: {shown!r}")
    assert not problems, "\n".join(problems)


@needs_lrelease
def test_the_chinese_interface_shows_the_areas_tables_translated(lang) -> None:
    """The codes whose templates live beside their views (recall, substring, index, token, damaged rows
    of the context, backups and restores, change sets) are translated too, reached through ``messages``."""
    from philont_desktop import message_templates, messages

    lang("zh_CN")
    elsewhere = sorted(messages.codes() - set(message_templates.TEMPLATES))
    assert {"recall.found", "token.short", "context.row.damaged", "restore.agent_running"} <= set(elsewhere)
    assert {"change.fact.new", "change.notice.time_blind", "index.tokenizer"} <= set(elsewhere)
    problems = []
    for code in elsewhere:
        english = "An English sentence the core may reword one day."
        shown = messages.text(code, _area_sample(code), english)
        if not HAN.search(shown) or "English sentence" in shown:
            problems.append(f"{code}: not translated: {shown!r}")
        if PLACEHOLDER.search(shown) or "None" in shown:
            problems.append(f"{code}: a parameter is not filled: {shown!r}")
    assert not problems, "\n".join(problems)


@needs_lrelease
def test_the_english_interface_shows_the_cores_own_text(lang) -> None:
    from core.errors import Notice, ReadOnlyError
    from philont_desktop import messages

    lang("en")
    err = ReadOnlyError("Some exact English.", code="db.read_only")
    assert messages.error_text(err) == "Some exact English."
    assert (
        messages.notice_text(Notice("prefix.self_null", "As the core says.", {"fact": "x"}))
        == "As the core says."
    )


@needs_lrelease
def test_a_reworded_core_message_keeps_the_chinese_interface_chinese(lang, tmp_path) -> None:
    """The Chinese text comes from the code: the core's English can change without turning it English."""
    from core.errors import DatabaseOpenError, ValidationError_
    from philont_desktop import messages

    lang("zh_CN")
    p = tmp_path / "m.sqlite"
    p.write_bytes(b"")
    from core.db import MemoryDB

    with pytest.raises(DatabaseOpenError) as caught:
        MemoryDB.open(p)
    zh = messages.error_text(caught.value)
    assert zh.startswith(f"{p}: ") and HAN.search(zh) and "empty" not in zh
    reworded = DatabaseOpenError(p, "empty", "Zero bytes, friend.", reason="db.open.why.empty")
    assert messages.error_text(reworded) == zh
    err = ValidationError_("Reworded.", code="export.folder", params={"path": "/x"})
    assert messages.error_text(err) != "Reworded." and "/x" in messages.error_text(err)


@needs_lrelease
def test_every_grade_explanation_is_translated(lang) -> None:
    from core.maturity import MATURITIES, explain_maturity
    from philont_desktop import messages

    lang("zh_CN")
    english = re.compile(r"[a-z]{3,}")
    seen = 0
    for m in (*MATURITIES, "unknown-grade"):
        for s in range(0, 12):
            for f in range(0, 6):
                for c in range(0, min(f, 4) + 1):
                    e = explain_maturity(m, s, f, c)
                    for notices in (e.why_notices, e.next_notices):
                        zh = messages.explanation(notices)
                        seen += 1
                        rest = zh.replace("use_skill", "").replace("unknown-grade", "")
                        assert not english.search(rest), (notices, zh)
    assert seen > 2000
    e = explain_maturity("confirmed", 2, 0, 0)
    assert messages.explanation(e.why_notices) == (
        "成功 2 次，没有失败：已确认（升为稳定需要成功 5 次，且失败少于成功次数的 10%）"
    )
    assert (
        messages.explanation(e.next_notices)
        == "再连续成功 3 次：升为稳定；失败 1 次：退回草稿；连续失败 3 次：弃用"
    )
    lang("en")
    assert messages.explanation(e.why_notices) == e.why and messages.explanation(e.next_notices) == e.next


@needs_lrelease
def test_open_errors_and_read_only_reasons_are_translated(lang) -> None:
    from core.db import OpenReport
    from core.errors import DatabaseOpenError, Notice
    from philont_desktop import messages

    lang("zh_CN")
    err = DatabaseOpenError(
        "/data/m.sqlite",
        "empty",
        "The file is empty (0 bytes): it holds no database.",
        reason="db.open.why.empty",
        searched=True,
    )
    assert messages.error_text(err) == (
        "/data/m.sqlite: 文件为空（0 字节）：其中没有数据库。在 backups/ 中没有找到通过快速完整性检查的备份。"
    )
    err = DatabaseOpenError(
        "/data/m.sqlite",
        "empty",
        "The file is empty (0 bytes): it holds no database.",
        reason="db.open.why.empty",
    )  # no backups were looked at: nothing said about them
    assert messages.error_text(err) == "/data/m.sqlite: 文件为空（0 字节）：其中没有数据库。"
    for name, whose in (
        ("philont-desktop-m-20260101T000000.sqlite", "由本应用写入"),
        ("memory-20260101T000000.sqlite", "智能体的备份"),
    ):
        err = DatabaseOpenError(
            "/data/m.sqlite",
            "corrupt",
            "The database is damaged (disk image is malformed).",
            Path("/b") / name,
            reason="db.open.why.damaged",
            reason_params={"error": "disk image is malformed"},
        )
        assert messages.error_text(err) == (
            f"/data/m.sqlite: 数据库已损坏（disk image is malformed）。最新的通过快速完整性检查的备份是 /b/{name}（{whose}）。"
        )
    reason = Notice(
        "db.read_only.missing_tables", "core tables are missing: memory_facts", {"names": ["memory_facts"]}
    )
    assert messages.read_only_reason(reason) == "缺少核心表：memory_facts"
    report = OpenReport(path="x", read_only_reason="…", read_only_code="db.read_only.schema_invalid")
    report.read_only_params = {"value": "abc"}
    assert messages.read_only_reason(report.read_only_notice()) == (
        "数据库的架构版本 'abc' 不是有效的版本号；将以只读方式显示，且不会改写版本标记"
    )
    assert messages.read_only_reason(None) is None


def test_no_gui_module_parses_the_cores_english() -> None:
    """The regular-expression translator of the core's sentences is gone, and nothing imports it."""
    assert not (ROOT / "philont_desktop" / "core_strings.py").exists()
    assert not list((ROOT / "philont_desktop").rglob("core_strings.py"))


def test_no_core_message_speaks_of_gui_controls() -> None:
    """The core's messages are read in a terminal and by MCP clients too: no buttons, menus or tabs."""
    words = re.compile(r"\b(click|button|menu|tab|dialog|checkbox|turn on editing|editing mode)\b", re.I)
    problems = []
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and (_call_name(node) or "").endswith(
                ("Error", "Error_", "Notice")
            ):
                for arg in node.args[:2]:
                    text = _literal(arg) or (
                        "".join(_literal(v) or "" for v in arg.values)
                        if isinstance(arg, ast.JoinedStr)
                        else ""
                    )
                    if words.search(text):
                        problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    assert not problems, "\n".join(problems)


def _error_classes() -> dict[str, bool]:
    """The core's error classes (``MemoryError_`` and its subclasses), each with whether it has a code
    of its own (``default_code`` outside errors.py's base classes, or one built from its arguments)."""
    import core.errors
    from core import backups, changes, curation, export, facts, mcp_server  # noqa: F401 - define subclasses

    out: dict[str, bool] = {}
    todo = [core.errors.MemoryError_]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        own = cls.__module__ != "core.errors" and "default_code" in vars(cls)
        out[cls.__name__] = own or cls is core.errors.DatabaseOpenError
    return out


def test_every_error_the_core_raises_carries_a_code() -> None:
    """No raise of a core error relies on the generic ``invalid`` / ``not_found`` / ``conflict``: each
    names its code (``code="area.what"``), or its class has its own."""
    classes = _error_classes()
    problems = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or _call_name(node) not in classes:
                continue
            if classes[_call_name(node) or ""]:
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            passed = (
                isinstance(kw.get("code"), ast.Name) and kw["code"].id == "code"
            )  # a helper's caller names it
            if not _codes_of(kw.get("code")) and not passed:
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {_call_name(node)} without a code")
    assert not problems, "\n".join(problems)


def _data_words(value: object) -> set[str]:
    """The words inside the parameters' data (names, columns, stored text): not the core's English, so
    the Chinese text may show them. The English ``message`` of a nested notice is not data."""
    if isinstance(value, dict):
        return set().union(*(_data_words(v) for k, v in value.items() if k != "message"))
    if isinstance(value, list | tuple):
        return set().union(*(_data_words(v) for v in value))
    return set(re.findall(r"[A-Za-z]{3,}", str(value)))


def _chinese_only(exc, shown: str) -> None:
    """``shown`` (the Chinese rendering of ``exc``) holds none of the words of the core's English."""
    english = set(re.findall(r"[A-Za-z]{3,}", exc.message)) - _data_words(exc.params)
    assert english, exc.message  # the check is not empty-handed
    leaked = sorted(w for w in english if re.search(rf"\b{w}\b", shown))
    assert HAN.search(shown) and not leaked, (leaked, shown)


@needs_lrelease
def test_conflicts_of_real_edits_show_no_english_in_chinese(lang, mem_db) -> None:
    """Undo conflicts, changed-since-shown values and a bulk plan that changed: the parameters are
    structured, and the GUI words them in Chinese (values, times and nested reasons included)."""
    from core import curation
    from core.curation import facts as cf
    from core.curation.tools import run_audited
    from core.errors import ConflictError
    from core.facts import FactStore
    from philont_desktop import messages

    lang("zh_CN")
    actor = "tester@philont-desktop"
    run = run_audited(mem_db, "store_fact", {"namespace": "user", "key": "k", "value": 1}, actor=actor)
    FactStore(mem_db).store_fact("user", "k", 2)  # the agent, meanwhile
    with pytest.raises(ConflictError) as caught:
        curation.undo(mem_db, run.entry.id, actor)
    assert caught.value.params["problem"] == "changed" and "superseded_by" in caught.value.params["fields"]
    shown = messages.error_text(caught.value)
    _chinese_only(caught.value, shown)
    assert "superseded_by" not in shown and "取代它的版本" in shown and "撤销" in shown

    store = FactStore(mem_db)
    a = store.store_fact("project", "a", "x")
    b = store.store_fact("project", "b", "y", decay_tau_days=30)
    seen = {**store.get_by_id(a.id).__dict__, "decay_tau_days": 12}
    with pytest.raises(ConflictError) as caught:
        cf.pin(a.id, seen=seen).perform(mem_db, actor)
    assert (caught.value.params["now"], caught.value.params["was"]) == (None, 12)
    shown = messages.error_text(caught.value)
    _chinese_only(caught.value, shown)
    assert "empty" in caught.value.message and "空" in shown and "12" in shown

    plan = cf.plan_bulk(mem_db, "pin", [a.id, b.id])
    cf.pin(b.id).perform(mem_db, actor)
    with pytest.raises(ConflictError) as caught:
        cf.bulk("pin", [a.id, b.id], expected=plan.signature).perform(mem_db, actor)
    assert caught.value.message.endswith("project.b: already pinned")
    assert caught.value.params["changes"][0]["code"] == "fact.skip.pinned"
    shown = messages.error_text(caught.value)
    _chinese_only(caught.value, shown)
    assert shown.endswith("project.b：已固定")


@needs_lrelease
def test_a_missing_reason_names_its_step_in_both_languages(lang, mem_db) -> None:
    from core.curation import skills as sc
    from core.errors import ValidationError_
    from core.skills import SkillStore
    from philont_desktop import messages

    skill = SkillStore(mem_db).create_skill("lesson", "advice", [], "do it")
    with pytest.raises(ValidationError_) as caught:
        sc.set_maturity(skill, "stable", reason=" ")
    assert caught.value.params == {"action": "set_grade"}
    lang("en")
    assert messages.text("skill.reason_required", caught.value.params) == (
        "A reason is required to set a grade by hand."
    )
    lang("zh_CN")
    shown = messages.error_text(caught.value)
    _chinese_only(caught.value, shown)
    assert "手动设置等级" in shown
    assert "修订配方" in messages.text("skill.reason_required", {"action": "revise_recipe"})


def _column_words(db) -> set[str]:
    """The database's own names that a person does not know: tables and the columns with an underscore."""
    names = set()
    for (table,) in db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        names.add(table)
        names |= {r[1] for r in db.conn.execute(f'PRAGMA table_info("{table}")') if "_" in r[1]}
    return names


@needs_lrelease
def test_conflicts_name_fields_as_people_know_them_with_the_values_now_and_expected(lang, mem_db) -> None:
    """Every conflict that lists fields, raised by a real edit, in Chinese: each field by its translated
    label (never its column name) and, where the English shows them, the value now and the one expected."""
    from core import curation
    from core.curation import calendar as cc
    from core.curation import facts as cf
    from core.curation import notes as cn
    from core.curation import skills as sc
    from core.errors import ConflictError, ValidationError_
    from core.facts import FactStore
    from core.notes import NotesStore
    from core.schedules import ScheduleStore
    from core.skills import SkillStore
    from philont_desktop import messages

    lang("zh_CN")
    actor = "tester@philont-desktop"
    columns = _column_words(mem_db)
    shown_all = []

    def refused(exc_type, fn):
        with pytest.raises(exc_type) as caught:
            fn()
        shown = messages.error_text(caught.value)
        _chinese_only(caught.value, shown)
        leaked = sorted(c for c in columns if re.search(rf"\b{c}\b", shown))
        assert not leaked, (leaked, shown)
        shown_all.append(shown)
        return caught.value, shown

    # An undo whose field was changed again since: the value now and the value the undo expects.
    fact = FactStore(mem_db).store_fact("project", "deadline", "Friday")
    first = cf.set_tau(fact.id, 30).perform(mem_db, actor)
    cf.set_tau(fact.id, 45).perform(mem_db, actor)
    err, shown = refused(ConflictError, lambda: curation.undo(mem_db, first.id, actor))
    assert err.code == "fact.changed_after_edit"
    assert err.params["values"] == [{"field": "decay_tau_days", "now": 45, "expected": 30}]
    assert "τ（天） 现在是 45（应为 30）" in shown

    # Changed since it was shown: the field's label with both values.
    seen = {**FactStore(mem_db).get_by_id(fact.id).__dict__, "decay_tau_days": 12}
    err, shown = refused(ConflictError, lambda: cf.pin(fact.id, seen=seen).perform(mem_db, actor))
    assert err.code == "fact.changed_since_shown" and "τ（天） 现在是 45，原为 12" in shown

    # Notes: the text now, quoted.
    note = NotesStore(mem_db).upsert(None, "buy milk", 0.5)
    edit = cn.update(note.id, content="buy oat milk").perform(mem_db, actor)
    cn.update(note.id, content="buy rice milk").perform(mem_db, actor)
    err, shown = refused(ConflictError, lambda: curation.undo(mem_db, edit.id, actor))
    assert err.code == "note.changed_after_edit" and "文本 现在是 “buy rice milk”" in shown
    stale = {**NotesStore(mem_db).get(note.id).__dict__, "importance": 0.9}
    err, shown = refused(
        ConflictError, lambda: cn.update(note.id, importance=0.2, seen=stale).perform(mem_db, actor)
    )
    assert err.code == "note.changed_since_shown" and "重要性 现在是 0.5" in shown

    # A task deleted, put back by undo, changed, then deleted again by redo.
    schedules = ScheduleStore(mem_db)
    task = schedules.create("check-in", 1_000, "prompt", {"message": "hi"}, "interval:60000")
    edit = cc.delete_schedule(task.id).perform(mem_db, actor)
    curation.undo(mem_db, edit.id, actor)
    schedules.set_enabled(task.id, False)
    err, shown = refused(ConflictError, lambda: curation.redo(mem_db, edit.id, actor))
    assert err.code == "calendar.step_conflict" and "启用 现在是 0" in shown

    # Skills: the fields the agent changed since the edit.
    skills = SkillStore(mem_db)
    skill = skills.create_skill("lesson", "advice", ["k"], "do it")
    edit = sc.update(skill, description="better advice").perform(mem_db, actor)
    with mem_db.write() as conn:
        conn.execute("UPDATE memory_skills SET description = 'the agent knows' WHERE name = 'lesson'")
    err, shown = refused(ConflictError, lambda: curation.undo(mem_db, edit.id, actor))
    assert err.code == "skill.step_conflict" and "描述" in shown

    # A validity window the wrong way round names no column either.
    err, shown = refused(
        ValidationError_,
        lambda: FactStore(mem_db).store_fact(
            "project", "trip", "x", valid_from=2_000_000, valid_until=1_000_000
        ),
    )
    assert err.code == "fact.window_invalid" and "结束时间" in shown

    # Undoing a delete after the table lost a column (a file edited by hand): the column and the table
    # by their names for people.
    edit = cc.delete_schedule(task.id).perform(mem_db, actor)
    with mem_db.write() as conn:
        conn.execute("ALTER TABLE memory_schedules DROP COLUMN paused_until")
    err, shown = refused(ConflictError, lambda: curation.undo(mem_db, edit.id, actor))
    assert err.code == "calendar.columns_lost" and "暂停至" in shown and "计划任务" in shown
    assert len(shown_all) == 8


@needs_lrelease
def test_a_search_that_cannot_run_says_why_in_words_from_its_code(lang, qapp, mem_db) -> None:
    """The Timeline's search error (its tooltip and the empty list's text) comes from a coded notice with
    the user's query, in Chinese too; an error of the core (a closed database) keeps its own code."""
    from core.timeline import RawStore
    from philont_desktop import messages
    from philont_desktop.timeline.search import SearchQuery, SearchResultsModel
    from philont_desktop.timeline.state import TimelineState
    from philont_desktop.timeline.texts import TimelineTexts

    raw = RawStore(mem_db)
    raw.start_session("s", started_at=1_000)
    raw.append_many([("s", "user", "部署上线 deploy", 2_000)])
    page = raw.search_page("部署上线", limit=1.5)  # a limit SQLite refuses: the search cannot run
    assert page.hits == [] and page.error == "IntegrityError: datatype mismatch"
    assert page.notice.code == "search.failed"
    assert page.notice.params == {"query": "部署上线", "error": "IntegrityError: datatype mismatch"}

    def run_now(op, *, on_result=None, on_error=None):
        try:
            result = op.fn(mem_db, *op.args)
        except Exception as exc:
            on_error(exc)
        else:
            on_result(result)

    model = SearchResultsModel(run_now)
    mem_db.close()
    model.search(SearchQuery("deploy"))
    assert model.error is not None and model.error.code == "db.closed"

    lang("zh_CN")
    for notice, query in ((page.notice, "部署上线"), (model.error, "")):
        state = TimelineState(search_text=query or "deploy", search_error=notice)
        texts = TimelineTexts(state, None)
        tip, placeholder = texts.hits_tooltip(), texts.results_placeholder()
        assert tip == messages.notice_text(notice) and tip in placeholder
        assert HAN.search(tip) and query in tip and "could not run" not in tip and "closed" not in tip
    lang("en")
    state = TimelineState(search_text="部署上线", search_error=page.notice)
    assert TimelineTexts(state, None).hits_tooltip() == (
        "The search for “部署上线” could not run: IntegrityError: datatype mismatch"
    )


@needs_lrelease
def test_the_english_interface_names_the_fields_of_a_conflict_as_people_know_them(lang, mem_db) -> None:
    from core import curation
    from core.curation import facts as cf
    from core.errors import ConflictError
    from core.facts import FactStore
    from philont_desktop import messages

    lang("en")
    actor = "tester@philont-desktop"
    fact = FactStore(mem_db).store_fact("project", "deadline", "Friday")
    first = cf.set_tau(fact.id, 30).perform(mem_db, actor)
    cf.set_tau(fact.id, 45).perform(mem_db, actor)
    with pytest.raises(ConflictError) as caught:
        curation.undo(mem_db, first.id, actor)
    assert "decay_tau_days is 45 (expected 30)" in caught.value.message  # the core's own English
    assert messages.error_text(caught.value) == (
        "project.deadline was changed after this edit (τ (days) is now 45 (expected 30)). "
        "Undo would overwrite that change, so nothing was changed."
    )


@needs_lrelease
def test_restore_refusals_and_failed_moves_are_translated(lang) -> None:
    from core.backups import AgentRunningError
    from core.errors import MemoryError_
    from philont_desktop import messages

    lang("zh_CN")
    written = AgentRunningError("…", params={"path": "/m.sqlite", "reason": "written"})
    assert messages.error_text(written) == (
        "/m.sqlite 似乎正在被使用：恢复检查它的期间它被写入了（可能是智能体，它可能每次写入都打开一个新连接）。"
        "请停止智能体，等几秒后再试。没有做任何更改。"
    )
    stuck = MemoryError_(
        "…",
        code="restore.move_incomplete",
        params={
            "path": "/m.sqlite",
            "error": "No space left on device",
            "errno": "ENOSPC",
            "moved": ["/b/d1"],
        },
    )
    shown = messages.error_text(stuck)
    assert (
        shown.startswith("无法将损坏的文件 /m.sqlite 移入备份文件夹（No space left on device）")
        and "/b/d1" in shown
    )


def test_a_tabs_text_module_registers_its_templates_and_the_tab_registry_names_it(qapp):
    from philont_desktop import messages
    from philont_desktop.tabs import registry

    declared = {m for entry in registry() for m in entry.messages}
    assert {"philont_desktop.context_tab.recall_text", "philont_desktop.review.texts"} <= declared
    area = messages.register_templates(
        ("layers.test.",), lambda c, p, e: f"<{c} {p.get('n')}>", lambda: frozenset({"layers.test.x"})
    )
    try:
        assert messages.text("layers.test.x", {"n": 2}, "") == "<layers.test.x 2>"
        assert "layers.test.x" in messages.codes()
    finally:
        messages._AREAS.pop(area.prefixes)
    assert messages.text("layers.test.x", {"n": 2}, "") == "layers.test.x"
