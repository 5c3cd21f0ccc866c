"""The memory prefix: what the reference agent puts at the top of a turn (spec Part A §6, Part C f).

:func:`build_memory_prefix` reproduces ``buildMemoryPrefix()`` of the reference server to the character
for every section that the memory database (and the project's ``plan.md`` files) feed, plus the two
unconditional ones:

1. runtime environment (``host_os``: the host that runs the agent; this machine by default);
2. the project plan: a scheduled session (``system:scheduled:<name>``) whose task has a project gets
   that project's ``plan.md`` (capped at 20 000 units); any other session whose newest plan in
   ``memory_plans`` has ``persisted_to`` gets the ``## Active project plan`` link block;
3. task mode, in **fast** mode (the agent keeps the mode in process memory and starts in fast mode);
4. known user / project information (namespaces exactly ``user`` and ``project``; caps 100 / 20;
   values capped at 1 000 units each);
5. extended capabilities (when a skill ``clawhub`` or ``github-skills`` exists);
6. the skill index, failure patterns, lessons and the negative list;
7. "Who I am now" from ``self.summary`` / ``self.strengths`` / ``self.growth_edges``.

Sections fed only by the running server (uploads, fetched resources, signals, autonomous review and
progress, research approvals, reasoning progress, user patterns, and schedule outcomes) are not
reproduced; :attr:`PrefixResult.omitted` names them (decision 8).

The whole text is wrapped and capped at 40 000 UTF-16 units exactly like the reference. Reading is
side-effect free unless ``bump_self=True``: the reference reads the ``self.*`` facts through
``getFact``, which refreshes their ``last_accessed_at``; that refresh happens here only on request
(and never on a read-only database). It does not change the text.

The fixed texts, caps and pure line helpers are in :mod:`core.prefix_text`, the project plan section
in :mod:`core.prefix_plan`; the sections the facts and skills feed are built here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from core.damage import row_notice
from core.errors import Notice
from core.facts import FactStore
from core.jsutil import estimate_tokens, js_join, js_slice, js_stringify, js_trim, utf16_len
from core.models import Fact, Skill
from core.prefix_plan import project_plan
from core.prefix_text import (
    FACT_VALUE_INJECT_CAP,
    FAILURE_MODE_TOP_N,
    MEMORY_PREFIX_TOTAL_CAP,
    META_SKILL_NAMES,
    PLAN_MD_INJECT_CAP,
    PLAN_MD_MAX_BYTES,
    PLAYBOOK_TOP_N,
    PROJECT_FACTS_TOP_N,
    SCHEDULED_SESSION_PREFIX,
    SERVER_ONLY_SECTIONS,
    SKILL_INDEX_MAX_LINES,
    SKILL_WHEN_TO_USE_TRUNC,
    TASK_MODE_FAST,
    USER_FACTS_SAFETY_CAP,
    WINDOWS_RUNTIME,
    WRAPPER_CLOSE,
    WRAPPER_OPEN,
    agent_platform,
    failure_signature,
    indent,
    lesson_signature,
    plan_md_path,
    projects_base_dir,
    runtime_line,
    truncate_for_injection,
)
from core.skills import SkillStore

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = [
    "FACT_VALUE_INJECT_CAP",
    "FAILURE_MODE_TOP_N",
    "MEMORY_PREFIX_TOTAL_CAP",
    "META_SKILL_NAMES",
    "PLAN_MD_INJECT_CAP",
    "PLAN_MD_MAX_BYTES",
    "PLAYBOOK_TOP_N",
    "PROJECT_FACTS_TOP_N",
    "SCHEDULED_SESSION_PREFIX",
    "SERVER_ONLY_SECTIONS",
    "SKILL_INDEX_MAX_LINES",
    "SKILL_WHEN_TO_USE_TRUNC",
    "TASK_MODE_FAST",
    "USER_FACTS_SAFETY_CAP",
    "WINDOWS_RUNTIME",
    "WRAPPER_CLOSE",
    "WRAPPER_OPEN",
    "PrefixResult",
    "PrefixSection",
    "agent_platform",
    "build_memory_prefix",
    "failure_signature",
    "lesson_signature",
    "plan_md_path",
    "projects_base_dir",
    "runtime_line",
    "truncate_for_injection",
]


class PrefixSection(BaseModel):
    """One section of the prefix: its name, its exact text (its lines joined with ``\\n``, blank lines
    included) and its size in UTF-16 units and estimated tokens."""

    name: str
    text: str
    chars: int
    tokens: int


class PrefixResult(BaseModel):
    """The prefix text and its sections. ``row_notices`` say, for each damaged row that reaches the
    prefix, what the agent makes of it (:func:`core.damage.row_notice`)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    text: str
    sections: list[PrefixSection] = Field(default_factory=list)
    omitted: list[str] = Field(default_factory=list)
    truncated: bool = False
    raw_chars: int = 0
    warnings: list[str] = Field(default_factory=list)
    notices: list[Notice] = Field(default_factory=list)  # the warnings with codes and parameters
    row_notices: list[Notice] = Field(default_factory=list)

    @property
    def chars(self) -> int:
        return utf16_len(self.text)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


