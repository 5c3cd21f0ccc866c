"""JavaScript dates: ``Date.prototype.toISOString`` and ``Date.parse`` (a port of V8's date parser).

The reference agent reads and writes its time fields with JavaScript's ``Date``; this module gives the
same results to the character: :func:`iso_ms` formats epoch milliseconds as ``toISOString`` does,
:func:`date_parse` reads a time field as ``Date.parse`` does on Node (V8's ``DateParser``, local time
in the process time zone where a string has no offset). :mod:`core.jsutil` re-exports both, with the
reference's ``parseTimeField``. Standard library only.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from core.datescan import (
    JS_WS_CHARS,
    K_AMPM,
    K_MONTH,
    K_TSEP,
    K_TZ,
    NONE,
    T_END,
    T_INVALID,
    T_WS,
    TZ,
    Day,
    Scanner,
    Time,
    Token,
    between,
    read_ms,
)

__all__ = ["JS_WS_CHARS", "MAX_TIME_MS", "date_parse", "iso_ms"]

#: Largest absolute time value a JavaScript ``Date`` can hold (ECMAScript TimeClip bound), in ms.
MAX_TIME_MS = 8_640_000_000_000_000


# ---------------------------------------------------------------------------------------------------
# Dates
# ---------------------------------------------------------------------------------------------------

_DAY_MS = 86_400_000


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, month 1-12, day may overflow)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (m <= 2), m, d)


def _time_clip(ms: Any) -> int:
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        raise TypeError(f"time value must be a number, not {type(ms).__name__}")
    if isinstance(ms, float):
        if not math.isfinite(ms):
            raise ValueError("Invalid time value")
        ms = math.trunc(ms)
    if abs(ms) > MAX_TIME_MS:
        raise ValueError("Invalid time value")
    return ms


def iso_ms(ms: int | float) -> str:
    """``new Date(ms).toISOString()``, e.g. ``2026-01-01T00:00:00.000Z``.

    Years outside 0000-9999 use the six-digit signed form (``+010000-…``, ``-000001-…``). A value
    that JavaScript would reject (NaN, infinite, beyond ±8.64e15 ms) raises ``ValueError`` (JS throws
    ``RangeError: Invalid time value``). Fractional milliseconds are truncated toward zero.
    """
    t = _time_clip(ms)
    days, rem = divmod(t, _DAY_MS)
    y, m, d = _civil_from_days(days)
    hh, rem = divmod(rem, 3_600_000)
    mi, rem = divmod(rem, 60_000)
    ss, mss = divmod(rem, 1000)
    if 0 <= y <= 9999:
        ys = f"{y:04d}"
    elif y > 9999:
        ys = f"+{y:06d}"
    else:
        ys = f"-{-y:06d}"
    return f"{ys}-{m:02d}-{d:02d}T{hh:02d}:{mi:02d}:{ss:02d}.{mss:03d}Z"


# --- Date.parse: a port of V8's DateParser (src/date/dateparser*.{h,cc}) and ParseDateTimeString ---

_MAX_TIME_BEFORE_UTC_MS = MAX_TIME_MS + 864_000_000  # V8 DateCache::kMaxTimeBeforeUTCInMs


def _es5_date(sc: Scanner, day: Day) -> Token | None:
    """The date of an ES5 string (``±YYYYYY`` or ``YYYY``, ``-MM``, ``-DD``): ``None`` when it was read,
    else the token to hand to the legacy parser."""
    if sc.peek().is_sign():
        sign_tok = sc.next()
        if not sc.peek().is_fixed_number(6):
            return sign_tok
        year = sc.next().value
        if sign_tok.sign() < 0 and year == 0:
            return sign_tok
        day.add(sign_tok.sign() * year)
    elif sc.peek().is_fixed_number(4):
        day.add(sc.next().value)
    else:
        return sc.next()
    if sc.skip_symbol("-"):
        if not sc.peek().is_fixed_number(2) or not between(sc.peek().value, 1, 12):
            return sc.next()
        day.add(sc.next().value)
        if sc.skip_symbol("-"):
            if not sc.peek().is_fixed_number(2) or not between(sc.peek().value, 1, 31):
                return sc.next()
            day.add(sc.next().value)
    return None


def _es5_minutes_or_seconds(sc: Scanner, hour_is_24: bool) -> bool:
    """Whether the next token is a two-digit 00-59 (only 00 after hour 24)."""
    return (
        sc.peek().is_fixed_number(2)
        and between(sc.peek().value, 0, 59)
        and not (hour_is_24 and sc.peek().value > 0)
    )


def _es5_time(sc: Scanner, tm: Time) -> bool:
    """The time after the ``T``: ``HH:MM[:SS[.fff…]]``; ``False`` when it is not valid."""
    if not sc.peek().is_fixed_number(2) or not between(sc.peek().value, 0, 24):
        return False
    hour_is_24 = sc.peek().value == 24
    tm.add(sc.next().value)
    if not sc.skip_symbol(":"):
        return False
    if not _es5_minutes_or_seconds(sc, hour_is_24):
        return False
    tm.add(sc.next().value)
    if sc.skip_symbol(":"):
        if not _es5_minutes_or_seconds(sc, hour_is_24):
            return False
        tm.add(sc.next().value)
        if sc.skip_symbol("."):
            if not sc.peek().is_number() or (hour_is_24 and sc.peek().value > 0):
                return False
            tm.add(read_ms(sc.next()))
    return True


def _es5_offset(sc: Scanner, tz: TZ) -> bool:
    """An optional ``Z``, ``±HHMM`` or ``±HH:MM`` after the time; ``False`` when it is not valid."""
    if sc.peek().is_keyword_z():
        sc.next()
        tz.set(0)
    elif sc.peek().is_symbol("+") or sc.peek().is_symbol("-"):
        tz.set_sign(1 if sc.next().value == ord("+") else -1)
        if sc.peek().is_fixed_number(4):
            hourmin = sc.next().value
            hour, minute = divmod(hourmin, 100)
            if not (between(hour, 0, 23) and between(minute, 0, 59)):
                return False
            tz.hour, tz.minute = hour, minute
        else:
            if not sc.peek().is_fixed_number(2) or not between(sc.peek().value, 0, 23):
                return False
            tz.hour = sc.next().value
            if not sc.skip_symbol(":"):
                return False
            if not sc.peek().is_fixed_number(2) or not between(sc.peek().value, 0, 59):
                return False
            tz.minute = sc.next().value
    return True


def _parse_es5(sc: Scanner, day: Day, tm: Time, tz: TZ) -> Token:
    """V8 ParseES5DateTime: returns the next token for the legacy parser, END on success, INVALID."""
    invalid = Token(T_INVALID, 0, -1)
    rest = _es5_date(sc, day)
    if rest is not None:
        return rest
    if sc.peek().tag != K_TSEP:
        if sc.peek().tag != T_END:
            return sc.next()
    else:
        sc.next()
        if not _es5_time(sc, tm) or not _es5_offset(sc, tz):
            return invalid
        if sc.peek().tag != T_END:
            return invalid
    if tz.is_empty() and tm.is_empty():
        tz.set(0)
    day.is_iso = True
    return Token(T_END, 0, -1)


def _legacy_number(sc: Scanner, n: int, day: Day, tm: Time, tz: TZ) -> bool:
    """A number read by the legacy parser (a time part, a zone's minutes, or a day part); ``False``
    when the string is not a date."""
    if sc.skip_symbol(":"):
        if sc.skip_symbol(":"):
            if not tm.is_empty():
                return False
            tm.add(n)
            tm.add(0)
        else:
            if not tm.add(n):
                return False
            if sc.peek().is_symbol("."):
                sc.next()
    elif sc.skip_symbol(".") and tm.is_expecting(n):
        tm.add(n)
        if not sc.peek().is_number():
            return False
        ms = read_ms(sc.next())
        if ms < 0:
            return False
        tm.add_final(ms)
    elif tz.is_expecting(n):
        tz.minute = n
    elif tm.is_expecting(n):
        tm.add_final(n)
        peek = sc.peek()
        if not (peek.tag == T_END or peek.tag == T_WS or peek.is_keyword_z() or peek.is_sign()):
            return False
    else:
        if not day.add(n):
            return False
        sc.skip_symbol("-")
    return True


def _legacy_keyword(sc: Scanner, tok: Token, day: Day, tm: Time, tz: TZ, has_read_number: bool) -> bool:
    """A keyword read by the legacy parser (AM/PM, a month, a zone); ``False`` when not a date."""
    ktype, value = tok.tag, tok.value
    if ktype == K_AMPM and not tm.is_empty():
        tm.hour_offset = value
    elif ktype == K_MONTH:
        day.named_month = value
        sc.skip_symbol("-")
    elif ktype == K_TZ and has_read_number:
        tz.set(value)
    else:
        if has_read_number:
            return False
        if sc.peek().is_number():
            return False
    return True


def _legacy_offset(sc: Scanner, tok: Token, tz: TZ) -> bool:
    """A ``±H``, ``±HH``, ``±HHMM`` or ``±HH:`` zone offset; ``False`` when not a date."""
    tz.set_sign(tok.sign())
    n = 0
    length = 0
    if sc.peek().is_number():
        t2 = sc.next()
        length = t2.length
        n = t2.value
    if sc.peek().is_symbol(":"):
        tz.hour = n
        tz.minute = NONE
    elif length in (1, 2):
        tz.hour = n
        tz.minute = 0
    elif length in (3, 4):
        tz.hour, tz.minute = divmod(n, 100)
    else:
        return False
    return True


def _v8_parse(s: str) -> tuple[int, int, int, int, int, int, int, int | None] | None:
    """V8 DateParser::Parse. Returns (year, month 1-12, day, h, m, s, ms, utc_offset_s|None)."""
    sc = Scanner(s)
    tz = TZ()
    tm = Time()
    day = Day()
    tok = _parse_es5(sc, day, tm, tz)
    if tok.tag == T_INVALID:
        return None
    has_read_number = not day.is_empty()
    while tok.tag != T_END:
        if tok.is_number():
            has_read_number = True
            if not _legacy_number(sc, tok.value, day, tm, tz):
                return None
        elif tok.is_keyword():
            if not _legacy_keyword(sc, tok, day, tm, tz, has_read_number):
                return None
        elif tok.is_sign() and (tz.is_utc() or not tm.is_empty()):
            has_read_number = True
            if not _legacy_offset(sc, tok, tz):
                return None
        elif (tok.is_sign() or tok.is_symbol(")")) and has_read_number:
            return None
        tok = sc.next()

    ymd = day.write()
    hms = tm.write()
    if ymd is None or hms is None:
        return None
    ok, offset = tz.write()
    if not ok:
        return None
    return (*ymd, *hms, offset)


_EPOCH_NAIVE = datetime(1970, 1, 1)
_CYCLE_DAYS = 146_097  # days in 400 Gregorian years (the calendar repeats exactly)


def _local_to_utc_ms(local_ms: int) -> int:
    """Interpret a wall-clock time (ms, as if UTC) in the process time zone, like V8's ``ToUTC``.

    A time in a spring-forward gap uses the offset before the transition (it moves forward) and an
    ambiguous time takes the earlier instant, which is what a naive ``datetime.timestamp()`` with
    ``fold=0`` does. Years far outside 1000-9000 are shifted by whole 400-year cycles first (the
    calendar and any rule-based daylight saving repeat) so the platform can compute the offset.
    """
    shift_days = 0
    year = _civil_from_days(local_ms // _DAY_MS)[0]
    if year < 1000:
        shift_days = ((1000 - year) // 400 + 1) * _CYCLE_DAYS
    elif year > 9000:
        shift_days = -((year - 9000) // 400 + 1) * _CYCLE_DAYS
    shifted = local_ms + shift_days * _DAY_MS
    secs, rem_ms = divmod(shifted, 1000)
    wall = _EPOCH_NAIVE + timedelta(seconds=secs)
    utc_secs = round(wall.timestamp())
    return utc_secs * 1000 + rem_ms - shift_days * _DAY_MS


def date_parse(value: Any) -> int | float | None:
    """``Date.parse`` as the reference agent applies it to time fields; ``None`` where JS gives NaN.

    * A finite ``int``/``float`` passes through unchanged (epoch ms as a JSON number; an integral
      float comes back as ``int``). ``bool``, ``None``, NaN, infinities and other types give ``None``.
    * A string is parsed by a port of V8's ``DateParser``: ISO date-only forms (``2026``,
      ``2026-06``, ``2026-06-15``) are UTC midnight; an ISO date-time without an offset is local time
      in the process time zone (``TZ``); ``Z`` and ``±HH:MM`` / ``±HHMM`` offsets are honoured. V8's
      lenient extras behave as on Node: lower-case ``t``/``z``, a space instead of ``T``, more than 3
      fraction digits (truncated), ``2026-02-30`` rolling over to 2 March, ``T24:00:00`` as the next
      day, legacy forms (``2026/06/15``, ``June 15, 2026``, ``2026-6-5``) read as local time, and a
      leading space switching to the legacy parser. A trailing space after an ISO time, ``T12``,
      ``+08``, a ``UTC`` suffix directly after an ISO time and numeric strings are NaN (``None``).
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        d = float(value) if isinstance(value, float) else value
        if isinstance(d, float):
            if not math.isfinite(d):
                return None
            return int(d) if d.is_integer() else d
        return d
    if not isinstance(value, str):
        return None
    parsed = _v8_parse(value)
    if parsed is None:
        return None
    year, month, day, hh, mi, ss, ms, offset = parsed
    if not -1_000_000 <= year <= 1_000_000:
        return None
    days = _days_from_civil(year, month, 1) + day - 1
    local = days * _DAY_MS + hh * 3_600_000 + mi * 60_000 + ss * 1000 + ms
    if offset is None:
        if abs(local) > _MAX_TIME_BEFORE_UTC_MS:
            return None
        utc = _local_to_utc_ms(local)
    else:
        utc = local - offset * 1000
        if abs(utc) > MAX_TIME_MS:
            return None
    if abs(utc) > MAX_TIME_MS:
        return None
    return utc
