"""The message keys the code can produce, read from its source: what the catalog tests check
has a text in French and English (tests/engine/test_i18n.py, and per game)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "companion"
CALLS = {"say", "RuleError", "StoreError", "Message", "Expectation"}
# keys built with an f-string, spelled out: (prefix, the values the code can put in it)
FAMILIES = {
    "fight.": ("won", "lost", "declined", "partly_won"),
    "game.": ("won", "lost"),
    "expect.dice_": ("fight", "market"),
    "expect.resolve_": ("fight", "market"),
    "prompt.resolve_": ("fight", "market"),
    "prompt.choose_": ("lose", "grip", "ungrip", "heal", "order"),
    "config.expect.": ("pin", "choice", "bool", "number", "whole", "text"),
    "counter.how.": ("dodge", "dodge_mixed", "dodge_ground"),
    "where.": ("charger", "discard", "hand", "loaded"),
}


def _literal_keys(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literal_keys(node.body) + _literal_keys(node.orelse)
    if isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.Constant):
        prefix = node.values[0].value
        return [prefix + value for value in FAMILIES[prefix]]
    return []


def keys_used(root: Path = ROOT) -> set[str]:
    """Message keys passed to say(), RuleError(), Message() and prompt dicts in the modules
    under ``root`` (the whole package by default)."""
    keys: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", getattr(node.func, "id", None))
                if name in CALLS and node.args:
                    index = 1 if name == "Expectation" else 0
                    if len(node.args) > index:
                        keys.update(_literal_keys(node.args[index]))
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "key":
                        keys.update(_literal_keys(value))
    return {k for k in keys if "." in k and " " not in k}
