"""What ``store_fact`` refuses to keep in a fact: header-shaped keys, auth headers, raw credentials.

Three gates, each returning the reference's error text (a compatibility contract, to the character)
or ``None``:

* :func:`key_shape_error`: a key with white space, ``:`` or a newline (Part A §7: a header line or a
  sentence stored as a key);
* :func:`auth_prefix_error`: a string value that is an HTTP header line (``Authorization: ...``) or
  starts with an auth scheme (``Bearer ...``) (Part A §7);
* :func:`secret_shape_error` / :func:`secret_shape_leaf_error`: a raw credential or API key in a
  string value, or in a string leaf of an object or array up to depth 3 (the newer reference's
  ``detectSecretShapedValue`` / ``detectSecretShapedLeaf``, Part B §7).

The patterns are the reference's JavaScript regular expressions: ``\\s`` is the JavaScript white-space
class, ``/i`` folds ASCII letters only, lengths and slices count UTF-16 units.
"""

from __future__ import annotations

import re
from typing import Any

from core.jsutil import JS_WS, js_index_of, js_own_keys, js_slice, js_trim, utf16_len

__all__ = ["auth_prefix_error", "key_shape_error", "secret_shape_error", "secret_shape_leaf_error"]

_JS_S = JS_WS  # JavaScript \s as a character class
_KEY_SHAPE_RE = re.compile(f"{_JS_S}|[:\\r\\n]")
_AUTH_HEADER_LINE = re.compile(
    f"(authorization|x-api-key|x-auth-token|api-key|authentication){_JS_S}*:", re.IGNORECASE | re.ASCII
)
_AUTH_SCHEME_PREFIX = re.compile(
    f"(bearer|token|basic|digest|api(?:{_JS_S}|[_-])?key){_JS_S}+", re.IGNORECASE | re.ASCII
)
_KNOWN_TOKEN_PREFIX = re.compile(
    r"(?:sk-|ghp_|gho_|ghs_|github_pat_|xox[bpsar]-|glpat-|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{20,})"
)
_JWT_SHAPE = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_SERVICE_KEY_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]{1,24}[_-][A-Fa-f0-9]{32,}")
_KEYNAME_IMPLIES_CREDENTIAL = re.compile(
    r"api[_-]?key|apikey|token|secret|credential|passwd|password|bearer", re.IGNORECASE | re.ASCII
)
_TOKEN_LIKE = re.compile(r"(?=[A-Za-z0-9._-]*[0-9])[A-Za-z0-9._-]{24,}")
_JS_WS_RE = re.compile(_JS_S)


def key_shape_error(key: str) -> str | None:
    """The ``short slug`` error for a key with whitespace, ``:`` or a newline."""
    if not _KEY_SHAPE_RE.search(key):
        return None
    return (
        f"key '{js_slice(key, 0, 50)}' contains spaces / colons / newlines — you may have accidentally stored a "
        "header line / full path / sentence."
        "\nkey should be a **short slug** (snake_case / kebab-case, no spaces), e.g.:"
        '\n  ✅ "mycox_api_key" / "user.preferences.theme" / "service-config"'
        '\n  ❌ "Authorization: Bearer ..." / "please remember my key is" / "endpoint url"'
        '\nvalue is where real content goes. Retry: store_fact({namespace:"X", key:"<pure-slug>", '
        'value:"<real-content>"})'
    )


def auth_prefix_error(value: str) -> str | None:
    """A string value that is an HTTP header line or starts with an auth scheme (``Bearer ...``)."""
    if _AUTH_HEADER_LINE.match(value):
        head = js_slice(value, 0, js_index_of(value, ":") + 1)
        return (
            f'value looks like a full HTTP header line (starts with "{head}").'
            "\nvalue should be a bare token / raw data, without the header name + colon."
            '\nExample:\n  ❌ value: "Authorization: Bearer sk-xxx"\n  ✅ value: "sk-xxx"'
        )
    m = _AUTH_SCHEME_PREFIX.match(value)
    if m:
        stripped = js_slice(value, utf16_len(m.group(0)))
        return (
            f'value contains auth scheme prefix "{js_trim(m.group(0))}", which is HTTP Authorization header '
            "syntax and should **not** be stored in a fact value."
            "\nThe real data is after stripping the prefix."
            f'\nExample:\n  ❌ value: "{js_slice(value, 0, 30)}..."\n  ✅ value: "{js_slice(stripped, 0, 30)}..."'
        )
    return None


def secret_shape_error(namespace: str, key: str, value: str) -> str | None:
    """Part B §7 ``detectSecretShapedValue``: a raw credential in a string value."""
    v = js_trim(value)
    if utf16_len(v) < 16 or _JS_WS_RE.search(v) or v[:1] in ("{", "["):
        return None
    strong = bool(_KNOWN_TOKEN_PREFIX.match(v) or _JWT_SHAPE.fullmatch(v) or _SERVICE_KEY_SHAPE.fullmatch(v))
    key_implies = bool(_KEYNAME_IMPLIES_CREDENTIAL.search(f"{namespace}.{key}"))
    token_like = bool(_TOKEN_LIKE.fullmatch(v))
    if not (strong or (key_implies and token_like)):
        return None
    sid = re.sub(r"[^a-z0-9]+", "-", f"{namespace}.{key}".lower())
    sid = re.sub(r"^-|-$", "", sid)[:40]
    return (
        "value looks like a raw credential/API key — facts must NOT store secrets."
        "\nFacts bypass SecretStore redaction, survive credential cleanup, and leak into every later turn."
        f'\nStore it properly instead: saveCredential({{name:"{sid}", value:"<the key>"}}),'
        f" then reference it in http calls as {{{sid}}}."
        "\n(If you only need to REMEMBER that a key exists, store a status fact without the value,"
        f' e.g. value: {{"status":"saved-in-credential-store","credential":"{sid}"}}.)'
    )


def secret_shape_leaf_error(namespace: str, key: str, value: Any, depth: int = 0) -> str | None:
    """``detectSecretShapedLeaf``: string leaves of objects/arrays checked to depth 3 (key ``key.sub``)."""
    if isinstance(value, str):
        return secret_shape_error(namespace, key, value)
    if depth >= 3 or value is None:
        return None
    if isinstance(value, dict):
        pairs = {str(k): v for k, v in value.items()}
        items = [(k, pairs[k]) for k in js_own_keys(pairs)]
    elif isinstance(value, list | tuple):
        items = [(str(i), v) for i, v in enumerate(value)]
    else:
        return None
    for k, v in items:
        hit = secret_shape_leaf_error(namespace, f"{key}.{k}", v, depth + 1)
        if hit:
            return hit
    return None
