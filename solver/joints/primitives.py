"""The row sets joints are made of, shared by every joint kind.

A joint kind describes its correction impulse by row directions at time t: A (m, d, 3) linear
directions of an impulse pair applied at the points r_a, r_b (levers from the centres of mass), and
B (m, d, 3) angular directions of an angular-impulse pair. At the look-ahead it reports, row by row,
how far body b is off relative to body a along the same directions carried to t+h: directions that
belong to body a (a hinge's cross axes, a slider's cross lines) are kept in its frame and turn with it,
so the error is never measured in a plane the body has already turned away from.
"""
import numpy as np

from ..frames import Frames
from ..rotation import cross, perpendicular_basis, vee_antisymmetric

IDENTITY_ROWS = np.eye(3)


def point_rows(m: int) -> np.ndarray:
    """Three linear rows along the world axes (a ball joint's point condition)."""
    return np.broadcast_to(IDENTITY_ROWS, (m, 3, 3))


def cross_directions(axis: np.ndarray) -> np.ndarray:
    """(m, 2, 3): two unit directions across each unit axis (m, 3); store them in body a's frame."""
    u, w = perpendicular_basis(axis)
    return np.stack((u, w), axis=1)


def carried(frames: Frames, body: np.ndarray, local_directions: np.ndarray) -> np.ndarray:
    """(m, d, 3) directions kept in a body's frame, in the world now."""
    return local_directions @ np.swapaxes(frames.rotation[body], 1, 2)


def along(directions: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """(m, d) components of (m, 3) vectors along (m, d, 3) directions."""
    return (directions @ vector[:, :, None])[:, :, 0]


def rotation_lock_rows(m: int) -> np.ndarray:
    """Three angular rows: no relative rotation."""
    return point_rows(m)


def zeros_rows(m: int, d: int) -> np.ndarray:
    return np.zeros((m, d, 3))


def axis_misalignment(axis_a: np.ndarray, axis_b: np.ndarray) -> np.ndarray:
    """Rotation vector (sin angle * axis) that turns body a's axis into body b's."""
    return cross(axis_a, axis_b)


def relative_rotation_error(frames: Frames, body_a, body_b, rest_relative: np.ndarray) -> np.ndarray:
    """Rotation vector by which body b is turned away from its rest orientation relative to a.

    rest_relative (m, 3, 3) is R_a^T R_b at the start; E = R_b (R_a rest)^T is I when the lock holds.
    """
    target = frames.rotation[body_a] @ rest_relative
    error = frames.rotation[body_b] @ np.swapaxes(target, 1, 2)
    return vee_antisymmetric(error)


def off_line(point: np.ndarray, origin: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Vector from the nearest point of the line (origin, unit direction) to `point`."""
    offset = point - origin
    return offset - direction * np.einsum("mi,mi->m", offset, direction)[:, None]


def spec_array(joints, key: str, width: int = 3) -> np.ndarray:
    """The field `key` of every record of a kind, stacked: (m, width)."""
    return np.array([spec[key] for spec in joints.specs], dtype=float).reshape(-1, width)

