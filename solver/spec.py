"""Reading one record of a mechanism file (a body, a joint, the settings) with clear errors.

Every error names the record and the field, e.g. `joint 'knee': field 'axis' must not be zero`.
"""
import math
from typing import Any

import numpy as np

from .errors import ModelError

REQUIRED = object()


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class RecordReader:
    """Takes fields out of one dict; `finish()` rejects any field nobody asked for."""

    def __init__(self, record: Any, where: str):
        if not isinstance(record, dict):
            raise ModelError(f"{where}: must be an object, got {type(record).__name__}")
        self.record = record
        self.where = where
        self.used: set[str] = set()

    def fail(self, key: str, problem: str) -> ModelError:
        return ModelError(f"{self.where}: field '{key}' {problem}")

    def raw(self, key: str, default: Any = REQUIRED) -> Any:
        self.used.add(key)
        if key in self.record:
            return self.record[key]
        if default is REQUIRED:
            raise self.fail(key, "is missing")
        return default

    def has(self, key: str) -> bool:
        return key in self.record

    def number(self, key: str, default: Any = REQUIRED, *, minimum: float | None = None,
               positive: bool = False) -> float:
        value = self.raw(key, default)
        if not _is_number(value):
            raise self.fail(key, f"must be a number, got {value!r}")
        value = float(value)
        if not math.isfinite(value):
            raise self.fail(key, f"must be finite, got {value}")
        if positive and value <= 0:
            raise self.fail(key, f"must be positive, got {value}")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum}, got {value}")
        return value

    def integer(self, key: str, default: Any = REQUIRED, *, minimum: int, maximum: int) -> int:
        value = self.raw(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key, f"must be a whole number, got {value!r}")
        if not minimum <= value <= maximum:
            raise self.fail(key, f"must be between {minimum} and {maximum}, got {value}")
        return value

    def boolean(self, key: str, default: Any = REQUIRED) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def string(self, key: str, default: Any = REQUIRED, *, choices: tuple[str, ...] | None = None) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a non-empty string, got {value!r}")
        if choices is not None and value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}; got {value!r}")
        return value

    def array(self, key: str, shape: tuple[int, ...], default: Any = REQUIRED) -> np.ndarray:
        value = self.raw(key, default)
        return checked_array(value, shape, lambda problem: self.fail(key, problem))

    def vector(self, key: str, default: Any = REQUIRED, *, nonzero: bool = False) -> np.ndarray:
        value = self.array(key, (3,), default)
        if nonzero and np.linalg.norm(value) < 1e-12:
            raise self.fail(key, "must not be zero")
        return value

    def record_of(self, key: str) -> "RecordReader | None":
        value = self.raw(key, None)
        if value is None:
            return None
        return RecordReader(value, f"{self.where}, {key}")

    def finish(self) -> None:
        unknown = sorted(set(self.record) - self.used)
        if unknown:
            raise ModelError(f"{self.where}: unknown field '{unknown[0]}'")


def checked_array(value: Any, shape: tuple[int, ...], fail) -> np.ndarray:
    """A finite float array of exactly `shape`, or `fail(problem)` is raised."""
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise fail(f"must be numbers of shape {list(shape)}, got {value!r}") from None
    if array.shape != shape or _has_bool(value):
        raise fail(f"must be numbers of shape {list(shape)}, got {value!r}")
    if not np.all(np.isfinite(array)):
        raise fail(f"must be finite, got {value!r}")
    return array


def _has_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_bool(item) for item in value)
    return False
