"""The quality bench: the question set, scoring, the report; a short real run."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.sound import AudioError
from assistant.commands.bench.quality import Answer, build_quality_report, format_quality
from assistant.commands.bench.questions import Question, is_right, load_questions
from assistant.think.prompt import default_examples
from assistant.think.skills.text import normalize


def test_the_set_has_enough_questions_and_none_of_the_prompt_s_examples():
    questions = load_questions()
    assert len(questions) >= 50
    assert {q.expect for q in questions} == {"skill", "cache", "llm"}
    asked = {normalize(q.text) for q in questions}
    assert not asked & {normalize(user) for user, _ in default_examples()}


@pytest.mark.parametrize("accept, reply, right", [
    (("56",), "7 times 8 is 56.", True),
    (("56",), "Fifty-six.", True),
    (("56",), "It is 560.", False),
    (("au",), "Because of autumn.", False),
    (("au",), "The symbol is Au.", True),
    (("carbon dioxide",), "Plants take in carbon dioxide.", True),
    (("{hour}:",), "It's 3:07 PM.", True),
    (("{hour}:",), "It's 4:07 PM.", False),
    (("{weekday}",), "Today is Tuesday.", True),
])
def test_an_answer_is_right_when_it_holds_an_accepted_keyword(accept, reply, right):
    assert is_right(Question("q", accept, "llm"), reply, datetime(2024, 3, 5, 15, 7)) is right


def test_a_malformed_question_set_is_named(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('[[question]]\ntext = "Hi"\n', encoding="utf-8")
    with pytest.raises(AudioError, match=f"cannot read {path}.*needs text and accept"):
        load_questions(path)
    path.write_text('[[question]]\ntext = "Hi"\naccept = ["hi"]\nexpect = "oracle"\n', encoding="utf-8")
    with pytest.raises(AudioError, match="'Hi' needs .* expect in skill, cache, llm"):
        load_questions(path)


def test_the_report_splits_the_share_right_by_mode_and_source():
    skill_q, llm_q = Question("What is 2 plus 2?", ("4",), "skill"), Question("Capital of France?", ("paris",), "llm")
    answers = [
        Answer("typed", skill_q, skill_q.text, "2 plus 2 is 4.", "skill", "arithmetic", True),
        Answer("typed", llm_q, llm_q.text, "Lyon.", "llm", "", False),
        Answer("spoken", skill_q, "What is 2 plus 3?", "2 plus 3 is 5.", "skill", "arithmetic", False),
        Answer("spoken", llm_q, "Capital of France?", "Paris.", "llm", "", True),
        Answer("spoken", skill_q, "", "", "", "", False),
    ]
    report = build_quality_report(answers, {})
    assert report["overall"] == {"right": 2, "asked": 5, "share": 0.4}
    assert report["by_mode"]["typed"]["share"] == 0.5 and report["by_mode"]["spoken"]["right"] == 1
    assert report["by_source"]["skill"] == {"right": 1, "asked": 2, "share": 0.5}
    assert report["llm_only"] == {"right": 1, "asked": 2, "share": 0.5}
    assert [a["source"] for a in report["misrouted"]] == [""]
    text = format_quality(report)
    assert "answers right:  40.0%  (2/5)" in text and "language model alone:  50.0%  (1/2)" in text


@pytest.mark.slow
def test_a_short_quality_run_on_the_real_models(engines, default_config):
    from assistant.commands.bench.quality import run_quality
    from assistant.pipeline.session import make_replies

    questions = [Question("What is seven times eight?", ("56",), "skill"), Question("Thank you.", ("welcome",), "cache"),
                 Question("What is the capital of France?", ("paris",), "llm")]
    replies = make_replies(default_config, engines.tts, default_config.audio.output_rate)
    answers = run_quality(engines, default_config, replies, questions)
    assert [(a.mode, a.source) for a in answers] == [
        (mode, source) for mode in ("typed", "spoken") for source in ("skill", "cache", "llm")]
    assert all(a.right for a in answers if a.source in ("skill", "cache")), [a.to_json() for a in answers]
    assert answers[3].reply == "7 times 8 is 56." and answers[2].reply and answers[5].transcript
