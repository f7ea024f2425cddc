"""The one dispatch point of the joint kinds' equations (as Box2D's joint.c): every kind module
offers the same kernels for one joint j,

  rows(model, j, position, rotation, linear (d, 3), angular (d, 3), lever_a (3,), lever_b (3,))
      the directions of joint j's d rows at an instant: an impulse pair +-lambda along `linear` at
      the levers (from each centre of mass, world) and an angular pair along `angular`
  errors(model, j, position, rotation, work (8, 3), out (d,))
      how far body b is off relative to body a along the same directions, at the look-ahead
and, for kinds with a coordinate (an angle or a length) that drives act on:
  axis_row(model, j, position, rotation, linear (3,), angular (3,), lever_a, lever_b)
  coordinate(model, j, position, rotation, work) -> float (an angle wrapped to (-pi, pi])

and this module runs them over every joint of the model, one loop per kind: numba compiles a loop
that calls one kind's kernel into tight code, but a loop whose body may call any of six kinds into
code about fifty times slower (benchmarks/README.md, "Speed").
"""
from ...joints import BALL, DISTANCE, FIXED, HINGE, RAIL, SLIDER, SPRING
from ..jit import borrowing_kernel
from . import ball, distance, fixed, hinge, rail, slider, spring


@borrowing_kernel
def all_rows(model, position, rotation, linear, angular, levers):
    """Every joint's row directions: linear, angular (R, 3) by row, levers (m, 2, 3) by joint."""
    m, start = model.joint_kind.shape[0], model.joint_row_start
    for j in range(m):
        if model.joint_kind[j] == BALL:
            ball.rows(model, j, position, rotation, linear[start[j]:start[j + 1]], angular[start[j]:start[j + 1]],
                      levers[j, 0], levers[j, 1])
    for j in range(m):
        if model.joint_kind[j] == HINGE:
            hinge.rows(model, j, position, rotation, linear[start[j]:start[j + 1]], angular[start[j]:start[j + 1]],
                       levers[j, 0], levers[j, 1])
    for j in range(m):
        if model.joint_kind[j] == SLIDER:
            slider.rows(model, j, position, rotation, linear[start[j]:start[j + 1]], angular[start[j]:start[j + 1]],
                        levers[j, 0], levers[j, 1])
    for j in range(m):
        if model.joint_kind[j] == RAIL:
            rail.rows(model, j, position, rotation, linear[start[j]:start[j + 1]], angular[start[j]:start[j + 1]],
                      levers[j, 0], levers[j, 1])
    for j in range(m):
        if model.joint_kind[j] == FIXED:
            fixed.rows(model, j, position, rotation, linear[start[j]:start[j + 1]], angular[start[j]:start[j + 1]],
                       levers[j, 0], levers[j, 1])
    for j in range(m):
        if model.joint_kind[j] == DISTANCE:
            distance.rows(model, j, position, rotation, linear[start[j]:start[j + 1]],
                          angular[start[j]:start[j + 1]], levers[j, 0], levers[j, 1])


@borrowing_kernel
def all_errors(model, position, rotation, work, errors):
    """Every joint's row errors (R,) in the given frames."""
    m, start = model.joint_kind.shape[0], model.joint_row_start
    for j in range(m):
        if model.joint_kind[j] == BALL:
            ball.errors(model, j, position, rotation, work, errors[start[j]:start[j + 1]])
    for j in range(m):
        if model.joint_kind[j] == HINGE:
            hinge.errors(model, j, position, rotation, work, errors[start[j]:start[j + 1]])
    for j in range(m):
        if model.joint_kind[j] == SLIDER:
            slider.errors(model, j, position, rotation, work, errors[start[j]:start[j + 1]])
    for j in range(m):
        if model.joint_kind[j] == RAIL:
            rail.errors(model, j, position, rotation, work, errors[start[j]:start[j + 1]])
    for j in range(m):
        if model.joint_kind[j] == FIXED:
            fixed.errors(model, j, position, rotation, work, errors[start[j]:start[j + 1]])
    for j in range(m):
        if model.joint_kind[j] == DISTANCE:
            distance.errors(model, j, position, rotation, work, errors[start[j]:start[j + 1]])


@borrowing_kernel
def all_axis_rows(model, wanted, position, rotation, linear, angular, levers):
    """The row of every joint axis a with wanted[a]: linear, angular (q, 3), levers (q, 2, 3)."""
    for a in range(model.axis_joint.shape[0]):
        if wanted[a] and model.joint_kind[model.axis_joint[a]] == HINGE:
            hinge.axis_row(model, model.axis_joint[a], position, rotation, linear[a], angular[a], levers[a, 0],
                           levers[a, 1])
    for a in range(model.axis_joint.shape[0]):
        if wanted[a] and model.joint_kind[model.axis_joint[a]] == SLIDER:
            slider.axis_row(model, model.axis_joint[a], position, rotation, linear[a], angular[a], levers[a, 0],
                            levers[a, 1])
    for a in range(model.axis_joint.shape[0]):
        if wanted[a] and model.joint_kind[model.axis_joint[a]] == RAIL:
            rail.axis_row(model, model.axis_joint[a], position, rotation, linear[a], angular[a], levers[a, 0],
                          levers[a, 1])
    for a in range(model.axis_joint.shape[0]):
        if wanted[a] and model.joint_kind[model.axis_joint[a]] == DISTANCE:
            distance.axis_row(model, model.axis_joint[a], position, rotation, linear[a], angular[a], levers[a, 0],
                              levers[a, 1])
    for a in range(model.axis_joint.shape[0]):
        if wanted[a] and model.joint_kind[model.axis_joint[a]] == SPRING:
            spring.axis_row(model, model.axis_joint[a], position, rotation, linear[a], angular[a], levers[a, 0],
                            levers[a, 1])


@borrowing_kernel
def all_coordinates(model, position, rotation, work, raw):
    """Every joint axis's raw coordinate (q,): an angle wrapped to (-pi, pi], or a length."""
    for a in range(model.axis_joint.shape[0]):
        if model.joint_kind[model.axis_joint[a]] == HINGE:
            raw[a] = hinge.coordinate(model, model.axis_joint[a], position, rotation, work)
    for a in range(model.axis_joint.shape[0]):
        if model.joint_kind[model.axis_joint[a]] == SLIDER:
            raw[a] = slider.coordinate(model, model.axis_joint[a], position, rotation, work)
    for a in range(model.axis_joint.shape[0]):
        if model.joint_kind[model.axis_joint[a]] == RAIL:
            raw[a] = rail.coordinate(model, model.axis_joint[a], position, rotation, work)
    for a in range(model.axis_joint.shape[0]):
        if model.joint_kind[model.axis_joint[a]] == DISTANCE:
            raw[a] = distance.coordinate(model, model.axis_joint[a], position, rotation, work)
    for a in range(model.axis_joint.shape[0]):
        if model.joint_kind[model.axis_joint[a]] == SPRING:
            raw[a] = spring.coordinate(model, model.axis_joint[a], position, rotation, work)
