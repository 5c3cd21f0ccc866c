"""JavaScript parity helpers: lengths, slices, whitespace, JSON.stringify, toISOString, Date.parse.

Expected values were taken from Node 20 (the reference agent's runtime).
"""

from __future__ import annotations

import json
import math
import re
import time

import pytest

from core import jsutil
from core.jsutil import (
    JS_WS,
    JS_WS_CHARS,
    date_parse,
    date_parse_string,
    estimate_tokens,
    from_utf16_view,
    int_if_integral,
    iso_ms,
    js_div,
    js_exp,
    js_index_of,
    js_join,
    js_max,
    js_min,
    js_number_str,
    js_own_keys,
    js_slice,
    js_slice_end,
    js_split_ws,
    js_stringify,
    js_to_number,
    js_trim,
    js_truthy,
    parse_time_field,
    utf16_len,
    utf16_view,
)

EMOJI = "\U0001f600"  # 😀, two UTF-16 units: \ud83d \ude00
HI, LO = "\ud83d", "\ude00"


@pytest.fixture
def set_tz(monkeypatch):
    """Switch the process time zone (TZ + tzset) for one test and restore it afterwards."""

    def _set(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield _set
    monkeypatch.undo()
    time.tzset()


# --- clock ------------------------------------------------------------------------------------------


def test_now_ms_is_integer_epoch_milliseconds():
    t = jsutil.now_ms()
    assert isinstance(t, int)
    assert t > 1_600_000_000_000  # after 2020, i.e. milliseconds rather than seconds


# --- UTF-16 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("s", "n"),
    [
        ("", 0),
        ("a", 1),
        ("é", 1),
        ("中文", 2),
        (EMOJI, 2),
        (EMOJI + "a", 3),
        ("a\U0010ffff", 3),
        ("\ud800", 1),  # a lone surrogate counts 1, as in JS
        (HI + LO, 2),  # a pair held as two code points
        ("记得" + EMOJI, 4),
    ],
)
def test_utf16_len(s, n):
    assert utf16_len(s) == n


def test_utf16_view_round_trip():
    s = "a" + EMOJI + "中\U0001d11e"
    v = utf16_view(s)
    assert v == "a" + HI + LO + "中\ud834\udd1e"
    assert len(v) == utf16_len(s) == 6
    assert from_utf16_view(v) == s
    assert from_utf16_view("x" + HI) == "x" + HI  # lone surrogate kept


@pytest.mark.parametrize(
    ("s", "start", "end", "expected"),
    [
        ("hello", 1, 3, "el"),
        ("hello", 0, None, "hello"),
        ("hello", -3, None, "llo"),
        ("hello", -3, -1, "ll"),
        ("hello", 3, 1, ""),
        ("hello", -10, 10, "hello"),
        ("hello", 5, None, ""),
        ("hello", 2, 2, ""),
        ("hello", None, 2, "he"),
        ("hello", 1.9, 3.9, "el"),  # ToIntegerOrInfinity truncates
        ("hello", math.nan, 2, "he"),
        ("hello", -math.inf, math.inf, "hello"),
        (EMOJI + "a", 0, 1, HI),  # cut through the pair: the lone high surrogate
        (EMOJI + "a", 1, None, LO + "a"),
        (EMOJI + "a", 0, 2, EMOJI),
        ("a" + EMOJI + "b", 1, 3, EMOJI),
        ("a" + EMOJI + "b", -2, None, LO + "b"),
        ("中文字", 0, 2, "中文"),
        ("x" * 5, 0, 1000, "xxxxx"),
    ],
)
def test_js_slice(s, start, end, expected):
    assert js_slice(s, start, end) == expected


def test_js_slice_default_arguments():
    assert js_slice("abc") == "abc"
    assert js_slice("abc", 1) == "bc"


