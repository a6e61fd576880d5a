"""Table Companion: keeps the books of a boxed board game played on a real table."""

__version__ = "0.1.0"