def _fact_sort_key(f: Fact) -> Any:
    return f.last_accessed_at if f.last_accessed_at is not None else f.created_at


# ---------------------------------------------------------------------------------------------------
# Facts at a past moment (``as_of``)
# ---------------------------------------------------------------------------------------------------

_FACT_AS_OF = (
    "created_at < :t AND (forgotten_at IS NULL OR forgotten_at >= :t) AND (superseded_by IS NULL OR "
    "EXISTS (SELECT 1 FROM memory_facts AS nx WHERE nx.id = memory_facts.superseded_by AND nx.created_at >= :t))"
)


class _FactsAsOf(FactStore):
    """Facts as they were at ``t``: created before it, not forgotten before it and not superseded by a
    version created before it. A ``last_accessed_at`` at or after ``t`` is unknown then and is cleared
    (the facts sections fall back to ``created_at``). Reading never bumps."""

    def __init__(self, db: MemoryDB, t: int):
        super().__init__(db)
        self.t = int(t)

    def _rewind(self, facts: list[Fact]) -> list[Fact]:
        for f in facts:
            if f.last_accessed_at is not None and not (
                isinstance(f.last_accessed_at, int | float) and f.last_accessed_at < self.t
            ):
                f.last_accessed_at = None  # read after t: its access time at t is not recorded
            if f.forgotten_at is not None:
                f.forgotten_at = None  # forgotten at or after t (the query kept only those)
            if f.superseded_by is not None:
                f.superseded_by = None  # its successor was created at or after t
        return facts

    def list_facts(self, namespace: str | None = None, include_inactive: bool = False) -> list[Fact]:
        if include_inactive:
            return super().list_facts(namespace, include_inactive)
        where = _FACT_AS_OF
        params: dict[str, Any] = {"t": self.t}
        if namespace is not None:
            where = "namespace = :ns AND " + where
            params["ns"] = namespace
        order = "key" if namespace is not None else "namespace, key"
        with self.db.lock:
            rows = self.db.conn.execute(
                f"SELECT * FROM memory_facts WHERE {where} ORDER BY {order}, rowid", params
            ).fetchall()
        return self._rewind([Fact.from_row(r) for r in rows])

    def get_fact(self, namespace: str, key: str, now: int | None = None, bump: bool = True) -> Fact | None:
        with self.db.lock:
            row = self.db.conn.execute(
                f"SELECT * FROM memory_facts WHERE namespace = :ns AND key = :k AND {_FACT_AS_OF} "
                "ORDER BY rowid DESC LIMIT 1",
                {"ns": namespace, "k": key, "t": self.t},
            ).fetchone()
        return None if row is None else self._rewind([Fact.from_row(row)])[0]


# ---------------------------------------------------------------------------------------------------
# Section builders: each returns the section's elements (possibly empty)
# ---------------------------------------------------------------------------------------------------


