"""The memory prefix: exact text, section order, blank-line rules, caps and JS quirks (spec §6, Part C f)."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from core.db import MemoryDB
from core.facts import FactStore
from core.jsutil import estimate_tokens, utf16_len
from core.prefix import (
    SERVER_ONLY_SECTIONS,
    TASK_MODE_FAST,
    agent_platform,
    build_memory_prefix,
    failure_signature,
    lesson_signature,
    runtime_line,
    truncate_for_injection,
)
from core.schedules import ScheduleStore
from core.skills import SkillStore
from tests.conftest import FIXED_NOW

T0 = FIXED_NOW
D = 86_400_000

OPEN = "\n\n[Memory layer — the following is already known; no need to ask or query again]\n"
CLOSE = "\n[End of memory layer]"
RUNTIME_LINUX = "## Runtime environment\nHost OS: **linux** (POSIX sh/bash)."
TASK_MODE = """## Task Mode Self-Assessment (v17 Complex Task Protocol)
Current mode: **fast**

If this task matches any of the criteria below, **call `task_mode_classify({ mode: "slow", reason })` as the first step** before starting work.

[4 self-check questions — any yes → slow]
Q1 How many **independently verifiable outputs** does this task have? ≥ 2 → slow
Q2 Are there **dependencies between steps** (B must wait for A's result)? Yes → slow
Q3 Does the task involve **writes to the external world** (create account / send message / deploy / modify remote data)?
   Yes → lean slow, unless the write is a single one-shot action with no subsequent verification
Q4 Has the user provided a **guide document / URL / multi-step instructions** (## multi-section / 1./2./3. list)?
   Yes → slow, must follow every item in the document

Does not match → fast (single tool call / single-intent answer is sufficient).

Once slow is activated, the mechanism layer enforces: plan_draft (with deliverables) → plan_update_step → plan_close (with deliverable_status). **Skipping the protocol = tool rejected by plan_protocol_gate**."""
BASE = RUNTIME_LINUX + "\n\n" + TASK_MODE + "\n"  # the body when nothing else is present
MID = BASE + "\n"  # the same, followed by more sections


def prefix(db, **kw):
    kw.setdefault("host_os", "linux")
    kw.setdefault("now", T0)
    return build_memory_prefix(db, **kw)


def body(db, **kw) -> str:
    text = prefix(db, **kw).text
    assert text.startswith(OPEN) and text.endswith(CLOSE)
    return text[len(OPEN) : -len(CLOSE)]


# -- pure helpers --------------------------------------------------------------------------------------


def test_empty_database_gives_runtime_and_task_mode_only(mem_db):
    r = prefix(mem_db)
    assert r.text == OPEN + BASE + CLOSE
    assert [s.name for s in r.sections] == ["runtime", "task_mode"]
    assert r.sections[0].text == RUNTIME_LINUX + "\n"
    assert r.sections[1].text == TASK_MODE + "\n"
    assert r.sections[1].chars == utf16_len(TASK_MODE) + 1
    assert r.sections[1].tokens == estimate_tokens(TASK_MODE + "\n")
    assert r.truncated is False and r.raw_chars == utf16_len(r.text)
    assert "\n".join(TASK_MODE_FAST) == TASK_MODE
    assert r.omitted == [k for k in SERVER_ONLY_SECTIONS if k != "schedule_outcomes"]
    assert r.warnings == []


def test_task_mode_special_characters():
    text = "\n".join(TASK_MODE_FAST)
    assert "\u2014" in text and "\u2192" in text and "\u2265" in text


@pytest.mark.parametrize(
    ("host", "platform"),
    [
        ("linux", "linux"),
        ("linux2", "linux"),
        ("darwin", "darwin"),
        ("Windows", "win32"),
        ("win32", "win32"),
        ("freebsd14", "freebsd"),
        ("openbsd7", "openbsd"),
        ("netbsd10", "netbsd"),
        ("aix7", "aix"),
        ("sunos5", "sunos"),
        ("cygwin", "cygwin"),
        ("android", "android"),
    ],
)
def test_agent_platform(host, platform):
    assert agent_platform(host) == platform


def test_runtime_lines():
    assert runtime_line("darwin") == "## Runtime environment\nHost OS: **darwin** (POSIX sh/bash)."
    assert runtime_line("windows") == (
        "## Runtime environment\n"
        "Host OS: **Windows** (shell is cmd.exe). Write commands/scripts/paths the Windows way: `where` not "
        "`which`, no heredoc, quote `C:\\...` paths, run Python with `python`; for more power use "
        "`powershell -Command`."
    )
    assert runtime_line(None) == runtime_line(sys.platform)


@pytest.mark.parametrize(
    ("name", "sig"),
    [
        ("playbook-pdf-to-word-b706rc", "pdf-to-word"),
        ("playbook-x_y-z9", "x_y"),
        ("playbook-foo--bar", "foo-"),
        ("playbook-login-fail-3k9", "login-fail"),
        ("playbook-数据库-a1", "数据库"),
        ("playbook-abc", None),
        ("playbook-a-B7", None),
        ("playbook-foo-", None),
        ("playbook-a\nb-c1", None),  # JS '.' does not match a newline
        ("playbook-a\u2028b-c1", None),
        ("playbook-ab-c1\n", None),  # JS '$' is the very end
        ("Playbook-ab-c1", None),
    ],
)
def test_lesson_signature(name, sig):
    assert lesson_signature(name) == sig


@pytest.mark.parametrize(
    ("name", "sig"),
    [
        ("playbook-login-fail-3k9", "login"),
        ("playbook-a-fail-b-fail-1", "a-fail-b"),
        ("playbook-login-3k9", None),
        ("playbook-login-FAIL-3k9", None),
        ("playbook-login-fail-", None),
    ],
)
def test_failure_signature(name, sig):
    assert failure_signature(name) == sig


def test_truncate_for_injection():
    assert truncate_for_injection("abc", 3, "user.k") == "abc"
    assert truncate_for_injection("abcd", 3, "user.k") == (
        "abc\n...[user.k too long, truncated: original 4 chars → keeping first 3]"
    )
    # UTF-16 units: an emoji counts 2 and may be cut in half, as in JS.
    assert (
        truncate_for_injection("😀😀", 3, "x")
        == "😀\ud83d\n...[x too long, truncated: original 4 chars → keeping first 3]"
    )


# -- facts ---------------------------------------------------------------------------------------------


def test_fact_sections_order_format_and_quirks(mem_db):
    fs = FactStore(mem_db)
    fs.store_fact("user", "name", "小明", now=T0 - 3 * D)
    fs.store_fact("user", "prefs", {"b": 1, "2": True, "1": [1.0, -0.0, 1e21, 1e-7]}, now=T0 - 2 * D)
    fs.store_fact("user", "zz_old", None, now=T0 - 5 * D)
    fs.store_fact("user", "tie_b", 1, now=T0 - 4 * D)
    fs.store_fact("user", "tie_a", 2, now=T0 - 4 * D)
    fs.store_fact("user.preferences", "theme", "dark", now=T0)  # not exactly "user": never injected
    fs.store_fact("USER", "x", 1, now=T0)
    fs.store_fact("project", "repo", "github.com/x/y", fact_kind="event", now=T0 - D)
    fs.get_fact("user", "name", now=T0)  # read: moves to the front
    fs.store_fact("user", "gone", 1, now=T0)
    fs.soft_forget(fs.get_fact("user", "gone", bump=False).id)
    assert body(mem_db) == MID + (
        "## Known user information\n"
        '  user.name = "小明"\n'
        '  user.prefs = {"1":[1,0,1e+21,1e-7],"2":true,"b":1}\n'
        "  user.tie_a = 2\n"
        "  user.tie_b = 1\n"
        "  user.zz_old = null\n"
        "\n"
        "## Known project information\n"
        '  project.repo = "github.com/x/y"\n'
    )
    r = prefix(mem_db)
    assert [s.name for s in r.sections] == ["runtime", "task_mode", "user_facts", "project_facts"]
    assert r.sections[3].text == '## Known project information\n  project.repo = "github.com/x/y"\n'


def test_project_cap_and_value_cap(mem_db):
    fs = FactStore(mem_db)
    for i in range(22):
        fs.store_fact("project", f"k{i:02d}", i, now=T0 - (100 - i) * 1000)
    big = "长" * 1200
    fs.store_fact("project", "big", big, now=T0)
    text = body(mem_db)
    block = text[text.index("## Known project information") :]
    lines = block.split("\n")
    assert lines[1] == '  project.big = "' + "长" * 999  # the JSON text cut at 1000 units
    assert lines[2] == "...[project.big too long, truncated: original 1202 chars → keeping first 1000]"
    assert lines[3] == "  project.k21 = 21"
    assert lines[21] == "  project.k03 = 3"
    assert lines[22] == (
        '  ... (3 older facts not injected — use `listFacts({namespace:"project"})` to retrieve all when needed)'
    )
    assert lines[23] == ""


def test_user_cap_is_100(mem_db):
    fs = FactStore(mem_db)
    for i in range(101):
        fs.store_fact("user", f"u{i:03d}", i, now=T0 + i)
    text = body(mem_db)
    assert "  user.u000 = 0" not in text
    assert "  user.u100 = 100\n" in text
    assert (
        '  ... (1 older facts not injected — use `listFacts({namespace:"user"})` to retrieve all when needed)\n'
        in text
    )


# -- skills --------------------------------------------------------------------------------------------


@pytest.fixture
def rich(mem_db):
    """Facts, every skill section and self-knowledge, with deterministic ranking."""
    ss = SkillStore(mem_db)
    fs = FactStore(mem_db)
    fs.store_fact("user", "lang", "中文", now=T0 - D)
    ss.create_skill("clawhub", "meta", [], "x", now=T0 - 9 * D)
    ss.create_skill(
        "pdf-to-word",
        "把 PDF 转成 Word\n第二行",
        ["pdf"],
        "steps",
        source="clawhub:pdf-to-word@1.0.0",
        when_to_use="  " + "当用户上传 PDF 并要求转换时" * 10 + "  ",
        now=T0 - 8 * D,
    )
    ss.create_skill("plain", "普通技能", [], "x", when_to_use="   ", now=T0 - 7 * D)
    ss.create_skill("gone", "deprecated one", [], "x", maturity="deprecated", now=T0 - 7 * D)
    ss.create_skill(
        "playbook-login-fail-3k9",
        "  登录失败：验证码过期\nApplies when: 登录\n\nNext time: 先刷新  ",
        [],
        "x",
        maturity="playbook",
        source="plan-failure:plan-1",
        now=T0 - 6 * D,
    )
    ss.create_skill(
        "playbook-pdf-to-word-b706rc",
        "转换前检查页数\r\nNext time: 分批",
        [],
        "x",
        maturity="playbook",
        source="self:reflect-1",
        now=T0 - 5 * D,
    )
    ss.create_skill("playbook-abc", "no sig", [], "x", maturity="playbook", now=T0 - 4 * D)
    ss.create_skill(
        "no-rm-rf",
        "不要直接 rm -rf\n（用户纠正过）",
        [],
        "\n  When: 清理目录\n\nDo instead: 移到回收站\n",
        kind="negative",
        now=T0 - 3 * D,
    )
    ss.create_skill("no-tpl", "空模板", [], "   ", kind="negative", now=T0 - 2 * D)
    with mem_db.write() as conn:
        for name, uc in (("pdf-to-word", 3), ("plain", 1), ("no-rm-rf", 2)):
            conn.execute(
                "UPDATE memory_skills SET use_count = ?, last_used_at = ? WHERE name = ?", (uc, T0 - D, name)
            )
    fs.update_self_fact("summary", "我是一个助手\n擅长整理文档", ["r1"], now=T0 - D)
    fs.update_self_fact("strengths", ["PDF", "翻译", 3], ["r1"], now=T0 - D)
    fs.update_self_fact("growth_edges", [], ["r1"], now=T0 - D)
    return mem_db


RICH_TAIL = (
    "## Known user information\n"
    '  user.lang = "中文"\n'
    "\n"
    "## Extended capabilities — use these when local skills are insufficient\n"
    "\n"
    "Entry points (call directly, do NOT search_skills first):\n"
    "  - `use_skill('clawhub')` → install a new skill from the ClawHub public skill library\n"
    "\n"
    "When to use (any match triggers, **no user prompt needed**):\n"
    "  - search_skills returns empty, or results are unsuitable / failed when tried\n"
    "  - User asks about an unfamiliar domain not covered by the local skill library\n"
    "  - A tool call fails and a different approach is needed (network blocked / no permission / unsupported)\n"
    "  - You are about to say \"I can't / can't find / unfamiliar with / temporarily unable / no ready-made X\"\n"
    '  - User hints "is there another way / look at others / try X"\n'
    "\n"
    'Mental model: these two are meta-skills for "learning new capabilities externally". **Invoke with use_skill**\n'
    "(not ordinary skills in the search_skills index). Takes effect immediately after loading, no user consent "
    "required.\n"
    "This is the standard way to extend your capabilities — not overstepping, not a burden.\n"
    "\n"
    "Available skills (use use_skill(name) to get details):\n"
    "  - pdf-to-word [clawhub]: 把 PDF 转成 Word\n第二行\n"
    "    When to use: " + ("当用户上传 PDF 并要求转换时" * 10)[:120] + "…\n"
    "  - plain: 普通技能\n"
    "\n"
    "## ❌ My past failure patterns\n"
    "(Failure patterns distilled from past plan_close(failure) turns. If the current task matches a "
    "task_signature below, **read this section first** to avoid repeating the same mistakes.)\n"
    "· playbook-login-fail-3k9 [login]\n"
    "    登录失败：验证码过期\n"
    "    Applies when: 登录\n"
    "    \n"
    "    Next time: 先刷新\n"
    "\n"
    "\n"
    "## Lessons I have learned\n"
    "(These are lessons distilled from past reflections, not callable skills. When you see a matching "
    '"when" situation, remember to follow the "next time" action.)\n'
    "· playbook-abc\n"
    "    no sig\n"
    "· playbook-pdf-to-word-b706rc [pdf-to-word]\n"
    "    转换前检查页数\r\n"
    "    Next time: 分批\n"
    "\n"
    "⚠️ The user has previously corrected these behaviors — avoid repeating them in the following situations:\n"
    "  - no-rm-rf: 不要直接 rm -rf\n（用户纠正过）\n"
    "    When: 清理目录\n"
    "    \n"
    "    Do instead: 移到回收站\n"
    "  - no-tpl: 空模板\n"
    "## Who I am now (self-knowledge from past experience)\n"
    "我是一个助手\n擅长整理文档\n"
    "My strengths: PDF, 翻译, 3"
)


def test_rich_prefix_exact_text(rich):
    r = prefix(rich)
    assert r.text == OPEN + MID + RICH_TAIL + CLOSE
    assert [s.name for s in r.sections] == [
        "runtime",
        "task_mode",
        "user_facts",
        "extended_capabilities",
        "skill_index",
        "failure_patterns",
        "lessons",
        "negative_skills",
        "self_knowledge",
    ]
    assert "\n".join(s.text for s in r.sections) == MID + RICH_TAIL
    fail = next(s for s in r.sections if s.name == "failure_patterns")
    assert fail.text.startswith("\n## ❌ My past failure patterns\n") and fail.text.endswith("先刷新\n")


def test_github_skills_line_and_both(rich):
    SkillStore(rich).create_skill("github-skills", "meta", [], "x", maturity="deprecated", now=T0)
    text = body(rich)
    assert (
        "  - `use_skill('clawhub')` → install a new skill from the ClawHub public skill library\n"
        "  - `use_skill('github-skills')` → install SKILL.md from a GitHub repository\n"
    ) in text
    SkillStore(rich).delete_skill("clawhub")
    assert "use_skill('clawhub')" not in body(rich)
    assert (
        "Entry points (call directly, do NOT search_skills first):\n  - `use_skill('github-skills')`"
        in body(rich)
    )


def test_negative_header_directly_under_index_without_playbooks(mem_db):
    ss = SkillStore(mem_db)
    ss.create_skill("a", "desc a", [], "x", now=T0)
    ss.create_skill("n", "desc n", [], "", kind="negative", now=T0)
    assert body(mem_db) == MID + (
        "Available skills (use use_skill(name) to get details):\n"
        "  - a: desc a\n"
        "⚠️ The user has previously corrected these behaviors — avoid repeating them in the following situations:\n"
        "  - n: desc n"
    )


def test_skill_index_caps_at_15(mem_db):
    ss = SkillStore(mem_db)
    for i in range(20):
        ss.create_skill(f"s{i:02d}", "d", [], "x", now=T0 + i)
    text = body(mem_db)
    assert text.count("\n  - s") == 15
    assert "  - s19: d" in text and "  - s04: d" not in text  # newest first among equals


def test_failure_playbooks_take_priority_over_lessons(mem_db):
    ss = SkillStore(mem_db)
    for i in range(4):
        ss.create_skill(
            f"playbook-job{i}-fail-x{i}",
            f"f{i}",
            [],
            "x",
            maturity="playbook",
            source="plan-failure:p",
            now=T0 + i,
        )
    for i in range(6):
        ss.create_skill(f"playbook-l{i}-h{i}", f"l{i}", [], "x", maturity="playbook", now=T0 - 10 + i)
    text = body(mem_db)
    fails = text[text.index("## ❌") : text.index("## Lessons")]
    assert [ln for ln in fails.split("\n") if ln.startswith("·")] == [
        "· playbook-job3-fail-x3 [job3]",
        "· playbook-job2-fail-x2 [job2]",
        "· playbook-job1-fail-x1 [job1]",
    ]
    lessons = text[text.index("## Lessons") :]
    # listByMaturity(5 + 3) gives job3..job0 then l5..l2; job0 spills into the lessons.
    assert [ln for ln in lessons.split("\n") if ln.startswith("·")] == [
        "· playbook-job0-fail-x0 [job0-fail]",
        "· playbook-l5-h5 [l5]",
        "· playbook-l4-h4 [l4]",
        "· playbook-l3-h3 [l3]",
        "· playbook-l2-h2 [l2]",
    ]


# -- self-knowledge ---------------------------------------------------------------------------------------


def test_self_knowledge_needs_a_non_blank_string_content(mem_db):
    fs = FactStore(mem_db)
    fs.update_self_fact("strengths", ["x"], [], now=T0)
    assert "Who I am now" not in body(mem_db)
    fs.update_self_fact("summary", " \u3000", [], now=T0)
    assert "Who I am now" not in body(mem_db)
    fs.update_self_fact("summary", "我", [], now=T0)
    fs.update_self_fact("growth_edges", ["耐心", None, {"a": 1}], [], now=T0)
    assert body(mem_db).endswith(
        "## Who I am now (self-knowledge from past experience)\n我\nMy strengths: x\nStill learning: 耐心, , [object Object]"
    )


def test_self_summary_null_is_absent_with_a_warning(mem_db):
    with mem_db.write() as conn:
        conn.execute(
            "INSERT INTO memory_facts (id, namespace, key, value_json, created_at) VALUES ('f', 'self', 'summary', "
            "'null', ?)",
            (T0,),
        )
    r = prefix(mem_db)
    assert "Who I am now" not in r.text
    assert r.warnings == ["self.summary holds null: the agent fails to build its prefix on it."]


def test_self_facts_are_bumped_only_on_request(rich):
    fs = FactStore(rich)

    def accessed():
        return {k: fs.get_fact("self", k, bump=False).last_accessed_at for k in ("summary", "strengths")}

    before = accessed()
    a = prefix(rich, now=T0 + 5)
    assert accessed() == before
    b = prefix(rich, bump_self=True, now=T0 + 5)
    assert accessed() == {"summary": T0 + 5, "strengths": T0 + 5}
    assert a.text == b.text


def test_read_only_database_is_not_written(tmp_path):
    path = tmp_path / "m.sqlite"
    db = MemoryDB.create(path, now=T0)
    FactStore(db).update_self_fact("summary", "我", [], now=T0 - D)
    db.close()
    ro = MemoryDB.open(path)
    try:
        before = ro.data_version()
        r = build_memory_prefix(ro, host_os="linux", bump_self=True, now=T0)
        assert "## Who I am now (self-knowledge from past experience)\n我" in r.text
        assert FactStore(ro).get_fact("self", "summary", bump=False).last_accessed_at == T0 - D
        assert ro.data_version() == before
    finally:
        ro.close()


# -- plans ---------------------------------------------------------------------------------------------------


def _plan(db, sid, project, created, steps="[]", history="[]"):
    with db.write() as conn:
        conn.execute(
            "INSERT INTO memory_plans (id, session_id, steps_json, review_history_json, created_at, updated_at, "
            "persisted_to) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (f"p{created}", sid, steps, history, created, created, project),
        )


def test_active_plan_section(mem_db, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_PROJECTS_DIR", str(tmp_path / "projects"))
    _plan(mem_db, "global", "mycox", T0 - 10)
    _plan(mem_db, "other", "elsewhere", T0)
    path = tmp_path / "projects" / "mycox" / "plan.md"
    expected = (
        "## Active project plan\n"
        "project: `mycox`\n"
        f"plan.md: `{path}`\n"
        "Lessons / Operational Knowledge / Recent Runs are all in the file. Use `readFile` when needed. Details "
        "are not repeated in the prefix to save tokens / preserve cache hit.\n"
    )
    r = prefix(mem_db)
    assert r.text == OPEN + RUNTIME_LINUX + "\n\n" + expected + "\n" + TASK_MODE + "\n" + CLOSE
    assert [s.name for s in r.sections] == ["runtime", "active_plan", "task_mode"]
    # The newest plan of the session decides; without persisted_to there is no section.
    _plan(mem_db, "global", None, T0 + 10)
    assert "## Active project plan" not in prefix(mem_db).text
    assert "elsewhere" in prefix(mem_db, session_id="other").text
    assert "## Active project plan" not in prefix(mem_db, session_id="").text


def test_active_plan_default_base_dir(mem_db, monkeypatch, tmp_path):
    monkeypatch.delenv("PHILONT_PROJECTS_DIR", raising=False)
    monkeypatch.setenv("PHILONT_HOME", str(tmp_path / "ph"))
    _plan(mem_db, "global", "a/../b", T0)
    assert f"plan.md: `{tmp_path / 'ph' / 'projects' / 'b' / 'plan.md'}`" in prefix(mem_db).text


def test_malformed_plan_or_missing_table(mem_db):
    _plan(mem_db, "global", "mycox", T0, steps="{oops")
    r = prefix(mem_db)
    assert "## Active project plan" not in r.text and len(r.warnings) == 1
    with mem_db.write() as conn:
        conn.execute("DROP TABLE memory_plans")
    r = prefix(mem_db)
    assert r.text == OPEN + BASE + CLOSE and r.warnings == []


def test_plans_table_without_persisted_to(mem_db):
    with mem_db.write() as conn:
        conn.execute("DROP TABLE memory_plans")
        conn.execute(
            "CREATE TABLE memory_plans (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, steps_json TEXT NOT NULL, "
            "review_history_json TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"
        )
        conn.execute("INSERT INTO memory_plans VALUES ('p', 'global', '[]', '[]', 1, 1)")
    assert prefix(mem_db).text == OPEN + BASE + CLOSE


def test_scheduled_session_injects_plan_md(mem_db, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_PROJECTS_DIR", str(tmp_path))
    ScheduleStore(mem_db).create(
        "beat", T0, "autonomous_turn", {"prompt": "p"}, "interval:60000", project="mycox"
    )
    sid = "system:scheduled:beat"
    assert "Project plan.md" not in prefix(mem_db, session_id=sid).text  # no file yet
    (tmp_path / "mycox").mkdir()
    md = "---\nproject: mycox\n---\r\n\n# mycox\n\n## Lessons\n- 先登录\n"
    (tmp_path / "mycox" / "plan.md").write_bytes(md.encode("utf-8"))
    r = prefix(mem_db, session_id=sid)
    assert (
        r.text
        == OPEN
        + RUNTIME_LINUX
        + "\n\n"
        + (
            "## Project plan.md (mycox, auto-inject)\n\n" + md + "\n\n"
            "↑ This is the project's accumulated work notes. Lessons / Operational Knowledge persist across fires; "
            "repeated failures mean you **did not read Lessons** — re-read before starting.\n\n"
        )
        + TASK_MODE
        + "\n"
        + CLOSE
    )
    assert [s.name for s in r.sections] == ["runtime", "project_plan", "task_mode"]
    assert r.omitted[0] == "schedule_outcomes"
    big = "x" * 20_005
    (tmp_path / "mycox" / "plan.md").write_text(big, encoding="utf-8")
    text = prefix(mem_db, session_id=sid).text
    path = tmp_path / "mycox" / "plan.md"
    assert (
        "## Project plan.md (mycox, auto-inject, truncated)\n\n"
        + "x" * 20_000
        + (f'\n\n[... plan.md remaining 5 chars truncated — readFile("{path}") for full content]\n\n\n')
        in text
    )
    assert (
        text.split(CLOSE)[0].count(
            f'This section is truncated; for full Recent Runs use `readFile("{path}")`.'
        )
        == 1
    )


def test_scheduled_session_falls_back_to_the_session_plan(mem_db, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_PROJECTS_DIR", str(tmp_path))
    sid = "system:scheduled:nightly"
    _plan(mem_db, sid, "proj", T0)
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "plan.md").write_text("plan body", encoding="utf-8")
    text = prefix(mem_db, session_id=sid).text
    assert "## Project plan.md (proj, auto-inject)\n\nplan body\n\n↑ This is" in text
    _plan(mem_db, sid, "Not Kebab", T0 + 1)
    assert "Project plan.md" not in prefix(mem_db, session_id=sid).text


# -- total cap ----------------------------------------------------------------------------------------------


def test_total_cap_truncates_with_marker(mem_db):
    fs = FactStore(mem_db)
    for i in range(60):
        fs.store_fact("user", f"k{i:02d}", "v" * 900, now=T0 + i)
    r = prefix(mem_db)
    assert r.truncated is True
    assert r.raw_chars > 40_000
    head, tail = r.text[:40_000], r.text[40_000:]
    assert head.startswith(OPEN)
    assert (
        tail
        == f"\n...[memory prefix too long, truncated. Original {r.raw_chars} chars]\n[End of memory layer]"
    )
    assert utf16_len(r.text) == 40_000 + utf16_len(tail)
    user = next(s for s in r.sections if s.name == "user_facts")
    assert user.chars == utf16_len(user.text)


def test_cap_counts_utf16_units(mem_db):
    fs = FactStore(mem_db)
    for i in range(45):
        fs.store_fact("user", f"e{i:02d}", "😀" * 499, now=T0 + i)  # 1000 units of JSON each
    r = prefix(mem_db)
    assert r.truncated
    assert utf16_len(r.text) == 40_000 + utf16_len(
        f"\n...[memory prefix too long, truncated. Original {r.raw_chars} chars]\n[End of memory layer]"
    )


@pytest.mark.skipif(os.name != "posix", reason="FIFOs are POSIX")
def test_a_plan_md_that_is_no_regular_file_is_left_out_unread(mem_db, tmp_path, monkeypatch):
    monkeypatch.setenv("PHILONT_PROJECTS_DIR", str(tmp_path))
    ScheduleStore(mem_db).create(
        "beat", T0, "autonomous_turn", {"prompt": "p"}, "interval:60000", project="mycox"
    )
    (tmp_path / "mycox").mkdir()
    plan = tmp_path / "mycox" / "plan.md"
    os.mkfifo(plan)  # reading it would wait for a writer forever
    got: list[str] = []
    reader = threading.Thread(
        target=lambda: got.append(prefix(mem_db, session_id="system:scheduled:beat").text)
    )
    reader.daemon = True
    reader.start()
    reader.join(60)  # a deadline, so that a blocking open fails the test instead of hanging it
    assert got, "the preview waited on the FIFO"
    assert "Project plan.md" not in got[0] and plan.is_fifo()  # the agent's file is never moved
