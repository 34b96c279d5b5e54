"""Archives unpacked as hostile input: each hostile archive is refused in one line naming
what is wrong, nothing lands outside the folder, and the folder is gone after a refusal."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from arena.competition import CompetitionError, UnpackLimits, unpack_archive


def _zip(path: Path, members: dict[str, bytes], *, links: dict[str, str] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in members.items():
            zipped.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zipped.writestr(info, target)
    return path


def _tar(path: Path, *infos: tuple[tarfile.TarInfo, bytes | None]) -> Path:
    with tarfile.open(path, "w:gz") as tarred:
        for info, data in infos:
            if data is not None:
                info.size = len(data)
            tarred.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _info(name: str, kind: bytes = tarfile.REGTYPE, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


def _refused(archive: Path, dest: Path, limits: UnpackLimits | None = None) -> str:
    with pytest.raises(CompetitionError) as caught:
        unpack_archive(archive, dest, limits or UnpackLimits())
    message = str(caught.value)
    assert "\n" not in message
    assert not dest.exists()  # removed whole
    return message


def test_a_plain_archive_unpacks(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "ok.zip", {"pkg/pyproject.toml": b"[project]\n",
                                          "pkg/src/bot.py": b"x = 1\n"})
    written = unpack_archive(archive, tmp_path / "out")
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in written) == [
        "pkg/pyproject.toml", "pkg/src/bot.py"]
    tarred = _tar(tmp_path / "ok.tar.gz", (_info("a/b.py"), b"y = 2\n"))
    assert [p.read_bytes() for p in unpack_archive(tarred, tmp_path / "out2")] == [b"y = 2\n"]


@pytest.mark.parametrize("name", ["../evil.py", "a/../../evil.py", "/etc/evil", "C:/evil",
                                  "a\\..\\evil", "bad\nname", "./"])
def test_zip_slip_is_refused(tmp_path: Path, name: str) -> None:
    archive = _zip(tmp_path / "slip.zip", {"fine.py": b"1", name: b"owned"})
    message = _refused(archive, tmp_path / "out")
    assert "outside its folder" in message or "not a plain path" in message \
        or "empty name" in message
    assert not (tmp_path / "evil.py").exists()


def test_a_link_to_etc_is_refused(tmp_path: Path) -> None:
    zipped = _zip(tmp_path / "link.zip", {}, links={"passwd": "/etc/passwd"})
    assert "symbolic link" in _refused(zipped, tmp_path / "out")
    tarred = _tar(tmp_path / "link.tar.gz", (_info("etc", tarfile.SYMTYPE, "/etc"), None),
                  (_info("etc/evil"), b"x"))
    assert "symbolic link" in _refused(tarred, tmp_path / "out")
    hard = _tar(tmp_path / "hard.tar.gz", (_info("p", tarfile.LNKTYPE, "/etc/passwd"), None))
    assert "hard link" in _refused(hard, tmp_path / "out")


@pytest.mark.parametrize(("kind", "word"), [(tarfile.CHRTYPE, "device"),
                                            (tarfile.BLKTYPE, "device"),
                                            (tarfile.FIFOTYPE, "FIFO")])
def test_devices_and_fifos_are_refused(tmp_path: Path, kind: bytes, word: str) -> None:
    archive = _tar(tmp_path / "dev.tar.gz", (_info("null", kind), None))
    assert word in _refused(archive, tmp_path / "out")


def test_a_zip_bomb_stops_at_the_bound(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "bomb.zip", {"zeros": b"\0" * (50 * 1024 * 1024)})
    assert archive.stat().st_size < 100_000
    message = _refused(archive, tmp_path / "out", UnpackLimits(max_bytes=10**9, max_ratio=100))
    assert "100 times its own size" in message
    message = _refused(archive, tmp_path / "out", UnpackLimits(max_bytes=1_000_000,
                                                               max_ratio=10**6))
    assert "more than 1000000 bytes" in message


def test_too_many_files_stop_at_the_bound(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "many.zip", {f"f{i}.py": b"" for i in range(30)})
    assert "more than 20 files" in _refused(archive, tmp_path / "out",
                                            UnpackLimits(max_files=20))


def test_a_name_twice_and_a_file_over_a_folder_are_refused(tmp_path: Path) -> None:
    twice = _tar(tmp_path / "twice.tar.gz", (_info("a.py"), b"1"), (_info("a.py"), b"2"))
    assert "twice" in _refused(twice, tmp_path / "out")
    clash = _tar(tmp_path / "clash.tar.gz", (_info("a"), b"1"), (_info("a/b.py"), b"2"))
    assert "cannot be unpacked" in _refused(clash, tmp_path / "out")


def test_what_is_no_archive_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.py"
    path.write_bytes(b"print('hi')\n")
    assert "neither a zip nor a tar" in _refused(path, tmp_path / "out")
    broken = _zip(tmp_path / "broken.zip", {"a.py": b"x" * 5000})
    data = bytearray(broken.read_bytes())
    data[34:40] = b"\xff" * 6  # the member's compressed bytes, after its header and name
    broken.write_bytes(bytes(data))
    assert "cannot be unpacked" in _refused(broken, tmp_path / "out")


def test_the_folder_must_be_new(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "ok.zip", {"a.py": b"1"})
    (tmp_path / "out").mkdir()
    with pytest.raises(FileExistsError):
        unpack_archive(archive, tmp_path / "out")
    assert os.listdir(tmp_path / "out") == []
