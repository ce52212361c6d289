"""The quality bench: the question set, scoring, the report; a short real run."""

from __future__ import annotations

from datetime import datetime

import pytest

from assistant.sound import AudioError
from assistant.commands.bench.quality import Answer, build_quality_report, format_quality
from assistant.commands.bench.calibrate import calibrate, choose, outcome
from assistant.commands.bench.questions import KINDS, Question, half_of, is_right, load_questions, verdict
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
    path.write_text('[[question]]\ntext = "Hi"\naccept = ["hi"]\nkind = "moods"\n', encoding="utf-8")
    with pytest.raises(AudioError, match="'Hi' needs .* a kind .* in country"):
        load_questions(path)


def test_the_report_splits_right_wrong_and_declined_by_half_mode_and_source():
    skill_q, llm_q = Question("What is 2 plus 2?", ("4",), "skill"), Question("Capital of France?", ("paris",), "llm")
    answers = [
        Answer("typed", skill_q, skill_q.text, "2 plus 2 is 4.", "skill", "arithmetic", "right"),
        Answer("typed", llm_q, llm_q.text, "Lyon.", "llm", "", "wrong", 0.4),
        Answer("spoken", skill_q, "What is 2 plus 3?", "2 plus 3 is 5.", "skill", "arithmetic", "wrong"),
        Answer("spoken", llm_q, "Capital of France?", "Paris. But I'm not sure of that.", "llm", "", "declined",
               0.05, "unsure: 0.05"),
        Answer("spoken", skill_q, "", "", "", "", "wrong"),
    ]
    report = build_quality_report(answers, {})
    assert report["overall"] == {"right": 1, "asked": 5, "share": 0.2, "wrong": 3, "declined": 1, "hedged": 1}
    assert report["by_mode"]["typed"]["share"] == 0.5 and report["by_mode"]["spoken"]["declined"] == 1
    assert report["by_source"]["skill"]["right"] == 1 and report["by_source"]["skill"]["asked"] == 2
    assert report["llm_only"]["wrong"] == 1 and report["llm_only"]["declined"] == 1
    assert list(report["halves"]) == ["test", "tune"]  # the test half first
    halves = {half_of(skill_q.text), half_of(llm_q.text)}
    assert sum(report["halves"][h]["overall"]["asked"] for h in halves) == 5
    assert [a["source"] for a in report["misrouted"]] == [""]
    text = format_quality(report)
    assert text.index("test half") < text.index("tune half") < text.index("all:")
    assert "all:  20.0% right (1/5), 3 wrong, 1 declined" in text and "unsure: 0.05" in text


@pytest.mark.parametrize("reply, expected", [
    ("A puppy is called a puppy.", "right"),
    ("A puppy is called a kitten.", "wrong"),  # the accepted word is there, but so is a rejected one
    ("It is a dog.", "wrong"),  # no accepted answer
    ("A baby dog is a puppy. But I'm not sure of that.", "declined"),
    ("I don't know.", "declined"),
    ("", "wrong"),
])
def test_the_whole_reply_is_read(reply, expected):
    question = Question("What do you call a baby dog?", ("puppy",), "llm", reject=("kitten",))
    assert verdict(question, reply) == expected


@pytest.mark.parametrize("reply, expected", [
    ("The Great Wall of China is located in the Kingdom of Italy.", "wrong"),  # a second country
    ("The Great Wall is in China.", "right"),
    ("It is in the People's Republic of China, not in Japan.", "wrong"),  # a listed wrong answer, said anyway
])
def test_naming_another_member_of_the_kind_asked_for_is_wrong(reply, expected):
    question = Question("In which country is the Great Wall?", ("china",), "llm", reject=("japan",), kind="country")
    assert verdict(question, reply) == expected


def test_a_member_the_question_names_is_not_a_wrong_answer():
    mix = Question("What color do you get when you mix blue and yellow?", ("green",), "llm", kind="colour")
    assert verdict(mix, "When you mix blue and yellow, the resulting color is a shade of green.") == "right"
    assert verdict(mix, "Blue and yellow make purple.") == "wrong"
    tower = Question("In which country is the Eiffel Tower?", ("france", "paris"), "llm", kind="country")
    assert verdict(tower, "The Eiffel Tower is located in Paris, France.") == "right"


def test_every_kind_in_the_default_set_is_known():
    assert {q.kind for q in load_questions() if q.kind} <= set(KINDS) and len(KINDS) >= 5


def test_an_open_question_is_answered_not_right_or_wrong():
    tip = Question("Give me a tip.", ("sleep",), "llm", open=True)
    assert verdict(tip, "Drink water.") == "answered" and verdict(tip, "") == "wrong"


def test_the_halves_are_fixed_by_the_text_and_both_hold_model_questions():
    questions = load_questions()
    assert half_of("What is the capital of France?") == half_of("  what is the capital of france? ")
    model = [q for q in questions if q.expect == "llm" and not q.open]
    halves = [q.half for q in model]
    assert min(halves.count("tune"), halves.count("test")) >= 30
    assert all(q.reject for q in model)  # every model question names wrong answers too


def _answer(confidence, right, half_text="q"):
    question = Question(half_text, ("a",), "llm")
    return Answer("typed", question, question.text, "", "llm", "", "right" if right else "wrong", confidence)


