"""IFToMM benchmark A02, the N-four-bar mechanism, beside MuJoCo on the same mechanism and beside
the exact crank angle.

The problem (M. Gonzalez, D. Dopico, U. Lugris, J. Cuadrado, "A benchmarking system for MBS
simulation software", Multibody System Dynamics 16(2), 2006; the library's problem A02,
http://lim.ii.udc.es/mbsbenchmark/dist/A02/A02_specification.xml, N = 40 there): N parallelogram windows in a row,
made of N + 1 upright cranks pinned to the ground 1 m apart and N couplers pinned across their tips:
2N + 1 links of 1 m and 1 kg (thin rods, m L^2 / 12), 3N + 1 hinges, gravity 9.81 m/s^2 along -y,
released upright with the first crank's tip B0 moving at 1 m/s along +x. The quantity compared is
B0's motion, here as the first crank's angle from the upright (L = 1 m, so 1e-3 rad is the
library's 1e-3 m "high accuracy" on B0). Whenever the cranks lie flat, every link is on one line
and the mechanism may branch (1 + N degrees of freedom for an instant).

The exact solution: on the parallelogram branch every crank turns by the same angle and every
coupler translates, so the mechanism is one physical pendulum,
    ((N + 1) m L^2 / 3 + N m L^2) theta'' = ((N + 1) m g L / 2 + N m g L) sin(theta),
integrated here by RK4 at h / 50 (converged to 1e-10 rad over 10 s). For N = 2 it puts B0 at
t = 10 s at (0.3284581, 0.9445185): the limit of Exudyn's IFToMM double four-bar example, whose x is
0.3284465, 0.3284552, 0.3284574 at h = 5e-4, 2.5e-4, 1.25e-4 (errors falling fourfold toward it).

MuJoCo (pip `mujoco`, a benchmark peer only) gets the same links, inertias, gravity, h and start:
a tree of hinge joints (every crank on the ground, every coupler on the crank to its left) whose
loops are closed by `<connect>` equality constraints at the next crank's tip, default solver
settings, and once more with the stiffest connects MuJoCo allows at this step (solref = 2h). Its
hinges are exact; its gap is how far the connect points drift apart. Ours runs once more as the
library's high accuracy asks: Richardson's combination (Schmitt §8, setting `extrapolation`) cancels
the method's O(h^2) phase lead; and with the levers at thirds, which take out the part of that lead
the links' chords make. And once at Dmax = 1e-6: a solve leaves each gap just under Dmax, on the
same side step after step, and at 1e-6 that share is as large as the method's. A last table gives
our error alone by step and Dmax for the first N, down to Blender's default step (1/240 s), with
Richardson's combination at two steps, the impulses' levers a third and two thirds along each step
(setting `levers`) and the wall time of each: what the high accuracy costs. Beside each h stands
Stormer-Verlet on the exact pendulum: the same order in the one coordinate without chords
(benchmarks/looping_pendulum.py shows the chords' share, which the levers at thirds take out). With
--iterative, ours with the iterative solver (§5) too, which solves the whole system only near the
flat positions (kernels/correction.NEAR_SINGULAR). The last table is the library's own measure of
efficiency, the time a code needs for the accuracy asked for: each peer at the first step of a
ladder that keeps the first crank within 1e-3 rad, and its wall time there.
    python benchmarks/a02_n_four_bar.py [--n 10 40] [--repeats 3] [--duration 10] [--iterative]
"""
import argparse
import math

import numpy as np
from common import best_wall_time, table

from mechanisms import n_four_bar
from measure import parallelogram_crank_angles, parallelogram_verlet_angles
from mechbake.solver import Model, Settings, Simulation

LENGTH, MASS, GRAVITY, B0_SPEED = 1.0, 1.0, 9.81, 1.0
TRANSVERSE = MASS * LENGTH**2 / 12  # thin rod, about its centre
AXIAL = 0.5 * MASS * 0.01**2  # a 1 cm rod's spin inertia: it never acts, but both simulators want one
H, DURATION = 0.005, 10.0
DMAX, OLD_DMAX = Settings().dmax, 1e-6  # MechBake's default Dmax, and the coarser one compared
HIGH_ACCURACY = 1e-3  # the library's "high accuracy" on B0, m (rad, with L = 1 m)
REFERENCE_SUBSTEPS = 50


