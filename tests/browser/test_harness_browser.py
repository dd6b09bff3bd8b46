"""The browser harness itself, on a plain ipycanvas canvas (no gamelib involved).

If this fails, the game tests in this folder cannot be trusted either: it proves that a
notebook opens and runs, that the kernel status is read from the status bar, that canvas
pixels can be read from the DOM and that a click lands on the intended canvas pixel.
"""

from __future__ import annotations

import json
import re
import urllib.error

import pytest

from .harness import LabPage, LabServer

BLUE = (0x1E, 0x64, 0xC8, 255)  # the notebook's fill_rect(20, 10, 60, 40)
RED = (0xDC, 0x1E, 0x1E, 255)  # the 10x10 square painted where a click lands
TRANSPARENT = (0, 0, 0, 0)

pytestmark = pytest.mark.browser


def test_canvas_pixels_and_click(shared_lab: LabPage) -> None:
    lab = shared_lab
    lab.run_in_place("canvas_probe.ipynb")
    canvas = lab.visible_canvas()
    assert lab.canvas_size(canvas) == (200, 100)
    lab.wait_pixel(canvas, 50, 30, BLUE)
    assert lab.pixel(canvas, 20, 10) == BLUE  # top-left corner of the rectangle
    assert lab.pixel(canvas, 79, 49) == BLUE  # bottom-right corner
    assert lab.pixel(canvas, 80, 50) == TRANSPARENT  # just outside it
    assert lab.pixel(canvas, 150, 50) == TRANSPARENT
    # What is on screen agrees: blue inside the rectangle, the white page outside it.
    assert lab.screen_pixel(canvas, 50, 30)[:3] == BLUE[:3]
    assert lab.screen_pixel(canvas, 150, 50)[:3] == (255, 255, 255)

    lab.click_canvas(canvas, 150, 50)
    lab.wait_text("clicked at 150,50")
    lab.wait_pixel(canvas, 150, 50, RED)
    assert lab.pixel(canvas, 145, 45) == RED
    assert lab.pixel(canvas, 144, 44) == TRANSPARENT
    assert lab.pixel(canvas, 50, 30) == BLUE
    lab.screenshot("harness-canvas-probe")




def test_the_test_server_has_what_make_lab_has_not_the_graders_tools(
    lab_server: LabServer,
) -> None:
    """nbgrader comes with the test tools, not with `make lab`: the JupyterLab of these tests
    loads neither its JupyterLab extension nor its server extensions, as a student's would."""
    page = lab_server.get(f"lab?token={lab_server.token}")
    config = re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)
    assert config, "JupyterLab's page carries its configuration"
    assert "@jupyter/nbgrader" in json.loads(config.group(1))["disabledExtensions"]
    with pytest.raises(urllib.error.HTTPError) as refused:
        lab_server.get(f"formgrader?token={lab_server.token}")
    assert refused.value.code == 404, "nbgrader's formgrader answered"
