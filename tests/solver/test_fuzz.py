"""Fuzzing the mechanism file: mutated sample files are a valid Model or a named ModelError, quickly,
and a valid one steps to a finite state or a named failure.

Every sample file (and one with a convex hull body on a mesh floor, which the samples lack) is
mutated with fixed seeds: numbers become huge, tiny, negative, NaN-like strings or other types;
fields are dropped, copied into other records or duplicated; lists are truncated; values are
nested deeply. Model.from_dict must answer each within a time bound with a Model or a ModelError
whose message is short; a few steps of each Model must end finite or in ModelError or
SimulationDiverged, within a time bound. The cases are deterministic: a failure names its seed and
mutations.
"""
import copy
import itertools
import json
import random
import signal
import time
from pathlib import Path

import numpy as np
import pytest

from mechbake.solver import Model, ModelError, Simulation, SimulationDiverged

SAMPLE_FOLDER = Path(__file__).resolve().parents[2] / "sample_scenes"
CASES_PER_SAMPLE = 300
READ_SECONDS = 2.0  # from_dict of one mutated sample (they take milliseconds)
LONGEST_MESSAGE = 600  # characters; the samples' names are short
STEPS = 3
STEP_SECONDS = 5.0  # Simulation(model) and three steps of a mutated sample, its kernels compiled
COMPILE_SECONDS = 120.0  # the same while kernels compile for the first time (a cold cache in CI)

NUMBERS = [1e308, -1e308, 10**400, -(10**400), 1e-300, 5e-324, 0, -1, 1e12, 1e-12, float("nan"), float("inf"),
           -float("inf"), "nan", "NaN", "Infinity", "-inf", "1e999", "0.5", "-0"]
OTHER_TYPES = [None, True, False, "text", "", [], {}, [1.0, 2.0, 3.0], {"a": 1}, [[1.0]], 2.5, 0]
DEPTHS = [2, 40, 3000]
MUTATED_DEPTH = 8  # the samples nest 6 deep (a joint's motor's target table)


def samples() -> dict[str, dict]:
    found = {path.stem: json.loads(path.read_text()) for path in sorted(SAMPLE_FOLDER.glob("*.json"))}
    hull_on_mesh = copy.deepcopy(found["four_balls"])
    octahedron = [[0.1, 0, 0], [-0.1, 0, 0], [0, 0.1, 0], [0, -0.1, 0], [0, 0, 0.1], [0, 0, -0.1]]
    hull_on_mesh["bodies"][0]["shape"] = {"type": "convex", "vertices": octahedron}
    hull_on_mesh["obstacles"] = [{"name": "ground", "type": "mesh", "friction": 0.5,
                                  "vertices": [[-5, -5, 0], [5, -5, 0], [5, 5, 0], [-5, 5, 0]],
                                  "triangles": [[0, 1, 2], [0, 2, 3]]}]
    found["hull_on_mesh"] = hull_on_mesh
    return found


SAMPLES = samples()


