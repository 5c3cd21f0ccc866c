"""core.replay: each user turn replayed as the agent had it, the need estimate, hit or miss with its cause,
and the what-if strategies, on a planted history built with the project's stores."""

from __future__ import annotations

import json

import pytest

from core import demo
from core.db import MemoryDB
from core.engine import sqlite3
from core.errors import ValidationError_
from core.facts import FactStore
from core.jsutil import estimate_tokens
from core.replay import NeedRule, ReplayOptions, fts_or_query, replay, terms
from core.replay.need import NeedIndex, correction
from core.replay.tops import TopIds
from core.replay.turn import ReplayCancelledError, TurnReader, agent_turn
from core.timeline import RawStore
from tests.reliability.helpers import fingerprint
from tests.support import FIXED_NOW

MIN = 60_000
T0 = FIXED_NOW - 30 * 86_400_000
FILLER = 300

EARLY = [
    ("user", "My cousin Zephyrine booked the Quillfeather lodge for the reunion."),
    ("assistant", "Noted: Zephyrine, Quillfeather lodge, reunion."),
    ("user", "我的老师欧阳震华下个月去乌鲁木齐。"),
    ("assistant", "好的，记下了：欧阳震华，乌鲁木齐。"),
]
LATER = [
    ("user", "Did Zephyrine confirm the Quillfeather booking?"),  # A: punctuation, FTS5 fails
    ("assistant", "I will check."),
    ("user", "remember when Zephyrine called"),  # B: a trigger, FTS runs, finds nothing
    ("assistant", "Sorry, I cannot find that."),
    ("user", "Zephyrine Quillfeather"),  # C: FTS finds the early messages
    ("assistant", "Here is what I found."),
    ("user", "欧阳震华什么时候去乌鲁木齐"),  # D: one CJK bareword, no message holds all of it
    ("assistant", "我不确定。"),
    ("user", "我告诉过你欧阳震华的事"),  # E: a correction
]


def _filler(i: int) -> tuple[str, str]:
    if i % 3 == 2:
        return ("user" if i % 2 == 0 else "assistant", "今天天气不错，代码测试通过。")
    if i % 2 == 0:
        return ("user", f"Routine check {i}: the weather is mild and the build passed.")
    return ("assistant", "Fine, the build passed again.")


def plant(path) -> dict[str, int]:
    """The planted history in a new file; the ids of the later turns by letter."""
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        rows = EARLY + [_filler(i) for i in range(FILLER)] + LATER
        ids = [raw.append_message("global", role, text, T0 + k * MIN) for k, (role, text) in enumerate(rows)]
    finally:
        db.close()
    first = len(EARLY) + FILLER
    return {letter: _id(ids[first + 2 * n]) for n, letter in enumerate("ABCDE")}


def _id(m) -> int:
    return m if isinstance(m, int) else m.id


@pytest.fixture
def planted(tmp_path):
    path = tmp_path / "memory.sqlite"
    return path, plant(path)


def _run(path, **kw):
    db = MemoryDB.open(path)
    try:
        return replay(db, ReplayOptions(**kw))
    finally:
        db.close()


def _turn(result, message_id):
    return next(t for t in result.turns if t.message.id == message_id)


def test_terms_words_and_cjk_trigrams_without_stop_words():
    assert terms("Did Zephyrine confirm the booking?") == {"zephyrine", "confirm", "booking"}
    assert terms("欧阳震华什么时候") == {"欧阳震", "阳震华", "震华什"}  # windows holding 什么 / 时候 left out
    assert correction("You forgot: I TOLD YOU twice") == "i told you"
    assert correction("你忘了吗") == "你忘了" and correction("hello") is None


