"""V8's date scanner: the tokens of a date string and the records a parse fills (a port of V8's
``src/date/dateparser*.{h,cc}``); :mod:`core.dateparse` reads a string with them.

Standard library only.
"""

from __future__ import annotations

#: The 25 code points that JavaScript's ``\s``, ``String.prototype.trim()`` and ``split(/\s+/)`` treat
#: as white space (WhiteSpace + LineTerminator); V8's date scanner reads the same set. Python's
#: ``str.isspace()`` differs: it adds U+001C-U+001F and U+0085 and lacks U+FEFF. :mod:`core.jsutil`
#: re-exports it.
JS_WS_CHARS = (
    "\t\n\v\f\r \u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


NONE = 2**31 - 1  # V8's kNone
MAX_SIGNIFICANT_DIGITS = 9

# Token tags
T_INVALID, T_UNKNOWN, T_WS, T_NUMBER, T_SYMBOL, T_END = range(-6, 0)
# Keyword types (tags >= 0 are keywords)
K_INVALID, K_MONTH, K_TZ, K_TSEP, K_AMPM = range(5)

KEYWORDS: list[tuple[str, int, int]] = [
    ("jan", K_MONTH, 1),
    ("feb", K_MONTH, 2),
    ("mar", K_MONTH, 3),
    ("apr", K_MONTH, 4),
    ("may", K_MONTH, 5),
    ("jun", K_MONTH, 6),
    ("jul", K_MONTH, 7),
    ("aug", K_MONTH, 8),
    ("sep", K_MONTH, 9),
    ("oct", K_MONTH, 10),
    ("nov", K_MONTH, 11),
    ("dec", K_MONTH, 12),
    ("am\0", K_AMPM, 0),
    ("pm\0", K_AMPM, 12),
    ("ut\0", K_TZ, 0),
    ("utc", K_TZ, 0),
    ("z\0\0", K_TZ, 0),
    ("gmt", K_TZ, 0),
    ("cdt", K_TZ, -5),
    ("cst", K_TZ, -6),
    ("edt", K_TZ, -4),
    ("est", K_TZ, -5),
    ("mdt", K_TZ, -6),
    ("mst", K_TZ, -7),
    ("pdt", K_TZ, -7),
    ("pst", K_TZ, -8),
    ("t\0\0", K_TSEP, 0),
]

# V8 IsWhiteSpaceOrLineTerminator: the same 25 code points form a white-space token. Characters from
# 'A' upwards are word characters, except white space proper (IsWhiteSpace); the line terminators
# U+2028/U+2029 are read as part of a word (so "2026-06-15\u2028" is NaN on Node).
V8_WS = frozenset(JS_WS_CHARS)
V8_SPACE = V8_WS - {"\u2028", "\u2029"}


def between(x: int, lo: int, hi: int) -> bool:
    return lo <= x <= hi


class Token:
    __slots__ = ("length", "tag", "value")

    def __init__(self, tag: int, length: int, value: int) -> None:
        self.tag = tag
        self.length = length
        self.value = value

    def is_number(self) -> bool:
        return self.tag == T_NUMBER

    def is_fixed_number(self, length: int) -> bool:
        return self.tag == T_NUMBER and self.length == length

    def is_symbol(self, c: str) -> bool:
        return self.tag == T_SYMBOL and self.value == ord(c)

    def is_sign(self) -> bool:
        return self.tag == T_SYMBOL and self.value in (ord("+"), ord("-"))

    def sign(self) -> int:
        return 44 - self.value

    def is_keyword(self) -> bool:
        return self.tag >= 0

    def is_keyword_z(self) -> bool:
        return self.tag == K_TZ and self.length == 1 and self.value == 0


class Scanner:
    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0
        self.next_tok = self._scan()

    def _ch(self) -> str:
        # V8 reads a NUL character as the end of input.
        if self.i < len(self.s):
            return self.s[self.i]
        return "\0"

    def _scan(self) -> Token:
        start = self.i
        c = self._ch()
        if c == "\0":
            return Token(T_END, 0, -1)
        if "0" <= c <= "9":
            # ReadUnsignedNumeral: leading zeros are skipped, then at most 9 significant digits
            # build the value and any further digits are read and ignored.
            n = 0
            count = 0
            while self._ch() == "0":
                self.i += 1
            while "0" <= self._ch() <= "9":
                if count < MAX_SIGNIFICANT_DIGITS:
                    n = n * 10 + ord(self._ch()) - 48
                count += 1
                self.i += 1
            return Token(T_NUMBER, self.i - start, n)
        if c in ":-+.)":
            self.i += 1
            return Token(T_SYMBOL, 1, ord(c))
        if c >= "A" and c not in V8_SPACE:
            prefix = []
            length = 0
            while self._ch() >= "A" and self._ch() not in V8_SPACE:
                if length < 3:
                    prefix.append(chr(ord(self._ch()) | 0x20))
                length += 1
                self.i += 1
            word = "".join(prefix).ljust(3, "\0")
            for kw, ktype, kval in KEYWORDS:
                if kw == word and (length <= 3 or ktype == K_MONTH):
                    return Token(ktype, length, kval)
            return Token(K_INVALID, length, 0)
        if c in V8_WS:
            self.i += 1
            return Token(T_WS, 1, -1)
        if c == "(":
            balance = 0
            while True:
                ch = self._ch()
                if ch == ")":
                    balance -= 1
                elif ch == "(":
                    balance += 1
                self.i += 1
                if not (balance > 0 and self._ch() != "\0"):
                    break
            return Token(T_UNKNOWN, 1, -1)
        self.i += 1
        return Token(T_UNKNOWN, 1, -1)

    def next(self) -> Token:
        tok = self.next_tok
        self.next_tok = self._scan()
        return tok

    def peek(self) -> Token:
        return self.next_tok

    def skip_symbol(self, c: str) -> bool:
        if self.next_tok.is_symbol(c):
            self.next_tok = self._scan()
            return True
        return False


class TZ:
    def __init__(self) -> None:
        self.sign = NONE
        self.hour = NONE
        self.minute = NONE

    def set(self, offset_hours: int) -> None:
        self.sign = -1 if offset_hours < 0 else 1
        self.hour = offset_hours * self.sign
        self.minute = 0

    def set_sign(self, sign: int) -> None:
        self.sign = -1 if sign < 0 else 1

    def is_expecting(self, n: int) -> bool:
        return self.hour != NONE and self.minute == NONE and between(n, 0, 59)

    def is_utc(self) -> bool:
        return self.hour == 0 and self.minute == 0

    def is_empty(self) -> bool:
        return self.hour == NONE

    def write(self) -> tuple[bool, int | None]:
        if self.sign == NONE:
            return True, None
        hour = 0 if self.hour == NONE else self.hour
        minute = 0 if self.minute == NONE else self.minute
        # Unsigned 32-bit arithmetic, then the Smi range check (Node's 64-bit Smis hold 31 bits).
        total = (hour * 3600 + minute * 60) & 0xFFFFFFFF
        if total > 2**31 - 1:
            return False, None
        return True, (-total if self.sign < 0 else total)


class Time:
    SIZE = 4

    def __init__(self) -> None:
        self.comp: list[int] = []
        self.hour_offset = NONE

    def is_empty(self) -> bool:
        return not self.comp

    def is_expecting(self, n: int) -> bool:
        idx = len(self.comp)
        return (
            (idx == 1 and between(n, 0, 59))
            or (idx == 2 and between(n, 0, 59))
            or (idx == 3 and between(n, 0, 999))
        )

    def add(self, n: int) -> bool:
        if len(self.comp) < self.SIZE:
            self.comp.append(n)
            return True
        return False

    def add_final(self, n: int) -> bool:
        if not self.add(n):
            return False
        while len(self.comp) < self.SIZE:
            self.comp.append(0)
        return True

    def write(self) -> tuple[int, int, int, int] | None:
        comp = self.comp + [0] * (self.SIZE - len(self.comp))
        hour, minute, second, ms = comp
        if self.hour_offset != NONE:
            if not between(hour, 0, 12):
                return None
            hour = hour % 12 + self.hour_offset
        if not (
            between(hour, 0, 23) and between(minute, 0, 59) and between(second, 0, 59) and between(ms, 0, 999)
        ) and not (hour == 24 and minute == 0 and second == 0 and ms == 0):
            return None
        return hour, minute, second, ms


class Day:
    SIZE = 3

    def __init__(self) -> None:
        self.comp: list[int] = []
        self.named_month = NONE
        self.is_iso = False

    def is_empty(self) -> bool:
        return not self.comp

    def add(self, n: int) -> bool:
        if len(self.comp) < self.SIZE:
            self.comp.append(n)
            return True
        return False

    def write(self) -> tuple[int, int, int] | None:
        if not self.comp:
            return None
        comp = self.comp + [1] * (self.SIZE - len(self.comp))
        is_day = lambda x: between(x, 1, 31)  # noqa: E731
        year = 0  # KJS compatibility: a missing year means 2000 (after the 2-digit rule below)
        if self.named_month == NONE:
            if self.is_iso or not is_day(comp[0]):
                year, month, day = comp
            else:
                month, day, year = comp
        else:
            month = self.named_month
            if not is_day(comp[0]):
                year, day = comp[0], comp[1]
            else:
                day, year = comp[0], comp[1]
        if not self.is_iso:
            if between(year, 0, 49):
                year += 2000
            elif between(year, 50, 99):
                year += 1900
        if not (between(month, 1, 12) and is_day(day)):
            return None
        return year, month, day


def read_ms(tok: Token) -> int:
    number, length = tok.value, tok.length
    if length == 1:
        number *= 100
    elif length == 2:
        number *= 10
    elif length > 3:
        length = min(length, MAX_SIGNIFICANT_DIGITS)
        number //= 10 ** (length - 3)
    return number
