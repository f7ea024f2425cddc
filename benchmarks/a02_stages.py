"""Where A02's step goes (the goal is 3x MuJoCo's time): each stage of the system solver's
step on the N-four-bar, timed alone in a compiled loop of many calls at an instant 1 s into the run,
beside the whole step. The stages, per step: the rows and K once (building the rows, K's entries,
the factorisation of the rows in the plane), a look-ahead and a sparse solve per sweep (sweeps per
step: a02_n_four_bar.py), one velocity solve, and the small passes in between (landing, joint
coordinates, rates, impulses).
K's null space and the projection are what the solve leaves out for A02, whose right sides have no
part along the null space (kernels/rows.py, solve_system): their cost is shown beside it, with the
whole of K factorised as they would need.
    python benchmarks/a02_stages.py [--n 10 40]
"""
import argparse
import time

import numba
from common import table

from mechanisms import n_four_bar
from mechbake.solver import Model, Settings, Simulation
from mechbake.solver.kernels import correction, flight, rows as joint_rows, sparse

REPEATS = 2000
H, DMAX = 0.005, Settings().dmax


@numba.njit
def _build(model, solver, position, rotation, rows, reps):
    for _ in range(reps):
        joint_rows.build(model, solver, position, rotation, rows)


@numba.njit
def _k_and_factor(model, rows, reps):
    for _ in range(reps):
        joint_rows._factor_system(model, rows)


@numba.njit
def _factor(model, rows, reps):
    for _ in range(reps):
        joint_rows._factor_block(model, rows, False)


@numba.njit
def _null_space(model, rows, reps):
    for _ in range(reps):
        sparse.null_space(model, rows.ldl_value, rows.ldl_diagonal, rows.null_basis, rows.null_span, rows.null_gram,
                          rows.stamp, rows.work)


@numba.njit
def _solve(model, rows, rhs, null_count, reps):
    for _ in range(reps):
        joint_rows._solve(model, rows, rhs, null_count)


@numba.njit
def _look(model, settings, state, rows, flight_arrays, work, driven, reps):
    for _ in range(reps):
        correction.look(model, settings, state, rows, flight_arrays, work, H, driven)


@numba.njit
def _fly(model, settings, state, flight_arrays, driven, reps):
    for _ in range(reps):
        flight.fly(model, settings.taylor_order, state.time[0], state.position, state.rotation, state.twist, H,
                   flight_arrays, driven)


def microseconds(loop, *arguments) -> float:
    """Best of three runs of `loop` (REPEATS calls each), per call."""
    loop(*arguments, 1)  # compiled here, outside the timing
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        loop(*arguments, REPEATS)
        best = min(best, time.perf_counter() - start)
    return best / REPEATS * 1e6


def stages(n: int) -> list:
    model = Model.from_dict(n_four_bar(n, h=H, dmax=DMAX))
    sim = Simulation(model)
    sim.run(1.0)
    a, s, state, rows = sim.instant.arrays, sim.instant.settings, sim.instant.state_arrays(), sim.instant.rows
    position, rotation = state.position.copy(), state.rotation.copy()
    correction.look(a, s, state, rows, sim.instant.flight, sim.instant.work, H, sim.instant.driven)
    gaps = sim.instant.work.errors.copy()
    build = microseconds(_build, a, s.solver, position, rotation, rows)
    k_and_factor = microseconds(_k_and_factor, a, rows)
    factor = microseconds(_factor, a, rows)
    plain = microseconds(_solve, a, rows, gaps, 0)
    joint_rows._factor_across(a, rows)  # the whole of K, as at an instant whose right sides need its null space
    null_space = microseconds(_null_space, a, rows)
    count = sparse.null_space(a, rows.ldl_value, rows.ldl_diagonal, rows.null_basis, rows.null_span, rows.null_gram,
                              rows.stamp, rows.work)
    projected = microseconds(_solve, a, rows, gaps, count)
    look = microseconds(_look, a, s, state, rows, sim.instant.flight, sim.instant.work, sim.instant.driven)
    fly = microseconds(_fly, a, s, state, sim.instant.flight, sim.instant.driven)
    whole = Simulation(model)
    start = time.perf_counter()
    whole.run(2.0)
    step = (time.perf_counter() - start) / whole.stats["steps"] * 1e6
    sweeps = whole.stats["solves"] / whole.stats["steps"]
    accounted = build + (sweeps + 1) * plain + (sweeps + 1) * look
    return [n, len(a.row_joint), count, f"{build - k_and_factor:.1f}", f"{k_and_factor - factor:.1f}",
            f"{factor:.1f}", f"{null_space:.1f}", f"{plain:.1f} ({projected:.1f})", f"{look:.1f} ({fly:.1f})",
            f"{sweeps:.2f}", f"{step:.1f}", f"{step - accounted:.1f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10, 40], help="windows (default 10 40)")
    arguments = parser.parse_args()
    table(f"A02's step, h = {H}, Dmax = {DMAX} (system solver), us per call: each stage alone, best of 3 x {REPEATS}",
          ["N", "rows", "dependent", "rows built", "K's entries", "factor", "null space (not needed)",
           "solve (with projection)", "look-ahead (its flight)", "sweeps per step", "whole step",
           "step less rows, K, solves and look-aheads"], [stages(n) for n in arguments.n])


if __name__ == "__main__":
    main()
