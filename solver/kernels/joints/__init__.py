"""The one dispatch point of the joint kinds' equations (as Box2D's joint.c): every kind module
offers the same kernels over the model's joint arrays,

  rows(model, j, position, rotation, linear (d, 3), angular (d, 3), lever_a (3,), lever_b (3,))
      the directions of joint j's d rows at an instant: an impulse pair +-lambda along `linear` at
      the levers (from each centre of mass, world) and an angular pair along `angular`
  errors(model, j, position, rotation, work (8, 3), out (d,))
      how far body b is off relative to body a along the same directions, at the look-ahead
and, for kinds with a coordinate (an angle or a length) that drives act on:
  axis_row(model, j, position, rotation, linear (3,), angular (3,), lever_a, lever_b)
  coordinate(model, j, position, rotation, work) -> float (an angle wrapped to (-pi, pi])
"""
from ...joints import BALL, DISTANCE, FIXED, HINGE, RAIL, SLIDER, SPRING
from ..jit import kernel
from . import ball, distance, fixed, hinge, rail, slider, spring


@kernel
def rows(model, j, position, rotation, linear, angular, lever_a, lever_b):
    kind = model.joint_kind[j]
    if kind == BALL:
        ball.rows(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == HINGE:
        hinge.rows(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == SLIDER:
        slider.rows(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == RAIL:
        rail.rows(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == FIXED:
        fixed.rows(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == DISTANCE:
        distance.rows(model, j, position, rotation, linear, angular, lever_a, lever_b)


@kernel
def errors(model, j, position, rotation, work, out):
    kind = model.joint_kind[j]
    if kind == BALL:
        ball.errors(model, j, position, rotation, work, out)
    elif kind == HINGE:
        hinge.errors(model, j, position, rotation, work, out)
    elif kind == SLIDER:
        slider.errors(model, j, position, rotation, work, out)
    elif kind == RAIL:
        rail.errors(model, j, position, rotation, work, out)
    elif kind == FIXED:
        fixed.errors(model, j, position, rotation, work, out)
    elif kind == DISTANCE:
        distance.errors(model, j, position, rotation, work, out)


@kernel
def axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b):
    kind = model.joint_kind[j]
    if kind == HINGE:
        hinge.axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == SLIDER:
        slider.axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == RAIL:
        rail.axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == DISTANCE:
        distance.axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b)
    elif kind == SPRING:
        spring.axis_row(model, j, position, rotation, linear, angular, lever_a, lever_b)


@kernel
def coordinate(model, j, position, rotation, work):
    kind = model.joint_kind[j]
    if kind == HINGE:
        return hinge.coordinate(model, j, position, rotation, work)
    if kind == SLIDER:
        return slider.coordinate(model, j, position, rotation, work)
    if kind == RAIL:
        return rail.coordinate(model, j, position, rotation, work)
    if kind == DISTANCE:
        return distance.coordinate(model, j, position, rotation, work)
    return spring.coordinate(model, j, position, rotation, work)
