"""Spring-damper between two anchor points (Schmitt §10, eq. 9.1/9.2; Strashnov eq. 13-15).

It adds no rows to the correction: its force is a drive on the anchor-to-anchor length, either as an
explicit centred impulse or as a soft constraint (see drives.py)."""
import numpy as np

from ..drives import read_schedule
from . import distance

NAME = "spring"
ROW_ANGULAR = ()
COORDINATE = "length"
DRIVE_FIELDS = ()
METHODS = ("impulse", "soft")


def read(reader) -> dict:
    fields = distance.read(reader)
    start_length = float(np.linalg.norm(fields["anchor_b"] - fields["anchor_a"]))
    fields.update(
        stiffness=read_schedule(reader, "stiffness", minimum=0.0),
        damping=read_schedule(reader, "damping", 0.0, minimum=0.0),
        rest_length=read_schedule(reader, "rest_length", start_length, minimum=0.0),
        method=reader.string("method", "impulse", choices=METHODS),
    )
    return fields


build = distance.build
axis_row = distance.axis_row
coordinate = distance.coordinate


def rows(joints, frames):
    m = len(joints.joint)
    empty = np.zeros((m, 0, 3))
    return empty, empty, np.zeros((m, 3)), np.zeros((m, 3))


def look_ahead_error(joints, frames):
    return np.zeros((len(joints.joint), 0))