class _Builder:
    def __init__(
        self, db: MemoryDB, session_id: str, bump_self: bool, now: int | None, as_of: int | None = None
    ):
        self.db = db
        self.session_id = session_id
        self.bump_self = bump_self
        self.now = now
        self.as_of = None if as_of is None else int(as_of)
        self.facts = FactStore(db) if self.as_of is None else _FactsAsOf(db, self.as_of)
        self.skills = SkillStore(db, created_before=self.as_of)
        self.warnings: list[str] = []
        self.notices: list[Notice] = []  # the warnings with their codes
        self.row_notices: list[Notice] = []
        self._noted: set[tuple[str, Any, str]] = set()

    def warn(self, code: str, message: str, **params: Any) -> None:
        self.warnings.append(message)
        self.notices.append(Notice(code, message, params))

    def note(self, section: str, row: Fact | Skill) -> None:
        """A row notice for a damaged fact or skill that this section shows the agent."""
        if not row.damaged:
            return
        if isinstance(row, Fact):
            layer, label = "facts", f"{row.namespace}.{row.key}"
        else:
            layer, label = "skills", f"skill {row.name!r}"
        key = (layer, row.id, section)
        if key not in self._noted:
            self._noted.add(key)
            self.row_notices.append(row_notice(layer, row.id, label, section, row.damaged))

    def project_plan(self) -> tuple[str, list[str]]:
        return project_plan(self.db, self.session_id, self.as_of, self.warn)

    # -- facts -----------------------------------------------------------------------------------------
    def facts_section(self, ns: str, heading: str, cap: int) -> list[str]:
        all_facts = self.facts.list_facts(ns)
        if not all_facts:
            return []
        top = sorted(all_facts, key=_fact_sort_key, reverse=True)[:cap]
        out = [f"## {heading}"]
        for f in top:
            self.note(f"{ns}_facts", f)
            if f.json_errors:
                self.warn(
                    "prefix.fact_invalid_json",
                    f"{ns}.{f.key} holds invalid JSON; the agent cannot read it (shown here as a string).",
                    fact=f"{ns}.{f.key}",
                )
            out.append(
                f"  {ns}.{f.key} = {truncate_for_injection(js_stringify(f.value), FACT_VALUE_INJECT_CAP, f'{ns}.{f.key}')}"
            )
        if len(all_facts) > cap:
            out.append(
                f"  ... ({len(all_facts) - cap} older facts not injected — use "
                f'`listFacts({{namespace:"{ns}"}})` to retrieve all when needed)'
            )
        out.append("")
        return out

    # -- skills ----------------------------------------------------------------------------------------
    def extended_capabilities(self) -> list[str]:
        claw = self.skills.get_by_name("clawhub")
        gh = self.skills.get_by_name("github-skills")
        if claw is None and gh is None:
            return []
        out = [
            "## Extended capabilities — use these when local skills are insufficient",
            "",
            "Entry points (call directly, do NOT search_skills first):",
        ]
        if claw is not None:
            out.append(
                "  - `use_skill('clawhub')` → install a new skill from the ClawHub public skill library"
            )
        if gh is not None:
            out.append("  - `use_skill('github-skills')` → install SKILL.md from a GitHub repository")
        out += [
            "",
            "When to use (any match triggers, **no user prompt needed**):",
            "  - search_skills returns empty, or results are unsuitable / failed when tried",
            "  - User asks about an unfamiliar domain not covered by the local skill library",
            "  - A tool call fails and a different approach is needed (network blocked / no permission / unsupported)",
            "  - You are about to say \"I can't / can't find / unfamiliar with / temporarily unable / no ready-made X\"",
            '  - User hints "is there another way / look at others / try X"',
            "",
            'Mental model: these two are meta-skills for "learning new capabilities externally". **Invoke with '
            "use_skill**",
            "(not ordinary skills in the search_skills index). Takes effect immediately after loading, no user "
            "consent required.",
            "This is the standard way to extend your capabilities — not overstepping, not a burden.",
            "",
        ]
        return out

    def skill_index(self) -> list[str]:
        positives = [
            s
            for s in self.skills.list_all(40, now=self.now)
            if s.kind != "negative" and s.name not in META_SKILL_NAMES and s.maturity != "playbook"
        ][:SKILL_INDEX_MAX_LINES]
        if not positives:
            return []
        out = ["Available skills (use use_skill(name) to get details):"]
        for s in positives:
            self.note("skill_index", s)
            tag = f" [{s.source.split(':')[0]}]" if isinstance(s.source, str) and s.source else ""
            out.append(f"  - {s.name}{tag}: {s.description}")
            w = js_trim(s.when_to_use or "")
            if w:
                display = (
                    js_slice(w, 0, SKILL_WHEN_TO_USE_TRUNC) + "…"
                    if utf16_len(w) > SKILL_WHEN_TO_USE_TRUNC
                    else w
                )
                out.append(f"    When to use: {display}")
        return out

    def failure_playbooks(self) -> list[Skill]:
        pool = self.skills.list_by_maturity("playbook", 30)
        return [p for p in pool if isinstance(p.source, str) and p.source.startswith("plan-failure:")][
            :FAILURE_MODE_TOP_N
        ]

    def failure_section(self, failures: list[Skill]) -> list[str]:
        if not failures:
            return []
        out = [
            "",
            "## ❌ My past failure patterns",
            "(Failure patterns distilled from past plan_close(failure) turns. If the current task matches a "
            "task_signature below, **read this section first** to avoid repeating the same mistakes.)",
        ]
        for fb in failures:
            self.note("failure_patterns", fb)
            sig = failure_signature(fb.name)
            out.append(f"· {fb.name}{f' [{sig}]' if sig is not None else ''}")
            out.append(indent(js_trim(fb.description)))
        out.append("")
        return out

    def lessons_section(self, failures: list[Skill]) -> list[str]:
        names = {f.name for f in failures}
        playbooks = [
            p
            for p in self.skills.list_by_maturity("playbook", PLAYBOOK_TOP_N + len(failures))
            if p.name not in names
        ][:PLAYBOOK_TOP_N]
        if not playbooks:
            return []
        out = [
            "",
            "## Lessons I have learned",
            "(These are lessons distilled from past reflections, not callable skills. When you see a matching "
            '"when" situation, remember to follow the "next time" action.)',
        ]
        for pb in playbooks:
            self.note("lessons", pb)
            sig = lesson_signature(pb.name)
            out.append(f"· {pb.name}{f' [{sig}]' if sig is not None else ''}")
            out.append(indent(js_trim(pb.description)))
        out.append("")
        return out

    def negatives(self) -> list[str]:
        negs = self.skills.list_negative(20, now=self.now)
        if not negs:
            return []
        out = [
            "⚠️ The user has previously corrected these behaviors — avoid repeating them in the following situations:"
        ]
        for s in negs:
            self.note("negative_skills", s)
            out.append(f"  - {s.name}: {s.description}")
            tpl = js_trim(s.action_template or "")
            if tpl:
                out.append(indent(tpl))
        return out

    # -- self-knowledge ----------------------------------------------------------------------------------
    def _self_fact(self, key: str) -> Fact | None:
        f = self.facts.get_fact("self", key, now=self.now, bump=self.bump_self)
        if f is not None:
            self.note("self_knowledge", f)
        return f

    def self_knowledge(self) -> list[str]:
        summary = self._self_fact("summary")
        if summary is None:
            return []
        if summary.value is None:
            self.warn(
                "prefix.self_null",
                "self.summary holds null: the agent fails to build its prefix on it.",
                fact="self.summary",
            )
            return []
        content = summary.value.get("content") if isinstance(summary.value, dict) else None
        if not (isinstance(content, str) and js_trim(content)):
            return []
        out = ["## Who I am now (self-knowledge from past experience)", content]
        for key, label in (("strengths", "My strengths: "), ("growth_edges", "Still learning: ")):
            f = self._self_fact(key)
            if f is None:
                continue
            if f.value is None:
                self.warn(
                    "prefix.self_null",
                    f"self.{key} holds null: the agent fails to build its prefix on it.",
                    fact=f"self.{key}",
                )
                continue
            items = f.value.get("content") if isinstance(f.value, dict) else None
            if isinstance(items, list) and items:
                out.append(label + js_join(items, ", "))
        return out


