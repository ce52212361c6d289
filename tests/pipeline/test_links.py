"""The conductor's links: every one is required, so a stage left unwired fails at wiring."""

from dataclasses import fields

import pytest

from assistant.events import State
from assistant.hear.bargein import Action
from assistant.pipeline.links import Links


def _every_link():
    return dict(responder=object(), playback=object(), hush=lambda: None, reply_stages=(), turn_stages=(),
                idle_state=lambda: State.IDLE, note_words=lambda message: None, heard_reply=lambda turn: None,
                overlap_action=lambda overlap, text: Action.STOP, resume=lambda: None, end_paused=lambda turn: None)


def test_every_link_is_given():
    assert {f.name for f in fields(Links)} == set(_every_link())
    Links(**_every_link())


@pytest.mark.parametrize("name", sorted(_every_link()))
def test_a_link_left_out_is_an_error_that_names_it(name):
    links = _every_link()
    del links[name]
    with pytest.raises(TypeError, match=name):
        Links(**links)


@pytest.mark.parametrize("name", sorted(_every_link()))
def test_a_link_given_as_none_is_an_error_that_names_it(name):
    with pytest.raises(TypeError, match=f"not wired: {name}"):
        Links(**{**_every_link(), name: None})


class _Flushed:
    def __init__(self):
        self.flushes = 0

    def flush(self):
        self.flushes += 1


def test_a_reply_dropped_for_speech_over_it_leaves_that_speech_to_be_heard():
    """The turn that took the floor over the reply is still being transcribed: dropping the reply
    flushes the reply's stages, never the transcription of the words that interrupt it."""
    from assistant.pipeline.bus import EventBus
    from assistant.pipeline.conductor import Conductor

    hearing, reply = _Flushed(), _Flushed()
    conductor = Conductor(EventBus(lambda event: None))
    conductor.connect(Links(**{**_every_link(), "reply_stages": (reply,), "turn_stages": (hearing, reply)}))
    turn = conductor.book.open(1)
    conductor.interruptions.drop(turn, hearing=False)
    assert (hearing.flushes, reply.flushes) == (0, 1)
    conductor.interruptions.drop(turn)  # a turn begun anew: everything of the old one goes
    assert (hearing.flushes, reply.flushes) == (1, 2)
