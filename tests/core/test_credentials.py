"""The credential rules of ``store_fact`` (Part A §7 auth gates, Part B §7 secret shapes) as functions;
the exact texts through the tool are in ``test_tools.py``."""

from __future__ import annotations

import pytest

from core.credentials import auth_prefix_error, key_shape_error, secret_shape_error, secret_shape_leaf_error


def test_auth_prefix_error():
    assert auth_prefix_error("x-api-key : abc").startswith(
        'value looks like a full HTTP header line (starts with "x-api-key :").'
    )
    assert auth_prefix_error("API_KEY  xyz").startswith('value contains auth scheme prefix "API_KEY",')
    assert auth_prefix_error("api key xyz").startswith('value contains auth scheme prefix "api key",')
    long = "Basic " + "Q" * 40
    assert auth_prefix_error(long).endswith(f'❌ value: "{long[:30]}..."\n  ✅ value: "{"Q" * 30}..."')
    # JS /i does not fold the long s or the Kelvin sign onto ASCII.
    assert auth_prefix_error("bearer\u00a0x") is not None
    assert auth_prefix_error("Authorization") is None
    assert auth_prefix_error("tokens are fine") is None
    assert auth_prefix_error("\u212aey: x") is None


def test_key_shape_error():
    assert key_shape_error("mycox_api_key") is None
    assert key_shape_error("user.preferences.theme") is None
    for key in ("a b", "a:b", "a\nb", "a\u3000b"):
        assert key_shape_error(key).startswith(f"key '{key}' contains spaces / colons / newlines")
    # The key is cut at 50 UTF-16 units in the message.
    assert key_shape_error("x " + "y" * 60).startswith("key 'x " + "y" * 48 + "' contains")


@pytest.mark.parametrize(
    "value",
    [
        "sk-proj1234567890abcdef",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "github_pat_11ABCDEFG0123456789",
        "xoxb-1234567890-abcdefghij",
        "glpat-abcdefghijklmnopqrst",
        "AKIAIOSFODNN7EXAMPLE",
        "AIzaSyA1234567890abcdefghijkl",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
        "  svc-0123456789abcdef0123456789abcdef  ",
    ],
)
def test_strong_shapes_are_flagged_under_any_key(value):
    assert secret_shape_error("notes", "misc", value) is not None


def test_token_like_needs_a_credential_key():
    v = "abcdefghijklmnopqrstuvwx1"
    assert secret_shape_error("service", "github_token", v) is not None
    assert secret_shape_error("service", "Api-Key", v) is not None
    assert secret_shape_error("service", "build_id", v) is None
    assert secret_shape_error("service", "password", "abcdefghijklmnopqrstuvwxyz") is None  # no digit


@pytest.mark.parametrize(
    "value",
    ["sk-short", "sk-has a space in it 12345", '{"token":"sk-abcdefghijklmnop"}', "[sk-abcdefghijklmnop]"],
)
def test_skipped_values(value):
    assert secret_shape_error("p", "api_key", value) is None


def test_secret_shape_leaf_error():
    assert "project-mycox-1" in secret_shape_leaf_error("project", "mycox", ["x", "sk-abcdefghijklmnop"])
    deep3 = {"a": {"b": {"c": "sk-abcdefghijklmnop"}}}
    assert "project-k-a-b-c" in secret_shape_leaf_error("project", "k", deep3)
    deep4 = {"a": {"b": {"c": {"d": "sk-abcdefghijklmnop"}}}}
    assert secret_shape_leaf_error("project", "k", deep4) is None
    # JS object key order: array-index keys first.
    two = {"z": "sk-abcdefghijklmnop", "1": "ghp_abcdefghijklmnopqrst"}
    assert "project-k-1" in secret_shape_leaf_error("project", "k", two)
    assert secret_shape_leaf_error("project", "cfg", {"retries": 3, "name": "bob"}) is None
