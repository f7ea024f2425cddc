"""Schedules in kernels: a value over time, piecewise linear through a table, held at its ends
(motor targets, limits and spring settings, so keyed values are followed)."""
from .jit import borrowing_kernel

VALUE, STIFFNESS, DAMPING, TARGET = range(4)  # the columns of drive_schedule


@borrowing_kernel
def _segment(times, start, end, t):
    """The last k in [start, end) with times[k] <= t (start - 1 if none). A table keyed at even
    intervals (a target baked every frame) is found at once where t's share of the span points;
    any other by bisection."""
    if t < times[start]:
        return start - 1
    last = end - 1
    if t >= times[last]:
        return last
    guess = start + int((t - times[start]) / (times[last] - times[start]) * (last - start))
    guess = min(max(guess, start), last - 1)
    if times[guess] <= t < times[guess + 1]:
        return guess
    low, high = start, end
    while high - low > 1:
        middle = (low + high) // 2
        if times[middle] <= t:
            low = middle
        else:
            high = middle
    return low


@borrowing_kernel
def value(model, schedule, t):
    start, end = model.schedule_start[schedule], model.schedule_start[schedule + 1]
    times, values = model.schedule_time, model.schedule_value
    if end - start == 1 or t <= times[start]:
        return values[start]
    if t >= times[end - 1]:
        return values[end - 1]
    k = _segment(times, start, end, t)
    fraction = (t - times[k]) / (times[k + 1] - times[k])
    return values[k] + fraction * (values[k + 1] - values[k])


@borrowing_kernel
def rate(model, schedule, t):
    """The slope at t: 0 outside the table and for a constant."""
    start, end = model.schedule_start[schedule], model.schedule_start[schedule + 1]
    times, values = model.schedule_time, model.schedule_value
    k = _segment(times, start, end, t)
    if k < start or k >= end - 1:
        return 0.0
    return (values[k + 1] - values[k]) / (times[k + 1] - times[k])


@borrowing_kernel
def drive_value(model, drive, column, t):
    return value(model, model.drive_schedule[drive, column], t)


@borrowing_kernel
def next_stop(model, schedule, t):
    """Where the value next stops moving after t: the end of the run of segments that move the way
    the one at t does (model.schedule_stop); the value itself where it is held."""
    start, end = model.schedule_start[schedule], model.schedule_start[schedule + 1]
    k = _segment(model.schedule_time, start, end, t)
    if k < start:
        return model.schedule_value[start]
    return model.schedule_stop[k]
