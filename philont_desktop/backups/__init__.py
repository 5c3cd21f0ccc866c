"""The Backups tab: list ``backups/``, back up now, restore one, browse one read-only."""
