"""The §7 system solve: K factorised sparsely in the joint graph's elimination order gives the dense
least-squares solution (dependent rows dropped, the right side's part along K's null space ignored),
and a chain or a tree costs linearly (no fill)."""
import numpy as np
import pytest

import mechanisms
from scenes import rod, scene, simulate


def dense_system(sim):
    """K = J M^-1 J^T from the rows the kernels built, as a dense matrix."""
    sim.instant.ensure_rows()
    arrays, rows = sim.instant.arrays, sim.instant.rows
    n, count = len(arrays.body_inv_mass), len(arrays.row_joint)
    jacobian, response = np.zeros((count, 6 * n)), np.zeros((count, 6 * n))
    for r in range(count):
        for side in (0, 1):
            body = arrays.joint_body[arrays.row_joint[r], side]
            jacobian[r, 6 * body:6 * body + 6] += rows.row_jacobian[r, side]
            response[r, 6 * body:6 * body + 6] += rows.row_response[r, side]
    return jacobian @ response.T


def sparse_solve(sim, rhs):
    """The §7 solve the correction stages call (kernels/rows.solve_system)."""
    from mechbake.solver.kernels import rows as joint_rows

    rows = sim.instant.rows
    joint_rows.solve_system(sim.instant.arrays, rows, rhs, rows.solution, rows.permuted, rows.null_along)
    return sim.instant.rows.solution.copy()


def rows_at_this_instant(sim):
    """The rows built afresh at the simulation's state, as every step builds them: K's null space not
    found yet."""
    from mechbake.solver.kernels import rows as joint_rows

    instant = sim.instant
    joint_rows.build(instant.arrays, instant.settings.solver, sim.state.frames.position, sim.state.frames.rotation,
                     instant.rows)
    return sim.instant.rows


def chain(links: int, closed_to_world: bool = True) -> dict:
    points = [[0.5 * k, 0.0, 0.0] for k in range(links + 1)]
    bodies = [rod(f"rod{k}", points[k], points[k + 1]) for k in range(links)]
    joints = [{"name": f"j{k}", "type": "ball", "body_a": f"rod{k - 1}", "body_b": f"rod{k}", "anchor": points[k]}
              for k in range(1, links)]
    joints.append({"name": "hang", "type": "ball", "body_a": "world", "body_b": "rod0", "anchor": points[0]})
    if closed_to_world:
        joints.append({"name": "end", "type": "ball", "body_a": f"rod{links - 1}", "body_b": "world",
                       "anchor": points[links]})
    return scene(bodies, joints)


def spider() -> dict:
    """A tree: a hub hung by a hinge, four legs of three links each (hinges and balls)."""
    bodies = [{"name": "hub", "mass": 2.0, "inertia": [0.1, 0.1, 0.1], "position": [0, 0, 0]}]
    joints = [{"name": "top", "type": "hinge", "body_a": "world", "body_b": "hub", "anchor": [0, 0, 0.2],
               "axis": [0, 0, 1]}]
    for leg, (dx, dy) in enumerate(((1, 0), (0, 1), (-1, 0), (0, -1))):
        previous, start = "hub", [0.0, 0.0, 0.0]
        for k in range(3):
            end = [start[0] + 0.4 * dx, start[1] + 0.4 * dy, -0.1 * (k + 1)]
            name = f"leg{leg}_{k}"
            bodies.append(rod(name, start, end))
            kind = "ball" if k else "hinge"
            joint = {"name": f"{name}_joint", "type": kind, "body_a": previous, "body_b": name, "anchor": start}
            if kind == "hinge":
                joint["axis"] = [-dy, dx, 0]
            joints.append(joint)
            previous, start = name, end
    return scene(bodies, joints)


