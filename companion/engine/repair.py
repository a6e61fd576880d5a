"""``companion repair`` and the journal part of ``companion doctor``: a journal that does not
replay, or whose checksum chain is broken, is never a dead end.

:func:`diagnose` reads (no lock, no write) and lists what is wrong: the first event of each game
the rules refuse, the first row whose checksum does not match, events gone from the tail.
:func:`repair` (under the writer lock) moves each refused event and the rest of its game into the
journal's ``set_aside`` table — kept, never deleted, listed by ``companion repair --list`` — so
the game resumes at its last good event; an altered row is set aside the same way; a lost tail is
accepted (the chain's head moved back) once the owner was told which events are gone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import StoreError
from .files import sweep_temp
from .game import Game
from .journal import Journal
from .lock import writer_lock
from .messages import Message
from .paths import DataPaths
from .session import chain_problem, replay, summary_of


@dataclass(frozen=True)
class Finding:
    """One thing wrong with the journal, said as the error a writer would refuse with."""

    error: StoreError

    def to_message(self) -> Message:
        """The finding as a message to render."""
        return Message(self.error.key, self.error.params)


def diagnose(journal: Journal, games: Mapping[str, Game]) -> list[Finding]:
    """Everything wrong with the journal: a broken chain or lost tail, and the first refused
    event of every game (games of a rules package that is not installed are not judged)."""
    findings = []
    broken = journal.check_chain()
    if broken is not None:
        findings.append(Finding(chain_problem(journal.path, broken)))
    for record in journal.games():
        game = games.get(record.game)
        if game is None:
            continue
        replayed = replay(game, journal.entries(record.id))
        if replayed.refused is not None:
            findings.append(Finding(replayed.problem(journal.path, record.id)))
    return findings


def repair(paths: DataPaths, games: Mapping[str, Game]) -> list[Message]:
    """Repair the data directory's journal under the writer lock; say what was done (an empty
    list: nothing was wrong)."""
    done: list[Message] = []
    with writer_lock(paths.root):
        sweep_temp(paths.root)
        journal = Journal(paths.journal)
        try:
            done += _repair_chain(journal)
            for record in journal.games():
                game = games.get(record.game)
                if game is not None:
                    done += _repair_game(journal, game, record.id)
        finally:
            journal.close()
    return done


def _repair_chain(journal: Journal) -> list[Message]:
    broken = journal.check_chain()
    if broken is None:
        return []
    if broken.seq is None:
        journal.reseal()
        return [Message("repair.tail_accepted", {"first": broken.last_seq + 1,
                                                  "head": broken.head_seq})]
    game_id = journal.game_of(broken.seq)
    seqs = [e.seq for e in journal.entries(game_id) if e.seq >= broken.seq]
    whole = game_id if seqs and seqs[0] == journal.first_seq(game_id) else None
    journal.set_aside(seqs, json.dumps({"key": "repair.reason_chain", "params": {}}),
                      time.time(), whole)
    return [Message("repair.set_aside", {"game": game_id, "seq": broken.seq,
                                         "count": len(seqs),
                                         "reason": {"key": "repair.reason_chain"}})]


def _repair_game(journal: Journal, game: Game, game_id: int) -> list[Message]:
    entries = list(journal.entries(game_id))
    replayed = replay(game, entries)
    if replayed.refused is None:
        return []
    problem = replayed.problem(journal.path, game_id)
    seqs = [e.seq for e in entries if e.seq >= replayed.refused.seq]
    whole = None if replayed.frames else game_id
    journal.set_aside(seqs, json.dumps(problem.params["reason"], ensure_ascii=False),
                      time.time(), whole)
    if replayed.frames:
        journal.set_game(game_id, summary_of(game.view(replayed.frames[-1].state)))
    return [Message("repair.set_aside", {"game": game_id, "seq": replayed.refused.seq,
                                         "event": replayed.refused.event.type,
                                         "count": len(seqs),
                                         "reason": problem.params["reason"]})]