def _section(name: str, elements: list[str]) -> PrefixSection:
    text = "\n".join(elements)
    return PrefixSection(name=name, text=text, chars=utf16_len(text), tokens=estimate_tokens(text))


def _parts(b: _Builder, host_os: str | None) -> list[tuple[str, list[str]]]:
    """``(section name, elements)`` of every section the database feeds, in the reference's order."""
    parts: list[tuple[str, list[str]]] = [("runtime", [runtime_line(host_os), ""])]
    parts.append(b.project_plan())
    parts.append(("task_mode", [*TASK_MODE_FAST, ""]))
    parts.append(("user_facts", b.facts_section("user", "Known user information", USER_FACTS_SAFETY_CAP)))
    parts.append(
        ("project_facts", b.facts_section("project", "Known project information", PROJECT_FACTS_TOP_N))
    )
    parts.append(("extended_capabilities", b.extended_capabilities()))
    parts.append(("skill_index", b.skill_index()))
    failures = b.failure_playbooks()
    parts.append(("failure_patterns", b.failure_section(failures)))
    parts.append(("lessons", b.lessons_section(failures)))
    parts.append(("negative_skills", b.negatives()))
    parts.append(("self_knowledge", b.self_knowledge()))
    return parts


def _wrapped(lines: list[str]) -> tuple[str, bool, int]:
    """``(text, truncated, raw length)``: the lines wrapped and capped as the reference does."""
    raw = WRAPPER_OPEN + "\n".join(lines) + WRAPPER_CLOSE
    n = utf16_len(raw)
    truncated = n > MEMORY_PREFIX_TOTAL_CAP
    text = (
        js_slice(raw, 0, MEMORY_PREFIX_TOTAL_CAP)
        + f"\n...[memory prefix too long, truncated. Original {n} chars]\n[End of memory layer]"
        if truncated
        else raw
    )
    return text, truncated, n


