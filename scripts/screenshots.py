"""Make the README's pictures with the project's own commands: the viewer window (under a
virtual screen) and a headless render. Run from the checkout: python scripts/screenshots.py"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def run(*args, env=None):
    print("$", " ".join(args))
    subprocess.run(args, check=True, cwd=ROOT, env=env)


def main() -> int:
    DOCS.mkdir(exist_ok=True)
    soma = [sys.executable, "-m", "soma"]
    xvfb = None
    env = dict(os.environ)
    if "DISPLAY" not in env:
        if not shutil.which("Xvfb"):
            print("Xvfb is needed for the window screenshot: apt-get install xvfb", file=sys.stderr)
            return 2
        xvfb = subprocess.Popen(["Xvfb", ":97", "-screen", "0", "1280x1024x24"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        env["DISPLAY"] = ":97"
    try:
        run(*soma, "view", "--screenshot", str(DOCS / "viewer.png"), "--step", "5093", env=env)
        run(*soma, "view", "--screenshot", str(DOCS / "playground.png"), "--or", "B4:Z", "--or", "4030100:T",
            "--aux", "E00", env=env)
        run(*soma, "view", "--screenshot", str(DOCS / "assembly.png"), "--solution", "7", "--assemble", "4.6",
            env=env)
    finally:
        if xvfb:
            xvfb.terminate()
    headless = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    run(*soma, "render", "--solution", "1", "--explode", "0.45", "--size", "640x480",
        "--out", str(DOCS / "render-solution-1.png"), env=headless)
    run(*soma, "render", "--trace", "data/fixed-order.trace.gz", "--step", "12", "--hide", "z=2",
        "--size", "640x480", "--out", str(DOCS / "render-step-12.png"), env=headless)
    return 0


if __name__ == "__main__":
    sys.exit(main())