def n_four_bar_mjcf(n: int, solref: str | None = None, h: float = H) -> str:
    """The same mechanism in MJCF: cranks hinged to the world, each coupler hinged to the crank on its
    left, its right end connected to the next crank's tip. solref: the connects' stiffness (else
    MuJoCo's default)."""
    crank = f'<inertial pos="0 {LENGTH / 2} 0" mass="{MASS}" diaginertia="{TRANSVERSE} {AXIAL} {TRANSVERSE}"/>'
    coupler = f'<inertial pos="{LENGTH / 2} 0 0" mass="{MASS}" diaginertia="{AXIAL} {TRANSVERSE} {TRANSVERSE}"/>'
    bodies, loops = [], []
    for k in range(n + 1):
        inner = ""
        if k < n:
            inner = (f'<body name="coupler{k + 1}" pos="0 {LENGTH} 0"><joint name="B{k}" type="hinge" axis="0 0 1"/>'
                     f'{coupler}<site name="coupler{k + 1}_end" pos="{LENGTH} 0 0"/></body>')
            stiffness = f' solref="{solref}"' if solref else ""
            loops.append(f'<connect body1="coupler{k + 1}" body2="crank{k + 1}" anchor="{LENGTH} 0 0"{stiffness}/>')
        bodies.append(f'<body name="crank{k}" pos="{k * LENGTH} 0 0"><joint name="A{k}" type="hinge" axis="0 0 1"/>'
                      f'{crank}<site name="crank{k}_tip" pos="0 {LENGTH} 0"/>{inner}</body>')
    return (f'<mujoco model="A02 N-four-bar, N = {n}"><option timestep="{h}" gravity="0 {-GRAVITY} 0"/>'
            f'<worldbody>{"".join(bodies)}</worldbody><equality>{"".join(loops)}</equality></mujoco>')


def exact_crank_angles(n: int, steps: int) -> np.ndarray:
    """(steps + 1,) the first crank's exact angle at t = 0, h, 2h, ... (measure.parallelogram_crank_angles)."""
    return np.array(parallelogram_crank_angles(n, H, steps, REFERENCE_SUBSTEPS))


def crank_angle(centre) -> float:
    """The first crank's angle from the upright, clockwise, in (-pi, pi], from its centre of mass (the
    pivot is at the origin)."""
    return math.atan2(centre[0], centre[1])


class Ours:
    def __init__(self, n: int, dmax: float = DMAX, extrapolation: str = "none", h: float = H, levers: str = "start",
                 solver: str = "system"):
        """extrapolation "richardson": Schmitt §8's combination of a step and two half steps; levers
        "thirds": the impulses' levers a third and two thirds along each step."""
        data = n_four_bar(n, h=h, dmax=dmax, extrapolation=extrapolation, levers=levers, solver=solver)
        self.name = "MechBake" + (", Richardson" if extrapolation != "none" else "") + (
            ", levers at thirds" if levers != "start" else "") + (f", Dmax {dmax:g}" if dmax != DMAX else "") + (
            f", {solver} solver" if solver != "system" else "")
        self.model = Model.from_dict(data)
        self.counts = (len(self.model.body_names) - 1, len(self.model.joint_names))

    def run(self, duration: float) -> Simulation:
        sim = Simulation(self.model)
        sim.run(duration)
        return sim

    def trace(self, duration: float):
        """(crank angles at every step, worst joint gap over the run, the simulation)."""
        sim = Simulation(self.model)
        angles, worst = [crank_angle(sim.position("crank0"))], [0.0]

        def record(s):
            angles.append(crank_angle(s.position("crank0")))
            worst[0] = max(worst[0], s.max_joint_error())

        sim.run(duration, callback=record)
        return np.unwrap(angles), worst[0], sim


class MuJoCo:
    def __init__(self, n: int, solref: str | None = None, h: float = H):
        import mujoco

        self.name = f"MuJoCo {mujoco.__version__}" + (f", solref {solref}" if solref else "")
        self.mujoco, self.h = mujoco, h
        self.model = mujoco.MjModel.from_xml_string(n_four_bar_mjcf(n, solref, h))
        self.crank0 = mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_BODY, "crank0")
        self.loop_sites = np.array([[mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_SITE, name)
                                     for name in (f"coupler{k}_end", f"crank{k}_tip")] for k in range(1, n + 1)])
        self.counts = (self.model.nbody - 1, f"{self.model.njnt} + {self.model.neq} connects")

    def start(self):
        mujoco, data = self.mujoco, self.mujoco.MjData(self.model)
        for j in range(self.model.njnt):  # cranks turn clockwise; couplers translate: they turn back on their crank
            crank = mujoco.mj_id2name(self.model, mujoco.mjtObj.mjOBJ_JOINT, j).startswith("A")
            data.qvel[self.model.jnt_dofadr[j]] = -B0_SPEED / LENGTH if crank else B0_SPEED / LENGTH
        mujoco.mj_forward(self.model, data)
        return data

    def run(self, duration: float):
        mujoco, model, data = self.mujoco, self.model, self.start()
        for _ in range(int(round(duration / self.h))):
            mujoco.mj_step(model, data)
        return data

    def trace(self, duration: float):
        mujoco, model, data = self.mujoco, self.model, self.start()
        angles, worst = [crank_angle(data.xipos[self.crank0])], 0.0
        for _ in range(int(round(duration / self.h))):
            mujoco.mj_step(model, data)
            angles.append(crank_angle(data.xipos[self.crank0]))
            ends = data.site_xpos[self.loop_sites]
            worst = max(worst, float(np.linalg.norm(ends[:, 0] - ends[:, 1], axis=1).max(initial=0.0)))
        return np.unwrap(angles), worst, data


