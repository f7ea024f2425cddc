"""Cold-compile a scene and split numba's compile time into phases (exclusive wall seconds).
usage: MECHBAKE_CACHE_DIR=$(mktemp -d) python prof2.py "eight_loop()" [variant]
variant: base | nofull_nested (skip the full module pass for kernels compiled as callees)
       | nofpm (skip per-function passes) | o1_nested (full pass at O1 for callees)"""
import json, sys, time, collections, os
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2] / "tools"))
from checkout import import_checkout_as_mechbake
import_checkout_as_mechbake()
import mechanisms
from mechbake.solver import Model, Simulation
from mechbake.solver.kernels import jit
from numba.core import event, codegen, typed_passes, caching, config
import llvmlite.binding as ll
from llvmlite.binding import module as llmod

VARIANT = sys.argv[2] if len(sys.argv) > 2 else "base"
phase = collections.Counter(); stack = [["outside", time.perf_counter()]]
def push(name):
    now = time.perf_counter(); phase[stack[-1][0]] += now - stack[-1][1]; stack.append([name, now])
def pop():
    now = time.perf_counter(); name, t0 = stack.pop(); phase[name] += now - t0; stack[-1][1] = now
def timed(cls, meth, name):
    orig = getattr(cls, meth)
    def wrapper(*a, **k):
        push(name)
        try: return orig(*a, **k)
        finally: pop()
    setattr(cls, meth, wrapper)
timed(typed_passes.BaseTypeInference, "run_pass", "typing")
if VARIANT in ("nocfunc", "nocfunc_nofpm"):
    _orig_nl = typed_passes.NativeLowering.run_pass
    def _nl(self, state):
        state.flags.no_cfunc_wrapper = True
        return _orig_nl(self, state)
    typed_passes.NativeLowering.run_pass = _nl
timed(typed_passes.NativeLowering, "run_pass", "lowering (numba IR -> LLVM IR)")
timed(codegen.CPUCodeLibrary, "_optimize_functions", "llvm function passes")
timed(llmod.ModuleRef, "link_in", "llvm link_in")
timed(codegen.JITCodeLibrary, "_finalize_specific", "machine code (MCJIT)")
timed(caching.Cache, "save_overload", "cache save")
from numba.core import lowering
timed(lowering.BaseLower, "create_cpython_wrapper", "wrappers: lowering")
timed(lowering.BaseLower, "create_cfunc_wrapper", "wrappers: lowering")
irsize = collections.Counter()

depth = [0]
libstats = []  # (name, nested, defined functions before full pass, after, ir chars before)
def _optimize_final_module(self):
    nested = jit.COMPILE_CLOCK._depth > 1
    push("stats"); nf0 = sum(1 for f in self._final_module.functions if not f.is_declaration)
    own = len(self._linking_libraries)
    if os.environ.get("CT_IRSTATS"):
        for f in self._final_module.functions:
            if f.is_declaration: continue
            n = len(str(f)); irsize["all"] += n
            if f.name.startswith("cpython.") or f.name.startswith("cfunc."): irsize["wrappers"] += n
            elif f.linkage.name == "linkonce_odr": irsize["linked copies"] += n
    pop()
    mpm_cheap, mpb_cheap = self._codegen._module_pass_manager(loop_vectorize=self._codegen._loopvect,
        slp_vectorize=False, opt=self._codegen._opt_level, cost="cheap")
    push("llvm module cheap pass"); mpm_cheap.run(self._final_module, mpb_cheap); pop()
    if not config.LLVM_REFPRUNE_PASS:
        self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)
    skip = VARIANT == "nofull_nested" and nested
    if not skip:
        kw = {"opt": 1} if (VARIANT == "o1_nested" and nested) else {}
        mpm_full, mpb_full = self._codegen._module_pass_manager(**kw)
        push("llvm module full pass"); mpm_full.run(self._final_module, mpb_full); pop()
    push("stats"); nf1 = sum(1 for f in self._final_module.functions if not f.is_declaration); pop()
    libstats.append((self.name, nested, own, nf0, nf1))
codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
if VARIANT in ("nofpm", "nocfunc_nofpm"):
    codegen.CPUCodeLibrary._optimize_functions = lambda self, m: setattr(m, "data_layout", self._codegen._data_layout)

class L(event.Listener):
    def on_start(self, e): push("numba other (bytecode, untyped passes, ...)")
    def on_end(self, e): pop()
event.register("numba:compile", L())
scene = sys.argv[1]
t = time.perf_counter(); cpu = time.process_time()
sim = Simulation(Model.from_dict(eval("mechanisms." + scene)))
for _ in range(20): sim.step()
wall = time.perf_counter() - t
print("variant", VARIANT, "scene", scene, "total wall", round(wall, 1), "cpu", round(time.process_time() - cpu, 1), "compile", round(jit.COMPILE_CLOCK.seconds, 1))
phase.pop("outside", None)
tot = sum(phase.values())
for k, v in phase.most_common(): print(f"  {v:8.2f} s {100*v/tot:5.1f} %  {k}")
print("IR chars before full pass", dict(irsize))
print("libraries finalized", len(libstats), "nested", sum(1 for s in libstats if s[1]))
print("defined functions in final modules before full pass: sum", sum(s[3] for s in libstats), "after", sum(s[4] for s in libstats))
for s in sorted(libstats, key=lambda s: -s[3])[:12]: print("   ", s[3], "->", s[4], "linked libs", s[2], s[0][:90])
# specialisations
import numba, importlib, pkgutil, mechbake.solver.kernels as K
disp = {}
for mod in list(sys.modules.values()):
    if getattr(mod, "__name__", "").startswith("mechbake.solver"):
        for n, v in vars(mod).items():
            if isinstance(v, numba.core.registry.CPUDispatcher): disp[v.py_func.__module__.split(".")[-1] + "." + v.py_func.__name__] = v
multi = {n: d for n, d in disp.items() if len(d.signatures) > 1}
print("dispatchers", len(disp), "compiled", sum(1 for d in disp.values() if d.signatures), "signatures", sum(len(d.signatures) for d in disp.values()), "with >1:", len(multi))
for n, d in sorted(multi.items(), key=lambda x: -len(x[1].signatures)):
    print(f"  {len(d.signatures)}x {n}")
    sigs = [list(s) for s in d.signatures]
    for i in range(len(sigs[0])):
        col = {str(s[i]) for s in sigs if i < len(s)}
        if len(col) > 1: print(f"      arg {i} ({d.py_func.__code__.co_varnames[i]}): {sorted(col)}")
