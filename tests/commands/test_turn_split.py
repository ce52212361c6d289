"""The split turn corpus: its halves share no voice and no sentence, and each is scored
apart (cut-offs in thinking pauses, the wait after finished turns)."""

from __future__ import annotations

from dataclasses import replace

from assistant.commands.bench.signals import PauseRecord
from assistant.commands.bench.split_report import format_halves, score_half, score_halves
from assistant.commands.bench.turn_split import HALVES, KOREAN_VOICES, VOICES, items
from assistant.config import Config


def test_the_halves_share_no_voice_and_no_sentence():
    assert HALVES == ("test", "tune")  # the test half is reported first
    for voices in (VOICES, KOREAN_VOICES):
        assert not {v.name for v in voices["test"]} & {v.name for v in voices["tune"]}
    said = {half: {part for item in items(half) for part in item.parts} for half in HALVES}
    assert not said["test"] & said["tune"]
    whole = {half: {" ".join(item.parts) for item in items(half)} for half in HALVES}
    assert not whole["test"] & whole["tune"]


def test_each_half_holds_every_kind_and_enough_takes():
    for half in HALVES:
        kinds = {item.kind for item in items(half)}
        assert {"complete", "greeting", "stranded", "pause", "um", "korean", "korean-pause"} <= kinds
        assert len(items(half)) * 2 >= 100  # two voices an item
        assert any(item.trailing for item in items(half))
        assert all(0.4 <= gap <= 1.2 for item in items(half) if item.kind == "pause" for gap in item.gaps)


def _record(take: str, transcript: str, p: float | None, silence_ms: float, final: bool, thinking: bool = False):
    return PauseRecord(take, "pause" if thinking else "complete", 1.0, final, False, silence_ms, thinking,
                       transcript, p, False)


def test_a_half_counts_cut_offs_in_thinking_pauses_and_the_waits_of_finished_turns():
    config = Config()
    records = [
        _record("a", "What is the capital of", 1e-7, 900, final=False, thinking=True),  # waits 2 s: not cut
        _record("a", "What is the capital of Australia?", 0.9, 3000, final=True),
        _record("b", "Remind me too.", 0.9, 700, final=False, thinking=True),  # misheard: cut off
        _record("b", "Remind me to call my mother.", 0.9, 3000, final=True),
        _record("c", "Why is the sky blue?", 1e-3, 3000, final=True),
    ]
    score = score_half(records, config)
    assert score["thinking_pauses"] == 2 and score["thinking_cut_off"] == 1
    assert score["thinking_pauses_to_1s"] == 2 and score["thinking_to_1s_cut_off"] == 1
    assert score["finished_turns"] == 3 and score["wait_median_ms"] == config.turn.complete_ms
    assert score["wait_p90_ms"] > config.turn.complete_ms
    assert any("Remind me too." in line for line in score["cut_off_in"])
    fixed = score_half(records, config, mode="fixed")
    assert fixed["thinking_cut_off"] == 2 and fixed["wait_median_ms"] == config.vad.endpoint_ms


def test_the_halves_are_scored_test_first():
    config = Config()
    records = {"tune": {"en": [_record("a", "Hello.", 0.9, 3000, final=True)]},
               "test": {"en": [_record("b", "Hi.", 0.9, 3000, final=True)]}}
    assert list(score_halves(records, {"en": config})) == ["test", "tune"]


def test_thinking_pauses_over_a_second_are_counted_apart():
    config = Config()
    records = [_record("a", "Remind me too.", 0.9, 700, final=False, thinking=True),
               _record("b", "Tell me about.", 0.9, 1250, final=False, thinking=True)]  # both cut off
    score = score_half(records, config)
    assert score["thinking_cut_off"] == 2 and (score["thinking_pauses_to_1s"], score["thinking_to_1s_cut_off"]) == (1, 1)
    assert "(1 of 1)" in format_halves({"test": {"en": score}})


def test_korean_is_scored_as_the_engine_decides_it():
    """Where the model cannot read Korean the engine ends its turns by the silence and the
    sentence-final ending; the bench scores them the same way, not as 'the model cannot judge'."""
    from assistant.config import with_overrides
    from assistant.languages import for_language

    korean = for_language(with_overrides(Config(), stt={"language": "ko"}))
    records = [_record("a", "서울에서 부산까지", None, 800, final=False, thinking=True),  # waits 1 s: not cut
               _record("a", "서울에서 부산까지 얼마나 걸려요", None, 3000, final=True)]
    by_silence = score_halves({"test": {"ko": records}}, {"ko": korean}, silence_alone=frozenset({"ko"}))["test"]["ko"]
    assert by_silence["thinking_cut_off"] == 0 and by_silence["wait_median_ms"] == korean.turn.complete_ms
    before = score_half(records, replace(korean, turn=replace(korean.turn, no_ending_ms=korean.turn.unsure_ms)),
                        silence_alone=True)
    assert before["thinking_cut_off"] == 1  # 500 ms of silence alone cut the fragment off


