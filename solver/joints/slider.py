"""Slider joint, the model side (its record read, its slots built); the equations: kernels/joints/slider.py.

Slider (prismatic) joint: body b slides along an axis fixed in body a and may not turn relative to
it (Schmitt §10's carriage: a point of b on a line of a, plus a rotation lock)."""
import numpy as np

from .common import SLIDER, local_point, set_axis_frame, set_rest

NAME = "slider"
CODE = SLIDER
ROW_ANGULAR = (False, False, True, True, True)
COORDINATE = "length"
DRIVE_FIELDS = ("limits", "spring", "motor", "effort")


def read(reader) -> dict:
    axis = reader.vector("axis", nonzero=True)
    return {"anchor": reader.vector("anchor"), "axis": axis / np.linalg.norm(axis)}


def build(arrays, j: int, spec: dict, start, a: int, b: int) -> None:
    arrays.point[j] = [local_point(start, a, spec["anchor"]), local_point(start, b, spec["anchor"])]
    set_axis_frame(arrays, j, spec["axis"], start, a, b)
    set_rest(arrays, j, start, a, b)


def start_coordinate(spec: dict) -> float:
    return 0.0
