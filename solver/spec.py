"""Reading one record of a mechanism file (a body, a joint, the settings) with clear errors.

Every error names the record and the field, e.g. `joint 'knee': field 'axis' must not be zero`.
"""
import itertools
import math
import reprlib
from typing import Any, Iterable

import numpy as np

from .errors import ModelError

REQUIRED = object()

# Every number of a mechanism is in SI units and at most this large: squares and products of a few
# such numbers (energies, K = J M^-1 J^T) must stay far inside the range of a double (1.8e308); a
# vector of 1e155 would already have an infinite length.
LARGEST = 1e30
SMALLEST = 1.0 / LARGEST  # the least a positive quantity may be (a mass of 5e-324 has an infinite inverse)
SHOWN_VALUES = 3  # a message quotes the first few offending entries, then their count

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict = 3, 4, 4, 4
_SHORT.maxstring, _SHORT.maxlong, _SHORT.maxother = 40, 24, 40
NUMBER_TYPES = (int, float, np.integer, np.floating)
NOT_NUMBER_TYPES = (bool, np.bool_)


def short_repr(value: Any) -> str:
    """A value as a message quotes it: a few entries of a long list, a few levels of a nested one,
    the ends of a long number (a message must stay short whatever the file holds)."""
    return _SHORT.repr(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, NUMBER_TYPES) and not isinstance(value, NOT_NUMBER_TYPES)


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
            raise self.fail(key, f"must be a number, got {short_repr(value)}")
        if not abs(value) <= LARGEST:  # NaN compares false; an int may be too large for any float
            if not isinstance(value, (int, np.integer)) and not math.isfinite(value):
                raise self.fail(key, f"must be finite, got {value}")
            raise self.fail(key, f"must be at most {LARGEST:g} in size (SI units), got {short_repr(value)}")
        value = float(value)
        if positive and value < SMALLEST:
            raise self.fail(key, f"must be positive (at least {SMALLEST:g}), got {value}")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum}, got {value}")
        return value

    def integer(self, key: str, default: Any = REQUIRED, *, minimum: int, maximum: int) -> int:
        value = self.raw(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key, f"must be a whole number, got {short_repr(value)}")
        if not minimum <= value <= maximum:
            raise self.fail(key, f"must be between {minimum} and {maximum}, got {short_repr(value)}")
        return value

    def boolean(self, key: str, default: Any = REQUIRED) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {short_repr(value)}")
        return value

    def string(self, key: str, default: Any = REQUIRED, *, choices: tuple[str, ...] | None = None) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a non-empty string, got {short_repr(value)}")
        if choices is not None and value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}; got {short_repr(value)}")
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
        unknown = sorted(set(self.record) - self.used, key=str)
        if unknown:
            raise ModelError(f"{self.where}: unknown field {short_repr(unknown[0])}")


def checked_array(value: Any, shape: tuple[int, ...], fail) -> np.ndarray:
    """A finite float array of exactly `shape`, or `fail(problem)` is raised (the problem quotes
    only the first few bad entries, however large the array)."""
    wrong_shape = f"must be numbers of shape {list(shape)}, got {short_repr(value)}"
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):  # ragged, nested too deeply, or not numbers
        raise fail(wrong_shape) from None
    except OverflowError:  # an integer beyond any float
        raise fail(f"must be at most {LARGEST:g} in size (SI units), got {short_repr(value)}") from None
    if array.shape != shape or not _all_numbers(value, len(shape)):
        raise fail(wrong_shape)
    bad = ~(np.abs(array) <= LARGEST)  # NaN compares false
    if bad.any():
        problem = f"must be finite and at most {LARGEST:g} in size (SI units)"
        if array.ndim < 2:
            raise fail(f"{problem}, got {short_repr(value)}")
        rows = np.flatnonzero(bad.reshape(len(array), -1).any(axis=1))
        first = ", ".join(f"#{i} {short_repr(array[i].tolist())}" for i in rows[:SHOWN_VALUES])
        more = ", ..." if len(rows) > SHOWN_VALUES else ""
        raise fail(f"{problem}; {len(rows)} of {len(array)} rows are not: {first}{more}")
    return array


def _all_numbers(value: Any, depth: int) -> bool:
    """Every entry of a regular nested list (or array) of `depth` levels is a number: no
    booleans, strings or nulls (which numpy would turn into numbers)."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "iuf"
    leaves: Iterable[Any] = [value]
    for _ in range(depth):
        leaves = itertools.chain.from_iterable(leaves)
    return all(issubclass(kind, NUMBER_TYPES) and not issubclass(kind, NOT_NUMBER_TYPES)
               for kind in set(map(type, leaves)))
