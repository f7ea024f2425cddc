"""What every joint kind shares at model time: the kinds' codes and the start pose in body frames."""
import numpy as np

BALL, HINGE, SLIDER, RAIL, FIXED, DISTANCE, SPRING = range(7)  # joint_kind


def local_point(start, body: int, world) -> np.ndarray:
    """A world point at the start in a body's principal frame."""
    return start.rotation[body].T @ (np.asarray(world, dtype=float) - start.position[body])


def local_vector(start, body: int, world) -> np.ndarray:
    return start.rotation[body].T @ np.asarray(world, dtype=float)


def across(axis) -> tuple[np.ndarray, np.ndarray]:
    """Two unit directions across a unit axis, completing a right-handed frame (axis, u, w)."""
    axis = np.asarray(axis, dtype=float)
    helper = np.array([1.0, 0, 0]) if abs(axis[0]) < 0.9 else np.array([0, 1.0, 0])
    u = np.cross(axis, helper)
    u /= np.linalg.norm(u)
    return u, np.cross(axis, u)


def set_axis_frame(arrays, j: int, axis, start, a: int, b: int) -> None:
    """The axis and its two cross directions in a's frame, the axis in b's."""
    u, w = across(axis)
    arrays.direction[j] = [local_vector(start, a, axis), local_vector(start, a, u), local_vector(start, a, w),
                           local_vector(start, b, axis)]


def set_rest(arrays, j: int, start, a: int, b: int) -> None:
    arrays.rest[j] = start.rotation[a].T @ start.rotation[b]
