"""The guard that ends replies which loop, drift into another language or run on."""

from assistant.think.reply_guard import ReplyGuard, drifts_from_english


def said(pieces, cut_off=False, **options):
    guard = ReplyGuard(**options)
    return "".join(guard.filter(iter(pieces), lambda: cut_off)), guard.stopped


def tokens(text):
    """The text in small pieces, as a model streams it."""
    return [text[i:i + 3] for i in range(0, len(text), 3)]


def test_a_good_reply_passes_whole():
    assert said(tokens("The capital of France is Paris. It is on the Seine.")) == (
        "The capital of France is Paris. It is on the Seine.", None)


def test_a_repeated_sentence_ends_the_reply_after_the_first():
    text = "The capital of France is Paris. The capital of France is Paris! The capital of France"
    assert said(tokens(text)) == ("The capital of France is Paris. ", "repeat")


def test_a_phrase_looping_inside_the_first_sentence_stops_generation():
    text, stopped = said(tokens("Ancient Rome Ancient Rome Ancient Rome Ancient Rome Ancient Rome"))
    assert stopped == "loop" and text.count("Ancient Rome") <= 3


def test_a_sentence_in_another_language_is_not_said():
    text = "Paris is the capital of France. L'aujour d'hébè, la femme de France est dans la ville."
    assert said(tokens(text)) == ("Paris is the capital of France. ", "language")
    assert drifts_from_english("Le chat est dans la maison et le chien aussi.")
    assert drifts_from_english("서울은 한국의 수도입니다 그리고 큰 도시입니다.")
    assert not drifts_from_english("The café in Paris serves crème brûlée.")
    assert said(tokens("Hi. 서울은 한국의 수도입니다."), language="") == ("Hi. 서울은 한국의 수도입니다.", None)


def test_a_reply_that_runs_on_ends_after_three_sentences():
    text = "One is first. Two is next. Three is last. Four is too many. Five."
    assert said(tokens(text)) == ("One is first. Two is next. Three is last. ", "too long")


def test_an_unfinished_last_sentence_is_dropped_when_the_token_limit_cut_it():
    assert said(tokens("Paris is lovely. It has a tower and"), cut_off=True) == ("Paris is lovely. ", None)
    assert said(tokens("Paris is lovely. It has a tower"), cut_off=False) == ("Paris is lovely. It has a tower", None)
    assert said(tokens("Just one unfinished thought"), cut_off=True) == ("Just one unfinished thought", None)


def test_the_first_sentence_is_not_held_back():
    guard = ReplyGuard()
    out = guard.filter(iter(["The", " sky", " is", " blue."]))
    assert next(out) == "The" and next(out) == " sky"  # piece by piece, as generated


def test_numbers_with_a_point_do_not_end_a_sentence():
    assert said(tokens("It is 3.5 km away. Walk there."))[0] == "It is 3.5 km away. Walk there."


# ------------------------------------------------------------ Korean replies (reply_language = "ko")


def test_a_korean_reply_that_begins_in_english_is_replaced_by_a_korean_line():
    from assistant.think.reply_guard import KOREAN_INSTEAD

    # what Qwen2.5-Coder-0.5B said to a garbled Korean transcript
    assert said(tokens("I'm sorry, but I can't assist with that."), language="ko") == (KOREAN_INSTEAD, "language")
    assert said(["OK"], language="ko") == (KOREAN_INSTEAD, "language")  # shorter than two words
    assert not any("a" <= c.lower() <= "z" for c in KOREAN_INSTEAD)


def test_a_korean_reply_passes_whole_and_may_begin_with_a_latin_word():
    assert said(tokens("네, 한국의 수도는 서울입니다."), language="ko") == ("네, 한국의 수도는 서울입니다.", None)
    assert said(tokens("AI는 사람처럼 배워요."), language="ko") == ("AI는 사람처럼 배워요.", None)
    assert said(tokens("Apple 주식은 비싸요."), language="ko") == ("Apple 주식은 비싸요.", None)
    assert said(["서울"], language="ko") == ("서울", None)
    assert said(tokens("3 더하기 5는 8이에요."), language="ko") == ("3 더하기 5는 8이에요.", None)


def test_a_later_sentence_with_no_hangul_is_not_said_in_a_korean_reply():
    text = "서울은 한국의 수도예요. It is a big city. 또 와요."
    assert said(tokens(text), language="ko") == ("서울은 한국의 수도예요. ", "language")


def test_a_korean_reply_is_held_only_for_its_first_two_words():
    guard = ReplyGuard("ko")
    out = guard.filter(iter(["네", ",", " 한국", "의", " 수도", "는"]))
    assert next(out) == "네, 한국"  # released at the second word's start
    assert next(out) == "의"


