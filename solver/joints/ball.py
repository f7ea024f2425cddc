"""Ball joint, the model side (its record read, its slots built); the equations: kernels/joints/ball.py.

Ball joint (Schmitt §5, joint type 0): a point of body a and a point of body b stay together."""
from .common import BALL, local_point

NAME = "ball"
CODE = BALL
ROW_ANGULAR = (False, False, False)
COORDINATE = None
DRIVE_FIELDS = ()


def read(reader) -> dict:
    return {"anchor": reader.vector("anchor")}


def build(arrays, j: int, spec: dict, start, a: int, b: int) -> None:
    arrays.point[j] = [local_point(start, a, spec["anchor"]), local_point(start, b, spec["anchor"])]
