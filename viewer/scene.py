"""The vispy scene: draws a `Display` as one merged mesh with dark edges and an outline, under a
turntable camera; presets, camera values, headless rendering and picking a cell."""
from __future__ import annotations

import numpy as np
from vispy import scene

from soma.bitmask import CUBE, Target

from .display import EDGE_COLOUR, HIGHLIGHT, Display, build_mesh

BACKGROUND = "#f3f4f6"
VIEWS = {                     # name -> (azimuth, elevation)
    "iso": (-35.0, 28.0),
    "front": (0.0, 0.0),
    "back": (180.0, 0.0),
    "left": (-90.0, 0.0),
    "right": (90.0, 0.0),
    "top": (0.0, 90.0),
    "bottom": (0.0, -90.0),
}
DEFAULT_DISTANCE = 11.0


class CubeScene:
    """A SceneCanvas showing one Display. `parent` embeds it in a Qt widget."""

    def __init__(self, size=(800, 600), parent=None, show=False, target: Target = CUBE):
        self.target = target
        self.canvas = scene.SceneCanvas(keys=None, size=size, bgcolor=BACKGROUND, show=show, parent=parent)
        self.view = self.canvas.central_widget.add_view()
        dims = np.array(target.dims, dtype=float)
        self.middle = tuple(dims / 2)
        diagonal = float(np.linalg.norm(dims))             # fit the whole target in the 35 degree view
        self.distance = max(DEFAULT_DISTANCE, 1.2 * diagonal / (2 * np.tan(np.radians(35 / 2))))
        cam = scene.TurntableCamera(fov=35, distance=self.distance, center=self.middle)
        cam.depth_value = 10            # render() has a 16-bit depth buffer
        self.view.camera = cam
        self.mesh = scene.visuals.Mesh(parent=self.view.scene)
        self.mesh.set_gl_state("opaque", depth_test=True, cull_face=True,
                               polygon_offset_fill=True, polygon_offset=(1.0, 1.0))
        self.edges = scene.visuals.Line(connect="segments", color=EDGE_COLOUR, width=1.5,
                                        parent=self.view.scene, antialias=False)
        self.outline = scene.visuals.Line(connect="segments", width=4.0, parent=self.view.scene)
        self.display: Display | None = None
        self.mesh_data = None
        self.set_view("iso")

    # -- drawing ------------------------------------------------------------------------------
    def show(self, display: Display) -> None:
        """Draw a display (one mesh update, one edge update)."""
        self.display = display
        m = build_mesh(display, self.target)
        self.mesh_data = m
        if len(m.faces):
            self.mesh.set_data(vertices=m.vertices, faces=m.faces, face_colors=m.face_colors)
            self.mesh.visible = True
        else:
            self.mesh.visible = False
        self.edges.visible = len(m.edges) > 0
        if len(m.edges):
            self.edges.set_data(pos=m.edges, color=EDGE_COLOUR)
        self.outline.visible = len(m.outline) > 0
        if len(m.outline):
            self.outline.set_data(pos=m.outline, color=HIGHLIGHT.get(display.highlight_kind, HIGHLIGHT["place"]))
        self.canvas.update()

    # -- camera -------------------------------------------------------------------------------
    @property
    def camera(self):
        return self.view.camera

    def set_view(self, name: str) -> None:
        az, el = VIEWS[name]
        self.set_camera(az, el, self.distance)

    def reset(self) -> None:
        self.camera.center = self.middle
        self.set_view("top" if self.target.flat else "iso")

    def set_camera(self, azimuth: float | None = None, elevation: float | None = None,
                   distance: float | None = None) -> None:
        cam = self.camera
        if azimuth is not None:
            cam.azimuth = float(azimuth)
        if elevation is not None:
            cam.elevation = float(elevation)
        if distance is not None:
            cam.distance = float(distance)
        self.canvas.update()

    def camera_values(self) -> tuple[float, float, float]:
        cam = self.camera
        return float(cam.azimuth), float(cam.elevation), float(cam.distance or self.distance)

    # -- pictures and picking -----------------------------------------------------------------
    def render(self) -> np.ndarray:
        """The canvas as an RGBA array (rows, columns, 4)."""
        return self.canvas.render()

    def cell_at(self, x: float, y: float) -> int | None:
        """The cell whose cube is drawn at canvas pixel (x, y), nearest the eye, or None."""
        if self.mesh_data is None or not len(self.mesh_data.faces):
            return None
        tr = self.mesh.get_transform("visual", "canvas")
        m = self.mesh_data
        # project every triangle; take the nearest one (to the eye) that holds the point
        tri = m.vertices[m.faces]                                    # (F, 3, 3)
        screen = tr.map(tri.reshape(-1, 3))                          # mesh -> canvas pixels
        screen = screen[:, :3] / screen[:, 3:4]
        pts = screen.reshape(-1, 3, 3)
        a, b, c = pts[:, 0, :2], pts[:, 1, :2], pts[:, 2, :2]
        p = np.array([x, y])

        def side(u, v, w):
            return (v[:, 0] - u[:, 0]) * (w[:, 1] - u[:, 1]) - (v[:, 1] - u[:, 1]) * (w[:, 0] - u[:, 0])
        pp = np.broadcast_to(p, a.shape)
        d1, d2, d3 = side(a, b, pp), side(b, c, pp), side(c, a, pp)
        inside = ((d1 >= 0) & (d2 >= 0) & (d3 >= 0)) | ((d1 <= 0) & (d2 <= 0) & (d3 <= 0))
        hits = np.flatnonzero(inside)
        if not len(hits):
            return None
        eye = self._eye()
        centres = tri[hits].mean(axis=1)
        nearest = hits[np.argmin(np.linalg.norm(centres - eye, axis=1))]
        return int(m.picks[nearest])

    def _eye(self) -> np.ndarray:
        cam = self.camera
        az, el = np.radians(cam.azimuth), np.radians(cam.elevation)
        d = cam.distance or self.distance
        offset = np.array([np.sin(az) * np.cos(el), -np.cos(az) * np.cos(el), np.sin(el)]) * d
        return np.array(cam.center) + offset
