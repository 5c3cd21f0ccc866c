"""The Actions tab: the tool-call log, its filters and failure rates."""
