"""The games the companion knows; each is a folder registered under companion.games."""
