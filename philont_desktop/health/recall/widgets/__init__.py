"""The Recall page's widgets, one per file."""
