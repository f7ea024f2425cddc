"""Fixed joint, the model side (its slots built); the equations: kernels/joints/fixed.py.

Fixed joint: the two bodies move as one (a ball joint plus a rotation lock)."""
from . import ball
from .common import FIXED, set_rest

NAME = "fixed"
CODE = FIXED
ROW_ANGULAR = (False, False, False, True, True, True)
COORDINATE = None
DRIVE_FIELDS = ()

read = ball.read


def build(arrays, j: int, spec: dict, start, a: int, b: int) -> None:
    ball.build(arrays, j, spec, start, a, b)
    set_rest(arrays, j, start, a, b)
