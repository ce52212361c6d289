"""``assistant kiosk``: the locked configuration is refused naming the key, and the
supervisor starts the app as this program again."""

from __future__ import annotations

import sys

import pytest

from assistant import config as config_mod
from assistant.config import Config, ConfigError, from_mapping
from assistant.commands.kiosk import command

from fakes import run_assistant, toml_file

@pytest.mark.parametrize("section, values, key", [
    ("kiosk", {"idle_reset_s": 0}, "kiosk.idle_reset_s"),
    ("kiosk", {"exit_keys": "Alt+F4"}, "kiosk.exit_keys"),
    ("kiosk", {"exit_keys": "Q"}, "kiosk.exit_keys"),
    ("kiosk", {"admin_pin": "12ab"}, "kiosk.admin_pin"),
    ("kiosk", {"log_backups": 0}, "kiosk.log_backups"),
    ("kiosk", {"watchdog_interval_s": 90.0}, "kiosk.watchdog_interval_s"),
    ("llm", {"backend": "cloud"}, "llm.backend"),
])
def test_invalid_kiosk_settings_are_refused_naming_the_key(section, values, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        from_mapping({section: values})


def test_the_default_kiosk_settings_pass():
    config_mod.check(command.kiosk_config(Config()))


@pytest.mark.parametrize("text, key", [
    ("[kiosk]\nidle_reset_s = -5\n", "kiosk.idle_reset_s"),
    ("[kiosk]\nadmin_pin = 1234\n", "kiosk.admin_pin"),
    ("[kiosk]\nidle_reset = 30\n", "kiosk.idle_reset"),
])
def test_the_kiosk_command_refuses_an_invalid_config_naming_the_key(tmp_path, text, key):
    run = run_assistant("kiosk", "--config", toml_file(tmp_path, text))
    assert run.returncode == 2
    assert f"'{key}'" in run.stderr
    assert not (tmp_path / "logs").exists()


def test_a_config_with_kiosk_enabled_starts_the_kiosk_and_is_checked(tmp_path):
    run = run_assistant("--config", toml_file(tmp_path, '[kiosk]\nenabled = true\nexit_keys = "Ctrl+Q"\n'))
    assert run.returncode == 2 and "'kiosk.exit_keys'" in run.stderr



def test_the_app_is_started_as_this_program_in_kiosk_app_mode():
    program = [sys.executable, "-m", "assistant"]
    assert command.child_command(["kiosk", "--config", "k.toml"], True) == [*program, "kiosk", "--config", "k.toml", "--app"]
    assert command.child_command(["--config", "k.toml"], False) == [*program, "--config", "k.toml", "kiosk", "--app"]
