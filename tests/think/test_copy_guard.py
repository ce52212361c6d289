"""The embedded model repeating one of its prompt's example answers to a question it
cannot answer says that it does not know instead; answers of its own are untouched."""

from assistant.think.conversation import GenerationStats
from assistant.think.hedge import DONT_KNOW


def _reply(engines, question):
    stats = GenerationStats()
    return "".join(engines.llm.stream(question, stats)), stats


def test_an_example_answer_said_to_another_question_becomes_i_don_t_know(engines):
    reply, stats = _reply(engines, "who won the match?")  # "Hamlet, William Shakespeare." unguarded
    assert reply.startswith(DONT_KNOW["en"]) and "Hamlet" not in reply
    assert stats.replaced == "copy"


def test_an_earlier_answer_of_the_conversation_said_again_becomes_i_don_t_know(engines):
    """The model's own answers earlier in the conversation are copied as the examples are: after "The
    capital of Japan is Tokyo.", "What is its population?" was answered "The capital of Japan is Tokyo."."""
    engines.llm.reset()
    engines.llm.remember("What is the capital of Japan?", "The capital of Japan is Tokyo.")
    try:
        reply, stats = _reply(engines, "What is its population?")
        assert reply.startswith(DONT_KNOW["en"]) and "Tokyo" not in reply
        assert stats.replaced == "copy"
        reply, stats = _reply(engines, "And what is the capital of France?")  # a question like it: its own answer
        assert "Paris" in reply and not stats.replaced, reply
    finally:
        engines.llm.reset()


def test_answers_of_its_own_and_to_a_question_like_an_example_s_are_said(engines):
    for question, expected in [("who wrote Macbeth?", "Shakespeare"), ("what is the capital of Japan?", "Tokyo")]:
        engines.llm.reset()
        reply, stats = _reply(engines, question)
        assert expected in reply and not stats.replaced, (question, reply)


def test_a_chat_turn_says_it_without_a_hedge_and_its_json_tells_why(capsys):
    import json

    from assistant.commands.cli import main

    assert main(["chat", "--text", "anything good on TV?", "--no-audio", "--json"]) == 0  # ("what is on TV tonight?": the live skill's now)
    turn = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")][-1]
    assert turn["reply"].startswith(DONT_KNOW["en"]) and "not sure" not in turn["reply"]  # unguarded: "You could watch a movie"
    assert turn["counts"]["replaced"] == "copy" and not turn["hedged"]
