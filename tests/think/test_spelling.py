"""The spelling skill: a word said letter by letter, from the recognizer's own writing of it, and
what is not a word to spell left to the others."""

from __future__ import annotations

import json

import numpy as np
import pytest




@pytest.mark.parametrize("question, reply", [
    ("How do you spell necessary?", "Necessary is spelled N, E, C, E, S, S, A, R, Y."),
    ("how do i spell rhythm", "Rhythm is spelled R, H, Y, T, H, M."),
    ("Spell Wednesday.", "Wednesday is spelled W, E, D, N, E, S, D, A, Y."),
    ("How is 'receive' spelled?", "Receive is spelled R, E, C, E, I, V, E."),
    ("What's the spelling of separate?", "Separate is spelled S, E, P, A, R, A, T, E."),
    ("Can you spell ice cream for me?", "Ice cream is spelled I, C, E. C, R, E, A, M."),
    ("How do you spell the word Mississippi?", "Mississippi is spelled M, I, S, S, I, S, S, I, P, P, I."),
    ("How to spell O'Brien?", "O'Brien is spelled O, B, R, I, E, N."),
    ("Um, how do you spell New York?", "New York is spelled N, E, W. Y, O, R, K."),
])
def test_a_word_is_spelled_letter_by_letter(english_skills, question, reply):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("spelling", reply)


@pytest.mark.parametrize("question", [
    "How do you spell the",          # words before a thinking pause
    "How do you spell",
    "How do you spell it?",
    "how do you spell a",
    "How do you spell the word?",
    "Spell checker is broken.",      # a sentence, not a request
    "How do you spell 42?",          # no letters to spell
    "How do you stand? Yes, it's a reason",
    "Tell me how to spell words better in my essays.",
])
def test_what_is_no_word_to_spell_is_left_to_the_others(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "spelling", found


def test_a_misheard_function_word_is_not_guessed_into_a_word_to_spell(english_skills):
    """Misheard readings may reach a skill with one function word changed ("what time of it");
    spelling is taken only as said: "how do you spell the" is not "how do you spell as"."""
    assert english_skills.match("How do you spell the") is None
    assert english_skills.match("What time of it").skill == "clock"  # the guess still works where it should


@pytest.mark.slow
def test_the_spelled_letters_are_heard_as_letters(engines, tmp_path, capsys):
    """chat --input: the question said by Piper, answered by the skill, and the answer read back by the
    recognizer as the word's letters (the voice says letter names, not a word). Read back from the answer said
    without Piper's random variation: the reply's own draw was heard "r, h, y, t, h, n" once in a while."""
    from assistant.commands.cli import main
    from assistant.commands.spoken import speak_question
    from assistant.sound import load_wav, resample, save_wav

    question, answer = tmp_path / "spell.wav", tmp_path / "answer.wav"
    save_wav(question, speak_question(engines.tts, "How do you spell rhythm?", tail_s=5.0), 16000)
    capsys.readouterr()
    assert main(["chat", "--input", str(question), "--output", str(answer), "--json"]) == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [(t["source"], t["skill"], t["reply"]) for t in turns] == [
        ("skill", "spelling", "Rhythm is spelled R, H, Y, T, H, M.")], turns
    assert np.abs(load_wav(answer, 16000)).max() > 0.05  # the answer was spoken
    said = resample(np.concatenate(list(engines.tts.steady(turns[0]["reply"]))), engines.tts.rate, 16000)
    heard = engines.stt.transcribe_array(said).casefold()
    letters = "".join(ch for ch in heard.split("spelled")[-1] if ch.isalpha())
    assert letters == "rhythm", heard


@pytest.mark.parametrize("question, reply", [
    ("How many letters are in the word banana?", "Banana has 6 letters."),  # (the model: "...has 10 letters")
    ("How many letters in Tuesday?", "Tuesday has 7 letters."),
    ("How many letters does Mississippi have?", "Mississippi has 11 letters."),
    ("How many vowels in the word queue?", "Queue has 4 vowels: U, E, U, E."),
    ("How many vowels are in rhythm?", "Rhythm has no vowels."),
    ("Count the consonants in the word strength.", "Strength has 7 consonants: S, T, R, N, G, T, H."),
    ("What's the third letter of the word apple?", "The 3rd letter of apple is P."),
    ("What's the last letter of banana?", "The last letter of banana is A."),
    ("What is the 12th letter of the word apple?", "Apple has only 5 letters."),
    ("What letter does xylophone start with?", "Xylophone starts with X."),
])
def test_a_words_letters_are_counted_or_picked(english_skills, question, reply):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("spelling", reply)


@pytest.mark.parametrize("question", [
    "How many letters does my name have?", "How many letters are in it?", "What's the first letter of the alphabet?",
    "How many letters did you get today?",
])
def test_letters_of_no_word_said_are_not_counted(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "spelling"


@pytest.mark.parametrize("question", ["Say the alphabet.", "Recite the alphabet.", "Can you say the ABCs?"])
def test_the_alphabet_in_order(english_skills, question):
    found = english_skills.match(question)
    assert found is not None and found.text == ", ".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "."
