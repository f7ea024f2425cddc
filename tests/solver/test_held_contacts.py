"""The direct step for held contacts (kernels/contact/held_contacts.py): its solve of a system whose rows
depend on each other, as four corners on a face do, and its islands of contacts that share no body."""
import numpy as np

from mechbake.solver.kernels.contact.held_contacts import _solve_dropping_dependent, contact_islands


def corner_normal_rows() -> np.ndarray:
    """(4, 3) the normal rows of a box's four bottom corners over its (vertical speed, roll rate,
    pitch rate): four rows, three unknowns, so one row depends on the others."""
    return np.array([[1.0, y, -x] for x, y in ((0.2, 0.2), (-0.2, 0.2), (-0.2, -0.2), (0.2, -0.2))])


def test_a_dependent_row_takes_no_impulse_and_the_others_close_every_gap():
    rows = corner_normal_rows()
    matrix = rows @ np.diag([0.1, 2.0, 3.0]) @ rows.T  # J M^-1 J^T: positive semi-definite, rank 3
    rhs = matrix @ np.array([0.3, -0.1, 0.2, 0.05])  # gaps the impulses can close together
    solution = rhs.copy()
    _solve_dropping_dependent(matrix.copy(), solution)
    assert solution[3] == 0.0  # the fourth corner repeats the first three
    assert np.allclose(matrix @ solution, rhs, atol=1e-12 * np.abs(rhs).max())


def test_independent_rows_are_solved_exactly():
    rng = np.random.default_rng(3)
    jacobian = rng.standard_normal((6, 9))
    matrix = jacobian @ jacobian.T
    rhs = rng.standard_normal(6)
    solution = rhs.copy()
    _solve_dropping_dependent(matrix.copy(), solution)
    assert np.allclose(solution, np.linalg.solve(matrix, rhs), rtol=1e-10)


def test_contacts_that_share_no_body_fall_into_islands_each_in_ascending_order():
    # partners as blocks_of_k lists them (each contact its own partner): 0-3 and 3-5 share bodies, as do
    # 1-4; 2 touches nothing else
    partners = {0: [0, 3], 1: [1, 4], 2: [2], 3: [3, 0, 5], 4: [4, 1], 5: [5, 3]}
    block_start = np.cumsum([0] + [len(partners[c]) for c in range(6)])
    block_contact = np.array([e for c in range(6) for e in partners[c]])
    start, contacts = contact_islands.py_func(block_start, block_contact)  # an inner kernel: its source, as Python
    islands = [contacts[start[g]:start[g + 1]].tolist() for g in range(len(start) - 1)]
    assert islands == [[0, 3, 5], [1, 4], [2]]
