"""Numbers worked out (the arithmetic skill): a tip, a bill split, primes, parity, factorials, averages, remainders,
rounding, Roman numerals, counting; and the look-alikes that stay the model's."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("question, answer", [
    ("What's a 20 percent tip on 45 dollars?", "A 20 percent tip on 45 is 9, so 54 in all."),
    ("How much is a 15% tip on 80?", "A 15 percent tip on 80 is 12, so 92 in all."),
    ("What is an 18 percent tip on 60?", "An 18 percent tip on 60 is 10.8, so 70.8 in all."),
    ("Split 120 dollars between 4 people.", "120 split 4 ways is 30 each."),
    ("Is 17 a prime number?", "Yes, 17 is a prime number."),
    ("Is 51 prime?", "No, 51 is not prime: it's 3 times 17."),
    ("Is 1 prime?", "No, 1 is not a prime number."),
    ("Is 24 even?", "Yes, 24 is even."),
    ("Is 24 odd?", "No, 24 is even."),
    ("What's 5 factorial?", "5 factorial is 120."),
    ("What's the average of 4, 8 and 12?", "The average of 4, 8 and 12 is 8."),
    ("What's the remainder of 17 divided by 5?", "17 divided by 5 is 3, remainder 2."),
    ("Round 3.14159 to two decimal places.", "3.14159 rounded to 2 decimal places is 3.14."),
    ("Round 1234 to the nearest hundred.", "1234 rounded to the nearest hundred is 1200."),
    ("What's 100 in Roman numerals?", "100 in Roman numerals is C."),
    ("What is 1994 in Roman numerals?", "1994 in Roman numerals is M C M X C I V."),
    ("Count to ten.", "1, 2, 3, 4, 5, 6, 7, 8, 9, 10."),
    ("Count down from five.", "5, 4, 3, 2, 1."),
    ("Count from 3 to 6.", "3, 4, 5, 6."),
    ("Count to a thousand.", "That's a lot of counting: I count 30 numbers at a time."),
])
def test_numbers_worked_out(english_skills, question, answer):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("arithmetic", answer)


@pytest.mark.parametrize("question", [
    "What is a prime number?", "Is it even worth it?", "How do I count to a million?",
    "What is the average temperature in Paris?", "What's the average salary?", "Is the number 7 lucky?",
    "Round up the usual suspects.", "Count me in.", "Split the difference.", "What is the tip of the iceberg?",
    "What is a remainder?", "How do you round numbers?", "Split 10 dollars between 1 person.",
    "Is the Earth bigger than Mars?", "How many zeros are in my bank account?", "Which is bigger, a cat or a dog?",
    "Is 10 divisible by 0?",
])
def test_look_alikes_stay_the_models(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "arithmetic", found


@pytest.mark.parametrize("question, answer", [
    ("십칠은 소수야?", "네, 십칠은 소수예요."),
    ("구십일은 소수예요?", "아니요, 구십일은 소수가 아니에요. 칠 곱하기 십삼이에요."),
    ("이십사는 짝수야?", "네, 이십사는 짝수예요."),
    ("십오는 짝수예요?", "아니요, 십오는 홀수예요."),
    ("열까지 세어 줘", "하나, 둘, 셋, 넷, 다섯, 여섯, 일곱, 여덟, 아홉, 열."),
])
def test_in_korean_too(english_skills, question, answer):
    found = english_skills.match(question)
    assert found is not None and (found.skill, found.text) == ("arithmetic", answer)


@pytest.mark.parametrize("question", ["소수가 뭐야", "짝수가 뭐예요", "숫자 세는 법 알려 줘"])
def test_korean_look_alikes_stay_the_models(english_skills, question):
    found = english_skills.match(question)
    assert found is None or found.skill != "arithmetic", found
