"""A 7-link arm whose position servos track sines, beside MuJoCo's position actuators.

The arm of mechanisms.seven_link_arm: seven boxes stacked upright under gravity, hinged at their feet
about z, y, z, y, z, y, z (a KUKA-like chain), each hinge a position servo of 200 N m whose target is a
sine given as a time table every 5 ms. Ten seconds at h = 0.005 s. MuJoCo (pip `mujoco`, a benchmark
peer only) gets the same bodies, inertias, gravity and step, position actuators tuned as one tunes a
robot's (each critically damped at 5 Hz on the largest inertia its joint moves along the targets' path,
kp = w^2 M_ii, kv = 2 w M_ii; force limited to the same 200 N m), implicitfast, driven by the same targets through
mujoco.rollout (its own C loop). Both timed in this run, the best of three: the run alone, each
side's set-up (MuJoCo compiling its model and making its data; MechBake reading the model, its time
tables included, and making the simulation) timed apart. The tracking error is
|angle - target| over every step and joint (the first second, where each catches its moving target,
counted apart). The same arm with its servos holding it upright (targets 0) shows what a step costs
when nothing moves.
    python benchmarks/servo_tracking.py
"""
import copy
import math
import time

import numpy as np
from common import best_wall_time, table

import mechanisms
from mechbake.solver import Model, Simulation, warm_up

H = 0.005
DURATION = 10.0
KEYED = DURATION + 1.0  # the targets keyed beyond the run: a table's end is where a servo stops
BANDWIDTH = 2 * math.pi * 5.0  # MuJoCo's actuators' natural frequency w, rad/s


def targets(times: np.ndarray) -> np.ndarray:
    """(len(times), 7) the servos' targets at `times` (mechanisms.SEVEN_LINK_SINES)."""
    return np.array([[amplitude * math.sin(2 * math.pi * frequency * t) for amplitude, frequency
                      in mechanisms.SEVEN_LINK_SINES] for t in times])


def ours(data: dict) -> tuple[float, float, np.ndarray, dict]:
    """(wall time of the run, of its set-up (the model read and the simulation made), the joint angles
    after each step, the run's counters)."""
    setup = best_wall_time(lambda: Simulation(Model.from_dict(data)))
    simulations = [Simulation(Model.from_dict(data)) for _ in range(3)]  # a fresh one for each timed run
    best = best_wall_time(lambda: simulations.pop().run(DURATION), repeats=len(simulations))
    sim = Simulation(Model.from_dict(data))
    names = [joint["name"] for joint in data["joints"]]
    angles = []
    sim.run(DURATION, lambda s: angles.append([s.joint_position(name) for name in names]))
    return best, setup, np.array(angles), dict(sim.stats)


def mujoco_xml() -> str:
    data = mechanisms.seven_link_arm(KEYED, H)
    bodies = {body["name"]: body for body in data["bodies"]}
    xml, closing, parent_position = "", "", np.zeros(3)
    for joint in data["joints"]:
        body = bodies[joint["body_b"]]
        anchor = np.array(joint["anchor"])
        centre = np.array(body["position"]) - anchor
        xml += (f'<body name="{body["name"]}" pos="{" ".join(map(str, anchor - parent_position))}">'
                f'<joint name="{joint["name"]}" type="hinge" axis="{" ".join(map(str, joint["axis"]))}"/>'
                f'<inertial pos="{" ".join(map(str, centre))}" mass="{body["mass"]}" '
                f'diaginertia="{" ".join(map(str, body["inertia"]))}"/>')
        closing += "</body>"
        parent_position = anchor
    actuators = "".join(f'<position joint="{joint["name"]}" forcelimited="true" '
                        f'forcerange="-{mechanisms.SEVEN_LINK_TORQUE} {mechanisms.SEVEN_LINK_TORQUE}"/>'
                        for joint in data["joints"])
    gravity = " ".join(map(str, data["gravity"]))
    return (f'<mujoco><option timestep="{H}" gravity="{gravity}" integrator="implicitfast"/>'
            f'<worldbody>{xml}{closing}</worldbody><actuator>{actuators}</actuator></mujoco>')


