"""Measurement-only patch of numba's CPUCodeLibrary._optimize_final_module, chosen by CT_VARIANT:
nofull_nested: no full module pass for a kernel compiled while another compiles (a callee);
o1_nested: the full pass at O1 for such a kernel; entries_full: the full pass only for a library
that defines a cpython or cfunc wrapper (plan item 3, tried after the entry kernels).
Anything else: numba's own."""
import os
from numba.core import codegen, config
VARIANT = os.environ.get("CT_VARIANT", "base")
def install(clock):
    if "nocfunc" in VARIANT:
        from numba.core import typed_passes
        orig = typed_passes.NativeLowering.run_pass
        def run_pass(self, state):
            state.flags.no_cfunc_wrapper = True
            return orig(self, state)
        typed_passes.NativeLowering.run_pass = run_pass
    if "entries_full" in VARIANT:
        finalize, optimize = codegen.CPUCodeLibrary.finalize, codegen.CPUCodeLibrary._optimize_final_module
        def finalize_noting_entries(self):
            self.has_entry = any(not f.is_declaration and f.name.startswith(("cpython.", "cfunc."))
                                 for f in self._final_module.functions)
            finalize(self)
        def optimize_entries_fully(self):
            if getattr(self, "has_entry", True):
                return optimize(self)
            cg = self._codegen
            mpm, mpb = cg._module_pass_manager(loop_vectorize=cg._loopvect, slp_vectorize=False, opt=cg._opt_level, cost="cheap")
            mpm.run(self._final_module, mpb)
            if not config.LLVM_REFPRUNE_PASS:
                self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)
        codegen.CPUCodeLibrary.finalize = finalize_noting_entries
        codegen.CPUCodeLibrary._optimize_final_module = optimize_entries_fully
        return
    if not any(v in VARIANT for v in ("nofull_nested", "o1_nested")):
        return
    def _optimize_final_module(self):
        nested = clock._depth > 1
        cg = self._codegen
        mpm, mpb = cg._module_pass_manager(loop_vectorize=cg._loopvect, slp_vectorize=False, opt=cg._opt_level, cost="cheap")
        mpm.run(self._final_module, mpb)
        if not config.LLVM_REFPRUNE_PASS:
            self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)
        if nested and "nofull_nested" in VARIANT:
            return
        mpm, mpb = cg._module_pass_manager(**({"opt": 1} if nested else {}))
        mpm.run(self._final_module, mpb)
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
