"""Stewart and Trinkle §4: a spinning rod with rounded ends falls onto a table.

Rod 0.5 m between the cap centres, caps of 0.05 m radius, 1 kg, J = 0.002 kg m^2, mu = 0.6; centre
at 1 m, 30 degrees to the horizontal, spinning at 4 rad/s. The paper: first impact near t = 0.383 s,
the other end lands near 0.548 s, the rod slides about 0.02 s, then rests. Both contact methods.
    python benchmarks/contact_rod.py [--plot out.png]
"""
import sys

import numpy as np
from common import table

import mechanisms

from mechbake.solver import Model, Simulation
from mechbake.solver.contact.detection import find_contacts


def events(method: str, h: float = 0.001, duration: float = 1.0):
    sim = Simulation(Model.from_dict(mechanisms.spinning_rod(method, h)))
    first = second = slide_end = None
    touching_ends: set = set()
    track = []
    while sim.time < duration - 1e-9:
        sim.step()
        contacts = find_contacts(sim.model, sim.state.frames, sim.state.frames)
        gaps = contacts.separation(sim.state.frames)
        ends = {key for key, gap in zip(contacts.key, gaps) if gap < 1e-5}
        if ends and first is None:
            first = sim.time
        if len(ends | touching_ends) == 2 and second is None and ends - touching_ends:
            second = sim.time
        touching_ends |= ends
        speed = abs(sim.velocity("rod")[0])
        if second is not None and slide_end is None and speed < 1e-4:
            slide_end = sim.time
        track.append((sim.time, *sim.position("rod"), sim.angular_velocity("rod")[1], sim.velocity("rod")[0]))
    rest = np.linalg.norm(sim.velocity("rod")) + np.linalg.norm(sim.angular_velocity("rod"))
    return first, second, slide_end, rest, np.array(track), sim.stats["lcp_fallbacks"]


def main() -> None:
    rows, tracks = [], {}
    for method in ("impulse", "lcp"):
        first, second, slide_end, rest, tracks[method], fallbacks = events(method)
        rows.append([method, f"{first:.3f}", f"{second:.3f}" if second else "-",
                     f"{slide_end - second:.3f}" if slide_end and second else "-", f"{rest:.1e}",
                     fallbacks if method == "lcp" else ""])
    rows.append(["paper", "0.383", "0.548", "0.02", "at rest", ""])
    table("Spinning rod onto a table (h = 0.001 s)", ["method", "first impact s", "other end lands s",
                                                    "slides for s", "speed at t = 1 s",
                                                    "LCP steps solved the impulse way"],
          rows)
    if "--plot" in sys.argv:
        _plot(tracks, sys.argv[sys.argv.index("--plot") + 1])


def _plot(tracks, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for method, track in tracks.items():
        axes[0].plot(track[:, 0], track[:, 3], label=method)
        axes[1].plot(track[:, 0], track[:, 4], label=method)
        axes[2].plot(track[:, 0], track[:, 5], label=method)
    for axis, title in zip(axes, ("height of the centre (m)", "angular velocity (rad/s)", "horizontal velocity (m/s)")):
        axis.set_title(title)
        axis.set_xlabel("t (s)")
        axis.axvline(0.383, color="grey", lw=0.5)
        axis.axvline(0.548, color="grey", lw=0.5)
        axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
