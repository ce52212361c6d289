"""Hear: sound in; words and turn ends out.

In: microphone frames (:mod:`.microphone`) or a WAV paced like one (:mod:`.sources`), and
what the speaker played (the echo canceller's reference, :mod:`.echo`). Out: clean frames,
speech segments (:mod:`.vad`), transcripts with the recognizer's own confidence
(:mod:`.stt`), the end-of-turn decision (:mod:`.end_of_turn`) and whether speech over the
reply takes the floor (:mod:`.bargein`). Nothing here knows about replies or voices."""