def test_a_term_is_rare_up_to_the_threshold_and_a_correction_doubles_it(tmp_path):
    path = tmp_path / "memory.sqlite"
    ids = _history(
        path, [("user", "about Quillfeather")] * 3 + [("system", "Quillfeathers")] + [("user", "x")]
    )
    db = MemoryDB.open(path)
    try:
        index = NeedIndex(db, NeedRule(max_df=3))
        before = (T0 + 4 * MIN, ids[-1])
        assert index.need("Quillfeather again", before).terms == []  # in 4 earlier messages: not rare under 3
        need = index.need("I told you: quillfeather", before)  # a substring, any case, is found
        assert (
            need.terms == ["quillfeather"] and sorted(need.holders) == ids[:3]
        )  # system: counted, not needed
        assert need.correction == "i told you"
        assert index.need("I told you: quillfeather", (T0 + 2 * MIN, ids[2])).terms == ["quillfeather"]
    finally:
        db.close()


def test_a_miss_with_its_cause_when_fts5_cannot_take_the_message(planted):
    path, ids = planted
    a = _turn(_run(path), ids["A"])
    assert a.needed == [1, 2] and a.terms == ["quillfeather", "zephyrine"]
    assert a.hit is False and a.recalled == [] and a.path in ("substring_proven", "substring_scan")
    assert a.cause is not None and a.cause.code == "replay.cause.query_failed"
    assert a.cause.params == {"path": a.path}
    assert a.trigger is None


def test_a_trigger_and_a_miss_without_overlap(planted):
    path, ids = planted
    b = _turn(_run(path), ids["B"])
    assert b.trigger == "remember when"
    assert b.needed == [1, 2]  # turn A (also naming Zephyrine) is in the recency window
    assert ids["A"] in b.recency
    assert b.hit is False and b.cause is not None
    assert (b.cause.code, b.cause.params) == ("replay.cause.no_overlap", {"id": 1, "missing": "remember"})


def test_a_hit_through_full_text_search(planted):
    path, ids = planted
    c = _turn(_run(path), ids["C"])
    assert c.path == "fts" and c.recalled == [1, 2] and c.needed == [1, 2]
    assert c.hit is True and c.cause is None


def test_a_what_if_strategy_finds_what_the_baseline_misses_in_both_languages(planted):
    path, ids = planted
    r = _run(path)
    for letter, needed in (("A", [1, 2]), ("D", [3, 4])):
        t = _turn(r, ids[letter])
        assert t.hit is False and t.what_if["agent"].hit is False, letter
        assert t.what_if["terms-or"].hit is True and set(needed) <= set(t.what_if["terms-or"].recalled)
        assert t.what_if["terms-or-wide"].hit is True
        assert t.what_if["terms-or"].tokens > 0
    s = r.summary()["strategies"]
    assert s["terms-or"]["hits"] > s["agent"]["hits"]
    assert fts_or_query(["欧阳震", 'a"b']) == '"欧阳震" OR "a""b"'


def test_a_correction_is_marked(planted):
    path, ids = planted
    e = _turn(_run(path), ids["E"])
    assert e.correction == "我告诉过你" and e.trigger is not None
    assert 3 in e.needed and 4 in e.needed


def test_the_range_limit_and_origin_choose_the_turns(planted):
    path, ids = planted
    r = _run(path, limit=2)
    assert [t.message.id for t in r.turns] == [ids["D"], ids["E"]]
    c_at = T0 + (ids["C"] - 1) * MIN
    r = _run(path, since=c_at, until=c_at, strategies=("agent",))
    assert [t.message.id for t in r.turns] == [ids["C"]] and list(r.turns[0].what_if) == ["agent"]
    assert _run(path, origin="wechat:nobody").turns == []
    # after_id: only the turns written after a saved replay's last one
    assert [t.message.id for t in _run(path, after_id=ids["D"]).turns] == [ids["E"]]
    with pytest.raises(ValidationError_) as e:
        _run(path, strategies=("agent", "magic"))
    assert e.value.code == "replay.unknown_strategy"


def test_a_scheduled_session_recalls_only_from_itself(tmp_path):
    path = tmp_path / "memory.sqlite"
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        raw.append_message("global", "user", "Zephyrine Quillfeather", T0)
        raw.start_session("system:scheduled:daily", T0)
        for i in range(40):
            raw.append_message(
                "system:scheduled:daily", "assistant", f"run {i} done, all fine", T0 + (i + 1) * MIN
            )
        raw.append_message("system:scheduled:daily", "user", "Zephyrine Quillfeather", T0 + 50 * MIN)
    finally:
        db.close()
    t = _run(path).turns[-1]
    assert t.needed == [1] and t.hit is False and t.cause is not None
    assert (t.cause.code, t.cause.params) == (
        "replay.cause.session_restricted",
        {"id": 1, "session": "global"},
    )


