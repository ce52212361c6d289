from assistant.think.conversation import History


def words(text):
    return len(text.split())


def test_history_keeps_turns_in_order_within_budget():
    history = History(budget_tokens=1000, count_tokens=words)
    history.add("hi", "hello")
    history.add("how are you", "fine thanks")
    messages = history.messages("sys", "next")
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[-1]["content"] == "next"
    assert messages[1]["content"] == "hi"


def test_history_drops_oldest_turns_down_to_half_the_budget():
    history = History(budget_tokens=100, count_tokens=words)
    for i in range(20):
        history.add(f"question {i} " + "x " * 10, f"answer {i} " + "y " * 10)
        assert history.tokens <= 100
    kept = [e.user.split()[1] for e in history.exchanges]
    assert kept[-1] == "19"  # the newest is always kept
    assert kept == sorted(kept, key=int)


def test_trimming_happens_in_big_steps_so_the_prefix_stays_stable():
    history = History(budget_tokens=200, count_tokens=words)
    firsts = []
    for i in range(30):
        history.add(f"q{i} " + "x " * 10, f"a{i} " + "y " * 10)
        firsts.append(history.exchanges[0].user)
    changes = sum(1 for a, b in zip(firsts, firsts[1:]) if a != b)
    assert changes <= 30 // 3  # not every turn


def test_clear_forgets_everything():
    history = History(budget_tokens=100, count_tokens=words)
    history.add("a", "b")
    history.clear()
    assert history.messages("s", "u") == [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