def ring(links: int = 6) -> dict:
    """A closed loop of rods with no support (a loop in the joint graph)."""
    angles = np.linspace(0, 2 * np.pi, links + 1)
    points = [[float(np.cos(a)), float(np.sin(a)), 0.0] for a in angles]
    bodies = [rod(f"rod{k}", points[k], points[k + 1]) for k in range(links)]
    joints = [{"name": f"j{k}", "type": "ball", "body_a": f"rod{k - 1}", "body_b": f"rod{k}", "anchor": points[k]}
              for k in range(1, links)]
    joints.append({"name": "close", "type": "ball", "body_a": f"rod{links - 1}", "body_b": "rod0", "anchor": points[0]})
    return scene(bodies, joints)


@pytest.mark.parametrize("build", [mechanisms.eight_loop, mechanisms.crank_slider, spider, ring,
                                   lambda: chain(12, closed_to_world=False)],
                         ids=["eight_loop", "crank_slider", "spider", "ring", "chain"])
def test_sparse_factor_solves_the_dense_system(build):
    sim = simulate(build())
    sim.run(0.05)  # away from the start pose, so the rows are turned
    matrix = dense_system(sim)
    rhs = np.random.default_rng(7).standard_normal(len(matrix))
    solution = sparse_solve(sim, rhs)
    # the least-squares solution: K x is the right side's part in K's range (all of it where K is regular;
    # the crank-slider's planar loop has dependent rows)
    in_range = matrix @ np.linalg.lstsq(matrix, rhs, rcond=1e-9)[0]
    assert matrix @ solution == pytest.approx(in_range, abs=1e-9 * np.abs(rhs).max())
    if np.linalg.cond(matrix) < 1e8:
        assert solution == pytest.approx(np.linalg.solve(matrix, rhs), rel=1e-8)


def test_dependent_rows_get_no_impulse_along_the_null_space():
    """Bricard's mechanism (IFToMM A04) has one dependent row: a right side along K's null space, which
    no impulse can answer, gets none (a ridge answered it with |b| / ridge)."""
    sim = simulate(mechanisms.bricard())
    sim.run(0.05)
    matrix = dense_system(sim)
    eigenvalues, vectors = np.linalg.eigh(matrix)
    assert eigenvalues[0] < 1e-12 * eigenvalues[-1] < eigenvalues[1]
    assert np.abs(sparse_solve(sim, vectors[:, 0])).max() < 1e-6


@pytest.mark.parametrize("build, needed", [(lambda: mechanisms.n_four_bar(3), False), (mechanisms.bricard, True)],
                         ids=["planar A02", "Bricard"])
def test_the_null_space_is_found_only_for_a_right_side_along_it(build, needed):
    """A planar mechanism's dependent rows are across its plane, where its gaps are 0: the solve meets
    them without K's null space, and without factorising K's rows across the plane at all (A02 with
    three windows, 9 dependent rows among them). Bricard's mechanism is not planar: its dependent
    row is dropped in the factorisation, and its gaps' misfit along the null space makes the solve
    find it. Either way the solution is the least-squares one."""
    sim = simulate(build())
    sim.run(0.05)
    matrix = dense_system(sim)
    rows = rows_at_this_instant(sim)
    planar = not needed
    assert rows.across_pending[0] == planar  # the rows across the plane wait
    assert rows.null_count[0] == (0 if planar else -1)  # the dependent rows in the factor: none in A02's plane
    from mechbake.solver.kernels.correction import look

    instant = sim.instant
    look(instant.arrays, instant.settings, instant.state_arrays(), rows, instant.flight, instant.work, sim.h,
         instant.driven)
    gaps = sim.instant.work.errors.copy()  # the row errors at the look-ahead, which the position correction solves
    solution = sparse_solve(sim, gaps)
    assert rows.across_pending[0] == planar  # A02's gaps across its plane are 0: that block is never needed
    assert (rows.null_count[0] > 0) == needed
    in_range = matrix @ np.linalg.lstsq(matrix, gaps, rcond=1e-9)[0]
    assert matrix @ solution == pytest.approx(in_range, abs=1e-9 * np.abs(gaps).max())


@pytest.mark.parametrize("build", [lambda: mechanisms.n_four_bar(3), mechanisms.crank_slider],
                         ids=["A02", "crank_slider"])
