"""Privacy: find secrets, personal data and planted instructions in every layer and every backup, and
purge them for real. :mod:`.finding` holds the shape of a finding; :mod:`.scan` the scan
(:func:`scan`), with the detectors of :mod:`.secrets`, :mod:`.personal` and :mod:`.instructions` behind
the page gate of :mod:`.gate`; :mod:`.allow` the allow-list a person keeps; :mod:`.report` the plain
lines of a scan."""

from core.privacy.allow import Allowed, AllowList
from core.privacy.finding import CATEGORIES, PrivacyFinding
from core.privacy.scan import (
    KINDS,
    LAYERS,
    SOURCES,
    ScanCancelled,
    ScannedFile,
    ScanResult,
    Skipped,
    context,
    detect,
    finding_id,
    finding_json,
    result_json,
    scan,
    span_text,
)

__all__ = [
    "CATEGORIES",
    "KINDS",
    "LAYERS",
    "SOURCES",
    "AllowList",
    "Allowed",
    "PrivacyFinding",
    "ScanCancelled",
    "ScanResult",
    "ScannedFile",
    "Skipped",
    "context",
    "detect",
    "finding_id",
    "finding_json",
    "result_json",
    "scan",
    "span_text",
]
