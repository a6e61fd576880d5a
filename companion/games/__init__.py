"""The games the companion knows; each is a folder found through the companion.games entry points."""
