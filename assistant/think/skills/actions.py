"""The actions: stop, repeat, louder, quieter.

Their wordings are the rows with an ``action`` in the instant-reply table
(``data/replies.toml``, extended by the user's ``replies.toml``), matched the same way
(the whole utterance, every word belonging to the phrase), so a user who adds "shush"
there adds it here. The engine carries the action out; the reply's words are the
table's, with the audio the instant replies rendered for them.
"""

from __future__ import annotations

import logging
from pathlib import Path

from assistant.config import ConfigError
from assistant.think.replies import Matcher, PhraseTable, default_table, load_table
from assistant.think.skills import SkillContext, SkillReply, SkillSetup

log = logging.getLogger(__name__)

NAME = "actions"


class Actions:
    name = NAME

    def __init__(self, table: PhraseTable, score_cutoff: float, setup: SkillSetup):
        self._matcher = Matcher(table, score_cutoff)
        """The whole table: words nearer another row than an action's are that row's ("미안해요" is an apology, not
        "멈춰요"; "수고했어요" thanks, not "뭐라고 했어요")."""
        self._setup = setup

    def match(self, text: str, context: SkillContext) -> SkillReply | None:  # noqa: ARG002 - protocol
        entry = self._matcher.match(text)
        if entry is None or not entry.action:
            return None
        return SkillReply(NAME, entry.text, entry.action, audio=self._setup.reply_audio(entry.text))


def create(setup: SkillSetup) -> Actions:
    replies = setup.replies
    try:
        table = load_table(Path(replies.table).expanduser() if replies.table else None)
    except ConfigError as exc:  # the instant replies report it too; the actions keep the defaults
        log.warning("%s; the actions use the default phrases", exc)
        table = default_table()
    return Actions(table, replies.score_cutoff, setup)
