"""Property tests of what a person or a model types in: the search box, the tool dispatcher, the fact
editor.

* Search (``RawStore.search_messages`` / ``search_page``, ``NotesStore.search``, ``SkillStore.search``)
  never raises on any text (quotes, FTS operators and column filters, NUL, lone surrogates, CJK) and
  its results satisfy the filters (time range, sessions, roles, limit, order, no deprecated skill).
* ``run_tool`` never raises for any tool and any arguments (JSON values, JSON text, bytes), on a
  writable and on a read-only database, and always returns a ``ToolResult`` whose JSON form
  serialises.
* The fact editor's core (``core.curation.facts.add`` / ``edit``) either refuses an input with a
  clear ``ValidationError_`` or stores a fact that reads back as it was given.
"""

from __future__ import annotations

import json
import math
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from core.curation import facts as fact_curation
from core.db import MemoryDB
from core.errors import MemoryError_, ValidationError_
from core.facts import FactStore
from core.jsutil import js_stringify
from core.notes import NotesStore
from core.skills import SkillStore
from core.timeline import RawStore
from core.tools import TOOL_NAMES, TOOLS, ToolResult, run_tool
from tests.support import FIXED_NOW as NOW

DAY = 86_400_000
SESSIONS = ("s-1", "s-2", "s-3")
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    report_multiple_bugs=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
FEW = settings(SETTINGS, max_examples=25)

CONTENTS = (
    "deploy the 数据库 migration tonight",
    'she said "don\'t" (twice) * maybe',
    "role:user column filters and NEAR(a b) AND OR NOT",
    "a-b c:d ^start +plus -minus",
    "emoji 🎉 and combining é and 旺财",
    "nul \x00 inside",
    "percent % and underscore _ wildcards",
    "   leading and trailing spaces   ",
    "证书续期 记住 上次讨论",
    "tab\tand\nnewline",
)
FTS_TOKENS = (
    "deploy",
    "数据库",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "NEAR(",
    ")",
    '"',
    "'",
    "*",
    "^",
    "+",
    "-",
    ":",
    "role:user",
    "content:",
    "{role}",
    "\x00",
    "旺财",
    "%",
    "_",
    "",
    " ",
    "\u3000",
    "é",
)

ANY_CHAR = st.characters(
    codec="utf-8"
)  # every code point but the lone surrogates (those have their own tests)
SURROGATE = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, exclude_categories=())
QUERY = st.one_of(
    st.text(ANY_CHAR, max_size=30),
    st.text(st.one_of(ANY_CHAR, st.sampled_from("'\"*()-+^: \x00")), max_size=20),
    st.lists(st.sampled_from(FTS_TOKENS), max_size=6).map(" ".join),
    st.lists(st.sampled_from(FTS_TOKENS), max_size=6).map("".join),
    st.sampled_from(CONTENTS).map(lambda s: s[3:15]),
)
# Text with lone surrogates (a str can hold them; a QLineEdit can hand them over): spec decision 6
# says no input can make a search raise.
WITH_SURROGATE = st.tuples(QUERY, SURROGATE, QUERY).map("".join)
TIME = st.one_of(st.none(), st.integers(NOW - 4 * DAY, NOW + DAY))
SESSION_FILTER = st.one_of(st.none(), st.lists(st.sampled_from((*SESSIONS, "nope")), max_size=3))
LIMIT = st.integers(-1, 40)


@cache
def search_db() -> MemoryDB:
    """One in-memory database for the search properties (read only by the tests)."""
    db = MemoryDB.memory(now=NOW)
    raw = RawStore(db)
    for s in SESSIONS:
        raw.start_session(s, started_at=NOW - 5 * DAY)
    rows = [
        (
            SESSIONS[i % 3],
            ("user", "assistant", "tool", "system")[i % 4],
            CONTENTS[i % len(CONTENTS)],
            NOW - 3 * DAY + i * 3_600_000,
        )
        for i in range(90)
    ]
    raw.append_many(rows)
    notes = NotesStore(db)
    for i, text in enumerate(CONTENTS):
        notes.upsert(f"n{i}", text, (i % 5) / 4, SESSIONS[i % 3], NOW - i * DAY)
    skills = SkillStore(db)
    for i, text in enumerate(CONTENTS):
        skills.create_skill(
            f"skill-{i}",
            text,
            [text[:8], "deploy"],
            "do it",
            maturity=("draft", "confirmed", "stable", "playbook", "deprecated")[i % 5],
            now=NOW - i,
        )
    return db