def theirs() -> tuple[float, float, np.ndarray]:
    """(wall time of MuJoCo's run, of its set-up (the model compiled and its data made), the joint angles
    after each step)."""
    import mujoco
    from mujoco import rollout

    setup = best_wall_time(lambda: mujoco.MjData(mujoco.MjModel.from_xml_string(mujoco_xml())))
    model = mujoco.MjModel.from_xml_string(mujoco_xml())
    data = mujoco.MjData(model)
    steps = round(DURATION / H)
    control = targets(H * np.arange(steps))[None]  # the target at each step's start, as ours reads it
    largest, inertia = np.zeros(model.nv), np.zeros((model.nv, model.nv))
    for pose in control[0]:
        data.qpos[:] = pose
        mujoco.mj_forward(model, data)
        mujoco.mj_fullM(model, data, inertia)
        largest = np.maximum(largest, inertia.diagonal())
    mujoco.mj_resetData(model, data)
    for k in range(model.nu):  # force = kp (target - q) - kv q'
        kp, kv = BANDWIDTH ** 2 * largest[k], 2 * BANDWIDTH * largest[k]
        model.actuator_gainprm[k, 0], model.actuator_biasprm[k, 1:3] = kp, (-kp, -kv)
    initial = np.zeros((1, mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_FULLPHYSICS)))
    mujoco.mj_getState(model, data, initial[0], mujoco.mjtState.mjSTATE_FULLPHYSICS)
    state = np.empty((1, steps, initial.shape[1]))
    best = best_wall_time(lambda: rollout.rollout(model, data, initial, control, state=state))
    return best, setup, state[0, :, 1:1 + model.nq]


def errors(angles: np.ndarray) -> list:
    """Largest and rms |angle - target| over the first second and over the rest, in rad."""
    steps = angles.shape[0]
    error = np.abs(angles - targets(H * np.arange(1, steps + 1)))
    first = round(1.0 / H)
    return [f"{error[:first].max():.3f}", f"{error[first:].max():.2e}", f"{np.sqrt((error ** 2).mean()):.2e}"]


def main() -> None:
    import mujoco

    warm_up.warm_up(workers=1)  # in this process: every kernel loaded before any timing
    started = time.perf_counter()
    peer_wall, peer_setup, peer_angles = theirs()
    tracking = mechanisms.seven_link_arm(KEYED, H)
    wall, setup, angles, stats = ours(tracking)
    holding = copy.deepcopy(tracking)
    for joint in holding["joints"]:
        joint["motor"]["target"] = 0.0
    still_wall, still_setup, _, still_stats = ours(holding)
    peer = f"MuJoCo {mujoco.__version__} (position actuators, {BANDWIDTH / (2 * math.pi):g} Hz)"
    rows = [[peer, f"{peer_wall * 1e3:.2f} ms", "1", f"{peer_setup * 1e3:.1f} ms"] + errors(peer_angles) + [""],
            ["MechBake", f"{wall * 1e3:.1f} ms", f"{wall / peer_wall:.1f}", f"{setup * 1e3:.1f} ms"] + errors(angles)
            + [f"{stats['solves'] / stats['substeps']:.2f} / {stats['velocity_solves'] / stats['substeps']:.2f}"
               f" / {stats['halvings']}"],
            ["MechBake, the servos holding the arm upright", f"{still_wall * 1e3:.1f} ms",
             f"{still_wall / peer_wall:.1f}", f"{still_setup * 1e3:.1f} ms", "", "", "",
             f"{still_stats['solves'] / still_stats['substeps']:.2f} / "
             f"{still_stats['velocity_solves'] / still_stats['substeps']:.2f} / {still_stats['halvings']}"]]
    table(f"7-link arm, servos of {mechanisms.SEVEN_LINK_TORQUE:g} N m tracking sines (targets every 5 ms), "
          f"{DURATION:g} s at h = {H}; wall time of the run, the best of three; its set-up (the model read "
          f"or compiled, the simulation or data made) apart (the whole benchmark: "
          f"{time.perf_counter() - started:.0f} s)",
          ["", "run", "× MuJoCo", "set-up", "max error, first 1 s (rad)", "max error after", "rms error",
           "solves / velocity solves a sub-step, halvings"], rows)


if __name__ == "__main__":
    main()
