"""The solver's compiled kernels (numba): the stages of a step over the model's arrays.

Imported when the first Simulation is made, never by `import mechbake.solver`; see jit.py for the
cache and for running them as plain Python (NUMBA_DISABLE_JIT=1).
"""
