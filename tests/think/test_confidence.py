"""Confidence from the chosen tokens' probabilities, the hedge, and the per-model threshold."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.config import Config
from assistant.think import calibration
from assistant.think.confidence import TokenOdds, first_sentence, is_content, sentence_confidence, words
from assistant.think.conversation import GenerationStats
from assistant.speak.chunker import first_sentence_end
from assistant.think.hedge import Hedging, hedge_words, spoken_model_name
from assistant.pipeline.waiting import wait_until

from fakes import FakeLlm, FakeOdds, FakeStt, FakeTts, FakeVad, Recorder, RecordingSink

TOKENS = [(b"The", .9), (b" capital", .8), (b" is", .99), (b" Syd", .3), (b"ney", .5), (b".", .9),
          (b" It", .5), (b" has", .2), (b" 3", .5), (b".", .5), (b"5", .5)]


def test_tokens_join_into_words_with_the_product_of_their_probabilities():
    found = words(TOKENS)
    assert [w.text for w in found] == ["The", "capital", "is", "Sydney", ".", "It", "has", "3", ".5"]
    assert found[3].p == pytest.approx(0.15)
    assert [w.content for w in found] == [False, True, False, True, False, False, False, True, True]
    assert not found[4].spaced and not found[8].spaced


def test_the_first_sentence_ends_at_its_mark_when_a_word_follows_after_a_space():
    sentence, ended = first_sentence(words(TOKENS))
    assert ended and [w.text for w in sentence][-1] == "."
    assert sentence_confidence(sentence) == pytest.approx(0.15)  # "Sydney", not "has" of the next sentence
    unfinished, ended = first_sentence(words(TOKENS[:6]))
    assert not ended and len(unfinished) == 5  # the word after "." is not chosen yet
    assert not first_sentence(words([(b"It", 1.0), (b" is", 1.0), (b" 3", .5), (b".", .5), (b"5", .5)]))[1]


@pytest.mark.parametrize("word, content", [("Paris", True), ("the", False), ("It's", False), ("42", True),
                                           ("...", False), ("서울", True), ("is,", False)])
def test_content_words_are_those_the_model_could_get_wrong(word, content):
    assert is_content(word) is content


def test_a_sentence_of_function_words_has_no_confidence():
    assert sentence_confidence(words([(b"It", .1), (b" is", .1), (b".", .1)])) is None


def test_token_odds_keep_the_probability_of_the_token_chosen_after_each_distribution():
    odds = TokenOdds(lambda token: f"<{token}>".encode())
    odds.begin(prompt_tokens=3)
    context = [7, 7, 7]
    logits = [np.log(np.array([0.7, 0.2, 0.1], dtype=np.float32)), np.log(np.array([0.1, 0.1, 0.8], dtype=np.float32)),
              np.log(np.array([0.5, 0.25, 0.25], dtype=np.float32))]
    chosen = [1, 2, 0]
    for row, token in zip(logits, chosen):
        out = odds(np.array(context), row.copy())
        assert np.array_equal(out, row)  # the sampler gets the logits unchanged
        context.append(token)
    assert [t for t, _ in odds.tokens] == [b"<1>", b"<2>"]  # the last is known at the next call
    assert [round(p, 3) for _, p in odds.tokens] == [0.2, 0.8]
    assert odds.us_per_token is not None and odds.us_per_token > 0
    odds.begin(prompt_tokens=3)
    assert odds.tokens == [] and odds.us_per_token is None


def _odds(tokens):
    odds = FakeOdds()
    odds.tokens = tokens
    return odds


def test_hedging_judges_once_when_the_first_sentence_is_known():
    stats = GenerationStats(odds=_odds(TOKENS[:6]))
    hedging = Hedging(0.2, stats)
    assert hedging.judge() is None  # not ended yet
    stats.odds.tokens = TOKENS
    verdict = hedging.judge()
    assert verdict.unsure and verdict.reason == "unsure: 0.15"
    assert hedging.judge() is None  # one verdict a reply
    assert not Hedging(0.1, GenerationStats(odds=_odds(TOKENS))).judge().unsure
    assert not Hedging(0.0, GenerationStats(odds=_odds(TOKENS))).judge().unsure  # 0: never
    assert not Hedging(None, GenerationStats(odds=_odds(TOKENS))).judge().unsure
    assert Hedging(0.5, GenerationStats()).judge() is None  # a backend that cannot tell
    finished = Hedging(0.9, GenerationStats(odds=_odds(TOKENS[:6]))).judge(finished=True)
    assert finished.unsure and finished.confidence == pytest.approx(0.15)


def test_advice_is_not_hedged():
    """Nothing in a suggestion is a fact to be unsure of ("You could have a sandwich." was followed by "But I'm not
    sure of that."); a stated fact as unlikely is hedged as before."""
    from assistant.think.hedge import is_advice

    advice = [(b"You", .9), (b" could", .8), (b" have", .9), (b" a", .9), (b" sandwich", .05), (b".", .9), (b" Or", .5)]
    verdict = Hedging(0.3, GenerationStats(odds=_odds(advice))).judge()
    assert verdict.confidence == pytest.approx(0.05) and not verdict.unsure
    assert Hedging(0.3, GenerationStats(odds=_odds(TOKENS))).judge().unsure  # "The capital is Sydney."
    assert is_advice("A scarf could be a nice gift.") and is_advice("Try to sleep eight hours.")
    assert not is_advice("The capital of Australia is Sydney.") and not is_advice("A cheetah can run fast.")


def test_a_sentence_unsure_itself_or_social_is_not_hedged():
    from assistant.think.hedge import claims_nothing

    unsure = [(b"I", .9), (b"'m", .9), (b" not", .3), (b" sure", .9), (b" what", .1), (b" you", .9), (b" mean", .04),
              (b".", .9), (b" Or", .5)]
    verdict = Hedging(0.3, GenerationStats(odds=_odds(unsure))).judge()
    assert verdict.confidence < 0.3 and not verdict.unsure
    for sentence in ["I can tell you a lot of things, but I'm not sure what you're asking.", "I don't know who that is.",
                     "Hello, I'm here to help with any questions you have.", "Good morning to you too!",
                     "You're welcome, have a nice day.", "안녕하세요, 반가워요.", "그건 잘 모르겠어요."]:
        assert claims_nothing(sentence), sentence
    for sentence in ["The capital of Australia is Sydney.", "Hamlet was written by Marlowe.", "This is a hit song.",
                     "Thanksgiving is in March.", "High tide comes twice a day.", "Knowledge is power."]:
        assert not claims_nothing(sentence), sentence


def test_the_hedge_names_a_bigger_model_in_the_user_s_language():
    assert spoken_model_name("Qwen2.5-3B-Instruct Q4_K_M") == "Qwen 2.5 3B"
    assert hedge_words("en", "Qwen2.5-3B-Instruct Q4_K_M") == (
        "But I'm not sure of that. A bigger model, such as Qwen 2.5 3B, would know better.")
    assert hedge_words("ko", "Qwen2.5-3B-Instruct Q4_K_M").startswith("하지만 확실하지 않아요. Qwen 2.5 3B")
    assert hedge_words("fr") == "But I'm not sure of that."
    assert first_sentence_end("It is 3.5 km. Then more.") == len("It is 3.5 km.")
    assert first_sentence_end("No end yet") == len("No end yet")


def test_a_calibrated_threshold_is_kept_per_model_file_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setattr(calibration, "config_dir", lambda: tmp_path)
    model = tmp_path / "m.gguf"
    model.write_bytes(b"x" * 10)
    assert calibration.threshold_for(model) is None
    saved = calibration.save(model, 0.123456, {"questions": 40, "model": 'A "quoted" name'})
    assert saved == tmp_path / "calibration.toml"
    assert calibration.threshold_for(model) == 0.1235
    model.write_bytes(b"x" * 11)  # another file under the same name is another model
    assert calibration.threshold_for(model) is None
    (tmp_path / "calibration.toml").write_text("not [ toml", encoding="utf-8")
    assert calibration.threshold_for(model) is None  # a broken file is ignored, never a crash
    assert calibration.threshold_for(None) is None


def _engine(llm: FakeLlm, hedge_below: float | None):
    from assistant.config import with_overrides
    from assistant.pipeline import Engine

    config = with_overrides(Config(), llm={"hedge_below": hedge_below} if hedge_below is not None else {})
    recorder, tts = Recorder(), FakeTts()
    engine = Engine(config, vad=FakeVad(), output=RecordingSink(), on_event=recorder, stt=FakeStt(), llm=llm, tts=tts)
    return engine, recorder, tts


@pytest.mark.parametrize("hedge_below, hedged", [(0.3, True), (0.05, False)])
def test_an_unsure_reply_finishes_its_first_sentence_then_hedges(hedge_below, hedged):
    llm = FakeLlm(reply="The capital of Australia is Sydney. It is a large city by the sea.",
                  word_p={"Sydney.": 0.1})
    engine, recorder, tts = _engine(llm, hedge_below)
    try:
        engine.submit_text("What is the capital of Australia?")
        recorder.wait_turns(1)
        assert wait_until(lambda: llm.remembered, 5)  # the history is taken on the responder's thread
    finally:
        engine.close()
    result = recorder.results[0]
    assert result.confidence == pytest.approx(0.1)
    said = " ".join(tts.spoken)
    if hedged:
        assert result.reply == "The capital of Australia is Sydney. But I'm not sure of that."
        assert result.hedged == "unsure: 0.10" and result.to_json()["hedged"] == "unsure: 0.10"
        assert said.startswith("The capital of") and said.endswith("Sydney. But I'm not sure of that.")
        assert "large city" not in said
        assert llm.produced < len(llm.reply.split())  # the stream stopped
        # the history keeps the model's words, not the hedge (a small model finding it there says it too)
        assert llm.remembered == [("What is the capital of Australia?", "The capital of Australia is Sydney.")]
    else:
        assert result.reply == llm.reply and not result.hedged
        assert "not sure" not in said


def test_the_model_s_words_are_what_it_said_without_the_hedge_and_nothing_of_i_don_t_know():
    from assistant.think.hedge import dont_know_words, model_words

    bigger = "Qwen2.5-0.5B-Instruct Q4_K_M"
    assert model_words(f"Paris. {hedge_words('en', bigger)}", "en", bigger) == "Paris."
    assert model_words(f"파리예요. {hedge_words('ko')}", "ko") == "파리예요."
    assert model_words(dont_know_words("en", bigger), "en", bigger) == ""
    assert model_words("I don't know that one, but Paris is nice.", "en") == "I don't know that one, but Paris is nice."
    assert model_words("Paris.", "en", bigger) == "Paris."


def test_the_bigger_model_is_named_once_a_conversation():
    """Named after every unsure answer, the advice was longer than most answers; once heard, the hedge is its
    first sentence alone, until the conversation is forgotten."""
    from assistant.think.hedge import model_words

    bigger = "Qwen2.5-0.5B-Instruct Q4_K_M"
    llm = FakeLlm(reply="The capital of Australia is Sydney. It is a large city.", word_p={"Sydney.": 0.1},
                  bigger_model=bigger)
    engine, recorder, _ = _engine(llm, 0.3)
    try:
        for turns, question in enumerate(("Capital of Australia?", "And of Canada?"), 1):
            engine.submit_text(question)
            recorder.wait_turns(turns)
            assert wait_until(lambda: len(llm.remembered) == turns, 5)
        remembered = [said for _, said in llm.remembered]
        llm.reset()  # a new conversation (a kiosk's next visitor, a new system prompt)
        engine.submit_text("Capital of Peru?")
        recorder.wait_turns(3)
    finally:
        engine.close()
    replies = [result.reply for result in recorder.results]
    named = "The capital of Australia is Sydney. " + hedge_words("en", bigger)
    assert replies == [named, "The capital of Australia is Sydney. " + hedge_words("en"), named], replies
    assert remembered == ["The capital of Australia is Sydney."] * 2  # neither hedge
    assert model_words(hedge_words("en"), "en", bigger) == "" and model_words("Yes.", "en", bigger) == "Yes."


def test_i_don_t_know_said_instead_of_a_reply_is_not_remembered():
    from assistant.think.hedge import dont_know_words

    llm = FakeLlm(reply=dont_know_words("en"))
    engine, recorder, _ = _engine(llm, None)
    try:
        engine.submit_text("What is on TV tonight?")
        recorder.wait_turns(1)
        engine.submit_text("Hello there, what is two and two?")
        recorder.wait_turns(2)
    finally:
        engine.close()
    assert recorder.results[0].reply == dont_know_words("en")  # said, and not put in the conversation
    assert ("What is on TV tonight?", dont_know_words("en")) not in llm.remembered


def test_a_reply_with_no_odds_is_never_hedged():
    engine, recorder, tts = _engine(FakeLlm(reply="Paris. It is nice."), 0.99)
    try:
        engine.submit_text("Capital of France?")
        recorder.wait_turns(1)
    finally:
        engine.close()
    assert recorder.results[0].reply == "Paris. It is nice." and recorder.results[0].confidence is None


@pytest.mark.slow
def test_the_embedded_model_s_reply_carries_its_confidence_and_hedges_below_the_threshold(engines, default_config):
    from dataclasses import replace

    from assistant.commands.bench.takes import InstantSink
    from assistant.pipeline.session import build_engine

    for hedge_below in (0.0, 1.0):
        recorder = Recorder()
        config = replace(default_config, llm=replace(default_config.llm, hedge_below=hedge_below))
        engine = build_engine(config, engines, InstantSink(config.audio.output_rate), on_event=recorder)
        try:
            engine.submit_text("What is the capital of France?")
            recorder.wait_turns(1, timeout=120)
        finally:
            engine.close()
        result = recorder.results[0]
        assert 0 < result.confidence < 1, result.to_json()
        assert 0 < result.timeline.counts["confidence_us_per_token"]
        assert "paris" in result.reply.lower()
        if hedge_below:
            assert result.hedged.startswith("unsure: ") and result.reply.endswith("would know better.")
            assert result.reply.count(".") >= 2
        else:
            assert not result.hedged and "not sure" not in result.reply
