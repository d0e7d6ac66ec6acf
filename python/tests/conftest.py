"""What the tests share: the command line to compare the package with."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def sow_binary():
    """The `sow` command line: `SOW_BIN`, else the one `cargo build` made."""
    given = os.environ.get("SOW_BIN")
    if given:
        return given
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "sow"
        if path.exists():
            return str(path)
    raise RuntimeError(
        "the tests compare the package with the command line: run `cargo build` "
        "first, or name the binary in SOW_BIN"
    )


@pytest.fixture(scope="session")
def cli():
    """Runs `sow ARGS`, returning its standard output (input as given)."""
    binary = sow_binary()

    def run(*args, input=None, code=0):
        done = subprocess.run(
            [binary, *args],
            input=input,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=600,
        )
        assert done.returncode == code, done.stderr
        return done.stdout

    return run


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]
