"""The codes both sides of the numba line share, one source for each: how a sub-step ends, the
counters the kernels keep, the solver and lever settings as numbers, what a near pair's second member
is, and how far a step may be halved (Schmitt §5). Plain numbers: importing them loads no numba.
Joint, drive and shape kinds live with their records (joints/common.py, drives.py,
contact/shape_table.py), which the kernels import as well."""

# How a sub-step ends: (status, index, size); the kernels return the first four (Simulation's Failure)
DONE = 0
GAP = 1  # a joint's gap grew or did not close within max_corrections: (joint, gap)
NON_FINITE = 2  # the state became infinite or NaN: (the worst joint, inf)
STIFF_SPRING = 3  # an impulse spring too stiff for the step (drive_axis's drive, its k h^2 s / 4 + c h s / 2)
LCP_GAVE_UP = -1  # Lemke found no solution: the sub-step goes the impulse way
CONTACTS_UNSETTLED = -2  # the contacts did not converge: (a body of the deepest contact, its depth below target)
# Why a compiled run of sub-steps stopped short (correction.advance_steps): a step took more than
# MAX_SUBSTEPS sub-steps, or was halved below h / 2^MAX_HALVINGS; or (kernels/error_control) the error
# control shrank a sub-step below h error_control.SHORTEST and its error was still above the tolerance
TOO_MANY_SUBSTEPS, TOO_SHORT, TOO_INACCURATE = 1, 2, 3

# The counters the kernels add to, by their place in the array, and their names in Simulation.stats
# (energy_halvings: sub-steps undone and halved by the energy gate, solver/energy_gate.py; uncombined:
# Richardson steps that kept their two halves, kernels/richardson.py)
CORRECTIONS, SOLVES, VELOCITY_SOLVES, SUBSTEPS, HALVINGS, ENERGY_HALVINGS, UNCOMBINED = range(7)
COUNTER_NAMES = ("corrections", "solves", "velocity_solves", "substeps", "halvings", "energy_halvings",
                 "uncombined")

# settings.solver and settings.levers as the kernels read them (arrays.SolverSettings)
SYSTEM, ITERATIVE = 0, 1
SOLVER_NAMES = ("system", "iterative")
START, THIRDS = 0, 1
LEVER_NAMES = ("start", "thirds")

# What a contact is of, the first of its key (kernels/contact/detection.py): two bodies' shapes, a
# shape and a plane (a near pair's kind, kernels/contact/near_pairs.py), a body's probe and a mesh
BODIES, PLANE, MESH = 0, 1, 2

# Step halving (Schmitt §5): a sub-step that fails is undone and retried at half the length, and after
# a run of good sub-steps the length doubles back
MAX_HALVINGS = 16  # the step may shrink to h / 2^16 before the run is declared diverged
MAX_SUBSTEPS = 4096  # sub-steps one step may take (halved, or shortened to impacts) before the run is declared diverged
GROW_AFTER = 4  # good sub-steps in a row before a halved step doubles again
MAX_STEPS_PER_RUN = 10**9  # steps one run may ask for: more is a mistake of units in h or the duration
SLOW_SUBSTEPS = 16  # sub-steps a step, at the start of a run or over a baked frame, from which it is said to crawl
SLOW_TOTAL = 100_000  # the least number of sub-steps left at that pace that is worth a warning

# Separations below this count as touching (a contact pair); above it a pair that closes within the
# step is a collision ahead, which shortens the step if the pair bounces. A correction loop whose
# passes stall or run out keeps its step while its last pass moved no contact by this and left none
# deeper than this: the contacts stay touching (kernels/contact/contact_loop.close_enough)
TOUCHING = 1e-6

# A direct step for the held contacts that failed (kernels/contact/held_contacts.settle) is tried again
# after passes that did this many times its work, so failing tries cost at most this fraction of the passes
SETTLE_RETRY_WORK = 4
# Velocity passes (P-step 4) before the direct step for the contacts that press and stick is tried,
# while it holds
FIRST_PASSES = 4
