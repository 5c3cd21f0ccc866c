"""Widgets shared by several tabs (plots, error dialog, ...)."""
