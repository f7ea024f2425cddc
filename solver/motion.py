"""Animated bodies: a body whose pose over time is given (a keyed crank, a moving platform, a hand)
rather than simulated. It acts on the mechanism through its joints and contacts like a fixed body
(no impulse moves it) that moves, with the velocity of its motion.

A body's `motion` is a table of poses: `time` (S,) s, strictly increasing, `position` (S, 3) of the
centre of mass, world, and `orientation` (S, 4) quaternions (w, x, y, z) of the body frame. Between
samples the pose follows a cubic Hermite curve through them, with each sample's rate from the
parabola through it and its neighbours: exact for motion of constant acceleration, and the velocity
is continuous, so a joint to the body feels no jolt at the samples. Before the first sample and after
the last the body holds still there.
"""
from typing import NamedTuple

import numpy as np

from .spec import RecordReader, checked_array

STENCIL = 5  # samples whose polynomial gives a sample's rate


class MotionArrays(NamedTuple):
    """Every animated body's table, one after the other: body b's samples are
    body_motion_start[b]:body_motion_start[b + 1] (empty for the other bodies)."""

    body_motion_start: np.ndarray  # (n + 1,)
    motion_time: np.ndarray  # (S,) s
    motion_position: np.ndarray  # (S, 3) centre of mass, world
    motion_velocity: np.ndarray  # (S, 3) its rate at the sample
    motion_quaternion: np.ndarray  # (S, 4) body frame -> world (w, x, y, z), one hemisphere from sample to sample
    motion_quaternion_rate: np.ndarray  # (S, 4) its rate at the sample

    @classmethod
    def build(cls, motions: list) -> "MotionArrays":
        """motions: one per body (index 0 the world), a motion record or None."""
        counts = [0 if m is None else len(m["time"]) for m in motions]
        start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        tables = [m for m in motions if m is not None]
        if not tables:
            return cls(start, np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 4)), np.zeros((0, 4)))
        time = np.concatenate([m["time"] for m in tables])
        position = np.concatenate([m["position"] for m in tables])
        quaternion = np.concatenate([m["orientation"] for m in tables])
        velocity = np.concatenate([sample_rates(m["time"], m["position"]) for m in tables])
        quaternion_rate = np.concatenate([sample_rates(m["time"], m["orientation"]) for m in tables])
        return cls(start, time, position, velocity, quaternion, quaternion_rate)


def read_motion(reader: RecordReader) -> dict | None:
    """The body's motion table, validated (orientations normalised and kept in one hemisphere)."""
    table = reader.record_of("motion")
    if table is None:
        return None
    time = table.raw("time")
    if not isinstance(time, (list, tuple, np.ndarray)) or len(time) == 0:
        raise table.fail("time", "must be a non-empty list of times (s)")
    samples = len(time)
    time = checked_array(time, (samples,), lambda problem: table.fail("time", problem))
    if np.any(np.diff(time) <= 0):
        k = int(np.flatnonzero(np.diff(time) <= 0)[0])
        raise table.fail("time", f"must increase from sample to sample, but #{k + 1} ({time[k + 1]:g} s) does not "
                                 f"come after #{k} ({time[k]:g} s)")
    position = table.array("position", (samples, 3))
    orientation = table.array("orientation", (samples, 4))
    lengths = np.linalg.norm(orientation, axis=1)
    if lengths.min() < 1e-12:
        raise table.fail("orientation", f"must not be zero (sample #{int(np.argmin(lengths))})")
    table.finish()
    orientation = orientation / lengths[:, None]
    # q and -q are one rotation: each sample takes the sign nearer the previous one, so the curve
    # between them is the short turn
    signs = np.cumprod(np.where(np.einsum("si,si->s", orientation[1:], orientation[:-1]) < 0, -1.0, 1.0))
    orientation[1:] *= signs[:, None]
    return {"time": time, "position": position, "orientation": orientation}


def motion_to_json(motion: dict) -> dict:
    return {key: np.asarray(value).tolist() for key, value in motion.items()}


def sample_rates(time: np.ndarray, values: np.ndarray) -> np.ndarray:
    """(S, k) rates of values (S, k) at the samples: the slope of the polynomial through the sample
    and its nearest neighbours, five samples wide (fewer when the table is shorter; zero for one)."""
    samples = len(time)
    width = min(STENCIL, samples)
    rates = np.zeros_like(values)
    for j in range(samples if width > 1 else 0):
        first = min(max(j - width // 2, 0), samples - width)
        window = time[first:first + width]
        rates[j] = _lagrange_slopes(window, time[j]) @ values[first:first + width]
    return rates


def _lagrange_slopes(nodes: np.ndarray, at: float) -> np.ndarray:
    """Weights w with sum w_i f(nodes_i) = p'(at), p the polynomial through the nodes; `at` is a node."""
    j = int(np.flatnonzero(nodes == at)[0])
    weights = np.empty(len(nodes))
    for i in range(len(nodes)):
        others = np.delete(np.arange(len(nodes)), [i, j])
        if i == j:
            weights[i] = np.sum(1.0 / (at - np.delete(nodes, j)))
        else:
            weights[i] = np.prod((at - nodes[others]) / (nodes[i] - nodes[others])) / (nodes[i] - at)
    return weights
