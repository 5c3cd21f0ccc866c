"""The widgets the Timeline tab is composed of."""
