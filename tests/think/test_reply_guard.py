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
