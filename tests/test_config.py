import pytest

from assistant import config as cfg
from assistant.config import Config, ConfigError


def test_defaults_round_trip_through_toml(tmp_path):
    path = tmp_path / "assistant.toml"
    original = cfg.with_overrides(Config(), vad={"endpoint_ms": 450}, llm={"system_prompt": "Be brief."})
    cfg.save(original, path)
    assert cfg.load(path) == original


def test_unknown_key_is_named(tmp_path):
    path = tmp_path / "assistant.toml"
    path.write_text("[vad]\nendpoint_msec = 300\n")
    with pytest.raises(ConfigError, match="vad.endpoint_msec"):
        cfg.load(path)


def test_wrong_type_is_named(tmp_path):
    path = tmp_path / "assistant.toml"
    path.write_text('[llm]\nmax_tokens = "many"\n')
    with pytest.raises(ConfigError, match="llm.max_tokens"):
        cfg.load(path)


def test_broken_toml_is_a_config_error(tmp_path):
    path = tmp_path / "assistant.toml"
    path.write_text("[vad\n")
    with pytest.raises(ConfigError, match="cannot read config"):
        cfg.load(path)


def test_missing_file_means_defaults(tmp_path):
    assert cfg.load(tmp_path / "none.toml") == Config()


def test_overrides_ignore_none():
    config = cfg.with_overrides(Config(), stt={"engine": None, "language": "ko"})
    assert config.stt.engine == Config().stt.engine and config.stt.language == "ko"