def test_the_threshold_declines_the_most_wrong_answers_losing_at_most_one_right_in_twenty():
    answers = [_answer(0.05, False), _answer(0.08, True), _answer(0.1, False), _answer(0.2, False),
               _answer(0.25, True), _answer(0.3, False), *[_answer(0.5 + i / 100, True) for i in range(10)],
               _answer(None, True)]
    threshold = choose(answers)
    assert 0.2 < threshold < 0.25  # one right answer (0.08) lost, three wrong ones declined
    counts = outcome(answers, threshold)
    assert counts == {"right": 12, "wrong": 1, "declined": 4, "right_hedged": 1, "wrong_hedged": 3}
    assert choose([_answer(0.9, False), _answer(0.1, True), _answer(0.2, True)]) == 0.0  # nothing helps


def test_calibration_is_chosen_on_the_tuning_half_and_judged_on_the_test_half():
    tune = next(t for t in (f"q{i}" for i in range(50)) if half_of(t) == "tune")
    test = next(t for t in (f"q{i}" for i in range(50)) if half_of(t) == "test")
    answers = [_answer(0.1, False, tune), _answer(0.6, True, tune), _answer(0.7, True, tune),
               _answer(0.3, True, test), _answer(0.2, False, test)]
    report = calibrate(answers)
    assert report["tuned_on"] == 3 and 0.1 < report["threshold"] < 0.6
    assert report["test_typed"]["with_hedge"]["right_hedged"] == 1  # the test half's own figures


@pytest.mark.slow
def test_a_short_quality_run_on_the_real_models(engines, default_config):
    from assistant.commands.bench.quality import run_quality
    from assistant.pipeline.session import make_replies

    questions = [Question("What is seven times eight?", ("56",), "skill"), Question("Thank you.", ("welcome",), "cache"),
                 Question("What is the capital of France?", ("paris",), "llm")]
    replies = make_replies(default_config, engines.tts, default_config.audio.output_rate)
    answers = run_quality(engines, default_config, replies, questions, ("typed", "spoken"))
    assert [(a.mode, a.source) for a in answers] == [
        (mode, source) for mode in ("typed", "spoken") for source in ("skill", "cache", "llm")]
    assert all(a.right for a in answers if a.source in ("skill", "cache")), [a.to_json() for a in answers]
    assert answers[3].reply == "7 times 8 is 56." and answers[2].reply and answers[5].transcript


@pytest.mark.slow
def test_a_conversation_asks_each_half_s_questions_into_one_history(engines, default_config, monkeypatch):
    from assistant.commands.bench.quality import run_quality

    texts = ["What is the capital of Russia?", "What is the capital of Australia?", "What is the capital of China?"]
    assert [half_of(t) for t in texts] == ["tune", "test", "tune"]
    questions = [Question(t, ("moscow", "canberra", "beijing"), "llm") for t in texts]
    seen = []  # the exchanges the model had before it as each question was asked
    stream = engines.llm.stream
    monkeypatch.setattr(engines.llm, "stream", lambda user, stats: (seen.append(
        [e.user for e in engines.llm.history.exchanges]), stream(user, stats))[1])
    answers = run_quality(engines, default_config, None, questions, ("conversation",))
    assert [a.question.text for a in answers] == [texts[0], texts[2], texts[1]]  # the tuning half's, then the test's
    assert seen == [[], [texts[0]], []], [a.to_json() for a in answers]
    assert all(a.mode == "conversation" and a.source == "llm" for a in answers)
    assert not engines.llm.history.exchanges  # the model is left with no conversation


def test_the_questions_written_for_calibration_are_all_tuning_and_none_of_the_set_s():
    from assistant.commands.bench.questions import load_calibration_questions

    extra = load_calibration_questions()
    assert len(extra) >= 200 and all(q.half == "tune" and q.expect == "llm" and q.reject for q in extra)
    assert any(half_of(q.text) == "test" for q in extra)  # the hash would have put some in the test half
    asked = {normalize(q.text) for q in load_questions()} | {normalize(user) for user, _ in default_examples()}
    assert not asked & {normalize(q.text) for q in extra}
    assert all(not q.kind or q.kind in KINDS for q in extra)


def test_the_questions_written_for_calibration_choose_the_threshold_but_are_reported_apart():
    tune = next(t for t in (f"q{i}" for i in range(50)) if half_of(t) == "tune")
    test = next(t for t in (f"q{i}" for i in range(50)) if half_of(t) == "test")
    written = [Answer("typed", Question(f"w{i}", ("a",), "llm", tuning_only=True), "", "", "llm", "",
                      "right" if i % 3 else "wrong", 0.05 + i / 100) for i in range(40)]
    answers = [_answer(0.1, False, tune), _answer(0.6, True, tune), _answer(0.3, True, test), *written]
    report = calibrate(answers)
    assert report["tuned_on"] == 42
    assert report["tune_typed"]["answers"] == 2 and report["test_typed"]["answers"] == 1
    assert report["calibration_typed"]["answers"] == 40
    assert outcome(written, report["threshold"])["right_hedged"] <= 2  # at most one right in twenty, of 27 right
