"""``arena serve`` and ``arena run --serve``: addresses, warnings and one-line errors."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.cli._serve import parse_address
from arena.web import is_loopback


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.9.9.9", True), ("::1", True), ("[::1]", True),
    ("localhost", True), ("0.0.0.0", False), ("192.168.1.4", False), ("::", False),
    ("example.org", False),
])
def test_only_loopback_addresses_are_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize(("text", "address"), [
    ("8000", ("127.0.0.1", 8000)), (":0", ("127.0.0.1", 0)),
    ("0.0.0.0:80", ("0.0.0.0", 80)), ("[::1]:9000", ("::1", 9000)),
])
def test_serve_addresses(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address


def test_a_bad_address_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("name: c\nseed: 1\nplayers: 4\nbots: [greedy, lowest, highest, random]\n")
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "o"),
                                       "--serve", "eighty", "-q"])
    assert result.exit_code == 2
    assert "--serve eighty: expected [HOST:]PORT" in result.output
    assert "Traceback" not in result.output


def test_serving_no_folder_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "no such folder" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_port_in_use_is_one_line(finished_run: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", str(finished_run), "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output


def test_a_public_address_is_warned_of(capsys: pytest.CaptureFixture[str]) -> None:
    from arena.cli._serve import warn_if_public

    warn_if_public("0.0.0.0")
    assert "anyone who can reach this machine" in capsys.readouterr().err
    warn_if_public("127.0.0.1")
    assert capsys.readouterr().err == ""


def test_a_host_that_does_not_resolve_is_one_line() -> None:
    from arena.cli import InputError
    from arena.cli._serve import listen_error

    error = listen_error("nohost.invalid", 8000,
                         socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
    assert isinstance(error, InputError)
    assert error.message == "cannot listen on nohost.invalid:8000: Name or service not known"
