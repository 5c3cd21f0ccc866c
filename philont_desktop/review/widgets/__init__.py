"""The widgets of the Review tab, one per file."""
