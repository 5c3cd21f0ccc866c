"""The Backups tab's widgets: the button bar, the header (where and how many), the footer (the selected
backup and what restoring does)."""
