"""Fixtures the command tests share with the folders of what the commands show."""

from tests.report.conftest import run_folder

__all__ = ["run_folder"]