def _check_messages(rows, since, until, session_ids, limit, roles=None) -> None:
    if limit >= 0:
        assert len(rows) <= limit
    wanted = set(session_ids) if session_ids else None
    for m in rows:
        if since is not None:
            assert m.timestamp >= since
        if until is not None:
            assert m.timestamp <= until
        if wanted is not None:
            assert m.session_id in wanted
        if roles is not None:
            assert m.role in roles
    stamps = [m.timestamp for m in rows]
    assert stamps == sorted(stamps, reverse=True)


@SETTINGS
@given(q=QUERY, since=TIME, until=TIME, session_ids=SESSION_FILTER, limit=LIMIT)
def test_message_search_never_raises_and_obeys_its_filters(q, since, until, session_ids, limit):
    rows = RawStore(search_db()).search_messages(
        q, since=since, until=until, session_ids=session_ids, limit=limit
    )
    _check_messages(rows, since, until, session_ids, limit)


@SETTINGS
@given(
    q=QUERY,
    since=TIME,
    until=TIME,
    session_ids=SESSION_FILTER,
    roles=st.one_of(st.none(), st.lists(st.sampled_from(("user", "assistant", "tool", "robot")), max_size=2)),
    limit=st.integers(1, 40),
)
def test_search_page_never_fails_and_obeys_its_filters(q, since, until, session_ids, roles, limit):
    page = RawStore(search_db()).search_page(
        q, since=since, until=until, session_ids=session_ids, roles=roles, limit=limit
    )
    assert page.error is None, page.error
    rows = [h.message for h in page.hits]
    _check_messages(rows, since, until, session_ids, limit, roles)
    for h in page.hits:
        for a, b in h.match_spans:
            assert 0 <= a <= b <= len(h.message.content)


@SETTINGS
@given(q=QUERY, limit=st.integers(0, 20))
def test_note_search_never_raises(q, limit):
    notes = NotesStore(search_db()).search(q, limit)
    assert len(notes) <= limit
    keys = [(n.importance, n.created_at) for n in notes]
    assert keys == sorted(keys, reverse=True)


@SETTINGS
@given(q=QUERY, limit=st.integers(1, 20))
def test_skill_search_never_raises_and_hides_deprecated(q, limit):
    skills = SkillStore(search_db()).search(q, limit, now=NOW)
    assert len(skills) <= limit
    assert all(s.maturity != "deprecated" for s in skills)


@FEW
@pytest.mark.parametrize("where", ["search_messages", "search_page", "notes", "skills"])
@given(q=WITH_SURROGATE, limit=st.integers(1, 20))
@example(q="\ud800", limit=5)
@example(q="deploy \udfff", limit=5)
def test_no_search_raises_on_lone_surrogates(where, q, limit):
    db = search_db()
    if where == "search_messages":
        rows = RawStore(db).search_messages(q, limit=limit)
        assert len(rows) <= limit
    elif where == "search_page":
        page = RawStore(db).search_page(q, limit=limit)
        assert page.error is None, page.error
    elif where == "notes":
        assert len(NotesStore(db).search(q, limit)) <= limit
    else:
        assert len(SkillStore(db).search(q, limit, now=NOW)) <= limit


# -- the tool dispatcher ---------------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(st.one_of(ANY_CHAR, SURROGATE), max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
_PARAM_NAMES = sorted({name for spec in TOOLS.values() for name in spec.params.model_fields})
_TIMEISH = st.sampled_from(
    ("2026-06-16T12:00:00+08:00", "2026-06-16", "tomorrow", "", "NaN", "1e400", "8.64e15")
)


