"""The command line as a user runs it: python -m soma, exit codes, one-line errors."""
import json
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "soma", *args], capture_output=True, text=True)


def test_help():
    r = run("--help")
    assert r.returncode == 0 and "soma" in r.stdout


def test_placements_json():
    r = run("placements", "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout)["total"] == 688


def test_bad_argument_is_one_line():
    r = run("placements", "--bogus")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
