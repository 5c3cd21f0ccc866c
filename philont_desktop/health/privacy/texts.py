"""The Privacy page's words: finding kinds, categories and layers, and the templates of the codes of the
scan and the purge (``privacy.*``), in the application's language (context ``PrivacyText``).

A kind the table does not know (a newer core) is shown as its code; a code without a template falls back
to the core's English message. The templates are registered with
:func:`philont_desktop.messages.register_templates` when this module is imported, so
:func:`philont_desktop.messages.text` words the page's errors like every other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from philont_desktop import messages
from philont_desktop.qt import QT_TRANSLATE_NOOP, QCoreApplication

__all__ = ["category_name", "code_text", "kind_name", "layer_name", "mode_name"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("PrivacyText", text)


def _translated(text: str) -> str:
    """A word declared with ``QT_TRANSLATE_NOOP`` in the tables below, in the current language."""
    return QCoreApplication.translate("PrivacyText", text)


CATEGORIES: dict[str, str] = {
    "secret": QT_TRANSLATE_NOOP("PrivacyText", "Secret"),
    "personal": QT_TRANSLATE_NOOP("PrivacyText", "Personal data"),
    "instruction": QT_TRANSLATE_NOOP("PrivacyText", "Planted instruction"),
}

KINDS: dict[str, str] = {
    "secret.openai_key": QT_TRANSLATE_NOOP("PrivacyText", "OpenAI API key"),
    "secret.anthropic_key": QT_TRANSLATE_NOOP("PrivacyText", "Anthropic API key"),
    "secret.aws_access_key": QT_TRANSLATE_NOOP("PrivacyText", "AWS access key"),
    "secret.aws_secret_key": QT_TRANSLATE_NOOP("PrivacyText", "AWS secret key"),
    "secret.github_token": QT_TRANSLATE_NOOP("PrivacyText", "GitHub token"),
    "secret.google_api_key": QT_TRANSLATE_NOOP("PrivacyText", "Google API key"),
    "secret.slack_token": QT_TRANSLATE_NOOP("PrivacyText", "Slack token"),
    "secret.stripe_key": QT_TRANSLATE_NOOP("PrivacyText", "Stripe key"),
    "secret.jwt": QT_TRANSLATE_NOOP("PrivacyText", "JSON Web Token"),
    "secret.private_key": QT_TRANSLATE_NOOP("PrivacyText", "Private key"),
    "secret.password": QT_TRANSLATE_NOOP("PrivacyText", "Password"),
    "secret.connection_string": QT_TRANSLATE_NOOP("PrivacyText", "Connection string with a password"),
    "secret.token": QT_TRANSLATE_NOOP("PrivacyText", "Token next to a key word"),
    "personal.email": QT_TRANSLATE_NOOP("PrivacyText", "E-mail address"),
    "personal.phone": QT_TRANSLATE_NOOP("PrivacyText", "Phone number"),
    "personal.cn_id": QT_TRANSLATE_NOOP("PrivacyText", "Chinese resident ID number"),
    "personal.card": QT_TRANSLATE_NOOP("PrivacyText", "Card number"),
    "personal.iban": QT_TRANSLATE_NOOP("PrivacyText", "IBAN"),
    "instruction.override": QT_TRANSLATE_NOOP("PrivacyText", "Instruction to ignore earlier instructions"),
    "instruction.role": QT_TRANSLATE_NOOP("PrivacyText", "Instruction to take another role"),
    "instruction.system_prompt": QT_TRANSLATE_NOOP("PrivacyText", "Talk of the system prompt"),
    "instruction.concealment": QT_TRANSLATE_NOOP(
        "PrivacyText", "Instruction to hide something from the user"
    ),
}

LAYERS: dict[str, str] = {
    "messages": QT_TRANSLATE_NOOP("PrivacyText", "Messages"),
    "actions": QT_TRANSLATE_NOOP("PrivacyText", "Actions"),
    "notes": QT_TRANSLATE_NOOP("PrivacyText", "Notes"),
    "facts": QT_TRANSLATE_NOOP("PrivacyText", "Facts"),
    "skills": QT_TRANSLATE_NOOP("PrivacyText", "Skills"),
    "skill_revisions": QT_TRANSLATE_NOOP("PrivacyText", "Skill revisions"),
    "calendar": QT_TRANSLATE_NOOP("PrivacyText", "Calendar"),
    "tasks": QT_TRANSLATE_NOOP("PrivacyText", "Tasks"),
    "audit": QT_TRANSLATE_NOOP("PrivacyText", "Audit trail"),
}

MODES: dict[str, str] = {
    "redact": QT_TRANSLATE_NOOP("PrivacyText", "Redact the span"),
    "delete": QT_TRANSLATE_NOOP("PrivacyText", "Delete the row"),
}


def category_name(category: str) -> str:
    source = CATEGORIES.get(category)
    return _translated(source) if source else category


def kind_name(kind: str) -> str:
    """The kind in words (its code when this version does not know it)."""
    source = KINDS.get(kind)
    return _translated(source) if source else kind


def layer_name(layer: str) -> str:
    source = LAYERS.get(layer)
    return _translated(source) if source else layer


def mode_name(mode: str) -> str:
    source = MODES.get(mode)
    return _translated(source) if source else mode


# -- the codes of the scan and the purge -------------------------------------------------------------------

Fmt = Callable[[Mapping[str, Any]], str]


class _Params(dict):
    """A code's parameters for ``format_map``: one the core did not give reads as ``?``."""

    def __missing__(self, key: str) -> str:
        return "?"