def test_damaged_rows_are_read_as_the_app_reads_them(planted):
    path, ids = planted
    before = _run(path)
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute(
            "UPDATE memory_raw_messages SET content = CAST(X'5A6570687972696E65FF' AS TEXT) WHERE id = 2"
        )
    finally:
        conn.close()
    after = _run(path)
    c = _turn(after, ids["C"])
    assert c.recalled == [1, 2] and c.hit is True  # the agent's search finds #2 as before
    assert c.to_json()["damaged"] == [2]  # the one damaged row the turn was given, marked
    assert _turn(before, ids["C"]).to_json()["damaged"] == []
    a_before, a_after = _turn(before, ids["A"]), _turn(after, ids["A"])
    assert a_after.needed == [1, 2] and a_after.cause == a_before.cause  # still a holder of "zephyrine"
    for tb, ta in zip(before.turns, after.turns, strict=True):
        saw = 2 in ta.recency or 2 in ta.recalled
        assert ta.damaged == ([2] if saw else []), ta.message.id
        if not saw and not any(2 in w.recalled for w in ta.what_if.values()):
            assert ta.to_json() == tb.to_json()  # a turn that was not given #2 is as it was


def test_replay_leaves_every_byte_of_the_file(planted):
    path, _ids = planted
    before = fingerprint(path)
    assert _run(path).turns
    assert fingerprint(path) == before


def test_an_empty_history_has_no_turns(tmp_path):
    path = tmp_path / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    r = _run(path)
    assert r.turns == [] and r.history == 0
    assert r.summary()["turns"] == 0 and r.summary()["hitRate"] is None


def _history(path, rows):
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        return [
            _id(raw.append_message("global", role, text, T0 + k * MIN)) for k, (role, text) in enumerate(rows)
        ]
    finally:
        db.close()


def test_a_miss_cut_by_the_budget_says_by_how_many_tokens(tmp_path):
    path = tmp_path / "memory.sqlite"
    big = "Zephyrine Quillfeather " + "x" * 7000  # a system message: recalled first, then dropped
    needed = "Zephyrine Quillfeather lodge, booked for May."
    rows = (
        [("system", big), ("user", needed)]
        + [_filler(i) for i in range(40)]
        + [("user", "Zephyrine Quillfeather")]
    )
    _history(path, rows)
    t = _run(path).turns[-1]
    assert t.needed == [2] and t.recalled == [] and t.hit is False and t.cause is not None
    short = estimate_tokens(big) + estimate_tokens(needed) - 4000
    assert (t.cause.code, t.cause.params) == ("replay.cause.budget_cut", {"id": 2, "tokens": short})


def test_a_miss_beyond_the_candidate_limit(tmp_path):
    path = tmp_path / "memory.sqlite"
    rows = [("user", "Quillfeather lodge: the old booking")] + [_filler(i) for i in range(40)]
    rows += [("assistant", f"Quillfeather note {i}") for i in range(12)] + [("user", "Quillfeather")]
    _history(path, rows)
    t = _run(path, rule=NeedRule(max_df=20)).turns[-1]
    assert t.needed == [1] and t.hit is False and t.cause is not None
    assert (t.cause.code, t.cause.params) == ("replay.cause.candidate_limit", {"id": 1, "limit": 10})


def test_a_turn_with_a_damaged_time_is_replayed_and_marked(planted):
    path, ids = planted
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("UPDATE memory_raw_messages SET timestamp = 'garbage' WHERE id = ?", (ids["C"],))
    finally:
        conn.close()
    r = _run(path)
    c = _turn(r, ids["C"])
    # Read as the app reads it (time 0, the value marked): nothing is before it, so nothing is needed.
    assert c.message.timestamp == 0 and c.damaged == [ids["C"]] and c.recency == [] and c.hit is None
    assert c.to_json()["damaged"] == [ids["C"]]
    assert _turn(r, ids["D"]).damaged == [] and _turn(r, ids["A"]).cause is not None


