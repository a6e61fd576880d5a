"""The engine: events in, state out, everything journaled. Standard library only."""

from .capabilities import Capabilities, Roles
from .definitions import DefinitionStore
from .errors import RuleError, StoreError
from .events import Event, Field, Schema, validate
from .game import Game, Step, Tally, check_accepted, find_game, installed_games
from .journal import Journal
from .messages import Blank, Expectation, Message, Outcome, Prompt, Template
from .paths import DataPaths
from .session import Frame, Session, Update

__all__ = [
    "Blank", "Capabilities", "DataPaths", "DefinitionStore", "Event", "Expectation", "Field",
    "Frame", "Game", "Journal", "Message", "Outcome", "Prompt", "Roles", "RuleError", "Schema",
    "Session", "Step", "StoreError", "Tally", "Template", "Update", "check_accepted", "find_game",
    "installed_games", "validate",
]
