"""Hinge joint, the model side (its record read, its slots built); the equations: kernels/joints/hinge.py.

Hinge (revolute) joint: a ball joint whose bodies may turn relative to each other only about one
axis (five rows: the point, and the axis kept in line)."""
import numpy as np

from . import ball
from .common import HINGE, across, local_vector, set_axis_frame

NAME = "hinge"
CODE = HINGE
ROW_ANGULAR = (False, False, False, True, True)
COORDINATE = "angle"
DRIVE_FIELDS = ("limits", "spring", "motor", "effort")


def read(reader) -> dict:
    axis = reader.vector("axis", nonzero=True)
    return {"anchor": reader.vector("anchor"), "axis": axis / np.linalg.norm(axis)}


def build(arrays, j: int, spec: dict, start, a: int, b: int) -> None:
    ball.build(arrays, j, spec, start, a, b)
    set_axis_frame(arrays, j, spec["axis"], start, a, b)
    reference, _ = across(spec["axis"])  # the angle is measured between these, 0 at the start
    arrays.reference[j] = [local_vector(start, a, reference), local_vector(start, b, reference)]


def start_coordinate(spec: dict) -> float:
    return 0.0
