"""Secrets: provider key shapes, JWTs, private key blocks, ``password: …`` pairs, connection strings with
a password, and high-entropy tokens next to a word such as key, token, secret (密钥, 令牌).

Each rule is keyed by the literals a secret of its kind always holds (``sk-``, ``akia``, ``eyj``,
``private key``, ``://``, ``password``...; lower case, looked for in the lower-cased text): a rule whose
literals are absent costs nothing, and the literals together are the scan's gate (:data:`TRIGGERS`).
Provider shapes follow the providers' published prefixes; a span is the secret itself (for a pair or a
connection string the password alone, so a redaction keeps the rest).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from core.privacy.hits import Hit, bounded, entropy


class Rule(NamedTuple):
    """``pattern`` is tried when one of ``triggers`` is in the lower-cased text; ``group`` is the span
    reported; ``check`` (of the span's text) returns the confidence, or ``None`` to drop the match."""

    kind: str
    triggers: tuple[str, ...]
    pattern: re.Pattern[str]
    confidence: float
    group: int = 0
    check: Callable[[str], float | None] | None = None
    word: bool = True  # the span must not continue a longer token on either side


_PLACEHOLDER = re.compile(
    r"^(?:(.)\1*|[<{$%\[(].*|.*[>})\]]|(?i:none|null|true|false|required|optional|xxxx+|your[_-]?\w*))$"
)


def _password(value: str) -> float | None:
    """A password value, not a stand-in for one (``********``, ``<password>``, ``${PASS}``)."""
    return None if _PLACEHOLDER.match(value) else 0.8


def _keyish(value: str) -> float | None:
    """A provider key, not a word that starts the same (``sk-learn-compatible-estimators``): it holds a
    digit and both cases."""
    if (
        any(c.isdigit() for c in value)
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
    ):
        return 0.9
    return None


def _has_digit(value: str) -> float | None:
    """A Slack token holds digits (``xoxb-1234…``); ``xoxa-hugs-and-kisses`` is a word."""
    return 0.95 if any(c.isdigit() for c in value) else None


def _tokenish(value: str) -> float | None:
    """The confidence that ``value`` (after a key/token word) is a secret: 32 or more hex digits, or
    upper and lower case letters and digits mixed with an entropy of at least 3.5 bits per character;
    ``None`` for a word-like value (``expense_claim_875``)."""
    if len(value) >= 32 and all(c in "0123456789abcdefABCDEF" for c in value):
        return 0.7
    if not (
        any(c.isdigit() for c in value)
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
    ):
        return None
    bits = entropy(value)
    if bits < 3.5:
        return None
    return round(min(0.85, 0.5 + (bits - 3.5) * 0.3), 2)


_KEY_WORDS = (
    "key",
    "secret",
    "token",
    "bearer",
    "credential",
    "auth",
    "密钥",
    "秘钥",
    "令牌",
    "凭证",
    "凭据",
)

#: Most specific first: an overlapping later hit is dropped.
RULES: tuple[Rule, ...] = (
    Rule(
        "secret.private_key",
        ("private key",),
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.{0,20000}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
            r"|[A-Za-z0-9+/=\s\\n]{0,20000})",
            re.S,
        ),
        0.99,
        word=False,
    ),
    Rule(
        "secret.anthropic_key", ("sk-ant-",), re.compile(r"sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,}"), 0.99
    ),
    Rule(
        "secret.openai_key",
        ("sk-",),
        re.compile(r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        0.9,
        check=_keyish,
    ),
    Rule("secret.stripe_key", ("_live_",), re.compile(r"[sr]k_live_[A-Za-z0-9]{16,}"), 0.97),
    Rule("secret.stripe_key", ("_test_",), re.compile(r"[sr]k_test_[A-Za-z0-9]{16,}"), 0.6),
    Rule(
        "secret.aws_access_key",
        ("akia", "asia", "abia", "acca"),
        re.compile(r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}"),
        0.95,
    ),
    Rule(
        "secret.github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        re.compile(r"gh[pousr]_[A-Za-z0-9]{36,255}"),
        0.98,
    ),
    Rule("secret.github_token", ("github_pat_",), re.compile(r"github_pat_[A-Za-z0-9_]{22,255}"), 0.98),
    Rule("secret.google_api_key", ("aiza",), re.compile(r"AIza[0-9A-Za-z_-]{35}"), 0.95),
    Rule(
        "secret.slack_token",
        ("xox",),
        re.compile(r"xox[abpsre]-(?:\d+-)?[A-Za-z0-9-]{10,}"),
        0.95,
        check=_has_digit,
    ),
    Rule(
        "secret.jwt",
        ("eyj",),
        re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        0.9,
    ),
    Rule(
        "secret.aws_secret_key",
        ("aws",),
        re.compile(
            r"(?i)aws.{0,20}?secret.{0,20}?[\"']?\s*[:=：]\s*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        0.9,
        group=1,
        word=False,
    ),
    Rule(
        "secret.password",
        ("pass", "pwd"),
        re.compile(
            r"(?i)(?<![A-Za-z])(?:password|passwd|passphrase|pwd)(?![A-Za-z])[\"']?\s*[:=：]\s*[\"']?"
            r"([^\s\"',;，。；}\\\x00]{4,128})"
        ),
        0.8,
        group=1,
        check=_password,
        word=False,
    ),
    Rule(
        "secret.password",
        ("密码", "口令"),
        re.compile(r"(?:密码|口令)\s*(?:是|为|[:=：])\s*[\"'“]?([^\s\"'”,;，。；}\\\x00]{4,128})"),
        0.8,
        group=1,
        check=_password,
        word=False,
    ),
    Rule(
        "secret.connection_string",
        ("://",),
        re.compile(
            r"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@\"'<>\x00]{1,128}:([^\s@/\"'<>\x00]{1,256})@[A-Za-z0-9.\[-]"
        ),
        0.9,
        group=1,
        word=False,
    ),
    Rule(
        "secret.token",
        _KEY_WORDS,
        re.compile(
            r"(?i)(?:api[_ -]?key|access[_ -]?key|key|secret|token|bearer|credential|auth(?:orization)?|密钥|秘钥|令牌|凭证|凭据)"
            r"[\w-]{0,20}[\"']?(?:\s{0,3}(?:[:=：]|是|为|is|was)\s{0,3}|\s{1,3})[\"'“]?"
            r"([A-Za-z0-9_\-+/=.~]{16,512})"
        ),
        0.5,
        group=1,
        check=_tokenish,
    ),
)

#: Every literal a secret holds (lower case): a text without any of them holds no secret.
TRIGGERS: tuple[str, ...] = tuple(sorted({t for r in RULES for t in r.triggers}))

#: The scan's gate for secrets (:mod:`core.privacy.gate`): a looser form of every rule, without
#: look-arounds and with ASCII in character classes, so that RE2 and Python's :mod:`re` (on UTF-8 bytes,
#: case-insensitive) both run it. A text no alternative matches holds nothing a rule finds.
GATE_PATTERNS: tuple[str, ...] = (
    r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY",
    r"sk-[A-Za-z0-9_-]{20}",
    r"[sr]k_(?:live|test)_[A-Za-z0-9]{16}",
    r"(?-i:(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})",
    r"gh[pousr]_[A-Za-z0-9]{36}",
    r"github_pat_[A-Za-z0-9_]{22}",
    r"(?-i:AIza)[0-9A-Za-z_-]{35}",
    r"xox[abpsre]-",
    r"(?-i:eyJ)[A-Za-z0-9_-]{8,}\.(?-i:eyJ)",
    r"aws[^\x00\n]{0,20}?secret",
    r"(?:password|passwd|passphrase|pwd)[\"']?\s*(?::|=|：)",
    r"(?:密码|口令)\s*(?:是|为|:|=|：)",
    r"://[^\s:/@\"'<>\x00]+:[^\s@/\"'<>\x00]+@",
    r"(?:api[_ -]?key|access[_ -]?key|key|secret|token|bearer|credential|auth|密钥|秘钥|令牌|凭证|凭据)"
    r"(?:[\w-]|[^\x00-\x7f]){0,20}[\"']?(?:(?:\s|　){0,3}(?::|=|：|是|为|is|was)(?:\s|　){0,3}|(?:\s|　){1,3})"
    r"(?:\"|'|“)?[A-Za-z0-9_+/=.~-]{16}",
)


def find(text: str, low: str | None = None) -> list[Hit]:
    """Every secret in ``text``, most specific first (overlaps are merged by the caller); ``low`` is
    ``text.lower()`` when the caller has it."""
    low = text.lower() if low is None else low
    out: list[Hit] = []
    for rule in RULES:
        if not any(t in low for t in rule.triggers):
            continue
        g = rule.group
        for m in rule.pattern.finditer(text):
            start, end = m.start(g), m.end(g)
            if rule.word and not bounded(text, start, end):
                continue
            confidence = rule.confidence if rule.check is None else rule.check(m.group(g))
            if confidence is not None:
                out.append(Hit(rule.kind, start, end, confidence))
    return out
