"""The LLVM instructions lowered in a scene's cold first step, by the kind of numba IR statement being
lowered (an array read by its array and index types, a call by its callee's kind), with each kind's
count and instructions per statement; what is lowered outside statements (each kernel's argument
prologue, the entries' Python wrappers) is listed apart. Deterministic: it does not vary with the
machine's load. Run from a checkout's root with an empty cache:

    MECHBAKE_CACHE_DIR=$(mktemp -d) python docs/compile_time/statements.py "contact_scenes.box_tower()"

TOP=n lists the n largest kinds (40).
"""
import collections
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from checkout import import_checkout_as_mechbake  # noqa: E402

import_checkout_as_mechbake()
import contact_scenes  # noqa: E402,F401
import mechanisms  # noqa: E402,F401
from llvmlite.ir import instructions  # noqa: E402
from numba.core import callwrapper, ir, lowering  # noqa: E402

from mechbake.solver import Model, Simulation  # noqa: E402

lowered: collections.Counter = collections.Counter()
statements: collections.Counter = collections.Counter()
being_lowered = ["outside statements"]
made = instructions.Instruction.__init__


def counted(self, *args, **kwargs):
    lowered[being_lowered[-1]] += 1
    made(self, *args, **kwargs)


def kind_of(lower, statement) -> str:
    def type_of(variable):
        return lower.typeof(variable.name)

    if isinstance(statement, ir.Assign) and isinstance(statement.value, ir.Expr):
        expression = statement.value
        if expression.op == "getitem":
            return f"read {type_of(expression.value)}[{type_of(expression.index)}]"
        if expression.op == "call":
            callee = type_of(expression.func)
            return f"call {type(callee).__name__} {str(getattr(callee, 'typing_key', callee))[:60]}"
        return expression.op
    if isinstance(statement, (ir.SetItem, ir.StaticSetItem)):
        index = statement.index_var if isinstance(statement, ir.StaticSetItem) else statement.index
        return f"write {type_of(statement.target)}[{type_of(index)}] = {type_of(statement.value)}"
    if isinstance(statement, ir.Assign):
        return "assign " + type(statement.value).__name__
    return type(statement).__name__


def attributed(owner, method: str, label_of) -> None:
    original = getattr(owner, method)

    def wrapper(self, *args, **kwargs):
        label = label_of(self, args)
        statements[label] += 1
        being_lowered.append(label)
        try:
            return original(self, *args, **kwargs)
        finally:
            being_lowered.pop()

    setattr(owner, method, wrapper)


instructions.Instruction.__init__ = counted
attributed(lowering.Lower, "lower_inst", lambda lower, args: kind_of(lower, args[0]))
attributed(lowering.Lower, "extract_function_arguments", lambda lower, args: "a kernel's argument prologue")
attributed(callwrapper.PyCallWrapper, "build", lambda wrapper, args: "an entry's Python wrapper")
Simulation(Model.from_dict(eval(sys.argv[1]))).step()
print(f"{sum(lowered.values()):,} LLVM instructions lowered")
print(f"{'instructions':>12} {'statements':>10} {'each':>6}  kind")
for label, count in lowered.most_common(int(os.environ.get("TOP", 40))):
    print(f"{count:12,} {statements[label]:10,} {count / max(statements[label], 1):6.1f}  {label}")
