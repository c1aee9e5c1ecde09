"""The web console's config: [web] listen and --web, with clear errors."""

import pytest

from shooter.config import parse_config, parse_listen
from shooter.errors import ConfigError


def test_the_web_console_is_off_unless_configured():
    assert parse_config({}).web.listen == "off"
    assert parse_listen("web.listen", "off") is None


def test_listen_is_host_and_port():
    assert parse_listen("web.listen", "0.0.0.0:8080") == ("0.0.0.0", 8080)
    assert parse_listen("web.listen", "[::]:8080") == ("::", 8080)


@pytest.mark.parametrize("value", ["8080", "0.0.0.0:", "host:http", "0.0.0.0:70000", 8080, True])
def test_a_bad_listen_is_refused_naming_the_key(value):
    with pytest.raises(ConfigError, match=r"web\.listen: must be \"HOST:PORT\""):
        parse_config({"web": {"listen": value}})


def test_unknown_web_keys_are_refused():
    with pytest.raises(ConfigError, match=r"web\.port: unknown key"):
        parse_config({"web": {"port": 8080}})


def test_web_needs_real_time(capsys):
    from shooter.cli import main
    assert main(["run", "--sim", "--console", "stdio", "--clock", "virtual", "--web", "127.0.0.1:0"]) == 2
    assert "no --web" in capsys.readouterr().err


def test_a_port_in_use_is_a_clear_error_not_a_crash():
    import socket
    import subprocess
    import sys
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio",
                              "--web", f"127.0.0.1:{port}"], input=b"", capture_output=True, timeout=60)
    assert out.returncode == 2
    assert f"web console on 127.0.0.1:{port}" in out.stderr.decode() and "in use" in out.stderr.decode()
