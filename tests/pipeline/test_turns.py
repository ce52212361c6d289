"""The turn state machine, driven by hand: no threads, no clocks, no engines."""

from assistant.pipeline.turns import ItemFate, Phase, TurnState


def test_a_typed_turn_commits_at_once_and_its_reply_goes_out_now():
    turns = TurnState()
    begun = turns.begin()
    assert (begun.turn, begun.interrupted, turns.phase) == (1, None, Phase.HEARING)
    assert turns.commit(1) == []
    assert turns.committed
    assert turns.offer(1, 0, "first words") is ItemFate.NOW
    assert turns.finish(1)
    assert turns.turn is None and turns.phase is Phase.IDLE


def test_a_speculative_reply_is_held_until_the_commit_releases_it_in_order():
    turns = TurnState()
    turn = turns.begin().turn
    attempt = turns.speculate(turn)
    assert attempt == 0 and turns.phase is Phase.SPECULATING
    assert turns.offer(turn, attempt, "one") is ItemFate.HELD
    assert turns.offer(turn, attempt, "two") is ItemFate.HELD
    assert turns.commit(turn) == ["one", "two"]
    assert turns.offer(turn, attempt, "three") is ItemFate.NOW
    assert turns.commit(turn) is None, "a turn is committed once"


def test_speaking_on_drops_the_speculative_reply_and_starts_the_next_attempt():
    turns = TurnState()
    turn = turns.begin().turn
    first = turns.speculate(turn)
    turns.offer(turn, first, "a reply to half a question")
    assert turns.speak_on(turn)
    assert turns.attempt == first + 1 and turns.phase is Phase.HEARING
    assert turns.offer(turn, first, "late piece of the dropped reply") is ItemFate.STALE
    assert not turns.is_live(turn, first) and turns.is_live(turn, first + 1)
    second = turns.speculate(turn)
    assert second == first + 1
    assert turns.offer(turn, second, "the real reply") is ItemFate.HELD
    assert turns.commit(turn) == ["the real reply"]


def test_speaking_on_after_the_commit_changes_nothing():
    turns = TurnState()
    turn = turns.begin().turn
    turns.commit(turn)
    assert not turns.speak_on(turn)
    assert turns.attempt == 0 and turns.committed
    assert turns.speculate(turn) is None


def test_new_speech_barges_in_on_the_current_turn():
    turns = TurnState()
    old = turns.begin().turn
    turns.commit(old)
    begun = turns.begin()
    assert begun.interrupted == old and begun.turn == old + 1
    assert not turns.is_current(old)
    assert turns.offer(old, 0, "the rest of the old reply") is ItemFate.STALE
    assert turns.phase is Phase.HEARING and turns.attempt == 0
    assert not turns.finish(old), "a late finish of the old turn is ignored"
    assert turns.is_current(begun.turn)


def test_held_items_of_an_interrupted_turn_are_never_released():
    turns = TurnState()
    turn = turns.begin().turn
    turns.speculate(turn)
    turns.offer(turn, 0, "held")
    assert turns.interrupt() == turn
    assert turns.interrupt() is None
    assert turns.commit(turn) is None
    next_turn = turns.begin().turn
    assert turns.commit(next_turn) == []


def test_messages_of_other_turns_are_stale():
    turns = TurnState()
    assert turns.offer(1, 0, "before any turn") is ItemFate.STALE
    turn = turns.begin().turn
    assert turns.offer(turn + 1, 0, "a turn not begun") is ItemFate.STALE
    assert turns.speculate(turn + 1) is None
    assert not turns.speak_on(turn + 1)


def test_words_at_a_pause_weigh_only_until_the_turn_is_committed():
    turns = TurnState()
    turn = turns.begin().turn
    assert turns.weigh(turn) == 0
    turns.speculate(turn)
    turns.speak_on(turn)
    assert turns.weigh(turn) == 1, "the words of the next pause belong to the next attempt"
    assert turns.weigh(turn + 1) is None
    turns.commit(turn)
    assert turns.weigh(turn) is None, "the end of a committed turn is decided"
