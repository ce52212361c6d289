"""The config file and the replies table, fuzzed: every mutation of a valid file loads
or is refused with one line naming the problem, never a traceback."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant import config as config_mod
from assistant.config import Config, ConfigError
from assistant.think.replies import Matcher, fill, load_table, normalize

from fakes import Scratch, fuzz_settings, run_assistant, toml_file

FUZZ = fuzz_settings(200)
SCRATCH = Scratch("fuzz-config-")
"""Where the fuzzed files are written (hypothesis tests take no ``tmp_path``)."""

CONFIG = """\
[audio]
sample_rate = 16000
[vad]
threshold = 0.5
endpoint_ms = 300
[llm]
max_tokens = 60
system_prompt = "You are the museum's guide."
[tts]
engine = "piper"
length_scale = 1.0
[replies]
enabled = true
[kiosk]
enabled = true
exit_keys = "Ctrl+Alt+Shift+E"
admin_pin = "2468"
idle_reset_s = 45
log_backups = 3
"""

REPLIES = """\
defaults = true
filler = "Let me think."

[[reply]]
phrases = ["what time is it", "tell me the time"]
text = "It is {time}."

[[reply]]
phrases = ["stop", "be quiet"]
action = "stop"

[[reply]]
phrases = ["thank you"]
text = "You're welcome!"
"""

toml_values = st.one_of(
    st.booleans(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40), st.lists(st.integers(-5, 5), max_size=3), st.just({}),
)


def toml_literal(value) -> str:
    import tomli_w

    return tomli_w.dumps({"k": value}).split("=", 1)[1].strip() if not isinstance(value, dict) else "{}"


@st.composite
def text_mutations(draw, original: str) -> str:
    """A valid file with lines dropped, repeated, swapped, retyped or cut, and bytes inserted."""
    lines = original.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["drop", "repeat", "retype", "cut", "insert", "swap"]))
        if kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "retype" and "=" in lines[i]:
            lines[i] = lines[i].split("=")[0] + "= " + toml_literal(draw(toml_values))
        elif kind == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif kind == "insert":
            lines.insert(i, draw(st.text(max_size=30)))
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def one_line(exc: Exception) -> None:
    message = str(exc)
    assert message and "\n" not in message, repr(message)


def load_config(text: str) -> Config | ConfigError:
    path = SCRATCH / "assistant.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass") if _encodable(text) else path.write_bytes(
        text.encode("utf-8", errors="replace"))
    try:
        config = config_mod.load(path)  # every setting checked
    except ConfigError as exc:
        one_line(exc)
        return exc
    assert_typed(config)
    return config


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def assert_typed(config) -> None:
    """Every loaded value has its field's type and numbers are finite."""
    for section in dataclasses.fields(config):
        value = getattr(config, section.name)
        if dataclasses.is_dataclass(value):
            assert_typed(value)
            continue
        default = getattr(type(config)(), section.name)
        if default is not None and value is not None:
            assert type(value) is type(default), (section.name, value)
        if isinstance(value, float):
            assert math.isfinite(value), (section.name, value)


def test_the_unmutated_files_load():
    assert isinstance(load_config(CONFIG), Config)
    table = load_replies(REPLIES)
    assert not isinstance(table, ConfigError)


@FUZZ
@given(text=text_mutations(CONFIG))
def test_config_mutations(text):
    load_config(text)


@FUZZ
@given(section=st.sampled_from([f.name for f in dataclasses.fields(Config)]), value=toml_values)
def test_every_key_with_any_value(section, value):
    import tomli_w

    for key in dataclasses.fields(getattr(Config(), section)):
        if key.name in ("sample_rate",):
            continue
        try:
            text = tomli_w.dumps({section: {key.name: value}})
        except (TypeError, ValueError):
            continue
        load_config(text)


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_as_a_config(data):
    path = SCRATCH / "assistant.toml"
    path.write_bytes(data)
    try:
        config_mod.load(path)
    except ConfigError as exc:
        one_line(exc)


# ---------------------------------------------------------------- replies.toml


def load_replies(text: str):
    path = SCRATCH / "replies.toml"
    path.write_bytes(text.encode("utf-8", errors="replace"))
    try:
        table = load_table(path)
    except ConfigError as exc:
        one_line(exc)
        return exc
    matcher = Matcher(table, score_cutoff=85)
    from datetime import datetime

    for entry in table.entries:
        fill(entry.text, datetime(2024, 2, 29, 23, 59))
        for phrase in entry.phrases:
            assert matcher.match(phrase) is not None, phrase  # each phrase finds a reply
    return table


@FUZZ
@given(text=text_mutations(REPLIES))
def test_replies_mutations(text):
    load_replies(text)


@FUZZ
@given(phrases=st.lists(st.text(max_size=30), max_size=4), text=st.text(max_size=60),
       action=st.one_of(st.none(), st.text(max_size=8), st.just("stop")))
def test_replies_entries_with_any_text(phrases, text, action):
    import tomli_w

    row = {"phrases": phrases, "text": text, **({"action": action} if action is not None else {})}
    table = load_replies(tomli_w.dumps({"reply": [row]}))
    if not isinstance(table, ConfigError):
        assert any(normalize(p) in table.entries[0].phrases for p in phrases)


def test_a_template_cannot_ask_for_a_gigabyte():
    table = load_replies('[[reply]]\nphrases = ["time"]\ntext = "{time:>999999999}"\n')
    assert isinstance(table, ConfigError) and "placeholder" in str(table)


@pytest.mark.parametrize("text", ["[llm\nmax_tokens = 5", "[llm]\nmax_tokens = nan", "[kiosk]\nidle_reset_s = -inf"])
def test_the_command_line_says_one_line_and_exits_2(text, tmp_path):
    run = run_assistant("chat", "--config", toml_file(tmp_path, text), "--text", "hi", timeout=120)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), run.stderr
