"""Running the command as a user does, and what a user error must look like."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


CHILD_TIMEOUT = 240        # seconds: a stuck child fails its test instead of stalling the suite


def run_child(args, **kw):
    """subprocess.run with a timeout, so that no child can hang the test suite."""
    kw.setdefault("timeout", CHILD_TIMEOUT)
    return subprocess.run(args, **kw)


def run(*args, cwd=ROOT, env=None, timeout=CHILD_TIMEOUT):
    """`python -m soma ARGS` in a fresh process."""
    return run_child([sys.executable, "-m", "soma", *args], capture_output=True, text=True, cwd=cwd, env=env,
                     timeout=timeout)


def one_line_error(r):
    """A non-zero exit with one line on stderr and no traceback; returns that line."""
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr
