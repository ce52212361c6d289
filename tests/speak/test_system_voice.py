"""The system voice reads each sentence's own audio, whenever its driver finishes writing it.

pyttsx3's eSpeak NG driver can return from ``runAndWait`` while its synthesis thread is still
writing the file; a fake engine here does that on purpose (the real one does it under load)."""

from __future__ import annotations

import threading
import time
import types

import numpy as np
import soundfile as sf

from assistant.config import TtsConfig
from assistant.speak import tts as tts_module

RATE = 16000


class LateEngine:
    """Writes each sentence (0.1 s of tone a character) after ``runAndWait`` has returned."""

    def __init__(self, late_s: float, announces: bool):
        self.late_s, self.announces = late_s, announces
        self.finished = []
        self.job = None
        self.writers = []

    def setProperty(self, name, value):  # noqa: N802 - pyttsx3's names
        pass

    def getProperty(self, name):  # noqa: N802
        return "fake"

    def connect(self, topic, callback):
        if topic == "finished-utterance":
            self.finished.append(callback)
        return {"topic": topic, "cb": callback}

    def disconnect(self, token):
        self.finished.remove(token["cb"])

    def save_to_file(self, text, path):
        self.job = (text, path)

    def write(self, text, path):
        time.sleep(self.late_s)
        n = int(0.1 * RATE) * len(text)
        sf.write(path, 0.3 * np.sin(np.arange(n) * 0.2).astype(np.float32), RATE)
        if self.announces:
            for callback in self.finished:
                callback(name=None, completed=True)

    def runAndWait(self):  # noqa: N802
        text, path = self.job
        if self.late_s:
            writer = threading.Thread(target=self.write, args=(text, path))
            writer.start()
            self.writers.append(writer)
        else:
            self.write(text, path)


def system_voice(monkeypatch, engine: LateEngine) -> tts_module.SystemTts:
    fake = types.SimpleNamespace(init=lambda: engine)
    monkeypatch.setattr(tts_module, "installed", lambda *args: fake)
    monkeypatch.setattr(tts_module, "trim_lead_in", lambda pcm, rate: pcm)
    return tts_module.SystemTts(TtsConfig(engine="system"))


def test_a_sentence_written_after_the_driver_returns_is_its_own_audio(monkeypatch):
    engine = LateEngine(late_s=0.2, announces=True)
    voice = system_voice(monkeypatch, engine)
    try:
        for text in ("A much longer sentence.", "Hi.", "Another one, longer again."):
            pcm = np.concatenate(list(voice.synthesize(text)))
            assert pcm.size == int(0.1 * RATE) * len(text), f"{text!r} came back as another sentence's audio"
    finally:
        voice.close()
        for writer in engine.writers:
            writer.join()
    assert engine.finished == [], "a closed voice leaves no callback on the shared engine"


def test_a_driver_that_announces_no_end_is_read_once_its_file_is_there(monkeypatch):
    voice = system_voice(monkeypatch, LateEngine(late_s=0.0, announces=False))
    try:
        pcm = np.concatenate(list(voice.synthesize("Hello.")))
        assert pcm.size == int(0.1 * RATE) * len("Hello.")
    finally:
        voice.close()
