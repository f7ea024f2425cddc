"""Rail, the model side (its record read, its slots built); the equations: kernels/joints/rail.py.

Rail with end stops (Schmitt §10): a point of body b runs on the segment start-end of body a.

The point may not leave the line; the two stops are one-sided drives on the coordinate that act only
when the look-ahead finds the point past an end. Body b may turn freely about the point."""
import numpy as np

from ..errors import ModelError
from .common import RAIL, local_point, set_axis_frame

NAME = "rail"
CODE = RAIL
ROW_ANGULAR = (False, False)
COORDINATE = "length"
DRIVE_FIELDS = ("effort",)


def read(reader) -> dict:
    start, end = reader.vector("start"), reader.vector("end")
    if np.linalg.norm(end - start) < 1e-12:
        raise reader.fail("end", "must differ from 'start' (the rail has no length)")
    return {"start": start, "end": end, "point": reader.vector("point")}


def direction(spec: dict) -> np.ndarray:
    line = np.asarray(spec["end"], dtype=float) - spec["start"]
    return line / np.linalg.norm(line)


def build(arrays, j: int, spec: dict, start, a: int, b: int) -> None:
    line = direction(spec)
    offset = np.asarray(spec["point"], dtype=float) - spec["start"]
    off_line = np.linalg.norm(offset - line * (offset @ line))
    if off_line > 1e-6:
        raise ModelError(f"joint '{spec['name']}': field 'point' must lie on the rail from 'start' to 'end' "
                         f"(it is {off_line:.3g} m off)")
    arrays.point[j] = [local_point(start, a, spec["start"]), local_point(start, b, spec["point"])]
    set_axis_frame(arrays, j, line, start, a, b)
    arrays.length[j] = np.linalg.norm(np.asarray(spec["end"], dtype=float) - spec["start"])


def start_coordinate(spec: dict) -> float:
    return float((np.asarray(spec["point"], dtype=float) - spec["start"]) @ direction(spec))
