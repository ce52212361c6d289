"""The wake phrase's training in Korean (a phrase in Hangul, "안녕 비서"): what eSpeak NG's Korean voice
says for it, as :mod:`.wake_texts` has it for English.

Positives are the phrase said by eSpeak NG's Korean voice with each of the variants the English
training uses (38 voices, each at a rate and pitch of its own); Piper's voice is English. Negatives:
everyday Korean (and a few English sentences, as a Korean home's TV has them), sentences made of the
phrase's words that do not say it ("안녕하세요", "비서가 여기 있어요"), the phrase's words cut short and
going on otherwise, and near misses made from its sounds: one letter of one syllable changed for a
neighbour in sound (an onset for its plain, aspirated or tense kin, ㅂ/ㅍ/ㅃ; a vowel for the next one
in the mouth, ㅓ/ㅗ; a final consonant dropped or added), the Korean of what :mod:`.wake_sounds` makes
from English phonemes. ㅐ and ㅔ are not swapped: most speakers say them alike (that is the phrase).
Nothing here is written for one phrase, and no Korean wake set's voice (``ko`` with the held-out sets'
variants) or sentence is in it. Measured on the Korean wake sets (docs/wake.md), such a model woke on
everyday Korean far more often than Whisper's probability of the phrase, so the app tells a Korean phrase
by probability and trains no Korean model; ``python -m tools.wake_sets`` trains one to measure it.
"""

from __future__ import annotations

from assistant.pipeline.wake_texts import Recipe
from assistant.think.hangul import final_consonant, jamo
from assistant.writing import is_syllable

SENTENCES = (
    "오늘 저녁에 뭐 먹을까?", "내일 아침 일찍 출발해야 해요.", "우산을 차에 두고 왔어요.", "주말에 부모님 댁에 갈 거야.",
    "이 책 정말 재미있더라.", "커피 한 잔 더 마실래요?", "버스가 벌써 떠났어요.", "창문 좀 닫아 주세요.",
    "어제 축구 경기 봤어?", "동생이 다음 주에 이사해요.", "회의가 세 시로 바뀌었어요.", "날씨가 많이 추워졌네요.",
    "냉장고에 우유가 하나도 없어.", "지하철이 또 늦게 왔어요.", "점심은 김밥으로 할게요.", "아이들이 공원에서 놀고 있어요.",
    "전화 좀 이따가 다시 할게.", "이번 여름에는 바다에 가고 싶어요.", "고양이가 소파 위에서 자요.", "열쇠를 어디에 뒀는지 모르겠어.",
    "다음 정류장에서 내리세요.", "오늘 뉴스에서 그 얘기 나왔어요.", "빨래 좀 개 줄래?", "시험이 생각보다 어려웠어요.",
    "할머니께서 김치를 보내 주셨어요.", "이 노래 제목이 생각이 안 나.", "택배가 문 앞에 와 있어요.", "자, 이제 시작합시다.",
    "Good morning, everyone.", "The meeting starts at nine.", "Could you pass me the salt?", "Thank you very much.",
)
"""Everyday speech that never says a phrase (none of the Korean wake set's sentences)."""
QUESTIONS = ("지금 몇 시야?", "재미있는 얘기 해 줘.", "에베레스트 산은 얼마나 높아?", "불 좀 꺼 줘.")
"""What follows the phrase in the positives."""
CONTINUATIONS = ("그리고", "다시", "뭐야")
"""What follows a near miss (everyday words)."""

_ONSETS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_FINALS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ",
           "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
ONSET_KIN = {"ㄱ": "ㅋㄲ", "ㅋ": "ㄱㄲ", "ㄲ": "ㄱㅋ", "ㄷ": "ㅌㄸ", "ㅌ": "ㄷㄸ", "ㄸ": "ㄷㅌ", "ㅂ": "ㅍㅃ", "ㅍ": "ㅂㅃ",
             "ㅃ": "ㅂㅍ", "ㅈ": "ㅊㅉ", "ㅊ": "ㅈㅉ", "ㅉ": "ㅈㅊ", "ㅅ": "ㅆ", "ㅆ": "ㅅ", "ㄴ": "ㄷㅁ", "ㅁ": "ㅂㄴ",
             "ㄹ": "ㄴ", "ㅎ": "ㅇ", "ㅇ": "ㅎ"}
"""An onset's neighbours in sound: plain, aspirated and tense of one place; a nasal and its stop."""
VOWEL_NEXT = {"ㅏ": "ㅓ", "ㅓ": "ㅗㅏ", "ㅗ": "ㅜㅓ", "ㅜ": "ㅡㅗ", "ㅡ": "ㅜㅣ", "ㅣ": "ㅔㅟ", "ㅔ": "ㅣ", "ㅐ": "ㅏ",
              "ㅕ": "ㅛㅓ", "ㅛ": "ㅠㅕ", "ㅠ": "ㅜㅛ", "ㅑ": "ㅕ", "ㅘ": "ㅏㅝ", "ㅝ": "ㅓㅘ", "ㅟ": "ㅣ", "ㅢ": "ㅡ"}