def _args_for(tool: str) -> st.SearchStrategy[Any]:
    names = sorted(TOOLS[tool].params.model_fields)
    field_value = st.one_of(
        JSON, _TIMEISH, st.integers(-5, 10**8), st.sampled_from(("user", "prompt", "autonomous_turn"))
    )
    objects = st.dictionaries(st.sampled_from(names or ["x"]), field_value, max_size=len(names) + 1)
    return st.one_of(
        objects,
        objects.map(lambda d: json.dumps(d, allow_nan=True)),
        st.dictionaries(st.sampled_from(_PARAM_NAMES), JSON, max_size=4),
        JSON,
        st.text(max_size=40),
        st.binary(max_size=40),
    )


@cache
def tool_dbs() -> tuple[MemoryDB, MemoryDB]:
    """A writable in-memory database and a read-only file with the same kind of rows."""
    rw = search_db()
    path = Path(tempfile.mkdtemp(prefix="philont-props-")) / "memory.sqlite"
    MemoryDB.create(path, now=NOW).close()
    ro = MemoryDB.open(path)
    return rw, ro


@SETTINGS
@given(data=st.data(), tool=st.sampled_from((*TOOL_NAMES, "no_such_tool", "")), read_only=st.booleans())
def test_run_tool_never_raises(data, tool, read_only):
    rw, ro = tool_dbs()
    args = data.draw(_args_for(tool) if tool in TOOLS else JSON, label="args")
    result = run_tool(ro if read_only else rw, tool, args, now=NOW)
    assert isinstance(result, ToolResult)
    assert isinstance(result.success, bool)
    if not result.success:
        assert isinstance(result.error, str) and result.error
    json.dumps(result.to_json(), allow_nan=True)


# -- the fact editor ---------------------------------------------------------------------------------------

# What the editor's JSON box can hold: JSON values a JS reader gets back unchanged (and Python too:
# a float from 2^53 up is written without a fraction and read back here as an int).
EXACT_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(-(2.0**53), 2.0**53, allow_nan=False)
    | st.text(st.one_of(ANY_CHAR, SURROGATE), max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
ANY_NUMBER = st.one_of(st.floats(), st.integers(-10, 10), st.booleans(), st.none(), st.text(max_size=5))
MS = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1))
NAME = st.text(ANY_CHAR, min_size=0, max_size=6)


def _same_json(a: Any, b: Any) -> bool:
    return js_stringify(a) == js_stringify(b)


def _utf16(v: Any) -> Any:
    """``v`` with its strings as a JS reader has them: a surrogate pair is one astral character."""
    if isinstance(v, str):
        return v.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    if isinstance(v, list):
        return [_utf16(x) for x in v]
    if isinstance(v, dict):
        return {_utf16(k): _utf16(x) for k, x in v.items()}
    return v


def _check_stored(db: MemoryDB, fact_id: str, value: Any, given: dict[str, Any]) -> None:
    fact = FactStore(db).get_by_id(fact_id)
    assert fact is not None
    assert fact.json_errors == []
    assert _same_json(fact.value, value), (fact.value_json, value)
    assert fact.value == _utf16(value), f"stored {fact.value_json}, given {value!r}"
    for name, v in given.items():
        got = getattr(fact, name)
        if name in ("occurred_at", "valid_from", "valid_until"):
            assert got is None or (isinstance(got, int) and not isinstance(got, bool)), (
                f"{name} stored as {got!r}"
            )
            if isinstance(v, int) or v is None:
                assert got == v
        elif name == "confidence":
            assert isinstance(got, float) and 0.0 <= got <= 1.0 and got == v
        elif name == "decay_tau_days":
            assert got is None or (isinstance(got, float) and math.isfinite(got) and got != 0)


def _add(db: MemoryDB, namespace: str, key: str, value: Any, fields: dict[str, Any]) -> None:
    """``facts.add``: a ValidationError_ with a message, or a stored fact that reads back as given."""
    try:
        entry = fact_curation.add(namespace, key, value, **fields).perform(db)
    except ValidationError_ as exc:
        assert str(exc).strip()
        return
    except MemoryError_ as exc:
        raise AssertionError(f"refused with {type(exc).__name__}, not ValidationError_: {exc}") from None
    _check_stored(db, entry.target_id, value, fields)