@pytest.mark.parametrize(
    ("s", "tokens"),
    [
        ("", 0),
        ("a", 1),  # ceil(0.6)
        ("ab", 2),  # ceil(1.2)
        ("abc", 2),  # ceil(1.8)
        ("abcde", 3),  # ceil(3.0)
        ("x" * 10, 6),
        (EMOJI + "a", 2),  # 3 units -> ceil(1.8) (spec Part C b)
        ("中" * 7, 5),  # ceil(4.2)
    ],
)
def test_estimate_tokens(s, tokens):
    assert estimate_tokens(s) == tokens


def test_estimate_tokens_equals_js_ceil_for_every_small_length():
    for n in range(0, 3001):
        assert estimate_tokens("x" * n) == math.ceil(n * 0.6), n


# --- white space ------------------------------------------------------------------------------------


def test_js_ws_class_has_exactly_the_25_js_whitespace_code_points():
    rx = re.compile(JS_WS)
    members = [cp for cp in range(0x10000) if rx.fullmatch(chr(cp))]
    assert len(members) == 25
    assert members == sorted(ord(c) for c in JS_WS_CHARS)
    assert 0xFEFF in members
    for cp in (0x1C, 0x1D, 0x1E, 0x1F, 0x85, 0x200B, 0x180E):
        assert cp not in members


def test_js_ws_class_is_unaffected_by_re_ascii():
    rx = re.compile(JS_WS + "+", re.ASCII)
    assert rx.fullmatch("\u00a0\u3000\ufeff")


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("  a b  ", "a b"),
        ("\ufeffabc\ufeff", "abc"),  # JS trims U+FEFF; str.strip() does not
        ("\u0085abc\u0085", "\u0085abc\u0085"),  # JS keeps U+0085; str.strip() removes it
        ("\x1cabc\x1f", "\x1cabc\x1f"),
        ("\u3000\u00a0abc\u2028\u2029", "abc"),
        ("\t\n\v\f\r", ""),
        ("", ""),
    ],
)
def test_js_trim(s, expected):
    assert js_trim(s) == expected


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("a  b\u3000c\ufeffd\u0085e", ["a", "b", "c", "d\u0085e"]),
        ("  lead and trail  ", ["lead", "and", "trail"]),
        ("", []),
        ("   ", []),
        ("one", ["one"]),
        ("x\x1cy", ["x\x1cy"]),  # str.split() would split here
    ],
)
def test_js_split_ws(s, expected):
    assert js_split_ws(s) == expected


# --- numbers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (1.0, "1"),
        (-0.0, "0"),
        (0, "0"),
        (100, "100"),
        (-1.5, "-1.5"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1 / 3, "0.3333333333333333"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1e16, "10000000000000000"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (1e-6, "0.000001"),
        (123e-20, "1.23e-18"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (2**53, "9007199254740992"),
        (2**64, "18446744073709552000"),
        (12345678901234567890, "12345678901234567000"),
        (123456789012345680000, "123456789012345680000"),
        (10**400, "Infinity"),
        (math.nan, "NaN"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (True, "1"),
    ],
)
def test_js_number_str(x, expected):
    assert js_number_str(x) == expected


def test_js_number_str_rejects_non_numbers():
    with pytest.raises(TypeError):
        js_number_str("1")


# --- JSON.stringify (Part C f(5) and friends) -------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"a": 1}, '{"a":1}'),
        ({"a": [1, 2], "b": {"c": None}}, '{"a":[1,2],"b":{"c":null}}'),
        (1.0, "1"),
        (-0.0, "0"),
        ([1.0, -0.0, 1e21, 1e-7, 1e16], "[1,0,1e+21,1e-7,10000000000000000]"),
        (12345678901234567890, "12345678901234567000"),
        ({"b": 1, "2": 2, "1": 3, "a": 4}, '{"1":3,"2":2,"b":1,"a":4}'),
        ("中文é", '"中文é"'),
        ("\ud800", '"\\ud800"'),
        ("x\udc00y", '"x\\udc00y"'),
        (HI + LO, '"' + EMOJI + '"'),  # a pair held as two code points is a real pair
        (EMOJI, '"' + EMOJI + '"'),
        ('\x00\x1f\b\f\n\r\t"\\/', '"\\u0000\\u001f\\b\\f\\n\\r\\t\\"\\\\/"'),
        ("\x0b\x7f\u2028\u2029", '"\\u000b\x7f\u2028\u2029"'),
        (math.nan, "null"),
        (math.inf, "null"),
        ([math.nan, -math.inf], "[null,null]"),
        (None, "null"),
        (True, "true"),
        (False, "false"),
        ([], "[]"),
        ({}, "{}"),
        ((1, "a"), '[1,"a"]'),
        ([[[]]], "[[[]]]"),
        (
            {"k": 0, 2.5: "b", None: "c", False: "d", 1: "a"},
            '{"1":"a","k":0,"2.5":"b","null":"c","false":"d"}',
        ),
    ],
)
def test_js_stringify(value, expected):
    assert js_stringify(value) == expected


