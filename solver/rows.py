"""Rows at one instant: the Jacobian of every joint row and of every joint axis, the impulse
response M^-1 J^T and the collision matrix K = J M^-1 J^T (Schmitt §4: K = M(1,v1,v1) + M(2,v2,v2),
§7: the block system 7.1). K holds while time stands still, so it is built once per instant.
"""
from dataclasses import dataclass

import numpy as np

from .frames import Frames
from .joints import JOINT_KINDS
from .rotation import skew
from .stages import build_stages, regularised_inverse


def _jacobians(A, B, r_a, r_b):
    """Row directions -> (m, d, 6) Jacobian blocks of bodies a and b (impulse +lambda acts on a).

    A row's rate is A.(v_b + w_b x r_b - v_a - w_a x r_a) + B.(w_b - w_a); w x r . A = w . (r x A).
    """
    torque_b = A @ skew(r_b).transpose(0, 2, 1) + B  # rows of r_b x A
    torque_a = A @ skew(r_a).transpose(0, 2, 1) + B
    return -np.concatenate((A, torque_a), axis=2), np.concatenate((A, torque_b), axis=2)


def _dense(n_rows, n_bodies, rows, body_a, body_b, jac_a, jac_b):
    """Scatter per-joint blocks into one (R, 6n) Jacobian; the world's columns (body 0) stay inert."""
    jacobian = np.zeros((n_rows, 6 * n_bodies))
    columns = np.arange(6)
    jacobian[rows[:, :, None], (6 * body_a)[:, None, None] + columns] = jac_a
    jacobian[rows[:, :, None], (6 * body_b)[:, None, None] + columns] += jac_b
    return jacobian


def _response(model, inv_inertia_world: np.ndarray, jacobian: np.ndarray) -> np.ndarray:
    """M^-1 J^T, (6n, R): velocity change of every body per unit impulse of every row (4.5, 4.6)."""
    n = len(model.body_names)
    per_body = jacobian.T.reshape(n, 6, -1)
    response = np.empty_like(per_body)
    np.multiply(per_body[:, :3], model.body_inv_mass[:, None, None], out=response[:, :3])
    np.matmul(inv_inertia_world, per_body[:, 3:], out=response[:, 3:])
    return response.reshape(6 * n, -1)


@dataclass
class Rows:
    """Joint rows (R of them) and axis rows (q of them) at one instant."""

    jacobian: np.ndarray  # (R, 6n)
    response: np.ndarray  # (6n, R)
    matrix: np.ndarray  # (R, R) K
    axis_jacobian: np.ndarray  # (q, 6n)
    axis_response: np.ndarray  # (6n, q)
    axis_stiffness: np.ndarray  # (q,) diagonal of the axis rows' K: rate change per unit impulse
    inv_inertia_world: np.ndarray  # (n, 3, 3)
    stages: list | None = None  # the solve stages for this instant, built on first use
    joint_inverse: np.ndarray | None = None  # K_bb^-1, built on first use
    drive_rows: tuple[np.ndarray, np.ndarray] | None = None  # (response (6n, q), stiffness (q,)) through the joints

    def solve_stages(self, model) -> list:
        if self.stages is None:
            self.stages = build_stages(model, self.matrix, model.settings.solver)
        return self.stages

    def through_joints(self, model) -> tuple[np.ndarray, np.ndarray]:
        """The axis rows' response and stiffness through the joints (see through_joints_of)."""
        if self.drive_rows is None:
            if self.axis_jacobian.shape[0]:
                response, matrix = self.through_joints_of(model, self.axis_jacobian, self.axis_response)
                self.drive_rows = (response, np.maximum(np.diag(matrix).copy(), 0.0))
            else:
                self.drive_rows = (self.axis_response, self.axis_stiffness)
        return self.drive_rows

    def through_joints_of(self, model, jacobian: np.ndarray, response: np.ndarray | None = None):
        """Other rows (drives, contacts) as the joints let them act: an impulse along a hinge axis
        turns the arm about its pivot, not about its centre of mass. With K_bb the joints' matrix and
        K_bd their coupling to the rows, the joints answer every impulse of the rows with
        -K_bb^-1 K_bd of their own, so the response is W_d - W_b K_bb^-1 K_bd and the matrix the
        Schur complement K_dd - K_db K_bb^-1 K_bd. Rows solved with these leave the joints closed."""
        if response is None:
            response = _response(model, self.inv_inertia_world, jacobian)
        if len(self.matrix):
            coupling = self.jacobian @ response
            if self.joint_inverse is None:
                self.joint_inverse = regularised_inverse(self.matrix)
            response = response - self.response @ (self.joint_inverse @ coupling)
        return response, jacobian @ response

    @classmethod
    def build(cls, model, frames: Frames) -> "Rows":
        n = len(model.body_names)
        n_rows = len(model.row_joint)
        jacobian = np.zeros((n_rows, 6 * n))
        axis_rows = len(model.axis_joint)
        axis_jacobian = np.zeros((axis_rows, 6 * n))
        for name, group in model.kinds.items():
            kind = JOINT_KINDS[name]
            A, B, r_a, r_b = kind.rows(group, frames)
            if A.shape[1]:
                jac_a, jac_b = _jacobians(A, B, r_a, r_b)
                jacobian += _dense(n_rows, n, model.kind_rows[name], group.body_a, group.body_b, jac_a, jac_b)
            within, axes = model.kind_axis[name]
            if axis_rows and len(within):
                A, B, r_a, r_b = (x[within] for x in kind.axis_row(group, frames))
                jac_a, jac_b = _jacobians(A[:, None], B[:, None], r_a, r_b)
                axis_jacobian += _dense(axis_rows, n, axes[:, None], group.body_a[within], group.body_b[within],
                                        jac_a, jac_b)
        inv_inertia_world = (frames.rotation * model.body_inv_inertia[:, None, :]) @ frames.rotation.transpose(0, 2, 1)
        response = _response(model, inv_inertia_world, jacobian)
        axis_response = _response(model, inv_inertia_world, axis_jacobian) if axis_rows else np.zeros((6 * n, 0))
        return cls(jacobian, response, jacobian @ response, axis_jacobian, axis_response,
                   (axis_jacobian * axis_response.T).sum(axis=1), inv_inertia_world)


def contact_jacobian(model, frames: Frames, body_a, body_b, point, directions) -> np.ndarray:
    """(d m, 6n) rows along (m, d, 3) directions at (m, 3) points shared by bodies a and b."""
    m, d = directions.shape[:2]
    r_a, r_b = point - frames.position[body_a], point - frames.position[body_b]
    jac_a, jac_b = _jacobians(directions, np.zeros_like(directions), r_a, r_b)
    return _dense(d * m, len(model.body_names), np.arange(d * m).reshape(m, d), body_a, body_b, jac_a, jac_b)


def joint_errors(model, frames: Frames) -> np.ndarray:
    """(R,) row errors of every joint in the given frames: how far body b is off relative to body a."""
    errors = np.zeros(len(model.row_joint))
    for name, group in model.kinds.items():
        if JOINT_KINDS[name].ROW_ANGULAR:
            errors[model.kind_rows[name]] = JOINT_KINDS[name].look_ahead_error(group, frames)
    return errors
