"""The body whose mass or inertia is too far from the rest of its mechanism for double precision.

K = J M^-1 J^T sums 1/m and l^2/I terms of every body a joint touches (Schmitt eq. 4.9): where one
of them is 1e12 times another, the smaller one is lost in the sum and the corrections cannot close
a gap, however short the step. A run that diverges names such a body before the joint it left open.
"""
import numpy as np

EXTREME = 1e12  # a ratio of masses, or of m l^2 to I, past which corrections lose the smaller term


def _lever(model, body: int) -> float:
    """The farthest joint anchor from the body's centre of mass, m (1 m for a body without joints)."""
    points = model.joints.point
    found = [float(np.linalg.norm(points[j, side])) for side, bodies in enumerate((model.joint_body_a,
                                                                                    model.joint_body_b))
             for j in np.flatnonzero(bodies == body)]
    lever = max(found, default=0.0)
    return lever if lever > 0 else 1.0


def extreme_body(model) -> tuple[str, str] | None:
    """(name, what is extreme about it) of the moving body most out of scale, or None when every body's
    masses and inertias are within EXTREME of each other and of its size."""
    moving = np.flatnonzero(model.body_dynamic)
    if len(moving) == 0:
        return None
    masses = model.body_mass[moving]
    typical = float(np.exp(np.median(np.log(masses))))
    worst, found = 1.0, None
    for body, mass in zip(moving.tolist(), masses.tolist()):
        name = model.body_names[body]
        ratio = max(mass / typical, typical / mass)
        if ratio > max(worst, EXTREME):
            worst, found = ratio, (name, f"its mass of {mass:.3g} kg is {ratio:.3g} times the mechanism's "
                                         f"typical {typical:.3g} kg")
        if model.body_rotates[body]:
            # only a moment far below m l^2 loses 1/m in the sum: one far above it (a joint at the centre of
            # mass, to within rounding) loses l^2/I, a turn the joint's impulses barely cause anyway
            lever = _lever(model, body)
            moment = model.body_inertia[body].min()
            ratio = mass * lever ** 2 / moment
            if ratio > max(worst, EXTREME):
                worst, found = ratio, (name, f"its moment of inertia of {moment:.3g} kg m^2 is {ratio:.3g} "
                                             f"times below its mass of {mass:.3g} kg at its joints' reach of "
                                             f"{lever:.3g} m")
    return found
