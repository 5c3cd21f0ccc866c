"""The widgets of the Context tab, one per file."""
