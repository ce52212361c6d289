"""Speak: text in; sound out.

In: the reply's text as it streams. Out: PCM played on a sink (:mod:`.sinks`: the speaker,
a same-clock WAV, nothing). :mod:`.chunker` cuts the text into speakable pieces,
:mod:`.tts` synthesizes them (Piper, the system voice), :mod:`.voices` picks the voice for
each piece by its script and keeps the instant replies' audio ready, :mod:`.espeak` is the
Korean voice. Nothing here hears or decides what to say."""
