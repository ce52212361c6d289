from assistant.speak.chunker import Chunker, speakable
from assistant.config import ChunkerConfig


def feed(text, **cfg):
    chunker = Chunker(ChunkerConfig(**cfg))
    chunks = []
    # tokens the way llama tokenizers emit them: leading spaces
    for token in text.replace(" ", " \x00").split("\x00"):
        chunks += chunker.push(token)
    return chunks, chunker.flush()


def test_first_chunk_is_released_at_the_first_clause_boundary():
    chunks, rest = feed("Sure, the capital of France is Paris. It is known for the Eiffel Tower and fine food.",
                        first_max_chars=40)
    assert chunks[0] == "Sure, the capital of France is Paris."  # "Sure," alone is under first_min_chars
    assert rest == ["It is known for the Eiffel Tower and fine food."]


def test_first_chunk_splits_at_a_comma_when_long_enough():
    chunks, _ = feed("Well, honestly, I think the answer is forty two.", first_min_chars=12)
    assert chunks[0] == "Well, honestly,"


def test_first_chunk_released_at_a_word_boundary_without_punctuation():
    text = "the quick brown fox jumps over the lazy dog and keeps on running far away from here"
    chunks, _ = feed(text, first_max_chars=30)
    assert chunks and len(chunks[0]) <= 30
    assert text.startswith(chunks[0])


def test_decimal_point_does_not_split():
    chunks, rest = feed("It is about 3.5 million kilometres away from us. That is far.")
    assert all("3." != c[-2:] for c in chunks)
    assert "3.5 million" in " ".join(chunks + rest)


def test_later_chunks_are_whole_sentences():
    text = "Hello there, friend. This is sentence two, which is long enough. And this is three, also long."
    chunks, rest = feed(text, min_chars=20)
    assert chunks[0] == "Hello there,"
    assert chunks[1] == "friend. This is sentence two, which is long enough."  # "friend." alone is too short
    assert rest == ["And this is three, also long."]


def test_nothing_is_lost():
    text = "One. Two, three; four: five! Six? Seven, eight nine ten eleven twelve."
    chunks, rest = feed(text)
    assert " ".join(chunks + rest) == text


def test_speakable_strips_markdown_and_emoji_but_keeps_korean():
    assert speakable("**Bold** and `code` 🙂 # title") == "Bold and code title"
    assert speakable("안녕하세요, 반갑습니다!") == "안녕하세요, 반갑습니다!"
    assert speakable("see [the docs](http://x)") == "see the docs"