def test_a_fact_relearned_in_a_turn_makes_the_message_that_first_told_it_needed(tmp_path):
    path = tmp_path / "memory.sqlite"
    rows = [("user", "The spare key is with Marguerite next door.")] + [_filler(i) for i in range(40)]
    rows += [("user", "Where did I leave it again")]  # shares no rare word with the first message
    ids = _history(path, rows)
    db = MemoryDB.open(path, writable=True)
    try:
        facts = FactStore(db)
        facts.store_fact("user", "spare_key", "with Marguerite", now=T0 + MIN // 2)
        facts.store_fact("user", "spare_key", "in the drawer", now=T0 + 10 * MIN)
        facts.store_fact("user", "spare_key", "with Marguerite", now=T0 + 41 * MIN + 1)  # in the last turn
    finally:
        db.close()
    turns = {t.message.id: t for t in _run(path).turns}
    last = turns[ids[-1]]
    assert last.relearned == ["user.spare_key"] and last.needed == [1] and last.hit is False
    assert last.terms == []  # the message's own words: none rare, so the what-if queries stay empty
    assert last.what_if["terms-or"].recalled == []
    assert all(t.relearned == [] for i, t in turns.items() if i != ids[-1])


def _compare_with_build_context(path) -> int:
    """Every user turn of the file through the replay's reader and through build_context(as_of_id=...):
    the same AgentTurn (recalled and recency ids, tokens, path, trigger, what was left out and why)."""
    db = MemoryDB.open(path)
    try:
        reader = TurnReader(db)
        turns = RawStore(db).query_timeline("asc", None, roles=["user"])
        for m in turns:
            assert reader.turn(m) == agent_turn(db, m), m.id
        return len(turns)
    finally:
        db.close()


def test_the_replay_reader_gives_what_build_context_gives_on_the_planted_history(planted):
    path, _ids = planted
    assert _compare_with_build_context(path) > 100


def test_the_replay_reader_gives_what_build_context_gives_on_the_demo(tmp_path):
    path = tmp_path / "demo.sqlite"
    demo.generate(path, messages=3000, seed=7, now=FIXED_NOW)
    db = MemoryDB.open(path)
    try:
        paths = {t.path for t in replay(db).turns}
    finally:
        db.close()
    assert {"fts", "substring_proven", "substring_scan"} <= paths  # every way the agent's search answers
    assert _compare_with_build_context(path) > 500


# Texts whose substring step the replay answers from its rarest windows: ASCII case, LIKE's wildcards
# (``_`` and ``%`` match other characters than themselves), windows across spaces, CJK, short pieces.
WINDOW_TEXTS = [
    ("user", "Deploy the api to staging, please."),
    ("assistant", "DEPLOY THE API TO STAGING, PLEASE."),
    ("user", "Is 50% of the_cache warm?"),
    ("assistant", "Is 50 percent of theXcache warm? Yes."),
    ("user", "数据库迁移失败了吗? 在 v2 上"),
    ("assistant", "数据库迁移失败了吗? 在 v2 上: 没有。"),
    ("user", "a b c, d e"),
    ("assistant", "x a b c, d e y"),
]


def test_the_substring_step_from_the_rarest_windows_gives_the_scans_rows(tmp_path):
    path = tmp_path / "memory.sqlite"
    rows = WINDOW_TEXTS + [_filler(i) for i in range(60)] + WINDOW_TEXTS + [_filler(i) for i in range(9)]
    rows += [("user", t) for _r, t in WINDOW_TEXTS]
    _history(path, rows)
    assert _compare_with_build_context(path) > 40
    db = MemoryDB.open(path)
    try:
        reader = TurnReader(db)
        late = RawStore(db).query_timeline("desc", len(WINDOW_TEXTS), roles=["user"])
        got = {m.content: reader.search(m, None, 15)[:2] for m in late}
    finally:
        db.close()
    want = {
        "Deploy the api to staging, please.": (4, "substring_proven"),  # both cases, twice
        "DEPLOY THE API TO STAGING, PLEASE.": (5, "substring_proven"),
        "Is 50% of the_cache warm?": (4, "substring_proven"),  # the wildcards match "percent" and "X"
        "数据库迁移失败了吗? 在 v2 上": (4, "substring_proven"),
    }
    assert {text: (len(rows), path) for text, (rows, path) in got.items() if text in want} == want


def test_the_replay_reader_gives_what_build_context_gives_when_ids_do_not_follow_time(tmp_path):
    """Rows written out of time order (imported, clock-skewed): the full-text walk from the greatest id
    before a turn and the answers extended over the rows written since still give the agent's rows."""
    import random

    rnd = random.Random(5)
    words = ["Quillfeather", "zeppelin", "harbour", "lantern", "数据库迁移", "乌鲁木齐"]
    texts = [" ".join(rnd.sample(words, rnd.randint(1, 3))) for _ in range(40)]
    texts += [t + "?" for t in texts[:10]]  # the substring step too
    path = tmp_path / "memory.sqlite"
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        for k in range(400):
            at = T0 + (k if rnd.random() > 0.15 else rnd.randint(0, 400)) * MIN  # some rows go back in time
            role = "user" if k % 2 == 0 else "assistant"
            raw.append_message("global", role, rnd.choice(texts) if k % 3 else _filler(k)[1], at)
    finally:
        db.close()
    assert _compare_with_build_context(path) == 200


def test_the_replay_scans_when_the_agents_search_would_for_too_many_candidates(tmp_path):
    from core.substring import ProvingRawStore

    path = tmp_path / "memory.sqlite"
    rows = [("user", f"the harbour lantern is lit, night {i}.") for i in range(30)]
    rows += [
        ("assistant", "lantern harbour"),
        ("user", "harbour lantern?"),
        ("user", "the harbour lantern is lit?"),
    ]
    rows += [("user", "night 7.")]
    _history(path, rows)
    db = MemoryDB.open(path)
    seen = set()
    try:
        for cap in (5, 12, 40):
            reader = TurnReader(db)
            reader.proof.candidate_cap = cap
            store = ProvingRawStore(db, candidate_cap=cap)
            for m in RawStore(db).query_timeline("desc", 3, roles=["user"]):
                rows_, path_, _safe = reader.search(m, None, 15)
                want = store.search_with_mode(m.content, limit=15, before=(int(m.timestamp), m.id))
                how = store.last_substring.how if store.last_substring else None
                seen.add(path_)
                assert ([r.id for r in rows_], path_) == (
                    [r.id for r in want[0]],
                    {"proven": "substring_proven", "scanned": "substring_scan"}.get(how, want[1]),
                ), (cap, m.content)
    finally:
        db.close()
    assert {"substring_scan", "substring_proven"} <= seen


def test_the_rarest_windows_are_asked_across_spaces_and_without_wildcards(tmp_path):
    from core.replay.search import WINDOWS_COUNTED, text_windows

    assert text_windows("ab cd") == ["ab ", "b c", " cd"]
    assert text_windows("a_bcd%e") == ["bcd"]
    assert len(text_windows("".join(chr(0x4E00 + i) for i in range(5000)))) == WINDOWS_COUNTED
    path = tmp_path / "memory.sqlite"
    _history(path, [("user", f"alpha {i}") for i in range(5)] + [("user", f"{i} beta") for i in range(5)])
    db = MemoryDB.open(path)
    try:
        least, query, inside = TurnReader(db).proof._rare_windows("alpha beta", ["alpha", "beta"])
    finally:
        db.close()
    # No row holds "a b" (across the space): it is asked first; every window inside a piece is in 5 rows.
    assert query.startswith('"a b" "')
    assert least == 5 and '"a b"' not in inside and inside.count('"') == 8  # four windows inside the words


def test_a_needed_message_written_after_the_turn_is_a_miss_not_yet_written(tmp_path):
    path = tmp_path / "memory.sqlite"
    ids = _history(
        path, [_filler(i) for i in range(40)] + [("user", "Did Zephyrine book the Quillfeather lodge?")]
    )
    db = MemoryDB.open(path, writable=True)
    try:  # stored after the turn with an older time (an import, a reply on the turn's clock)
        late = RawStore(db).append_message(
            "global", "assistant", "Zephyrine booked the Quillfeather lodge.", T0 + 1
        )
    finally:
        db.close()
    t = _turn(_run(path), ids[-1])
    assert t.needed == [late.id] and late.id > ids[-1] and t.hit is False and t.cause is not None
    assert (t.cause.code, t.cause.params) == ("replay.cause.not_yet_written", {"id": late.id})
    assert (
        t.cause.message
        == f"Message #{late.id} was written after this turn (its time is earlier, its id later): recall could not have seen it."
    )


def test_progress_starts_at_zero_and_a_replay_can_be_cancelled(planted):
    path, _ids = planted
    db = MemoryDB.open(path)
    try:
        seen: list[tuple[int, int]] = []
        r = replay(db, progress=lambda done, total: seen.append((done, total)))
        n = len(r.turns)
        assert seen[0] == (0, n) and seen[-1] == (n, n) and len(seen) == n + 1
        asked = []

        def cancelled() -> bool:
            asked.append(1)
            return len(asked) > 3

        with pytest.raises(ReplayCancelledError):
            replay(db, cancelled=cancelled)

        def stop(done: int, total: int) -> None:
            if done == 2:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            replay(db, progress=stop)
    finally:
        db.close()


def _with_and_without_sink(path):
    db = MemoryDB.open(path)
    try:
        kept = replay(db)
        given = []
        streamed = replay(db, sink=given.append)
    finally:
        db.close()
    return kept, streamed, given


def _dumped(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_sink_gets_every_turn_and_the_replay_keeps_none_with_the_same_summary(planted):
    path, _ids = planted
    kept, streamed, given = _with_and_without_sink(path)
    assert streamed.turns == [] and len(given) == len(kept.turns) > 100
    assert [t.to_json() for t in given] == [t.to_json() for t in kept.turns]
    assert _dumped(streamed.summary()) == _dumped(kept.summary())
    s = kept.summary()
    assert s["withNeed"] > 0 and s["byCause"] and any(v["hits"] for v in s["strategies"].values())


def test_a_sink_gives_the_same_summary_on_the_demo(tmp_path):
    path = tmp_path / "demo.sqlite"
    demo.generate(path, messages=3000, seed=7, now=FIXED_NOW)
    kept, streamed, given = _with_and_without_sink(path)
    assert streamed.turns == [] and len(given) == len(kept.turns)
    assert _dumped(streamed.summary()) == _dumped(kept.summary())
    assert _dumped(streamed.to_json()["summary"]) == _dumped(kept.to_json()["summary"])


def test_the_least_id_between_two_turns_is_kept_as_the_turns_come(tmp_path):
    """TopIds.low: the least id of the rows from an earlier turn's bound to the current one, as the
    database answers it, with ids out of time order; a bound it was not given is not known (False)."""
    import random

    rnd = random.Random(11)
    path = tmp_path / "memory.sqlite"
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        for k in range(300):
            at = T0 + (k if rnd.random() > 0.2 else rnd.randint(0, 300)) * MIN
            raw.append_message("global", "user", f"row {k}", at)
        rows = db.conn.execute(
            "SELECT timestamp, id FROM memory_raw_messages ORDER BY timestamp, id"
        ).fetchall()
        bounds = [(t, i) for t, i in rows[::7]]
        tops = TopIds(db)
        checked = 0
        for j, before in enumerate(bounds):
            tops.top(before)
            for since in bounds[: j + 1]:
                want = db.conn.execute(
                    "SELECT min(id) FROM memory_raw_messages WHERE (timestamp, id) >= (?, ?) "
                    "AND (timestamp, id) < (?, ?)",
                    (*since, *before),
                ).fetchone()[0]
                assert tops.low(since, before) == want, (since, before)
                checked += want is not None
        assert checked > 500
        assert tops.low((T0 - 1, 0), bounds[-1]) is False  # not a bound it was given
        assert tops.low(bounds[0], bounds[-2]) is False  # not the latest bound
    finally:
        db.close()