def test_a_planar_instant_splits_its_rows_at_the_plane(build):
    """A planar mechanism's rows are in its plane or across it, and K has exact zeros between the two
    kinds: two of a hinge's five rows are in the plane. The rows across it are factorised when a right
    side first reaches across, and the solve is the dense least-squares one then too."""
    sim = simulate(build())
    sim.run(0.05)
    matrix = dense_system(sim)
    rows = rows_at_this_instant(sim)
    across = rows.row_across.copy()
    assert rows.across_pending[0] and 0 < across.sum() < len(across)
    assert not matrix[np.ix_(across, ~across)].any()  # exact zeros between the kinds
    in_plane_only = np.where(across, 0.0, np.random.default_rng(3).standard_normal(len(matrix)))
    in_plane_solution = sparse_solve(sim, in_plane_only)
    assert rows.across_pending[0] and not in_plane_solution[across].any()
    assert matrix @ in_plane_solution == pytest.approx(in_plane_only, abs=1e-9 * np.abs(in_plane_only).max())
    rhs = np.random.default_rng(4).standard_normal(len(matrix))
    solution = sparse_solve(sim, rhs)
    assert not rows.across_pending[0]
    in_range = matrix @ np.linalg.lstsq(matrix, rhs, rcond=1e-9)[0]
    assert matrix @ solution == pytest.approx(in_range, abs=1e-9 * np.abs(rhs).max())
    rows = rows_at_this_instant(sim)  # the next instant's factor walks the plane's block alone again
    assert rows.across_pending[0]
    assert np.array_equal(sparse_solve(sim, in_plane_only), in_plane_solution)


def test_a_planar_mechanism_pushed_out_of_its_plane_solves_whole():
    """Once a body turns out of the plane the rows no longer split, and the factor walks all of L
    again, not the plane's block it walked at the instant before."""
    arms = [rod("upper", [0, 0, 0], [0.5, 0, 0]), rod("lower", [0.5, 0, 0], [1.0, 0, 0])]
    hinges = [{"name": "shoulder", "type": "hinge", "body_a": "world", "body_b": "upper", "anchor": [0, 0, 0],
               "axis": [0, 1, 0]},
              {"name": "elbow", "type": "hinge", "body_a": "upper", "body_b": "lower", "anchor": [0.5, 0, 0],
               "axis": [0, 1, 0]}]
    sim = simulate(scene(arms, hinges))
    sim.run(0.05)
    assert rows_at_this_instant(sim).across_pending[0]
    angle = 0.01  # the lower arm tipped out of the plane, about x
    tip = np.array([[1, 0, 0], [0, np.cos(angle), -np.sin(angle)], [0, np.sin(angle), np.cos(angle)]])
    sim.state.frames.rotation[2] = tip @ sim.state.frames.rotation[2]
    rows = rows_at_this_instant(sim)
    assert not rows.across_pending[0] and not rows.row_across.any()
    matrix = dense_system(sim)
    rhs = np.random.default_rng(5).standard_normal(len(matrix))
    solution = sparse_solve(sim, rhs)
    in_range = matrix @ np.linalg.lstsq(matrix, rhs, rcond=1e-9)[0]
    assert matrix @ solution == pytest.approx(in_range, abs=1e-9 * np.abs(rhs).max())


def test_a_chain_factorises_without_fill():
    """Eliminated from its ends, a chain's factor has exactly K's pattern: linear in the chain's length."""
    for links in (8, 32, 128):
        arrays = simulate(chain(links)).arrays
        assert arrays.ldl_start[-1] == len(arrays.k_index) - len(arrays.row_joint)
        assert arrays.ldl_start[-1] == 4 * len(arrays.row_joint) - 9  # 3 within a ball joint, 9 to the next, per 3 rows


def test_a_tree_factorises_without_fill():
    sim = simulate(spider())
    arrays = sim.instant.arrays
    # without fill, L has the pattern of K's strictly lower triangle
    assert arrays.ldl_start[-1] == len(arrays.k_index) - len(arrays.row_joint)