def error_by_step(n: int, duration: float, repeats: int) -> list:
    """Rows of MechBake alone, the first crank's angle against the exact one, by step: how its error
    falls with h, where Dmax's share of it does not, and what reaching the high accuracy costs, by a
    shorter step or by Richardson's combination (Blender's default step is 1/240 s: 24 fps, 10
    substeps). Beside each h, Stormer-Verlet on the exact pendulum: a second-order method in the one
    coordinate that has no chords (our links fly straight between steps and are pulled back onto
    their circles, as RATTLE's do: benchmarks/looping_pendulum.py)."""
    rows = []
    steps_to_try = (("0.01", 0.01), ("0.005", 0.005), ("1/240 (Blender: 24 fps x 10)", 1 / 240), ("1/300", 1 / 300),
                    ("0.0025", 0.0025))
    runs = [(label, h, dmax, "none", "start") for label, h in steps_to_try for dmax in (OLD_DMAX, DMAX)]
    runs += [(label, h, DMAX, "richardson", "start") for label, h in steps_to_try[:2]]
    runs += [(label, h, DMAX, "none", "thirds") for label, h in steps_to_try]
    for label, h, dmax, extrapolation, levers in runs:
        steps = int(round(duration / h))
        exact = np.array(parallelogram_crank_angles(n, h, steps, REFERENCE_SUBSTEPS))
        verlet = np.abs(np.array(parallelogram_verlet_angles(n, h, steps)) - exact).max()
        ours = Ours(n, dmax, extrapolation, h, levers)
        wall = best_wall_time(lambda: ours.run(duration), repeats) if dmax == DMAX else math.nan
        angles, _, sim = ours.trace(duration)
        deviation = np.abs(angles - exact)
        rows.append([n, label, f"{dmax:g}", extrapolation, levers, f"{deviation.max():.2e}", f"{deviation[-1]:.2e}",
                     f"{verlet:.2e}", f"{sim.stats['solves'] / sim.stats['steps']:.2f}", f"{wall:.3f}"])
    return rows


# IFToMM's protocol: each code at the step that reaches the accuracy asked for, and the time it takes there
LADDER = (("0.01", 0.01), ("0.005", 0.005), ("1/240", 1 / 240), ("1/300", 1 / 300), ("0.0025", 0.0025),
          ("0.001", 1e-3), ("5e-4", 5e-4), ("2.5e-4", 2.5e-4), ("1e-4", 1e-4))