@SETTINGS
@given(
    value=EXACT_JSON,
    confidence=st.one_of(st.floats(0, 1), ANY_NUMBER),
    occurred_at=MS,
    valid_from=MS,
    valid_until=MS,
    tau=st.one_of(st.none(), st.floats(), st.integers(-3, 3)),
    namespace=NAME,
    key=NAME,
)
def test_fact_editor_add_refuses_clearly_or_round_trips(
    value, confidence, occurred_at, valid_from, valid_until, tau, namespace, key
):
    fields = {
        "confidence": confidence,
        "occurred_at": occurred_at,
        "valid_from": valid_from,
        "valid_until": valid_until,
        "decay_tau_days": tau,
    }
    _add(search_db(), "ed." + namespace, key or "k", value, fields)


@SETTINGS
@given(value=EXACT_JSON, confidence=st.one_of(st.floats(0, 1), ANY_NUMBER), valid_from=MS, valid_until=MS)
def test_fact_editor_edit_refuses_clearly_or_round_trips(value, confidence, valid_from, valid_until):
    db = search_db()
    base = FactStore(db).store_fact("editor-edit", "k", "start", now=NOW)
    given_fields = {"confidence": confidence, "valid_from": valid_from, "valid_until": valid_until}
    try:
        entry = fact_curation.edit(base.id, value=value, **given_fields).perform(db)
    except ValidationError_ as exc:
        assert str(exc).strip()
        return
    _check_stored(db, entry.target_id, value, given_fields)


def _problems(cases: list[tuple[str, str, str, Any, dict[str, Any]]]) -> list[str]:
    """Run :func:`_add` for each ``(label, namespace, key, value, fields)``; what went wrong, one line each."""
    out = []
    for label, ns, key, value, fields in cases:
        try:
            _add(search_db(), ns, key, value, fields)
        except (AssertionError, Exception) as exc:
            out.append(f"{label}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    return out


def test_fact_editor_values_that_json_cannot_carry_exactly():
    """NaN, infinities and integers beyond 2^53 would be written as something else (``null``, a
    rounded double): the editor must refuse them rather than store a different value."""
    values = {
        "nan": math.nan,
        "inf": math.inf,
        "-inf": -math.inf,
        "nested nan": {"a": [1, math.nan]},
        "2^63": 2**63,
        "10^30": 10**30,
        "-(2^53)-1": -(2**53) - 1,
    }
    problems = _problems([(label, "editor-exact", "k", v, {}) for label, v in values.items()])
    assert not problems, "\n".join(problems)


def test_fact_editor_time_fields_refuse_what_is_not_epoch_ms():
    """A time field holds epoch milliseconds (an INTEGER column): anything else is refused clearly
    (or parsed into milliseconds); never stored as text or a real, never an uncaught error."""
    values = {
        "ISO time": "2026-06-16T12:00:00Z",
        "ISO date": "2026-06-16",
        "word": "tomorrow",
        "empty": "",
        "digits": "1781524800000",
        "1.5": 1.5,
        "2^64": 2**64,
        "NaN": math.nan,
        "True": True,
    }
    cases = [
        (f"{field_name}={label}", "editor-times", field_name, "v", {field_name: v})
        for field_name in ("occurred_at", "valid_from", "valid_until")
        for label, v in values.items()
    ]
    problems = _problems(cases)
    assert not problems, "\n".join(problems)


def test_fact_editor_names_with_lone_surrogates():
    """A lone surrogate cannot be stored as UTF-8: a clear refusal, not a UnicodeEncodeError."""
    cases = [
        ("key", "user", "\ud800", "v", {}),
        ("namespace", "\udfff", "k", "v", {}),
        ("half an emoji", "user", "a\ud83dz", "v", {}),
    ]
    problems = _problems(cases)
    assert not problems, "\n".join(problems)
