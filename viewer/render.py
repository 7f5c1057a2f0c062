"""Pictures with no X server: the scene drawn through vispy's EGL backend (surfaceless Mesa)."""
from __future__ import annotations

import os

from soma.output import write_bytes
from soma.problem import SOMA_CUBE

from .display import Display


class RenderUnavailable(RuntimeError):
    """EGL (or vispy) is missing: the message says what to install."""


INSTALL_HINT = ("install EGL and Mesa (Debian: apt-get install libegl1 libgl1-mesa-dri) and the viewer "
                "extra (pip install '.[viewer]')")


def _egl_scene(size: tuple[int, int], target=None):
    os.environ.setdefault("EGL_PLATFORM", "surfaceless")
    try:
        import vispy
        vispy.use(app="egl")
        from .scene import CubeScene
        return CubeScene(size=size, target=target or SOMA_CUBE.target)
    except ImportError as e:
        raise RenderUnavailable(f"soma render needs vispy: {e}; {INSTALL_HINT}") from None
    except Exception as e:  # noqa: BLE001 - vispy raises plain RuntimeErrors for a missing EGL
        raise RenderUnavailable(f"soma render could not start EGL ({type(e).__name__}: {e}); {INSTALL_HINT}") from None


def render_png(display: Display, path: str, size=(800, 600), view: str = "iso", target=None) -> None:
    """Draw a display and write it to path as PNG (written whole, then renamed; see
    soma.output). OutputError when it cannot be written."""
    scene = _egl_scene(size, target)
    scene.set_view(view)
    scene.show(display)
    image = scene.render()
    from vispy.io.image import _make_png     # the bytes of write_png, to write them safely
    write_bytes(path, _make_png(image))


def colours(puzzle=SOMA_CUBE) -> dict[str, str]:
    return {p.name: p.colour for p in puzzle.pieces}
