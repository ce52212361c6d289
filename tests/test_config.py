import pytest

from assistant import config as cfg
from assistant.config import Config, ConfigError

from fakes import toml_file


def test_defaults_round_trip_through_toml(tmp_path):
    path = tmp_path / "assistant.toml"
    original = cfg.with_overrides(Config(), vad={"endpoint_ms": 450}, llm={"system_prompt": "Be brief."})
    cfg.save(original, path)
    assert cfg.load(path) == original


@pytest.mark.parametrize("text, message", [
    ("[vad]\nendpoint_msec = 300\n", "unknown key 'vad.endpoint_msec'"),
    ('[llm]\nmax_tokens = "many"\n', "'llm.max_tokens' must be a number"),
    ("[llm]\nmax_tokens = 0\n", "'llm.max_tokens' must be at least 1"),
    ('[stt]\nengine = "dragon"\n', "'stt.engine' must be whisper or vosk"),
    ("[vad\n", "cannot read config"),
])
def test_a_bad_file_is_refused_naming_the_key(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        cfg.load(toml_file(tmp_path, text))


def test_missing_file_means_defaults(tmp_path):
    assert cfg.load(tmp_path / "none.toml") == Config()


def test_overrides_ignore_none():
    config = cfg.with_overrides(Config(), stt={"engine": None, "language": "ko"})
    assert config.stt.engine == Config().stt.engine and config.stt.language == "ko"
