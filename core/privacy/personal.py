"""Personal data: e-mail addresses, phone numbers (international ``+…`` and Chinese mobile forms),
Chinese resident ID numbers with a valid check digit, card numbers passing Luhn and IBANs passing mod 97.

The checks are the standards' own arithmetic: GB 11643-1999 (ISO 7064 MOD 11-2) for the ID number, the
Luhn formula (ISO/IEC 7812) for cards, ISO 13616 (MOD 97-10) for IBANs. A run of digits that fails its
check is not reported: a timestamp or an order number of the right length rarely passes.
"""

from __future__ import annotations

import re

from core.privacy.hits import Hit

_EMAIL = re.compile(
    r"(?<![\w.%+:/-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])"
)
#: A Chinese mobile number, with or without +86 / 86 and with spaces or dashes: 138 0013 8000.
_CN_MOBILE = re.compile(r"(?<![\d+])(?:(?:\+|00)?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\d)")
#: An international number: ``+`` (or 00), country code, then groups separated by space, dot or dash.
_INTERNATIONAL = re.compile(r"(?<![\w+])(?:\+|00)[1-9]\d{0,2}(?:[ .-]?\(?\d{1,4}\)?){2,6}(?![\d-])")
#: A North American form with separators: (415) 555-0132, 415-555-0132, 415.555.0132.
_NANP = re.compile(r"(?<![\d(-])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?![\d-])")
_CN_ID = re.compile(
    r"(?<![0-9A-Za-z])[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![0-9A-Za-z])"
)
#: 13 to 19 digits, alone or in groups separated by one space or dash, starting as cards do (2-6).
_CARD = re.compile(r"(?<![\d.-])[2-6]\d{3}(?:[ -]?\d){9,15}(?![\d-])")
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])")

#: Seven or more digits with spaces or dashes between: every number above holds such a run.
DIGIT_RUN = re.compile(r"\d[\d \-]{5,}\d")
#: The scan's gate for personal data (:mod:`core.privacy.gate`): a looser form of every pattern above,
#: without look-arounds, that RE2 and Python's :mod:`re` both run.
GATE_PATTERNS: tuple[str, ...] = (
    r"[A-Za-z0-9._%+-]@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2}",
    r"(?:^|[^\d+])(?:86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?:$|\D)",
    r"(?:\+|(?:^|[^\w+])00)[1-9][\d .()-]{6,}\d",
    r"(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}",
    r"(?:^|\D)\d{17}[\dXx]",
    r"[2-6]\d{3}(?:[ -]?\d){9}",
    r"(?-i:[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2})",
)

#: Every kind this module finds.
KINDS: tuple[str, ...] = (
    "personal.card",
    "personal.cn_id",
    "personal.email",
    "personal.iban",
    "personal.phone",
)

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def cn_id_valid(number: str) -> bool:
    """GB 11643-1999: the 18th character is the ISO 7064 MOD 11-2 check of the first 17 digits."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS))
    return _ID_CHECK[total % 11] == number[17].upper()


def luhn_valid(digits: str) -> bool:
    """The Luhn check of a string of digits."""
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = ord(c) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_valid(iban: str) -> bool:
    """ISO 13616: the country code and check digits moved to the end, letters as 10..35, mod 97 is 1."""
    s = iban.replace(" ", "").upper()
    if not 15 <= len(s) <= 34 or not s.isalnum():
        return False
    moved = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


def _cards(text: str) -> list[Hit]:
    out: list[Hit] = []
    for m in _CARD.finditer(text):
        raw = m.group(0)
        digits = _digits(raw)
        if not 13 <= len(digits) <= 19 or not luhn_valid(digits):
            continue
        seps = {c for c in raw if not c.isdigit()}
        if len(seps) > 1:
            continue
        out.append(Hit("personal.card", m.start(), m.end(), 0.9 if seps else 0.7))
    return out


def _phones(text: str) -> list[Hit]:
    out = [Hit("personal.phone", m.start(), m.end(), 0.85) for m in _CN_MOBILE.finditer(text)]
    for m in _INTERNATIONAL.finditer(text):
        if 8 <= len(_digits(m.group(0))) <= 15:
            out.append(Hit("personal.phone", m.start(), m.end(), 0.75))
    out.extend(Hit("personal.phone", m.start(), m.end(), 0.6) for m in _NANP.finditer(text))
    return out


def find(text: str) -> list[Hit]:
    """Every piece of personal data in ``text``, the checked kinds first (overlaps are merged by the caller)."""
    out: list[Hit] = []
    if DIGIT_RUN.search(text):
        out.extend(_numbers(text))
    if "@" in text:
        out.extend(Hit("personal.email", m.start(), m.end(), 0.95) for m in _EMAIL.finditer(text))
    return out


def _numbers(text: str) -> list[Hit]:
    out = [
        Hit("personal.cn_id", m.start(), m.end(), 0.95)
        for m in _CN_ID.finditer(text)
        if cn_id_valid(m.group(0))
    ]
    out.extend(
        Hit("personal.iban", m.start(), m.end(), 0.9) for m in _IBAN.finditer(text) if iban_valid(m.group(0))
    )
    out.extend(_cards(text))
    out.extend(_phones(text))
    return out
