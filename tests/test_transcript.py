from assistant.stt import clean_transcript


def test_noise_and_blank_transcripts_are_empty():
    assert clean_transcript("  ") == ""
    assert clean_transcript("...") == ""
    assert clean_transcript("[BLANK_AUDIO]") == ""
    assert clean_transcript("(music)") == ""


def test_a_looped_sentence_is_said_once():
    looped = "What is the capital of France? What is the capital of France? what is the capital of France?"
    assert clean_transcript(looped) == "What is the capital of France?"


def test_real_text_is_kept_whole():
    text = "Ask not what your country can do for you, ask what you can do for your country."
    assert clean_transcript(text) == text
    assert clean_transcript("Stop. Stop now.") == "Stop. Stop now."
    assert clean_transcript("It costs 3.50 dollars.") == "It costs 3.50 dollars."