def _stale_why(p: Mapping[str, Any]) -> str:
    why = {
        "row_gone": lambda: _tr("the row or its text is no longer there"),
        "span_outside": lambda: _tr("the span is outside the stored text"),
        "table_unreadable": lambda: _tr("its table cannot be read"),
    }.get(str(p.get("why")), lambda: _tr("it is no longer as the scan found it"))()
    return why + (f" ({p['detail']})" if p.get("detail") else "")


def _busy(p: Mapping[str, Any]) -> str:
    why = {
        "wal_recent": lambda: _tr("its -wal file was written {0} s ago").format(p.get("age_s")),
        "locked": lambda: _tr("another program holds a lock on it"),
        "written": lambda: _tr("it was written while the purge watched it"),
    }.get(str(p.get("reason")), lambda: _tr("it is in use"))()
    return _tr(
        "The database {path} seems to be in use (probably by the agent): {why}. Stop the agent, wait a few "
        "seconds and try again. Nothing was purged."
    ).format(path=p.get("path", "?"), why=why)


_TEMPLATES: dict[str, Fmt] = {
    "privacy.scan_cancelled": lambda p: _tr("The scan was cancelled."),
    "privacy.unknown_layer": lambda p: _tr("There is no layer {layer}; the layers are {layers}.").format(
        layer=p.get("layer", "?"), layers=", ".join(layer_name(str(x)) for x in p.get("layers") or ())
    ),
    "privacy.purge.mode": lambda p: _tr("There is no purge mode {mode}: redact or delete.").format_map(
        _Params(p)
    ),
    "privacy.purge.no_database": lambda p: _tr(
        "There is no database at {path}: nothing was purged."
    ).format_map(_Params(p)),
    "privacy.purge.other_database": lambda p: _tr(
        "The purge was planned for {planned}, not {path}: nothing was purged."
    ).format_map(_Params(p)),
    "privacy.purge.agent_running": _busy,
    "privacy.purge.open_here": lambda p: _tr(
        "The database {path} is open in this program: close its connections first (the purge locks the file "
        "for itself). Nothing was purged."
    ).format_map(_Params(p)),
    "privacy.purge.backup_unreadable": lambda p: _tr(
        "The backup {path} cannot be read ({error}): it is left as it is."
    ).format_map(_Params(p)),
    "privacy.purge.changed": lambda p: _tr(
        "{table} #{row} ({column}) changed after the purge was planned: {path} was left as it was. "
        "Scan again and purge what is found then."
    ).format_map(_Params(p)),
    "privacy.purge.failed": lambda p: _tr("The purge failed: {error}").format_map(_Params(p)),
    "privacy.purge.stale": lambda p: _tr("{table} #{row} ({column}) is left out: {why}.").format_map(
        _Params(p, why=_stale_why(p))
    ),
    "privacy.purge.outside": lambda p: _tr(
        "{path} is neither the database nor one of its backups: its finding is left out."
    ).format_map(_Params(p)),
}


def _text(code: str, params: Mapping[str, Any], english: str) -> str | None:
    fmt = _TEMPLATES.get(code)
    if fmt is None:
        return None
    try:
        return fmt(params)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


def _codes() -> frozenset[str]:
    return frozenset(_TEMPLATES)


def code_text(code: str, params: Mapping[str, Any] | None = None, english: str = "") -> str:
    """A code of the scan or the purge in words (the core's English for a code without a template)."""
    return _text(code, params or {}, english) or english or code


messages.register_templates(("privacy.",), _text, _codes)
