"""The 3D viewer (vispy + PyQt5): not built yet; the library in `soma` never imports it."""
