"""benchproof: static benchmark report sites that keep every repetition visible."""

__version__ = "0.1.0"
