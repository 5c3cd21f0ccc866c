"""The Audit tab (the trail of manual edits)."""
