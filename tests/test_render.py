"""`soma render` draws a PNG in a process with no DISPLAY at all (EGL, surfaceless Mesa)."""
import os
import sys
from pathlib import Path

import numpy as np

from soma.pieces import SOMA
from tests.helpers import run_child

ROOT = Path(__file__).resolve().parent.parent


def no_display_env():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    return env


def read_png(path):
    """RGBA rows of a PNG, through Qt's reader (no Pillow needed)."""
    from PyQt5.QtGui import QImage
    image = QImage(str(path)).convertToFormat(QImage.Format_RGBA8888)
    assert not image.isNull(), path
    ptr = image.constBits()
    ptr.setsize(image.byteCount())
    return np.frombuffer(ptr, np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)[:, :image.width()].copy()


def piece_pixels(image) -> dict[str, int]:
    """How many pixels show each piece's colour (under any of the flat shades)."""
    rgb = image[..., :3].reshape(-1, 3).astype(float)
    out = {}
    for p in SOMA:
        c = np.array([int(p.colour[k:k + 2], 16) for k in (1, 3, 5)], dtype=float)
        s = rgb @ c / (c @ c)
        resid = np.linalg.norm(rgb - s[:, None] * c, axis=1)
        out[p.name] = int(((resid < 10) & (s > 0.4) & (s < 1.1)).sum())
    return out


def test_render_a_solution_without_display(tmp_path):
    out = tmp_path / "cube.png"
    r = run_child([sys.executable, "-m", "soma", "render", "--solution", "1", "--size", "320x240",
                        "--out", str(out)], capture_output=True, text=True, env=no_display_env(), cwd=ROOT)
    assert r.returncode == 0, r.stderr
    image = read_png(out)
    assert image.shape[:2] == (240, 320)
    seen = piece_pixels(image)
    assert sum(n > 100 for n in seen.values()) >= 5, seen


def test_render_a_trace_step_with_hidden_layer(tmp_path):
    full, cut = tmp_path / "full.png", tmp_path / "cut.png"
    base = [sys.executable, "-m", "soma", "render", "--trace", str(ROOT / "data" / "fixed-order.trace.gz"),
            "--step", "5093", "--size", "320x240"]
    for path, extra in ((full, []), (cut, ["--hide", "z=2"])):
        r = run_child(base + extra + ["--out", str(path)], capture_output=True, text=True,
                           env=no_display_env(), cwd=ROOT)
        assert r.returncode == 0, r.stderr
    a, b = read_png(full), read_png(cut)
    background = np.array([0xF3, 0xF4, 0xF6])
    drawn = lambda im: int((np.abs(im[..., :3].astype(int) - background).sum(axis=2) > 30).sum())  # noqa: E731
    assert drawn(b) < drawn(a)


def test_render_bad_arguments_are_one_line(tmp_path):
    for args in (["--hide", "q=1"], ["--size", "big"], ["--view", "sideways"], ["--solution", "999"]):
        r = run_child([sys.executable, "-m", "soma", "render", *args, "--out", str(tmp_path / "x.png")],
                           capture_output=True, text=True, env=no_display_env(), cwd=ROOT)
        assert r.returncode == 2 and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert not (tmp_path / "x.png").exists()


def test_render_a_pentomino_board_from_above(tmp_path):
    out = tmp_path / "board.png"
    r = run_child([sys.executable, "-m", "soma", "render", "pentominoes-3x20", "--solution", "1",
                        "--size", "400x200", "--out", str(out)], capture_output=True, text=True,
                       env=no_display_env(), cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "view top" in r.stderr
    image = read_png(out)
    colours = {tuple(int(v) // 16 for v in px) for px in image[..., :3].reshape(-1, 3)}
    assert len(colours) > 12            # the twelve pieces' colours and the background