# ------------------------------------------------ a small model repeating its prompt's example answer

EXAMPLES = [
    ("What is the capital of Italy?", "The capital of Italy is Rome."),
    ("Who wrote Hamlet?", "William Shakespeare wrote Hamlet."),
    ("How many wheels does a bicycle have?", "A bicycle has two wheels."),
    ("What is the closest planet to the Sun?", "Mercury is the closest planet to the Sun."),
    ("What can I do on a rainy day?", "You could read a good book, call a friend or watch a movie."),
]


def copied(question, reply):
    return said(tokens(reply), examples=EXAMPLES, question=question)


def test_an_example_answer_to_another_question_is_replaced_by_i_don_t_know():
    from assistant.think.hedge import DONT_KNOW

    # what SmolLM2-135M said to questions it cannot answer
    assert copied("who won the match?", "Hamlet, William Shakespeare.") == (DONT_KNOW["en"], "copy")
    assert copied("what color is snow?", "You could read a good book, call a friend.") == (DONT_KNOW["en"], "copy")
    assert copied("what is on TV tonight?", "You could watch a movie, play a game.") == (DONT_KNOW["en"], "copy")
    assert copied("who is at the door?", "A bicycle has two wheels.") == (DONT_KNOW["en"], "copy")
    assert copied("what is it?", "William Shakespeare wrote Hamlet.") == (DONT_KNOW["en"], "copy")


def test_an_answer_of_its_own_passes_even_where_it_shares_words_with_an_example():
    for question, reply in [
        ("what is the capital of Canada?", "The capital of Canada is Ottawa. It is in Ontario."),
        ("how many wheels does a car have?", "A car has four wheels."),
        ("which planet is closest to the sun?", "Mercury is the closest planet to the Sun."),  # the question's words
        ("who wrote Hamlet?", "William Shakespeare wrote Hamlet."),  # the example's own question
        ("who wrote Macbeth?", "William Shakespeare wrote Macbeth."),  # ... or one like it
        ("which planet is nearest the sun?", "Mercury is the closest planet to the Sun."),
        ("remind me to call mom", "You could call a friend."),  # one word taken
        ("what is a good book?", "A good book is one you enjoy."),
    ]:
        assert copied(question, reply) == (reply, None), question


def test_the_question_said_back_word_for_word_is_replaced_by_i_don_t_know():
    from assistant.think.hedge import DONT_KNOW

    # what SmolLM2-135M said to statements and requests it had nothing for
    for question in ("I'm feeling sad today.", "Mute.", "Where am I?", "Pause."):
        assert copied(question, question) == (DONT_KNOW["en"], "copy"), question
    for question, reply in [("Repeat after me: I love pizza.", "I love pizza."),  # what was asked for
                            ("I'm feeling sad today.", "I'm feeling sad too."),
                            ("Where am I?", "Where I am is at home.")]:
        assert copied(question, reply)[1] is None, (question, reply)
    # the first sentence decides, as for a copied example
    assert copied("Is it cold?", "Is it cold? Yes.") == (DONT_KNOW["en"], "copy")


def test_the_question_s_own_start_is_held_until_the_sentence_tells():
    guard = ReplyGuard(examples=EXAMPLES, question="I love rainy days and cold mornings.")
    out = guard.filter(iter(["I", " love", " rainy", " days", " and", " cold", " tea", "."]))
    assert next(out).startswith("I love rainy days and cold tea")  # held while it was the question's, then let through


def test_words_are_held_only_as_long_as_the_first_chunk_or_six_words_with_one_taken():
    guard = ReplyGuard(examples=EXAMPLES, question="what is the capital of France?")
    out = guard.filter(iter(["The", " capital", " of", " France", " is", " Paris", "."]))
    assert next(out) == "The capital of France"  # as long as a first chunk, and nothing taken
    guard = ReplyGuard(examples=EXAMPLES, question="what is it in the end?")
    out = guard.filter(iter(["In", " the", " end", ",", " it", " is", " Rome", "."]))
    assert next(out) == "In the end, it"  # a clause's end (known at the next word), nothing taken
    guard = ReplyGuard(examples=EXAMPLES, question="tell me about the city and its river")
    out = guard.filter(iter(["Rome", " is", " the", " city", " and", " its", " river", "."]))
    assert next(out) == "Rome is the city and its river"  # six whole words, one of them taken


def test_no_examples_no_hold():
    guard = ReplyGuard(question="who won the match?")
    out = guard.filter(iter(["Hamlet", ",", " William", " Shakespeare", "."]))
    assert next(out) == "Hamlet"
