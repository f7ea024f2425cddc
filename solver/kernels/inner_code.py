"""Kernels only other kernels call keep their code as LLVM IR: no machine code of their own.

numba finalizes every kernel on its own: it optimises the kernel's module in full (its callees' code
linked in) and emits machine code for all of it, then links that module into every caller, whose
full optimisation and machine code cover the same code again. A kernel Python never calls runs only
inside its callers (jit.InnerDispatcher), so its own optimised module and machine code are never used:
a kernel at depth d of the call tree was optimised in full and compiled to machine code d + 1 times
(docs/compile_time.md). Here such a kernel's library stops after the per-function passes and the
cheap module pass, and only holds its IR for its callers to link; the entry kernels' libraries are
numba's own and optimise and compile everything they contain once. Both run LLVM's passes at
OPT_LEVEL.

Its cache entry is that IR, in a kind of serialisation of its own, loaded back without machine code.
What a caller finds at run time is unchanged: a cached entry kernel has never loaded its callees'
libraries (their code is in its own object), so the callees' own machine code was never called.
An entry kernel's library is numba's, but no kernel links it (kernels call its twin, jit.py), so its
cache entry keeps its machine code and the names it defines without numba's copy of its IR for
linking, which a warm start would otherwise parse (a few MB for the contact step's entries).

This reaches into numba's code libraries, read for the numba versions the extension bundles (0.62,
0.68); with another numba, every kernel compiles as numba compiles it (`FITS`).
"""
import llvmlite.binding as llvm
import numba
from numba.core import codegen, compiler, config

CHECKED_VERSIONS = ((0, 62), (0, 68))  # the numba versions whose internals this was written against

# LLVM's optimisation level for the solver's kernels (numba's is 3): O3's passes cost a twentieth of a
# contact scene's cold compile more than O1's and bought no run time measurable (docs/compile_time.md).
OPT_LEVEL = 1

IR_KIND = "mechbake-ir"  # the cache payload of an inner kernel: the IR its callers link
ENTRY_KIND = "mechbake-entry"  # an entry kernel's: (its machine code, the names it defines)


class SolverCodeLibrary(codegen.JITCodeLibrary):
    """numba's code library with its passes at OPT_LEVEL."""

    def _optimize_functions(self, ll_module):
        ll_module.data_layout = self._codegen._data_layout
        for function in ll_module.functions:
            passes, builder = self._codegen._function_pass_manager(opt=OPT_LEVEL)
            with self._recorded_timings.record(f"Function passes on {function.name!r}", builder):
                passes.run(function, builder)

    def _optimize_final_module(self):
        """numba's two module passes: the cheap one, which gathers reference counts for pruning, then
        the full one."""
        self._cheap_module_pass()
        passes, builder = self._codegen._module_pass_manager(opt=OPT_LEVEL)
        with self._recorded_timings.record("Module passes (full optimization)", builder):
            passes.run(self._final_module, builder)

    def _cheap_module_pass(self):
        passes, builder = self._codegen._module_pass_manager(loop_vectorize=self._codegen._loopvect,
                                                             slp_vectorize=False, opt=self._codegen._opt_level,
                                                             cost="cheap")
        with self._recorded_timings.record("Module passes (cheap optimization for refprune)", builder):
            passes.run(self._final_module, builder)
        if not config.LLVM_REFPRUNE_PASS:
            self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)


class InnerCodeLibrary(SolverCodeLibrary):
    """The code of one inner kernel: IR for its callers to link, never given to the JIT engine."""

    def _optimize_final_module(self):
        """The cheap module pass only: the full optimisation is the caller's, over the linked module."""
        self._cheap_module_pass()

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    def get_pointer_to_function(self, name):
        """No machine code: 0, as numba answers for a symbol the library does not define."""
        self._ensure_finalized()
        return 0

    def serialize_using_object_code(self):
        """What numba's cache stores of a compiled kernel: here the IR that callers link."""
        self._ensure_finalized()
        return self.name, IR_KIND, self._get_module_for_linking().as_bitcode()

    @classmethod
    def from_ir(cls, code_generator, name, bitcode):
        """The library of a cached inner kernel."""
        self = cls(code_generator, name)
        self._final_module = self._shared_module = llvm.parse_bitcode(bitcode)
        self._finalized = True
        return self


class EntryCodeLibrary(SolverCodeLibrary):
    """The code of one entry kernel: machine code, cached without IR."""

    def serialize_using_object_code(self):
        self._ensure_finalized()
        module = self._final_module
        names = [value.name for values in (module.functions, module.global_variables) for value in values
                 if not value.is_declaration]
        return self.name, ENTRY_KIND, (self._get_compiled_object(), names)

    def _get_module_for_linking(self):
        raise RuntimeError(f"{self.name} is an entry kernel: kernels link its kernel twin (jit.EntryDispatcher)")

    @classmethod
    def from_object(cls, code_generator, name, object_code, names):
        """The library of a cached entry kernel, as numba loads one: the engine takes the machine code
        for an empty module."""
        self = cls(code_generator, name)
        self.enable_object_caching()
        self._set_compiled_object(object_code)
        self._finalize_final_module()
        code_generator._engine._defined_symbols.update(names)
        return self


class InnerCompiler(compiler.Compiler):
    """numba's pipeline, lowering into an InnerCodeLibrary."""
    library_class: type[codegen.JITCodeLibrary] = InnerCodeLibrary

    def compile_extra(self, func):
        if self.state.library is None:
            self.state.library = self.library_class(self.state.targetctx.codegen(), func.__qualname__)
            self.state.library.enable_object_caching()
        return super().compile_extra(func)


class EntryCompiler(InnerCompiler):
    """numba's pipeline, lowering into an EntryCodeLibrary."""
    library_class = EntryCodeLibrary


def _numba_fits() -> bool:
    major, minor = (int(part) for part in numba.__version__.split(".")[:2])
    return CHECKED_VERSIONS[0] <= (major, minor) <= CHECKED_VERSIONS[1] and all(
        hasattr(codegen.CPUCodeLibrary, name) for name in ("_finalize_dynamic_globals", "_verify_declare_only_symbols",
                                                           "_get_module_for_linking", "_optimize_final_module",
                                                           "_optimize_functions"))


FITS = _numba_fits()
PIPELINE = InnerCompiler if FITS else compiler.Compiler  # how inner kernels are compiled
ENTRY_PIPELINE = EntryCompiler if FITS else compiler.Compiler  # how entry kernels are
_unserialize_library = codegen.JITCPUCodegen.unserialize_library


def _unserialize_inner_too(self, serialized):
    name, kind, data = serialized
    if kind == IR_KIND:
        return InnerCodeLibrary.from_ir(self, name, data)
    if kind == ENTRY_KIND:
        return EntryCodeLibrary.from_object(self, name, *data)
    return _unserialize_library(self, serialized)


_set_env = codegen.JITCPUCodegen.set_env


def _set_env_if_loaded(self, env_name, env):
    """numba points each kernel's environment global at its Python-side Environment; an inner kernel's
    global is not in the JIT engine (nothing of it is), and a kernel's code uses it only from Python
    entries and object mode, which inner kernels do not have."""
    if self._engine.get_global_value_address(env_name):
        _set_env(self, env_name, env)


if FITS:
    codegen.JITCPUCodegen.unserialize_library = _unserialize_inner_too
    codegen.JITCPUCodegen.set_env = _set_env_if_loaded
