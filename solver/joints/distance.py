"""Distance joint, the model side (its record read, its slots built); the equations: kernels/joints/distance.py.

Distance joint: two anchor points keep the distance they have at the start (a massless rod)."""
import numpy as np

from .common import DISTANCE, local_point

NAME = "distance"
CODE = DISTANCE
ROW_ANGULAR = (False,)
COORDINATE = "length"
DRIVE_FIELDS = ()


def read(reader) -> dict:
    anchor_a, anchor_b = reader.vector("anchor_a"), reader.vector("anchor_b")
    if np.linalg.norm(anchor_b - anchor_a) < 1e-9:
        raise reader.fail("anchor_b", "must differ from 'anchor_a' (a distance joint needs a direction)")
    return {"anchor_a": anchor_a, "anchor_b": anchor_b}


def build(arrays, j: int, spec: dict, start, a: int, b: int) -> None:
    arrays.point[j] = [local_point(start, a, spec["anchor_a"]), local_point(start, b, spec["anchor_b"])]
    arrays.length[j] = start_coordinate(spec)


def start_coordinate(spec: dict) -> float:
    return float(np.linalg.norm(np.asarray(spec["anchor_b"], dtype=float) - spec["anchor_a"]))
