"""A free body's energy of rotation, watched: a body that no joint, contact or motion acts on turns
torque-free, and Euler's equation (Schmitt 3.3) keeps its 1/2 w^T J w. The rotation's series only
approximates that (order 1 gains (h w')^2 J / 2 every step); a run in which the energy grows past
ENERGY_GROWTH has stopped being the body's motion and ends in an error naming the body."""
import numpy as np

from .errors import SimulationDiverged

ENERGY_GROWTH = 0.01  # relative growth of a free body's energy of rotation at which its run is diverged


def free_bodies(model) -> np.ndarray:
    """(f,) the bodies that turn torque-free: they rotate, no joint holds them, and no contact can
    touch them (contacts off, or the body has no shape)."""
    joined = set(model.joint_body_a.tolist()) | set(model.joint_body_b.tolist())
    shaped = ({i for i, body in enumerate(model.spec["bodies"], start=1) if "shape" in body}
              if model.contacts.enabled else set())
    return np.array([b for b in np.flatnonzero(model.body_rotates) if b not in joined and b not in shaped], dtype=int)


def rotation_energy(model, bodies: np.ndarray, rotation: np.ndarray, twist: np.ndarray) -> np.ndarray:
    """(f,) 1/2 w^T J w of the given bodies, J's principal moments and w in the body frame."""
    omega_body = np.einsum("nji,nj->ni", rotation[bodies], twist[bodies, 3:])
    return 0.5 * np.sum(model.body_inertia[bodies] * omega_body**2, axis=1)


def check_free_turns(model, bodies: np.ndarray, start: np.ndarray, state) -> None:
    """SimulationDiverged naming the first of `bodies` whose energy of rotation grew past its `start`
    by more than ENERGY_GROWTH of it (or became infinite)."""
    energy = rotation_energy(model, bodies, state.frames.rotation, state.twist)
    grown = ~(energy <= (1.0 + ENERGY_GROWTH) * start)
    if not grown.any():
        return
    k = int(np.flatnonzero(grown)[0])
    body, settings = model.body_names[bodies[k]], model.settings
    spin = float(np.linalg.norm(state.twist[bodies[k], 3:]))
    raise SimulationDiverged(
        f"simulation diverged at t = {state.time:.6g} s: body '{body}' turns freely, yet its energy of rotation "
        f"grew from {start[k]:.6g} J to {energy[k]:.6g} J (no force does work on it): the rotation's Taylor series "
        f"(taylor_order {settings.taylor_order}) is too coarse for its spin of {spin:.3g} rad/s at h = "
        f"{settings.h:.3g} s; a higher taylor_order or a shorter h keeps it", state.time, None, body)
