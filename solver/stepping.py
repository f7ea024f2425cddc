"""How a step is split into sub-steps when the corrections struggle (Schmitt §5): a sub-step that
fails is undone and retried at half the length, and after a run of good sub-steps the length doubles
back. Shared by the step of scenes with contacts (simulation.py) and the compiled step of mechanisms
without them (kernels/correction.advance_steps); plain numbers, so importing them loads no numba."""
MAX_HALVINGS = 16  # the step may shrink to h / 2^16 before the run is declared diverged
MAX_SUBSTEPS = 4096  # sub-steps one step may take (halved, or shortened to impacts) before the run is declared diverged
GROW_AFTER = 4  # good sub-steps in a row before a halved step doubles again
MAX_STEPS_PER_RUN = 10**9  # steps one run may ask for: more is a mistake of units in h or the duration
SLOW_SUBSTEPS = 16  # sub-steps a step, at the start of a run or over a baked frame, from which it is said to crawl
SLOW_TOTAL = 100_000  # the least number of sub-steps left at that pace that is worth a warning