def test_js_stringify_array_index_keys_move_to_the_front():
    value = json.loads(
        '{"b":1,"4294967295":2,"4294967294":3,"1":4,"01":5,"-1":6,"1.0":7,"0":8,'
        '"9007199254740993":9,"a":10,"2":11}'
    )
    assert js_stringify(value) == (
        '{"0":8,"1":4,"2":11,"4294967294":3,"b":1,"4294967295":2,"01":5,"-1":6,"1.0":7,'
        '"9007199254740993":9,"a":10}'
    )


def test_js_stringify_nested_key_order():
    value = json.loads('{"a":{"2":1,"1":2},"b":[{"z":1,"10":2,"9":3}]}')
    assert js_stringify(value) == '{"a":{"1":2,"2":1},"b":[{"9":3,"10":2,"z":1}]}'


def test_js_stringify_numbers_as_node_prints_them_after_json_parse():
    raw = (
        "[1.0,-0,1e21,1e-7,1e16,12345678901234567890,0.000001,1.5e-7,123e-20,5e-324,"
        "1.7976931348623157e308,1e400,-1e400,0.1,100,1e20,1e-6,123456789012345680000]"
    )
    assert js_stringify(json.loads(raw)) == (
        "[1,0,1e+21,1e-7,10000000000000000,12345678901234567000,0.000001,1.5e-7,1.23e-18,"
        "5e-324,1.7976931348623157e+308,null,null,0.1,100,100000000000000000000,0.000001,"
        "123456789012345680000]"
    )


def test_js_stringify_differs_from_json_dumps_where_the_spec_says():
    v = {"n": 1.0, "big": 10**20, "tiny": 1e-7}
    assert (
        json.dumps(v, separators=(",", ":"), ensure_ascii=False)
        == '{"n":1.0,"big":100000000000000000000,"tiny":1e-07}'
    )
    assert js_stringify(v) == '{"n":1,"big":100000000000000000000,"tiny":1e-7}'


def test_js_stringify_round_trips_through_json_loads():
    value = {"k": ["é", 1.5, None, {"2": True, "1": False}]}
    assert json.loads(js_stringify(value)) == value


def test_js_stringify_rejects_circular_structures_and_unknown_types():
    a: list = []
    a.append(a)
    with pytest.raises(ValueError, match="circular"):
        js_stringify(a)
    d: dict = {}
    d["self"] = d
    with pytest.raises(ValueError, match="circular"):
        js_stringify(d)
    with pytest.raises(TypeError):
        js_stringify({1, 2})
    with pytest.raises(TypeError):
        js_stringify({(1, 2): "tuple key"})


def test_js_stringify_shared_but_not_circular_is_fine():
    shared = [1]
    assert js_stringify([shared, shared]) == "[[1],[1]]"


