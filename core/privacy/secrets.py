"""Secrets: provider key shapes, JWTs, private key blocks, ``password: …`` pairs, connection strings with
a password, and high-entropy tokens next to a word such as key, token, secret (密钥, 令牌).

Every pattern is anchored on a literal a secret of its kind always holds (``sk-``, ``AKIA``, ``eyJ``,
``-----BEGIN``, ``://``, ``password``...): :data:`GATE` is the union of those literals, so a text without
any of them costs one search. Provider shapes follow the providers' published prefixes; a span is the
secret itself (for a pair or a connection string the password alone, so a redaction keeps the rest).
"""

from __future__ import annotations

import re

from core.privacy.hits import Hit, entropy

_B = r"(?<![A-Za-z0-9_-])"  # not inside a longer token
_E = r"(?![A-Za-z0-9_-])"

#: (kind, pattern, confidence), most specific first: an overlapping later hit is dropped.
SHAPES: tuple[tuple[str, re.Pattern[str], float], ...] = (
    (
        "secret.private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.{0,20000}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\n]{0,20000})",
            re.S,
        ),
        0.99,
    ),
    ("secret.anthropic_key", re.compile(_B + r"sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,}"), 0.99),
    (
        "secret.openai_key",
        re.compile(_B + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}" + _E),
        0.9,
    ),
    ("secret.stripe_key", re.compile(_B + r"(?:sk|rk)_live_[A-Za-z0-9]{16,}" + _E), 0.97),
    ("secret.stripe_key", re.compile(_B + r"(?:sk|rk)_test_[A-Za-z0-9]{16,}" + _E), 0.6),
    (
        "secret.aws_access_key",
        re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Z0-9])"),
        0.95,
    ),
    ("secret.github_token", re.compile(_B + r"gh[pousr]_[A-Za-z0-9]{36,255}" + _E), 0.98),
    ("secret.github_token", re.compile(_B + r"github_pat_[A-Za-z0-9_]{22,255}" + _E), 0.98),
    ("secret.google_api_key", re.compile(_B + r"AIza[0-9A-Za-z_-]{35}" + _E), 0.95),
    ("secret.slack_token", re.compile(_B + r"xox[abposre]-(?:\d+-)?[A-Za-z0-9-]{10,}" + _E), 0.95),
    (
        "secret.jwt",
        re.compile(_B + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}" + _E),
        0.9,
    ),
)

#: ``aws_secret_access_key = …``: the 40-character secret (the span is the value).
_AWS_SECRET = re.compile(
    r"(?i)aws.{0,20}?secret.{0,20}?[\"']?\s*[:=：]\s*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
)

#: A password pair: ``password: x``, ``"passwd"="x"``, ``pwd=x``, ``密码：x``, ``密码是x``.
_PASSWORD = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|passphrase|pwd)(?![A-Za-z])[\"']?\s*[:=：]\s*[\"']?"
    r"([^\s\"',;，。；}\\]{4,128})"
    r"|(?:密码|口令)\s*(?:是|为|[:=：])\s*[\"'“]?([^\s\"'”,;，。；}\\]{4,128})"
)
#: A value that only stands for a password (``********``, ``<password>``, ``${PASS}``, ``{{ pwd }}``).
_PLACEHOLDER = re.compile(
    r"^(?:(.)\1*|[<{$%\[(].*|.*[>})\]]|(?i:none|null|true|false|required|optional|xxxx+))$"
)

#: ``scheme://user:password@host``: the password.
_CONNECTION = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/@\"'<>]{1,128}:([^\s@/\"'<>]{1,256})@[A-Za-z0-9.\[-]"
)

#: A word that says a secret follows, then (after a few separators) a token.
_NAMED_TOKEN = re.compile(
    r"(?i)(?:api[_ -]?key|access[_ -]?key|secret|token|bearer|credential|auth(?:orization)?|密钥|秘钥|令牌|凭证|凭据)"
    r"[\w-]{0,20}[\"']?(?:\s{0,3}(?:[:=：]|是|为|is|was)\s{0,3}|\s{1,3})[\"'“]?"
    r"([A-Za-z0-9_\-+/=.~]{16,512})"
)

#: The literals every pattern above holds, in any case.
GATE = re.compile(
    r"(?i)private key|sk-|sk_|rk_|akia|asia|abia|acca|gh[pousr]_|github_pat_|aiza|xox|eyj|aws|pass|pwd"
    r"|密码|口令|://|key|secret|token|bearer|credential|auth|密钥|秘钥|令牌|凭证|凭据"
)


def _tokenish(value: str) -> float | None:
    """The confidence that ``value`` (after a key/token word) is a secret: letters and digits mixed,
    entropy of at least 3.5 bits per character; ``None`` when it does not look like one."""
    if not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return None
    bits = entropy(value)
    if bits < 3.5:
        return None
    return round(min(0.85, 0.5 + (bits - 3.5) * 0.3), 2)


def find(text: str) -> list[Hit]:
    """Every secret in ``text``, most specific first (overlaps are merged by the caller)."""
    out: list[Hit] = []
    for kind, pattern, confidence in SHAPES:
        out.extend(Hit(kind, m.start(), m.end(), confidence) for m in pattern.finditer(text))
    out.extend(Hit("secret.aws_secret_key", m.start(1), m.end(1), 0.9) for m in _AWS_SECRET.finditer(text))
    for m in _PASSWORD.finditer(text):
        g = 1 if m.group(1) is not None else 2
        if not _PLACEHOLDER.match(m.group(g)):
            out.append(Hit("secret.password", m.start(g), m.end(g), 0.8))
    out.extend(Hit("secret.connection_string", m.start(1), m.end(1), 0.9) for m in _CONNECTION.finditer(text))
    for m in _NAMED_TOKEN.finditer(text):
        token = _tokenish(m.group(1))
        if token is not None:
            out.append(Hit("secret.token", m.start(1), m.end(1), token))
    return out
