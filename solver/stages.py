"""How joint rows are grouped for a solve.

"system" (Schmitt §7): one stage with every row; K is inverted once per instant and reused for each
new right-hand side. "iterative" (Schmitt §5): one stage per colour of joints that share no moving
body, each joint solved with its own block of K; corrected together they give exactly what the
one-joint-at-a-time loop gives, in one numpy pass per colour.
"""
from dataclasses import dataclass

import numpy as np

# Redundant joints (a planar four-bar made of hinges) make K singular; a relative ridge this small
# leaves regular systems untouched and lets the repeated solve converge in the range of K.
RIDGE = 1e-10


@dataclass
class Stage:
    rows: np.ndarray  # (r,) row indices
    joints: np.ndarray  # (j,) joint indices
    row_owner: np.ndarray  # (r,) position of each row's joint within `joints`
    inverse: np.ndarray  # (r, r) K^-1 of the stage (block-diagonal per joint when iterative)


def build_stages(model, matrix: np.ndarray, solver: str) -> list[Stage]:
    if not len(model.row_joint):
        return []
    if solver == "system":
        joints, owner = model.row_layout
        return [Stage(np.arange(len(model.row_joint)), joints, owner, regularised_inverse(matrix))]
    return [_colour_stage(model, matrix, joints) for joints in model.joint_colors]


def regularised_inverse(matrix: np.ndarray) -> np.ndarray:
    regularised = matrix.copy()
    diagonal = np.einsum("ii->i", regularised)  # a writable view of the diagonal
    diagonal += RIDGE * max(float(diagonal.max()), 1e-300)
    return np.linalg.inv(regularised)


def _colour_stage(model, matrix: np.ndarray, joints: np.ndarray) -> Stage:
    rows = np.flatnonzero(np.isin(model.row_joint, joints))
    owner = np.searchsorted(joints, model.row_joint[rows])
    inverse = np.zeros((len(rows), len(rows)))
    for position in range(len(joints)):
        block = np.flatnonzero(owner == position)
        inverse[np.ix_(block, block)] = regularised_inverse(matrix[np.ix_(rows[block], rows[block])])
    return Stage(rows, joints, owner, inverse)