def time_to_high_accuracy(n: int, duration: float, repeats: int) -> list:
    """Rows of the library's own measure of efficiency (Gonzalez et al. 2006): the CPU time a code
    needs for the accuracy asked for. Each peer walks down LADDER to the first step whose worst
    distance from the exact crank angle is within HIGH_ACCURACY and is timed there (best of
    `repeats`; a MuJoCo run longer than a second once); a peer that misses it on the whole ladder
    shows its last step. MechBake at its defaults, with the levers at thirds and with Richardson's
    combination; MuJoCo at its defaults and with the stiffest connects each step allows (2h)."""
    peers = [("MechBake", lambda h: Ours(n, h=h)),
             ("MechBake, levers at thirds", lambda h: Ours(n, h=h, levers="thirds")),
             ("MechBake, Richardson", lambda h: Ours(n, h=h, extrapolation="richardson")),
             ("MuJoCo", lambda h: MuJoCo(n, h=h)), ("MuJoCo, solref 2h 1", lambda h: MuJoCo(n, f"{2 * h:g} 1", h))]
    rows = []
    for name, make in peers:
        for label, h in LADDER:
            peer = make(h)
            peer.run(h)  # warm-up
            angles, _, _ = peer.trace(duration)
            steps = int(round(duration / h))
            exact = np.array(parallelogram_crank_angles(n, h, steps, max(2, math.ceil(h / 1e-4))))
            worst = float(np.abs(angles - exact).max())
            if worst <= HIGH_ACCURACY or h == LADDER[-1][1]:
                long_run = isinstance(peer, MuJoCo) and h < 1e-3
                wall = best_wall_time(lambda: peer.run(duration), 1 if long_run else repeats)
                rows.append([n, name, label, f"{worst:.2e}", "yes" if worst <= HIGH_ACCURACY else "no", f"{wall:.3f}"])
                break
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10, 40], help="windows (default 10 40)")
    parser.add_argument("--repeats", type=int, default=3, help="MechBake's wall time is the best of this many runs")
    parser.add_argument("--duration", type=float, default=DURATION, help="simulated seconds (default 10)")
    parser.add_argument("--iterative", action="store_true", help="the iterative solver too (slow: its sweeps halve "
                                                                 "the step where K is nearly singular)")
    args = parser.parse_args()
    steps = int(round(args.duration / H))
    rows, our_rows = [], []
    for n in args.n:
        exact = exact_crank_angles(n, steps)
        sims, walls = {}, []
        # MuJoCo's defaults, then its stiffest connects at this step (time constant 2h, critically damped)
        # ... ours at Dmax = 1e-6, and at IFToMM's high accuracy: the O(h^2) phase lead cancelled (§8)
        peers = [Ours(n), MuJoCo(n), MuJoCo(n, solref=f"{2 * H:g} 1"), Ours(n, OLD_DMAX),
                 Ours(n, extrapolation="richardson"), Ours(n, levers="thirds")]
        for peer in peers + ([Ours(n, solver="iterative")] if args.iterative else []):
            peer.run(H)  # warm-up: our kernels load (or compile) here, not in the timing
            # MuJoCo's runs take milliseconds: ten times as many of them cost nothing and keep the ratio steady
            repeats = args.repeats if isinstance(peer, Ours) else 10 * args.repeats
            wall = best_wall_time(lambda: peer.run(args.duration), repeats)
            angles, worst_gap, sims[peer.name] = peer.trace(args.duration)
            deviation = np.abs(angles - exact)
            walls.append(wall)
            rows.append([n, peer.name, *peer.counts, f"{wall:.3f}", f"{walls[0] / wall:.1f}", f"{worst_gap:.2e}",
                         f"{angles[-1]:.6f}", f"{exact[-1]:.6f}", f"{deviation[-1]:.2e}", f"{deviation.max():.2e}"])
        stats = sims["MechBake"].stats
        our_rows.append([n, stats["steps"], stats["substeps"], stats["halvings"],
                         f"{stats['corrections'] / stats['steps']:.1f}", f"{stats['solves'] / stats['steps']:.2f}",
                         f"{stats['velocity_solves'] / stats['steps']:.2f}"])
    table(f"IFToMM A02 N-four-bar, h = {H}, {args.duration:g} s simulated; MechBake Dmax = {DMAX} (system solver), "
          f"MuJoCo's default solver; wall time best of {args.repeats} (MuJoCo: {10 * args.repeats}); "
          f"the first crank's angle in rad (the library's high accuracy: {HIGH_ACCURACY} rad)",
          ["N", "simulator", "links", "hinges", "wall s", "MechBake's time / this", "worst gap m", "angle at end",
           "exact", "off at end", "worst off"], rows)
    table("MechBake's work per step (one sweep = look-ahead flight + gaps + one sparse solve)",
          ["N", "steps", "sub-steps", "halvings", "joints corrected per step", "sweeps per step",
           "velocity solves per step"], our_rows)
    table(f"MechBake's first crank against the exact angle by step and Dmax, N = {args.n[0]}, {args.duration:g} s "
          f"(the library's high accuracy: {HIGH_ACCURACY} rad); wall time at the default Dmax, best of {args.repeats}",
          ["N", "h s", "Dmax m", "extrapolation", "levers", "worst off", "off at end",
           "Stormer-Verlet on theta: worst off",
           "sweeps per step", "wall s"], error_by_step(args.n[0], args.duration, args.repeats))
    table(f"The time to IFToMM's high accuracy ({HIGH_ACCURACY} rad on the first crank over {args.duration:g} s), "
          f"N = {args.n[0]}: each at the first step of {', '.join(label for label, _ in LADDER)} s that reaches it",
          ["N", "simulator", "h s", "worst off", "reached", "wall s"],
          time_to_high_accuracy(args.n[0], args.duration, args.repeats))


if __name__ == "__main__":
    main()