def test_a_half_s_figures_are_plain_numbers_and_the_report_writes_numpy_ones(tmp_path):
    import json

    import numpy as np

    from assistant.commands.bench.report import write_json

    config = Config()
    records = [_record("a", "Tell me about.", 0.9, np.float64(700.0), final=False, thinking=True),  # as replayed
               _record("a", "Tell me about cats.", 0.9, np.float64(3000.0), final=True)]
    score = score_half(records, config)
    assert all(type(score[k]) is int for k in ("thinking_pauses_to_1s", "thinking_to_1s_cut_off", "thinking_cut_off"))
    write_json({"replayed": score, "cut": np.bool_(True), "count": np.int64(3)}, tmp_path / "bench.json")
    written = json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
    assert written["count"] == 3 and written["cut"] is True and written["replayed"]["thinking_to_1s_cut_off"] == 1


def test_the_misheard_words_notice_is_scored_on_the_turns_the_model_would_answer():
    from assistant.commands.bench.split_report import format_misheard, score_misheard

    def finished(take: str, heard: str, least: float | None, instant: bool = False) -> PauseRecord:
        return PauseRecord(take, "complete", 1.0, True, False, 3000, False, heard, 0.9, instant, least_word_p=least)

    said = {"a": "How many legs does a spider have?", "b": "What is it for?", "c": "Is there a bus to the airport?",
            "d": "Set a timer for five minutes.", "e": "Thank you.", "f": "Tell me a joke about cats."}
    records = [
        finished("a", "How many legs does a spider have?", 0.6),     # heard right, sure: answered
        finished("b", "What is it for?", 0.14),                      # heard right, unsure: refused
        finished("c", "is never must only airport", 0.05),           # badly misheard: refused
        finished("d", "Set a timer for 5 minutes.", 0.05),           # a skill takes it: never refused
        finished("e", "Thank you.", 0.05, instant=True),             # an instant reply: never refused
        finished("f", "Tell me a joke about cuts.", 0.5),            # a word wrong, sure: answered
        PauseRecord("a", "complete", 0.5, False, False, 200, False, "How many", 1e-4, False, least_word_p=0.01),
    ]
    score = score_misheard(records, said, Config(), taken=lambda text: "timer" in text)
    assert (score["right"], score["right_refused"]) == (2, 1)
    assert (score["some_wrong"], score["some_wrong_refused"]) == (1, 0)
    assert (score["misheard"], score["misheard_refused"]) == (1, 1)
    assert score["right_refused_words"] == ["b: 'What is it for?' (0.14)"]
    assert "1 of 2 / 0 of 1 / 1 of 1" in format_misheard({"test": score})


def test_words_likely_misheard_are_scored_as_the_engine_waits_for_them():
    """The replay marks the words whose least sure word is under ``stt.misheard_below`` as the
    responder does, so a misheard finished turn waits ``turn.misheard_ms``, not the model's long wait."""
    config = Config()
    misheard = replace(_record("a", "Which said he doesn't do it.", 10**-3.4, 3000, final=True), least_word_p=0.07)
    heard = replace(misheard, least_word_p=0.6)
    assert score_half([misheard], config)["wait_median_ms"] == config.turn.misheard_ms
    assert score_half([heard], config)["wait_median_ms"] > config.turn.misheard_ms + 500
    off = replace(config, stt=replace(config.stt, misheard_below=0.0))
    assert score_half([misheard], off)["wait_median_ms"] > config.turn.misheard_ms + 500


def test_the_replay_finds_what_is_answered_at_once_as_the_engine_does(engines, default_config, speak):
    """A skill's request in a frame ("Could you set a timer...?") is answered without the model in the
    engine, so its turn ends as a phrase's does; the replay must see it so too, not only the table's
    phrases, or the bench scores a decision the engine does not make."""
    from assistant.commands.bench.signals import replay
    from assistant.commands.bench.turn_corpus import TurnTake
    from assistant.pipeline.session import make_replies

    replies = make_replies(default_config, engines.tts, default_config.audio.output_rate)
    said = {"request": "Could you set a timer for five minutes?", "question": "Why is the sea salty?"}
    takes = [TurnTake(name, speak(words), words, "complete", "piper", 0.0) for name, words in said.items()]
    finished = {r.take: r for r in replay(takes, engines, default_config, replies) if r.final}
    assert finished["request"].instant and not finished["request"].social, finished["request"].transcript
    assert not finished["question"].instant, finished["question"].transcript
