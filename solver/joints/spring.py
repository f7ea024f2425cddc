"""Spring-damper, the model side (its record read); the equations: kernels/joints/spring.py.

Spring-damper between two anchor points (Schmitt §10, eq. 9.1/9.2; Strashnov eq. 13-15).

It adds no rows to the correction: its force is a drive on the anchor-to-anchor length, either as an
explicit centred impulse or as a soft constraint (see drives.py)."""
from ..drives import read_schedule
from . import distance
from .common import SPRING

NAME = "spring"
CODE = SPRING
ROW_ANGULAR = ()
COORDINATE = "length"
DRIVE_FIELDS = ()
METHODS = ("impulse", "soft")


def read(reader) -> dict:
    fields = distance.read(reader)
    fields.update(
        stiffness=read_schedule(reader, "stiffness", minimum=0.0),
        damping=read_schedule(reader, "damping", 0.0, minimum=0.0),
        rest_length=read_schedule(reader, "rest_length", distance.start_coordinate(fields), minimum=0.0),
        method=reader.string("method", "impulse", choices=METHODS),
    )
    return fields


build = distance.build
start_coordinate = distance.start_coordinate