# --- toISOString -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ms", "expected"),
    [
        (0, "1970-01-01T00:00:00.000Z"),
        (1_767_225_600_000, "2026-01-01T00:00:00.000Z"),
        (1_781_524_800_123, "2026-06-15T12:00:00.123Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "+010000-01-01T00:00:00.000Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
        (-62_167_219_200_001, "-000001-12-31T23:59:59.999Z"),
        (8_640_000_000_000_000, "+275760-09-13T00:00:00.000Z"),
        (-8_640_000_000_000_000, "-271821-04-20T00:00:00.000Z"),
        (1.9, "1970-01-01T00:00:00.001Z"),
        (-1.5, "1969-12-31T23:59:59.999Z"),  # truncation toward zero, like TimeClip
        (1_781_524_800_000.0, "2026-06-15T12:00:00.000Z"),
    ],
)
def test_iso_ms(ms, expected):
    assert iso_ms(ms) == expected


@pytest.mark.parametrize(
    "bad", [math.nan, math.inf, -math.inf, 8_640_000_000_000_001, -8_640_000_000_000_001]
)
def test_iso_ms_invalid_time_value(bad):
    with pytest.raises(ValueError, match="Invalid time value"):
        iso_ms(bad)


@pytest.mark.parametrize("bad", ["0", None, True])
def test_iso_ms_rejects_non_numbers(bad):
    with pytest.raises(TypeError):
        iso_ms(bad)


# --- Date.parse (Part C k) --------------------------------------------------------------------------

