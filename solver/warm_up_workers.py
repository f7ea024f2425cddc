"""The warm-up's stages compiled by several processes side by side, each taking the next stage when it
is free, all into one cache folder (numba writes each cache file whole, and a process loads what
another has written when it first needs a kernel). The cores of an artist's machine cut the first
use's wait; kernels the stages share are compiled by more than one process while none has cached
them yet.

A worker is solver/warm_up_process.py with `--serve`: it reads a stage's index from its input,
prints `started INDEX`, simulates the stage and prints `done INDEX`, until its input ends.
"""
import os
import pathlib
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence

MOST_WORKERS = 4  # each compiling process holds about 0.9 GB, and more of them share less

SOLVER_FOLDER = pathlib.Path(__file__).resolve().parent
WARM_UP_PROCESS = SOLVER_FOLDER / "warm_up_process.py"


def default_workers(stages: int) -> int:
    """One worker per CPU, at most MOST_WORKERS and one per stage."""
    return max(1, min(os.cpu_count() or 1, MOST_WORKERS, stages))


class _Worker:
    """A worker process. A thread puts each line of its output on the shared queue as (worker, line),
    then (worker, None) at its end; another passes its errors on to this process's."""

    def __init__(self, command: list[str], events: queue.Queue):
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # Windows: no console window per worker
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, bufsize=1, creationflags=flags)
        self.last_error = ""
        self._events = events
        self._errors = threading.Thread(target=self._pass_errors, daemon=True)
        self._errors.start()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._events.put((self, line.rstrip("\n")))
        self._events.put((self, None))

    def _pass_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            print(line, end="", file=sys.stderr, flush=True)
            self.last_error = line.strip() or self.last_error

    def exit_code(self) -> int:
        """Once its output has ended: its exit code, with its errors read to the end."""
        code = self.process.wait()
        self._errors.join()
        return code

    def give(self, stage: int | None) -> None:
        """The next stage to simulate, or None: no more."""
        assert self.process.stdin is not None
        if stage is None:
            self.process.stdin.close()
        else:
            self.process.stdin.write(f"{stage}\n")
            self.process.stdin.flush()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def run_stages(names: Sequence[str], folder: pathlib.Path, workers: int,
               progress: Callable[[int, int, str], None] | None) -> None:
    """Simulates the stages called `names` (warm_up.STAGES' order) in `workers` processes compiling
    into `folder`; progress(started, total, name) as each stage starts. The workers' errors (numba's
    warnings among them) go to this process's; one that fails stops the others and raises
    RuntimeError with its last line of errors."""
    package = __package__.rpartition(".")[0]  # the name the extension goes by: the workers use it too
    command = [sys.executable, str(WARM_UP_PROCESS), package, str(SOLVER_FOLDER.parent), str(folder.parent),
               os.pathsep.join(sys.path), "--serve"]
    events: queue.Queue = queue.Queue()
    pending = list(range(len(names)))
    running = [_Worker(command, events) for _ in range(min(workers, len(names)))]
    started = 0
    try:
        for worker in running:
            worker.give(pending.pop(0))
        while running:
            worker, line = events.get()
            if line is None:
                running.remove(worker)
                code = worker.exit_code()
                if code != 0:
                    raise RuntimeError(f"a warm-up worker failed (exit code {code}): {worker.last_error}")
            elif line.startswith("started "):
                if progress is not None:
                    progress(started, len(names), names[int(line.split()[1])])
                started += 1
            elif line.startswith("done "):
                worker.give(pending.pop(0) if pending else None)
    finally:
        for worker in running:
            worker.stop()
