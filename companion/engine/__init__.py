"""The engine: events in, state out, everything journaled. Standard library only."""

from .definitions import DefinitionStore
from .errors import RuleError, StoreError
from .events import Event, Field, Schema, validate
from .game import Game, Step, Tally, check_accepted, find_game, installed_games
from .journal import Journal
from .messages import Expectation, Message, Outcome, Prompt
from .paths import DataPaths
from .session import Frame, Session, Update

__all__ = [
    "DataPaths", "DefinitionStore", "Event", "Expectation", "Field", "Frame", "Game", "Journal",
    "Message", "Outcome", "Prompt", "RuleError", "Schema", "Session", "Step", "StoreError",
    "Tally", "Update", "check_accepted", "find_game", "installed_games", "validate",
]
