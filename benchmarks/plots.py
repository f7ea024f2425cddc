"""The README's plots, measured in this run (nothing is copied from earlier runs):

  docs/images/joint_gap.png   how far joints come apart: IFToMM A02 (benchmarks/a02_n_four_bar.py),
                              MechBake beside MuJoCo; a 20-link chain baked in Blender
                              (benchmarks/blender_bake.py), MechBake's keys beside Blender's rigid
                              body (Bullet); and A02's first crank against the exact angle over time.
  docs/images/speed.png       accuracy for the time spent: A02 with N = 10 for 10 s at a ladder of
                              steps, each simulator's wall time against its worst crank-angle error,
                              ours and MuJoCo's timed in turns at each step.

    .venv/bin/python benchmarks/plots.py [--output-dir docs/images] [--repeats 3]

About 35 s on two cores once the solver's kernels are compiled (MuJoCo's shortest steps take most
of it). Needs the bpy module for the chain (.venv/bin/python has it).
"""
import argparse
import math
import pathlib

import matplotlib
import numpy as np
from common import best_wall_time

from a02_n_four_bar import DURATION, HIGH_ACCURACY, MuJoCo, Ours
from measure import parallelogram_crank_angles

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
OURS_COLOUR, MUJOCO_COLOUR, BULLET_COLOUR = "#e0631a", "#3a6fb0", "#7a7a7a"
GAP_WINDOWS = (10, 40)  # A02's sizes beside MuJoCo
STIFF = "MuJoCo, stiffest connects"  # solref 2h: the stiffest its connects may be at the step h
LADDER = {"MechBake": (0.01, 0.005, 0.0025, 0.001),  # steps, s
          "MuJoCo": (0.005, 0.0025, 0.001, 5e-4, 2.5e-4, 1e-4), STIFF: (0.005, 0.0025, 0.001, 5e-4, 2.5e-4, 1e-4)}


def exact_angles(n: int, h: float, duration: float) -> np.ndarray:
    """The first crank's exact angle at every step (RK4 at 1e-4 s or finer, as a02_n_four_bar's ladder)."""
    return np.array(parallelogram_crank_angles(n, h, int(round(duration / h)), max(2, math.ceil(h / 1e-4))))


def a02_gaps(duration: float) -> dict:
    """{N: {simulator: (worst joint gap m, |angle - exact| at every step)}} at A02's step, 0.005 s."""
    results = {}
    for n in GAP_WINDOWS:
        exact = exact_angles(n, 0.005, duration)
        results[n] = {}
        for peer in (Ours(n), MuJoCo(n)):
            angles, worst_gap, _ = peer.trace(duration)
            results[n][peer.name.split()[0]] = (worst_gap, np.abs(angles - exact))
            print(f"A02 N = {n}, {peer.name}: worst joint gap {worst_gap:.2e} m, "
                  f"crank {np.abs(angles - exact).max():.2e} rad off at worst")
    return results


def chain_gaps() -> dict:
    """{simulator: worst joint gap in the keys, m} for the 20-link chain baked in Blender."""
    import blender_bake
    import mechbake

    mechbake.register()
    try:
        rows = {"MechBake": blender_bake.mechbake_chain(), "Blender rigid body (Bullet)": blender_bake.bullet_chain()}
    finally:
        mechbake.unregister()
    gaps = {who: float(row[2].split()[0]) for who, row in rows.items()}  # the row's "3.6e-07 m"
    for who, gap in gaps.items():
        print(f"20-link chain in Blender, {who}: worst joint gap in the keys {gap:.2e} m")
    return gaps


def work_precision(n: int, duration: float, repeats: int) -> dict:
    """{simulator: [(h, wall s, worst |angle - exact| rad)]}: at each step MuJoCo's runs are timed right
    after ours, so the machine's load falls on both alike. MuJoCo at its defaults and with the stiffest
    connects it allows at the step (solref 2h, critically damped)."""
    points: dict = {name: [] for name in LADDER}
    for h in sorted(set(LADDER["MechBake"]) | set(LADDER["MuJoCo"]), reverse=True):
        exact = exact_angles(n, h, duration)
        for name, make in (("MechBake", lambda: Ours(n, h=h)), ("MuJoCo", lambda: MuJoCo(n, h=h)),
                           (STIFF, lambda: MuJoCo(n, f"{2 * h:g} 1", h))):
            if h not in LADDER[name]:
                continue
            peer = make()
            peer.run(h)  # warm-up: our kernels load here, not in the timing
            wall = best_wall_time(lambda: peer.run(duration), repeats if h >= 1e-3 else 1)
            angles, _, _ = peer.trace(duration)
            worst = float(np.abs(angles - exact).max())
            points[name].append((h, wall, worst))
            print(f"A02 N = {n}, {name} at h = {h:g}: {wall:.3f} s, crank {worst:.2e} rad off at worst")
    return points


