"""The skills in Korean, natively: Sino-Korean and native numbers and counters, the Korean
clock, timers and alarms, arithmetic and unit conversions; answers read the Korean way,
in Hangul only (so the Korean voice says all of it); and what they must leave alone."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from assistant.config import SkillsConfig
from assistant.speak.voices import VoiceSet
from assistant.think.skills import SkillContext, Skills
from assistant.think.skills import korean_numbers as numbers
from assistant.think.skills import korean_timers

from fakes import FakeTts

SEOUL = timezone(timedelta(hours=9))
NOW = SkillContext(now=datetime(2025, 6, 10, 15, 25, tzinfo=SEOUL))  # a Tuesday afternoon


@pytest.fixture
def skills(tmp_path):
    loaded = Skills(SkillsConfig(timers_file=str(tmp_path / "timers.json")))
    loaded.timers.clock = NOW.now.timestamp
    yield loaded
    loaded.close()


def ask(skills: Skills, text: str, run: bool = True) -> tuple[str, str] | None:
    reply = skills.match(text, NOW)
    if reply is None:
        return None
    if run and reply.effect is not None:
        reply.effect()
    return reply.skill, reply.text


def said_in_korean_only(text: str) -> bool:
    voices = VoiceSet(FakeTts(name="piper (joe)"), FakeTts(name="espeak-ng (ko)"))
    return not re.search(r"[A-Za-z]", text) and voices.voices_for(text) == ["espeak-ng (ko)"]


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize("words, counter, value", [
    ("삼십칠", False, 37), ("이 점 오", False, 2.5), ("백", False, 100), ("이천이십오", False, 2025),
    ("3만", False, 30000), ("일억이천만", False, 120_000_000), ("12", False, 12), ("영", False, 0),
    ("스물다섯", False, 25), ("열둘", False, 12), ("하나", False, 1),
    ("한", True, 1), ("두", True, 2), ("세", True, 3), ("네", True, 4), ("열두", True, 12), ("스무", True, 20),
    ("한", False, None), ("네", False, None), ("삼사", False, None), ("십십", False, None), ("사과", False, None),
])
def test_sino_korean_native_and_digit_numbers_are_read(words, counter, value):
    assert numbers.parse(words, counter=counter) == value


@pytest.mark.parametrize("value, words", [
    (37, "삼십칠"), (3.11, "삼 점 일일"), (120000, "십이만"), (10000, "만"), (-2, "마이너스 이"),
    (0, "영"), (12.5, "십이 점 오"), (100_000_000, "일억"),
])
def test_numbers_are_said_in_sino_korean(value, words):
    assert numbers.say(value) == words


def test_counters_take_native_numbers_and_particles_follow_the_last_sound():
    assert [numbers.native(n) for n in (1, 2, 3, 4, 12, 20, 23)] == ["한", "두", "세", "네", "열두", "스무", "스물세"]
    assert numbers.topic("팔") == "팔은" and numbers.topic("오") == "오는"
    assert numbers.copula("팔") == "팔이에요" and numbers.copula("오") == "오예요"
    assert numbers.towards("칠") == "칠로" and numbers.towards("삼 분") == "삼 분으로" and numbers.towards("오") == "오로"
    assert numbers.obj("타이머") == "타이머를" and numbers.subject("알람") == "알람이"


# ------------------------------------------------------------------ the clock


@pytest.mark.parametrize("said, reply", [
    ("지금 몇 시예요?", "지금은 오후 세 시 이십오 분이에요."),
    ("몇 시야", "지금은 오후 세 시 이십오 분이에요."),
    ("몇시에요", "지금은 오후 세 시 이십오 분이에요."),
    ("지금 시간 좀 알려 줘", "지금은 오후 세 시 이십오 분이에요."),
    ("오늘 며칠이야", "오늘은 유월 십일 화요일이에요."),
    ("오늘 날짜 좀 알려 주세요", "오늘은 유월 십일 화요일이에요."),
    ("내일은 며칠이에요", "내일은 유월 십일일 수요일이에요."),
    ("어제 며칠이었어", "어제는 유월 구일 월요일이었어요."),
    ("오늘 무슨 요일이에요", "오늘은 화요일이에요."),
    ("모레는 무슨 요일이야", "모레는 목요일이에요."),
    ("올해 몇 년이에요", "올해는 이천이십오 년이에요."),
    ("지금 몇 월이야", "지금은 유월이에요."),
])
def test_the_clock_answers_the_korean_way(skills, said, reply):
    assert ask(skills, said) == ("clock", reply)
    assert said_in_korean_only(reply)


# ------------------------------------------------------------------ arithmetic and units


@pytest.mark.parametrize("said, reply", [
    ("삼 더하기 오는?", "삼 더하기 오는 팔이에요."),
    ("칠 곱하기 팔은 얼마예요", "칠 곱하기 팔은 오십육이에요."),
    ("3 곱하기 4는", "삼 곱하기 사는 십이예요."),
    ("하나 더하기 둘은 뭐야", "일 더하기 이는 삼이에요."),
    ("이 더하기 삼 곱하기 사는", "이 더하기 삼 곱하기 사는 십사예요."),
    ("백 빼기 삼백은", "백 빼기 삼백은 마이너스 이백이에요."),
    ("십 나누기 사는", "십 나누기 사는 이 점 오예요."),
    ("이십의 십오 퍼센트는", "이십의 십오 퍼센트는 삼이에요."),
    ("구의 제곱은 얼마야", "구의 제곱은 팔십일이에요."),
    ("백 나누기 영은", "영으로는 나눌 수 없어요."),
])
def test_arithmetic_in_korean(skills, said, reply):
    assert ask(skills, said) == ("arithmetic", reply)
    assert said_in_korean_only(reply)


@pytest.mark.parametrize("said, reply", [
    ("오 킬로미터는 몇 마일이에요?", "오 킬로미터는 삼 점 일일 마일이에요."),
    ("십 킬로그램을 파운드로 바꿔 줘", "십 킬로그램은 이십이 파운드예요."),
    ("섭씨 백 도는 화씨 몇 도예요", "섭씨 백 도는 화씨 이백십이 도예요."),
    ("화씨 오십 도는 섭씨로 몇 도야", "화씨 오십 도는 섭씨 십 도예요."),
    ("한 시간은 몇 분이에요", "한 시간은 육십 분이에요."),
    ("백이십 분은 몇 시간이에요", "백이십 분은 두 시간이에요."),
    ("3 리터는 몇 밀리리터예요", "삼 리터는 삼천 밀리리터예요."),
])
def test_unit_conversions_in_korean(skills, said, reply):
    assert ask(skills, said) == ("units", reply)
    assert said_in_korean_only(reply)


@pytest.mark.parametrize("said, reply", [
    ("84의 절반", "팔십사의 절반은 사십이예요."),
    ("팔십사의 절반은 얼마예요", "팔십사의 절반은 사십이예요."),
    ("84의 반은 뭐야", "팔십사의 절반은 사십이예요."),
    ("84를 반으로 나누면", "팔십사의 절반은 사십이예요."),
    ("84의 두 배", "팔십사의 두 배는 백육십팔이에요."),
    ("84의 2배는 얼마야", "팔십사의 두 배는 백육십팔이에요."),
    ("오의 세 배는", "오의 세 배는 십오예요."),
    ("84의 삼분의 일", "팔십사의 삼분의 일은 이십팔이에요."),
    ("90의 3분의 2는", "구십의 삼분의 이는 육십이에요."),
    ("백의 사분의 삼은 얼마예요", "백의 사분의 삼은 칠십오예요."),
    ("이십의 15%는", "이십의 십오 퍼센트는 삼이에요."),
])
def test_parts_and_multiples_in_korean(skills, said, reply):
    assert ask(skills, said) == ("arithmetic", reply)
    assert said_in_korean_only(reply)


@pytest.mark.parametrize("said, reply", [
    ("200의 15% 할인", "이백에서 십오 퍼센트 할인하면 백칠십이에요."),
    ("200의 15% 할인 가격은", "이백에서 십오 퍼센트 할인하면 백칠십이에요."),
    ("200에서 15% 할인하면", "이백에서 십오 퍼센트 할인하면 백칠십이에요."),
    ("200원에서 15% 할인하면 얼마예요", "이백 원에서 십오 퍼센트 할인하면 백칠십 원이에요."),
    ("만 원에서 이십 프로 빼면", "만 원에서 이십 퍼센트 할인하면 팔천 원이에요."),
])
def test_discounts_in_korean(skills, said, reply):
    assert ask(skills, said) == ("arithmetic", reply)
    assert said_in_korean_only(reply)


@pytest.mark.parametrize("said, reply", [
    ("일주일은 며칠", "일주일은 칠 일이에요."),
    ("1주일은 며칠이야", "일주일은 칠 일이에요."),
    ("하루는 몇 시간", "하루는 스물네 시간이에요."),
    ("하루는 몇 분이에요", "하루는 천사백사십 분이에요."),
    ("1시간은 몇 분", "한 시간은 육십 분이에요."),
    ("일 분은 몇 초", "일 분은 육십 초예요."),
    ("일주일은 몇 시간이에요", "일주일은 백육십팔 시간이에요."),
    ("일 년은 며칠이에요", "일 년은 삼백육십오 일이에요. 윤년은 삼백육십육 일이에요."),
    ("윤년은 며칠이에요", "윤년은 삼백육십육 일이에요."),
    ("일 년은 몇 달이에요", "일 년은 열두 달이에요."),
    ("1년은 몇 주야", "일 년은 오십이 주하고 하루나 이틀이에요."),
    ("한 달은 며칠이에요", "한 달은 이십팔 일에서 삼십일 일이에요."),
    ("이월은 며칠까지 있어요", "이월은 이십팔 일까지 있어요. 윤년에는 이십구 일까지 있어요."),
    ("4월은 며칠까지 있나요", "사월은 삼십 일까지 있어요."),
    ("이번 달은 며칠까지 있어요", "이번 달은 삼십 일까지 있어요."),
    ("한 세기는 몇 년이에요", "한 세기는 백 년이에요."),
    ("한 다스는 몇 개예요", "한 다스는 열두 개예요."),
    ("삼각형은 변이 몇 개예요", "삼각형은 변이 세 개예요."),
    ("육각형의 변은 몇 개야", "육각형은 변이 여섯 개예요."),
    ("1킬로미터는 몇 미터예요", "일 킬로미터는 천 미터예요."),
    ("1파운드는 몇 온스예요", "일 파운드는 십육 온스예요."),
])
def test_fixed_counts_in_korean(skills, said, reply):
    assert ask(skills, said) == ("units", reply)
    assert said_in_korean_only(reply)


# ------------------------------------------------------------------ timers and alarms


def test_timers_are_set_asked_about_and_cancelled_in_korean(skills):
    assert ask(skills, "십 분 타이머 맞춰 줘") == ("timers", "십 분 타이머를 맞췄어요.")
    assert ask(skills, "라면 타이머 삼 분") == ("timers", "라면 타이머를 삼 분으로 맞췄어요.")
    assert ask(skills, "라면 타이머 오 분으로 맞춰 주세요") == ("timers", "라면 타이머를 오 분으로 다시 맞췄어요.")
    assert sorted((t.name, t.duration_s) for t in skills.timers.active()) == [("라면", 300), ("십 분", 600)]
    assert ask(skills, "라면 타이머 얼마나 남았어요") == ("timers", "라면 타이머는 오 분 남았어요.")
    assert ask(skills, "라면 타이머 아직 돌아가?") == ("timers", "라면 타이머는 오 분 남았어요.")  # (still running?)
    assert ask(skills, "남은 시간 알려 줘") == ("timers", "라면 타이머는 오 분 남았어요. 십 분 타이머는 십 분 남았어요.")
    assert ask(skills, "타이머 취소해 줘", run=False) == (
        "timers", "타이머가 두 개 있어요: 라면 타이머, 십 분 타이머. 어느 것을 취소할까요?")
    assert ask(skills, "라면 타이머 취소") == ("timers", "라면 타이머를 취소했어요.")
    assert ask(skills, "계란 타이머 꺼 줘") == ("timers", "계란 타이머가 없어요.")
    assert ask(skills, "모든 타이머 취소해 줘") == ("timers", "십 분 타이머를 취소했어요.")
    assert skills.timers.active() == []
    assert ask(skills, "타이머 얼마나 남았어요") == ("timers", "실행 중인 타이머가 없어요.")


@pytest.mark.parametrize("said, reply, seconds", [
    ("한 시간 반 타이머 맞춰 주세요", "한 시간 삼십 분 타이머를 맞췄어요.", 5400),
    ("타이머 오 분 설정해 주세요", "오 분 타이머를 맞췄어요.", 300),
    ("삼십 초 타이머", "삼십 초 타이머를 맞췄어요.", 30),
    ("3분 타이머 시작", "삼 분 타이머를 맞췄어요.", 180),
    ("이 분 삼십 초 타이머 맞춰", "이 분 삼십 초 타이머를 맞췄어요.", 150),
    ("두 시간 타이머 맞춰 줘", "두 시간 타이머를 맞췄어요.", 7200),
    ("오 분 뒤에 알려 줘", "오 분 타이머를 맞췄어요.", 300),        # a reminder
    ("십 분 후에 알려 주세요", "십 분 타이머를 맞췄어요.", 600),
])
def test_durations_in_native_and_sino_korean(skills, said, reply, seconds):
    assert ask(skills, said) == ("timers", reply)
    assert [t.duration_s for t in skills.timers.active()] == [seconds]
    assert said_in_korean_only(reply)


@pytest.mark.parametrize("said, reply, when", [
    ("내일 아침 일곱 시에 깨워 주세요", "내일 오전 일곱 시에 알람을 맞췄어요.", (11, 7, 0)),
    ("오후 세 시 반에 알람 맞춰 줘", "오늘 오후 세 시 삼십 분에 알람을 맞췄어요.", (10, 15, 30)),
    ("알람 일곱 시로 맞춰 줘", "오늘 오후 일곱 시에 알람을 맞췄어요.", (10, 19, 0)),   # the sooner seven
    ("일곱 시 반에 깨워 줘", "오늘 오후 일곱 시 삼십 분에 알람을 맞췄어요.", (10, 19, 30)),
    ("새벽 다섯 시에 알람 설정해 줘", "내일 오전 다섯 시에 알람을 맞췄어요.", (11, 5, 0)),
    ("7시 30분에 알람 맞춰 주세요", "오늘 오후 일곱 시 삼십 분에 알람을 맞췄어요.", (10, 19, 30)),
    ("정오에 알람 맞춰 줘", "내일 오후 열두 시에 알람을 맞췄어요.", (11, 12, 0)),  # noon (it was "no alarm at 정오에")
    ("자정에 깨워 줘", "내일 오전 열두 시에 알람을 맞췄어요.", (11, 0, 0)),      # midnight
])
def test_alarms_on_the_korean_clock(skills, said, reply, when):
    assert ask(skills, said) == ("timers", reply)
    alarm = skills.timers.active()[0]
    rings = datetime.fromtimestamp(alarm.ends_at, SEOUL)
    assert (rings.day, rings.hour, rings.minute) == when and alarm.kind == "alarm"


def test_that_alarm_is_the_alarm_and_none_set_is_said_so(skills):
    assert ask(skills, "그 알람 지워 줘") == ("timers", "맞춰 둔 알람이 없어요.")
    assert ask(skills, "이 타이머 취소해 줘") == ("timers", "실행 중인 타이머가 없어요.")
    ask(skills, "새벽 다섯 시에 알람 설정해 줘")
    assert ask(skills, "그 알람 지워 줘") == ("timers", "오전 다섯 시 알람을 취소했어요.") and not skills.timers.active()


def test_korean_timers_ring_in_korean_and_english_ones_in_english(skills):
    ask(skills, "라면 타이머 삼 분")
    ask(skills, "set a pasta timer for 5 minutes")
    ask(skills, "내일 아침 일곱 시에 깨워 주세요")
    timers = {t.name: t for t in skills.timers.active()}
    assert korean_timers.ring_text(timers["라면"]) == "라면 타이머가 끝났어요."
    seven = datetime(2025, 6, 11, 7, 0, tzinfo=SEOUL)
    assert korean_timers.ring_text(timers["오전 일곱 시"], seven) == "오전 일곱 시예요. 알람이 울려요."
    assert korean_timers.is_korean(timers["라면"]) and not korean_timers.is_korean(timers["pasta"])
    assert ask(skills, "cancel all timers")[1] == "라면 timer and pasta timer cancelled."  # one store for both


def test_a_korean_reminder_with_its_task_rings_with_it(skills):
    assert ask(skills, "두 시간 뒤에 빨래 꺼내라고 알려 줘") == ("timers", "두 시간 뒤에 빨래 꺼내라고 알려 드릴게요.")
    assert ask(skills, "이십 분 뒤에 깨워 줘") == ("timers", "이십 분 타이머를 맞췄어요.")  # (woken: a timer)
    reminder = next(t for t in skills.timers.active() if t.name == "빨래 꺼내라고")
    assert korean_timers.ring_text(reminder) == "알림이에요. 빨래 꺼내라고 하셨어요."
    assert "빨래 꺼내라고 한 알림은 두 시간 남았어요." in ask(skills, "타이머 뭐 있어?")[1]


# ------------------------------------------------------------------ guards


@pytest.mark.parametrize("said", [
    "몇 시간 걸려요", "오늘 뭐 해요", "요일별 메뉴 알려 줘",  # "내일 날씨 어때요": test_live.py
    "더하기가 뭐예요", "삼 더하기 오는 너무 쉬워요", "곱하기 기호는 어떻게 써요", "사과 세 개 더하기",
    "서울에서 부산까지 몇 킬로미터예요", "오 킬로미터는 몇 분 걸려요", "마일리지는 어떻게 쌓아요",
    "타이머는 어떻게 써요", "알람 시계를 사고 싶어요", "남은 시간 알려 줘", "라면은 몇 분 끓여요",
    "아침 일곱 시에 뭐 먹어요", "감사합니다", "안녕하세요",
    "우리 반의 절반은 어디 갔어요", "절반은 어디 있어요", "두 배로 맛있어요", "반으로 나눠 줘", "두 배 더 좋아요",
    "책의 삼분의 일을 읽었어요", "이 옷 15% 할인해 줘요", "할인 쿠폰 있어요", "할인은 언제까지 해요",
    "하루에 몇 시간 자야 해요", "일주일에 며칠 운동해요", "하루는 어땠어요", "한 달에 얼마 벌어요",
    "삼각형은 어떻게 그려요", "일 년은 너무 길어요",
])
def test_korean_that_only_sounds_like_a_skill_is_left_alone(skills, said):
    assert ask(skills, said) is None, said
