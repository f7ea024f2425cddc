"""Shared by the benchmark scripts: load the checkout as `mechbake`, print aligned tables."""
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
from measure import crossing_times  # noqa: E402,F401  (shared with the tests)


def table(title: str, header: list[str], rows: list[list]) -> None:
    print(f"\n{title}")
    cells = [header] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    for k, row in enumerate(cells):
        print("  ".join(value.rjust(width) for value, width in zip(row, widths)))
        if k == 0:
            print("  ".join("-" * width for width in widths))


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.4e}"
    return str(value)


def best_wall_time(run, repeats: int = 3) -> float:
    """The shortest of `repeats` wall times of run(): the figure least disturbed by the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best