def plot_joint_gaps(a02: dict, chain: dict, path: pathlib.Path) -> None:
    figure, (bars, trace) = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [1.1, 1]})
    labels, ours, theirs, colours = [], [], [], []
    for n, by_peer in a02.items():
        labels.append(f"IFToMM A02\nN = {n}")
        ours.append(by_peer["MechBake"][0])
        theirs.append(by_peer["MuJoCo"][0])
        colours.append(MUJOCO_COLOUR)
    labels.append("20-link chain\nbaked in Blender")
    ours.append(chain["MechBake"])
    theirs.append(chain["Blender rigid body (Bullet)"])
    colours.append(BULLET_COLOUR)
    places = np.arange(len(labels))
    width = 0.38
    bars.bar(places - width / 2, ours, width, color=OURS_COLOUR, label="MechBake")
    bars.bar(places + width / 2, theirs, width, color=colours)
    for place, value in [*zip(places - width / 2, ours), *zip(places + width / 2, theirs)]:
        bars.annotate(f"{value:.0e}", (place, value), ha="center", va="bottom", fontsize=8,
                      xytext=(0, 2), textcoords="offset points")
    bars.set_yscale("log")
    bars.set_xticks(places, labels)
    bars.set_ylabel("worst joint gap (m)")
    bars.set_title("How far the joints come apart")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in (OURS_COLOUR, MUJOCO_COLOUR, BULLET_COLOUR)]
    bars.legend(handles, ["MechBake (default Dmax)", "MuJoCo 4 (connect constraints)", "Blender rigid body (Bullet)"],
                fontsize=8, loc="upper left")
    bars.set_ylim(min(ours) / 5, max(theirs) * 30)
    n = GAP_WINDOWS[0]
    for name, colour in (("MechBake", OURS_COLOUR), ("MuJoCo", MUJOCO_COLOUR)):
        deviation = a02[n][name][1]
        trace.plot(np.arange(len(deviation)) * 0.005, np.maximum(deviation, 1e-12), color=colour, label=name,
                   linewidth=1)
    trace.axhline(HIGH_ACCURACY, color="black", linestyle="--", linewidth=0.8)
    trace.text(0.1, HIGH_ACCURACY * 1.4, "IFToMM high accuracy", fontsize=8)
    trace.set_yscale("log")
    trace.set_ylim(1e-7, 10)
    trace.set_xlabel("time (s)")
    trace.set_ylabel("first crank's angle - exact (rad)")
    trace.set_title(f"A02, N = {n}, h = 0.005 s: the motion itself")
    trace.legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=96)
    plt.close(figure)


def plot_speed(points: dict, n: int, duration: float, path: pathlib.Path) -> None:
    figure, axes = plt.subplots(figsize=(7, 4.2))
    for name, colour, line in (("MechBake", OURS_COLOUR, "o-"), ("MuJoCo", MUJOCO_COLOUR, "o-"),
                               (STIFF, MUJOCO_COLOUR, "s--")):
        steps, walls, errors = zip(*points[name])
        axes.plot(walls, errors, line, color=colour, label=name if name == STIFF else f"{name} (defaults)")
        for h, wall, error in points[name]:
            axes.annotate(f"h = {h:g}", (wall, error), fontsize=7, xytext=(4, 4), textcoords="offset points")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.margins(x=0.15)
    axes.axhline(HIGH_ACCURACY, color="black", linestyle="--", linewidth=0.8)
    axes.text(axes.get_xlim()[0] * 1.1, HIGH_ACCURACY * 1.3, "IFToMM high accuracy", fontsize=8)
    axes.set_xlabel(f"wall time for {duration:g} s simulated (s, lower is faster)")
    axes.set_ylabel("worst error of the first crank's angle (rad)")
    axes.set_title(f"IFToMM A02 N-four-bar, N = {n}: accuracy for the time spent")
    axes.legend(fontsize=8, loc="upper right", bbox_to_anchor=(1.0, 0.88))
    figure.tight_layout()
    figure.savefig(path, dpi=96)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", type=pathlib.Path, default=ROOT / "docs" / "images")
    parser.add_argument("--repeats", type=int, default=3, help="wall times are the best of this many runs")
    args = parser.parse_args()
    args.output_dir.mkdir(parents=True, exist_ok=True)
    plot_joint_gaps(a02_gaps(DURATION), chain_gaps(), args.output_dir / "joint_gap.png")
    n = GAP_WINDOWS[0]
    plot_speed(work_precision(n, DURATION, args.repeats), n, DURATION, args.output_dir / "speed.png")
    print(f"wrote {args.output_dir / 'joint_gap.png'} and {args.output_dir / 'speed.png'}")


if __name__ == "__main__":
    main()