# (string, ISO result with TZ=Asia/Shanghai, ISO result with TZ=UTC); None = NaN.
DATE_PARSE_CASES = [
    # date-only ISO: UTC midnight whatever the zone
    ("2026-06-15", "2026-06-15T00:00:00.000Z", "2026-06-15T00:00:00.000Z"),
    ("2026", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"),
    ("2026-06", "2026-06-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"),
    ("+002026-06-15", "2026-06-15T00:00:00.000Z", "2026-06-15T00:00:00.000Z"),
    # date-time without offset: local time
    ("2026-06-15T12:00:00", "2026-06-15T04:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("2026-06-15T12:00", "2026-06-15T04:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("2026-06-15T12:00:00.5", "2026-06-15T04:00:00.500Z", "2026-06-15T12:00:00.500Z"),
    # offsets honoured
    ("2026-06-15T12:00:00Z", "2026-06-15T12:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("2026-06-15T12:00:00+08:00", "2026-06-15T04:00:00.000Z", "2026-06-15T04:00:00.000Z"),
    ("2026-06-15T12:00:00-05:30", "2026-06-15T17:30:00.000Z", "2026-06-15T17:30:00.000Z"),
    # V8's lenient extras
    ("2026-06-15t12:00:00z", "2026-06-15T12:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("2026-06-15 12:00:00", "2026-06-15T04:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("2026-06-15 12:00:00Z", "2026-06-15T12:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("2026-06-15T12:00:00+0800", "2026-06-15T04:00:00.000Z", "2026-06-15T04:00:00.000Z"),
    ("2026-06-15T12:00:00.123456", "2026-06-15T04:00:00.123Z", "2026-06-15T12:00:00.123Z"),
    ("2026-06-15T12:00:00.1239Z", "2026-06-15T12:00:00.123Z", "2026-06-15T12:00:00.123Z"),
    ("2026-02-30", "2026-03-02T00:00:00.000Z", "2026-03-02T00:00:00.000Z"),
    ("2026-02-29T10:00:00Z", "2026-03-01T10:00:00.000Z", "2026-03-01T10:00:00.000Z"),
    ("2026-06-15T24:00:00", "2026-06-15T16:00:00.000Z", "2026-06-16T00:00:00.000Z"),
    ("2026-06-15T24:00:00Z", "2026-06-16T00:00:00.000Z", "2026-06-16T00:00:00.000Z"),
    ("2026/06/15", "2026-06-14T16:00:00.000Z", "2026-06-15T00:00:00.000Z"),
    ("June 15, 2026", "2026-06-14T16:00:00.000Z", "2026-06-15T00:00:00.000Z"),
    ("2026-6-5", "2026-06-04T16:00:00.000Z", "2026-06-05T00:00:00.000Z"),
    (" 2026-06-15", "2026-06-14T16:00:00.000Z", "2026-06-15T00:00:00.000Z"),
    # a trailing space after a date-only string also switches to the legacy parser (local midnight)
    ("2026-06-15 ", "2026-06-14T16:00:00.000Z", "2026-06-15T00:00:00.000Z"),
    ("2026-06-15 12:00:00 UTC", "2026-06-15T12:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("Mon, 15 Jun 2026 12:00:00 GMT", "2026-06-15T12:00:00.000Z", "2026-06-15T12:00:00.000Z"),
    ("6/15", "2001-06-14T16:00:00.000Z", "2001-06-15T00:00:00.000Z"),  # legacy default year 2001
    # range limits
    ("+275760-09-13T00:00:00Z", "+275760-09-13T00:00:00.000Z", "+275760-09-13T00:00:00.000Z"),
    ("-271821-04-20T00:00:00Z", "-271821-04-20T00:00:00.000Z", "-271821-04-20T00:00:00.000Z"),
    ("+275760-09-13T00:00:00.001Z", None, None),
    # NaN cases
    ("2026-06-15T12:00:00 ", None, None),  # trailing space after an ISO time
    ("2026-06-15T12:00:00Z ", None, None),
    ("2026-06-15T12", None, None),
    ("2026-06-15T12:00:00+08", None, None),
    ("2026-06-15T12:00:00 UTC", None, None),  # UTC suffix after an ISO time
    ("2026-06-15T12:00:00UTC", None, None),
    ("1718000000000", None, None),  # numeric strings
    ("2026-06-15T24:00:00.001", None, None),
    ("2026-06-15T23:60:00", None, None),
    ("2026-13-01", None, None),
    ("2026-06-32", None, None),
    ("2026-06-15\u2028", None, None),
    ("", None, None),
    ("not a date", None, None),
]


@pytest.mark.parametrize(("s", "shanghai", "utc"), DATE_PARSE_CASES)
def test_date_parse_shanghai(set_tz, s, shanghai, utc):
    set_tz("Asia/Shanghai")
    got = date_parse(s)
    assert (None if got is None else iso_ms(got)) == shanghai


@pytest.mark.parametrize(("s", "shanghai", "utc"), DATE_PARSE_CASES)
def test_date_parse_utc(set_tz, s, shanghai, utc):
    set_tz("UTC")
    got = date_parse(s)
    assert (None if got is None else iso_ms(got)) == utc


def test_date_parse_exact_ms_values(set_tz):
    set_tz("Asia/Shanghai")
    assert date_parse("2026-06-15T12:00:00") == 1_781_496_000_000
    assert date_parse("2026-06-15") == 1_781_481_600_000
    set_tz("UTC")
    assert date_parse("2026-06-15T12:00:00") == 1_781_524_800_000


@pytest.mark.parametrize(
    ("s", "expected"),
    [
        ("2026-03-08T02:30:00", "2026-03-08T07:30:00.000Z"),  # in the spring-forward gap: moves forward
        ("2026-11-01T01:30:00", "2026-11-01T05:30:00.000Z"),  # ambiguous: the earlier instant (EDT)
        ("2026-11-01T00:59:59.999", "2026-11-01T04:59:59.999Z"),
        ("2026-06-15T12:00:00", "2026-06-15T16:00:00.000Z"),
        ("2026-01-15T12:00:00", "2026-01-15T17:00:00.000Z"),
        ("2026-06-15 12:00:00 EST", "2026-06-15T17:00:00.000Z"),
    ],
)
def test_date_parse_dst_new_york(set_tz, s, expected):
    set_tz("America/New_York")
    assert iso_ms(date_parse(s)) == expected


def test_date_parse_follows_tz_changes(set_tz):
    set_tz("Asia/Kolkata")
    assert iso_ms(date_parse("2026-06-15T12:00:00")) == "2026-06-15T06:30:00.000Z"
    set_tz("America/St_Johns")
    assert iso_ms(date_parse("2026-06-15T12:00:00")) == "2026-06-15T14:30:00.000Z"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1_718_000_000_000, 1_718_000_000_000),  # a JSON number passes through as epoch ms
        (0, 0),
        (-5, -5),
        (2.0, 2),
        (1.5, 1.5),
        (True, None),
        (False, None),
        (None, None),
        (math.nan, None),
        (math.inf, None),
        ([], None),
        ({}, None),
    ],
)
def test_date_parse_non_strings(value, expected):
    got = date_parse(value)
    assert got == expected
    assert type(got) is type(expected)


def test_js_join_and_to_number():
    assert (
        js_join([1.0, None, "x", False, {"a": 1}, [None, 1e21]], ", ")
        == "1, , x, false, [object Object], ,1e+21"
    )
    assert js_to_number("2.50") == 2.5
    assert js_to_number(True) == 1
    assert js_to_number([7]) == 7
    assert js_to_number([]) == 0
    assert math.isnan(js_to_number({}))
    assert math.isnan(js_to_number([1, 2]))


def test_math_max_min_and_division():
    assert js_max(2, 3) == 3 and js_min(2, 3) == 2
    assert math.isnan(js_max(1, math.nan)) and math.isnan(js_min(math.nan, 5))
    assert js_max(1, 1.0) == 1 and type(js_max(1, 1.0)) is int
    assert js_div(1, 0) == math.inf and js_div(-1, 0) == -math.inf and js_div(1, -0.0) == -math.inf
    assert math.isnan(js_div(0, 0)) and math.isnan(js_div(math.nan, 0))
    assert js_div(3, 2) == 1.5
    assert js_exp(1000) == math.inf and js_exp(0) == 1


@pytest.mark.parametrize(
    ("value", "truthy"),
    [(None, False), (False, False), (0, False), (0.0, False), (math.nan, False), ("", False),
     (True, True), ("0", True), (" ", True), (-1, True), ({}, True), ([], True)],
)  # fmt: skip
def test_truthiness(value, truthy):
    assert js_truthy(value) is truthy


def test_integral_numbers_slice_ends_and_index_of():
    assert int_if_integral(2.0) == 2 and type(int_if_integral(2.0)) is int
    assert int_if_integral(2.5) == 2.5 and int_if_integral(math.inf) == math.inf
    assert js_slice_end(math.nan) == 0 and js_slice_end(math.inf) is None and js_slice_end(-math.inf) == 0
    assert js_slice_end(2.7) == 2 and js_slice_end(-2.5) == -2
    assert js_index_of(EMOJI + ":x", ":") == 2 and js_index_of("abc", ":") == -1


def test_object_key_order():
    keys = {"b": 1, "2": 1, "a": 1, "1": 1, "01": 1, "4294967295": 1}
    assert js_own_keys(keys) == ["1", "2", "b", "a", "01", "4294967295"]


def test_time_field_parsing():
    assert date_parse_string(2026) == date_parse("2026") == 1_767_225_600_000  # String(2026), not epoch ms
    assert parse_time_field(1_500_000_000_000) == 1_500_000_000_000
    assert parse_time_field("2026-01-01") == 1_767_225_600_000
    assert parse_time_field("") is None and parse_time_field(None) is None and parse_time_field("abc") is None


def test_escape_lone_surrogates_keeps_pairs_and_escapes_halves():
    import json

    from core.jsutil import escape_lone_surrogates

    text = json.dumps(["a\ud800b", "😀", "\udc00"], ensure_ascii=False)
    out = escape_lone_surrogates(text)
    assert out.encode("utf-8") and json.loads(out) == ["a\ud800b", "😀", "\udc00"]
    assert "\\ud800" in out and "😀" in out
