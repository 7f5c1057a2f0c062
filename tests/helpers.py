"""Running the command as a user does, and what a user error must look like."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args, cwd=ROOT, env=None):
    """`python -m soma ARGS` in a fresh process."""
    return subprocess.run([sys.executable, "-m", "soma", *args], capture_output=True, text=True, cwd=cwd, env=env)


def one_line_error(r):
    """A non-zero exit with one line on stderr and no traceback; returns that line."""
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr
