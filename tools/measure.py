"""Measurements shared by tests and benchmarks: sign changes of a signal, exact pendulum periods."""
import math


def zero_crossings(times, values) -> list[float]:
    """Times at which the sampled values change sign, linearly interpolated."""
    out = []
    for k in range(1, len(values)):
        if values[k - 1] > 0 >= values[k] or values[k - 1] < 0 <= values[k]:
            out.append(times[k - 1] + (times[k] - times[k - 1]) * values[k - 1] / (values[k - 1] - values[k]))
    return out


def crossing_times(sim, signal, count: int, limit: float = 60.0) -> list[float]:
    """Steps the simulation until signal(sim) has changed sign `count` times; those times, interpolated
    (Schmitt §9: 'Nulldurchgänge')."""
    times, previous_time, previous = [], sim.time, signal(sim)
    while len(times) < count:
        sim.step()
        value = signal(sim)
        times += zero_crossings([previous_time, sim.time], [previous, value])
        previous_time, previous = sim.time, value
        if sim.time > limit:
            raise AssertionError(f"only {len(times)} sign changes in {limit} s")
    return times


def elliptic_k(k: float) -> float:
    """Complete elliptic integral of the first kind, by the arithmetic-geometric mean."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    while abs(a - b) > 1e-15:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def pendulum_period(inertia_pivot: float, mass: float, g: float, lever: float, amplitude: float) -> float:
    """Exact period of a physical pendulum of any amplitude."""
    return 4.0 * math.sqrt(inertia_pivot / (mass * g * lever)) * elliptic_k(math.sin(amplitude / 2.0))
