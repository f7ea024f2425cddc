"""A schedule's segment at t (kernels/schedule._segment) is the last key at or before t, whether the
keys are baked at even intervals (found from t's share of the span) or not (by bisection)."""
import numpy as np

from mechbake.solver.kernels.schedule import _segment


def last_key_at_or_before(times, start, end, t) -> int:
    return start + int(np.searchsorted(times[start:end], t, side="right")) - 1


def tables(rng) -> list:
    """Key times as the file format brings them: every frame of a bake (sums of a frame's length, so
    not exactly even), hand keys at uneven times, a jump (two keys at one time), and the shortest."""
    frame = 1.0 / 24.0
    baked = np.cumsum(np.full(240, frame)) - frame
    uneven = np.sort(rng.uniform(0.0, 3.0, 40))
    jump = np.array([0.0, 0.5, 0.5, 1.0, 2.0])
    return [baked, 0.1 + baked, uneven, jump, np.array([0.0]), np.array([0.0, 1.0]), np.array([0.0, 1.0, 2.0])]


def test_the_segment_is_the_last_key_at_or_before_t_in_every_kind_of_table():
    rng = np.random.default_rng(3)
    for times in tables(rng):
        padded = np.concatenate(([-5.0], times, [99.0]))  # another schedule's keys on either side
        start, end = 1, 1 + len(times)
        probes = np.concatenate((times, np.nextafter(times, -np.inf), np.nextafter(times, np.inf),
                                 rng.uniform(times[0] - 1.0, times[-1] + 1.0, 200)))
        for t in probes:
            assert _segment.py_func(padded, start, end, t) == last_key_at_or_before(padded, start, end, t), (times, t)


def test_each_key_knows_where_its_run_of_segments_ends():
    """drives.run_ends: from each key, the value where the segments moving the way its own does end
    (its own value where its segment is flat, and at the table's end), as a walk along the table finds it."""
    from mechbake.solver.drives import run_ends

    def walked(values):
        slope = np.sign(np.diff(values))
        ends = list(values)
        for i in range(len(slope)):
            j = i
            while slope[i] != 0 and j + 1 < len(slope) and slope[j + 1] == slope[i]:
                j += 1
            ends[i] = values[j + 1] if slope[i] != 0 else values[i]
        return ends

    rng = np.random.default_rng(5)
    tables = [np.sin(np.linspace(0.0, 9.0, 200)), np.array([0.0, 1.0, 1.0, 2.0, 0.5, 0.5, 0.5, 3.0]),
              rng.integers(-2, 3, 60).astype(float), np.array([1.0]), np.array([1.0, 1.0]), np.array([0.0, 2.0])]
    for values in tables:
        assert run_ends(values).tolist() == walked(values), values
