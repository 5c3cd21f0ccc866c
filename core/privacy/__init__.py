"""Privacy: find secrets, personal data and planted instructions in every layer and every backup, and
purge them for real. :mod:`.finding` holds the shape of a finding."""

from core.privacy.finding import CATEGORIES, PrivacyFinding

__all__ = ["CATEGORIES", "PrivacyFinding"]