def nodes(value, path=()):
    """Every (path, value) below the root, depth first, to the depth of a file's own structure (not
    into what an earlier mutation nested deeply)."""
    if len(path) >= MUTATED_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,), item
            yield from nodes(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield path + (index,), item
            yield from nodes(item, path + (index,))


def parent_of(data, path):
    for key in path[:-1]:
        data = data[key]
    return data


def mutate(data, rng: random.Random) -> str:
    """Changes data in place by one mutation; says what it did, starting with its kind."""
    everything = list(nodes(data))
    numbers = [(p, v) for p, v in everything if isinstance(v, (int, float)) and not isinstance(v, bool)]
    fields = [(p, v) for p, v in everything if isinstance(p[-1], str)]
    lists = [(p, v) for p, v in everything if isinstance(v, list) and v]
    records = [(p, v) for p, v in everything if isinstance(v, dict)] + [((), data)]
    strings = [v for _, v in everything if isinstance(v, str)]
    kind = rng.choice(["number", "number", "number", "type", "drop", "copy", "duplicate", "truncate", "nest",
                       "string"])
    if kind == "number" and numbers:
        path, old = rng.choice(numbers)
        scaled = [old * 10**15, old // 10**15] if isinstance(old, int) else [old * 1e15, old * 1e-15]
        new = rng.choice(NUMBERS + [-old] + scaled)
        parent_of(data, path)[path[-1]] = new
        return f"number at {path}: {old!r} -> {new!r}"
    if kind == "type":
        path, old = rng.choice(everything)
        new = copy.deepcopy(rng.choice(OTHER_TYPES))
        parent_of(data, path)[path[-1]] = new
        return f"type at {path}: -> {new!r}"
    if kind == "drop" and fields:
        path, _ = rng.choice(fields)
        del parent_of(data, path)[path[-1]]
        return f"drop at {path}"
    if kind == "copy" and fields:
        path, value = rng.choice(fields)
        target_path, target = rng.choice(records)
        target[path[-1]] = copy.deepcopy(value)
        return f"copy of {path} into {target_path}"
    if kind == "duplicate" and lists:
        path, items = rng.choice(lists)
        index = rng.randrange(len(items))
        items.insert(index, copy.deepcopy(items[index]))
        return f"duplicate of {path + (index,)}"
    if kind == "truncate" and lists:
        path, items = rng.choice(lists)
        keep = rng.randrange(len(items))
        del items[keep:]
        return f"truncate at {path} to {keep} entries"
    if kind == "nest":
        path, value = rng.choice(everything)
        depth = rng.choice(DEPTHS)
        wrap_in_dicts = rng.random() < 0.3
        for _ in range(depth):
            value = {"x": value} if wrap_in_dicts else [value]
        parent_of(data, path)[path[-1]] = value
        return f"nest at {path}: {depth} deep in {'objects' if wrap_in_dicts else 'lists'}"
    if kind == "string" and strings:
        path, old = rng.choice([(p, v) for p, v in everything if isinstance(v, str)])
        new = rng.choice(strings)
        parent_of(data, path)[path[-1]] = new
        return f"string at {path}: {old!r} -> {new!r}"
    return "unchanged"


def mutated_cases(name: str):
    """(seed, description, data) for every case of one sample."""
    for seed in range(CASES_PER_SAMPLE):
        rng = random.Random(f"{name}:{seed}")
        data = copy.deepcopy(SAMPLES[name])
        steps = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            steps.append(mutate(data, rng))
            if steps[-1].startswith("nest"):  # the last: copying a value nested 3000 deep would recurse
                break
        yield seed, "; ".join(steps), data


class TimeBound:
    """Measures a call, and interrupts it after `hang_seconds` (a hang fails its case instead of the run)."""

    def __init__(self, hang_seconds: float):
        self.hang_seconds = hang_seconds

    def __enter__(self):
        self.start = time.perf_counter()
        if hasattr(signal, "setitimer"):  # POSIX; elsewhere only measured
            self.previous = signal.signal(signal.SIGALRM, self._expired)
            signal.setitimer(signal.ITIMER_REAL, self.hang_seconds)
        return self

    def __exit__(self, *exc):
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        self.elapsed = time.perf_counter() - self.start
        return False

    def _expired(self, *_):
        raise TimeoutError(f"still running after {self.hang_seconds} s")


def read_outcome(data):
    """('model', Model) or ('error', message); anything else raises."""
    try:
        return "model", Model.from_dict(data)
    except ModelError as error:
        return "error", str(error)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_mutated_files_are_a_model_or_a_model_error(name):
    failures = []
    for seed, description, data in mutated_cases(name):
        try:
            with TimeBound(4 * READ_SECONDS) as bound:
                outcome, result = read_outcome(data)
        except Exception as error:  # noqa: BLE001  (what the fuzzer is looking for)
            failures.append(f"seed {seed} ({description}): {type(error).__name__}: {str(error)[:200]}")
            continue
        if bound.elapsed > READ_SECONDS:
            failures.append(f"seed {seed} ({description}): from_dict took {bound.elapsed:.1f} s")
        if outcome == "error" and len(result) > LONGEST_MESSAGE:
            failures.append(f"seed {seed} ({description}): a message of {len(result)} characters")
    assert not failures, "\n".join(failures)


def test_the_fuzzer_reaches_both_outcomes_and_every_mutation():
    """The mutations are neither all caught at the first field nor all harmless."""
    outcomes, kinds = {"model": 0, "error": 0}, set()
    for name in sorted(SAMPLES):
        for _, description, data in itertools.islice(mutated_cases(name), 40):
            outcomes[read_outcome(data)[0]] += 1
            kinds |= {step.split(" ")[0] for step in description.split("; ")}
    assert min(outcomes.values()) > 40
    assert kinds >= {"number", "type", "drop", "copy", "duplicate", "truncate", "nest", "string"}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_mutated_models_step_to_a_finite_state_or_a_named_failure(name):
    failures = []
    for seed, description, data in mutated_cases(name):
        outcome, model = read_outcome(data)
        if outcome != "model":
            continue
        try:
            sim, elapsed = _stepped(model)
            if elapsed > STEP_SECONDS:  # perhaps a kernel compiled for the first time: once more, compiled
                sim, elapsed = _stepped(model)
        except (ModelError, SimulationDiverged):
            continue
        except Exception as error:  # noqa: BLE001  (what the fuzzer is looking for)
            failures.append(f"seed {seed} ({description}): {type(error).__name__}: {str(error)[:200]}")
            continue
        if elapsed > STEP_SECONDS:
            failures.append(f"seed {seed} ({description}): {STEPS} steps took {elapsed:.1f} s")
        state = [getattr(sim, query)(body) for body in model.body_names[1:]
                 for query in ("position", "orientation", "velocity", "angular_velocity")]
        if not all(np.isfinite(value).all() for value in state):
            failures.append(f"seed {seed} ({description}): a state that is not finite after {STEPS} steps")
    assert not failures, "\n".join(failures)


def _stepped(model) -> tuple:
    with TimeBound(COMPILE_SECONDS) as bound:
        sim = Simulation(model)
        for _ in range(STEPS):
            sim.step()
    return sim, bound.elapsed


OUT_OF_SCALE = [1e-30, 1e-26, 1e-20, 1e20, 1e26, 1e30]  # factors on a body's mass or inertia, clipped to the limits
SCALED_STEPS = 40


def scaled_cases(name: str):
    """(description, data) of the sample with one moving body's mass or inertia scaled far out."""
    rng = random.Random(f"scale {name}")
    bodies = [b for b in SAMPLES[name]["bodies"] if not b.get("fixed") and "motion" not in b]
    for body, field in itertools.product(bodies[:3], ("mass", "inertia")):
        factor = rng.choice(OUT_OF_SCALE)
        if field not in body:  # a particle has no inertia
            continue
        data = copy.deepcopy(SAMPLES[name])
        record = next(b for b in data["bodies"] if b["name"] == body["name"])
        value = np.array(record[field], dtype=float) * factor
        record[field] = np.clip(value, -1e30, 1e30).tolist() if field == "inertia" else min(max(value, 1e-30), 1e30)
        yield f"body '{body['name']}' {field} x {factor:g}", data


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_bodies_out_of_scale_run_finite_or_end_in_an_error_naming_a_body(name):
    """A divergence where a body's mass or inertia is far out of scale names that body (it blamed a
    joint for a gap of 0 m or of nan m)."""
    failures = []
    for description, data in scaled_cases(name):
        outcome, model = read_outcome(data)
        if outcome != "model":
            continue
        try:
            with TimeBound(COMPILE_SECONDS):
                sim = Simulation(model)
                for _ in range(SCALED_STEPS):
                    sim.step()
        except ModelError:
            continue
        except SimulationDiverged as error:
            if error.body is None and error.joint is None:
                failures.append(f"{description}: names neither a body nor a joint: {error}")
            elif error.body is None and ("of 0 m" in str(error) or "nan m" in str(error)):
                failures.append(f"{description}: blames a joint's gap, not the body: {error}")
            continue
        except Exception as error:  # noqa: BLE001  (what the fuzzer is looking for)
            failures.append(f"{description}: {type(error).__name__}: {str(error)[:200]}")
            continue
        if not all(np.isfinite(sim.position(body)).all() for body in model.body_names[1:]):
            failures.append(f"{description}: a state that is not finite after {SCALED_STEPS} steps")
    assert not failures, "\n".join(failures)
