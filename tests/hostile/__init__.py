"""Hostile input: every attack of a red-team corpus, built into a temporary project."""