"""A vowel's neighbours in the mouth (never ㅐ for ㅔ: most speakers say them alike)."""
ADDED_FINALS = ("ㄴ", "ㅇ", "ㄱ")
SOUND_MISSES = 24


def _particle(word: str, after_consonant: str, after_vowel: str) -> str:
    return word + (after_consonant if final_consonant(word) else after_vowel)


def _without(phrase: str, made: list[str]) -> tuple[str, ...]:
    said = jamo(phrase)
    return tuple(dict.fromkeys(text for text in made if said not in jamo(text)))


def phrase_like(phrase: str) -> tuple[str, ...]:
    """Sentences made of the phrase's words that do not say it (a phrase of two words or more)."""
    words = phrase.split()
    if len(words) < 2:
        return ()
    first, rest = words[0], " ".join(words[1:])
    made = [f"{first}.", f"{first}, 오늘 뭐 해?", f"{first}하세요, 처음 뵙겠습니다.", f"{first}, 잘 지냈어?", f"{rest}.",
            f"{_particle(rest, '이', '가')} 여기 있어요.", f"우리 {_particle(rest, '은', '는')} 친절해요.",
            f"{rest}한테 물어봐.", f"새 {_particle(rest, '을', '를')} 뽑았어요.", f"그 {rest} 정말 바빠요."]
    return _without(phrase, made)


def phrase_amid(phrase: str) -> tuple[str, ...]:
    """The phrase's last words amid others, its first word before everyday words."""
    words = phrase.split()
    if len(words) < 2:
        return ()
    first, rest = words[0], " ".join(words[1:])
    made = [f"사무실에 새 {_particle(rest, '이', '가')} 필요해요.", f"내일 {rest}한테 다시 전화해.",
            f"오늘 {_particle(rest, '은', '는')} 어디 있어?", f"{rest} 일을 하는 친구가 있어요.",
            f"{first}, 방금 집에 왔어.", f"{first}, 이것 좀 봐.", f"{first}, 벌써 늦었네."]
    return _without(phrase, made)


def near_misses(phrase: str) -> tuple[str, ...]:
    """Each word of two syllables or more cut short by a syllable (and to its first), going on otherwise,
    with the words before it ("안녕 비 그리고.")."""
    words, made = phrase.split(), []
    for index, word in enumerate(words):
        if len(word) < 2:
            continue
        before = " ".join(words[:index])
        for cut in dict.fromkeys((len(word) - 1, 1)):
            for going_on in CONTINUATIONS:
                made.append(f"{before} {word[:cut]} {going_on}.".strip())
    return _without(phrase, made)


def _syllable(onset: str, vowel: str, final: str) -> str:
    return chr(0xAC00 + (_ONSETS.index(onset) * 21 + _VOWELS.index(vowel)) * 28 + _FINALS.index(final))


def _parts(char: str) -> tuple[str, str, str]:
    code = ord(char) - 0xAC00
    return _ONSETS[code // 588], _VOWELS[(code % 588) // 28], _FINALS[code % 28]


def sound_misses(phrase: str) -> tuple[str, ...]:
    """The phrase with one letter of one syllable changed for a neighbour in sound (:data:`ONSET_KIN`,
    :data:`VOWEL_NEXT`, a final dropped or added), every other one going on with everyday words;
    :data:`SOUND_MISSES` of them at most, taken in turn over the syllables."""
    per_syllable: list[list[str]] = []
    for i, char in enumerate(phrase):
        if not is_syllable(char):
            continue
        onset, vowel, final = _parts(char)
        changed = [_syllable(o, vowel, final) for o in ONSET_KIN.get(onset, "")]
        changed += [_syllable(onset, v, final) for v in VOWEL_NEXT.get(vowel, "")]
        changed += [_syllable(onset, vowel, "")] if final else [_syllable(onset, vowel, f) for f in ADDED_FINALS]
        per_syllable.append([phrase[:i] + c + phrase[i + 1:] for c in changed])
    made: list[str] = []
    for k in range(max((len(c) for c in per_syllable), default=0)):
        made += [changed[k] for changed in per_syllable if k < len(changed)]
    made = [text + (f" {CONTINUATIONS[n // 2 % len(CONTINUATIONS)]}." if n % 2 else ".")
            for n, text in enumerate(dict.fromkeys(made))]
    return _without(phrase, made)[:SOUND_MISSES]


def korean_recipe(phrase: str) -> Recipe:
    return Recipe(SENTENCES, QUESTIONS, phrase_like(phrase), near_misses(phrase), phrase_amid(phrase),
                  sound_misses(phrase), sounds_need_phonemes=False)