def build_memory_prefix(
    db: MemoryDB,
    *,
    host_os: str | None = None,
    session_id: str = "global",
    bump_self: bool = False,
    now: int | None = None,
    as_of: int | None = None,
) -> PrefixResult:
    """The memory prefix the agent would build for ``session_id`` (see the module docstring).

    ``host_os`` is the agent host's platform (``None``: this machine; ``linux``, ``darwin``, ``windows``,
    ``win32`` and other ``sys.platform`` values are accepted). ``now`` only affects skill ranking (and the
    access time written when ``bump_self`` is set).

    ``as_of`` (epoch ms) rebuilds the prefix from what the database can tell about that moment: facts
    created before it, not forgotten before it and not superseded by a version created before it (an
    access time at or after it is unknown and falls back to ``created_at``); skills and plans created
    before it (skills with today's counters and maturity); schedules as they are now. Nothing is bumped
    then. Looking from after every row gives exactly the live prefix.
    """
    b = _Builder(db, session_id, bump_self, now, as_of)
    lines: list[str] = []
    sections: list[PrefixSection] = []
    for name, elements in _parts(b, host_os):
        if elements:
            lines.extend(elements)
            sections.append(_section(name, elements))
    text, truncated, n = _wrapped(lines)
    scheduled = session_id.startswith(SCHEDULED_SESSION_PREFIX) and len(session_id) > len(
        SCHEDULED_SESSION_PREFIX
    )
    omitted = [k for k in SERVER_ONLY_SECTIONS if k != "schedule_outcomes" or scheduled]
    return PrefixResult(
        text=text,
        sections=sections,
        omitted=omitted,
        truncated=truncated,
        raw_chars=n,
        warnings=b.warnings,
        notices=b.notices,
        row_notices=b.row_notices,
    )
