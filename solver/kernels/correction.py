"""The correction stages of a step (Schmitt §5-§7): joint correction by look-ahead (P-steps 1-2)
with the loop drives solved alongside, and the velocity correction (P-step 4). Every impulse is a
complementary pair, so the bodies' total momentum is untouched and time stands still while they act.

"system" (§7): every joint that is off by Dmax or more is corrected at once, K x = gaps / h solved
through its sparse factor. "iterative" (§5): joints one colour at a time (joints of one colour share
no moving body, so correcting them together is exactly the one-at-a-time loop), each with its own
block of K; near a singular position, where that stalls, the whole system (NEAR_SINGULAR).
"""
import numpy as np

from ..codes import (CORRECTIONS, DONE, ENERGY_HALVINGS, GAP, GROW_AFTER, HALVINGS, MAX_HALVINGS, MAX_SUBSTEPS,
                     NON_FINITE, SOLVES, STIFF_SPRING, SUBSTEPS, SYSTEM, THIRDS, TOO_MANY_SUBSTEPS, TOO_SHORT,
                     VELOCITY_SOLVES)
from ..drives import MOTOR_POSITION, MOTOR_VELOCITY
from ..energy_gate import GATE_HALVINGS, GATE_SHRINK
from . import joints, rows as joint_rows, warm_start
from .drives import (apply_explicit_forces, drive_velocities, has_loop_drives, solve_loop_drives,
                     unstable_explicit_spring)
from .energy_gate import energy_allowance, energy_and_noise, imbalance
from .flight import fly, land, steady_increment, whirl_step
from .jit import borrowing_entry_kernel, borrowing_kernel

# Schmitt §5 halves the step when a gap grows. Gauss-Seidel sweeps need not shrink the worst gap
# every time, so growth means: four times the worst gap the step started with. (Halving on smaller
# wobbles does harm: at a tiny step a gap near Dmax is closed by an impulse of Dmax / h.)
GROWTH_LIMIT = 4.0
# settings.levers (codes.START, THIRDS): the joints' impulses take their rows at the step's start and end
# (Schmitt's), or a third and two thirds along its flight, which keeps a turning link's phase and speed
# (docs/method.md, "Levers"; the system solver only: levers_at_thirds)
# The rows two thirds along close the rates at the step's end by a factor of about the angle a link
# turns in a step each solve; one that closes them by less than this hands over to the end's rows.
SLOW_CLOSING = 0.5
# ... and close them this far below Vmax (about one more solve): the rates they leave are on the same
# side step after step, so stopped at Vmax they would drift a spinning body's angular momentum and energy;
# this far below they keep them as the levers at the ends do (tests/solver/test_distance.py)
LEVER_TIGHTNESS = 1e-3
# The iterative solver's joint-by-joint sweeps stall near a singular position. A four-bar nearing its flat
# position has a direction of K that is 1e-4 as stiff as the rest (K's softest pivot, rows.softest_pivot, is
# 1.4e-4 of its row's own diagonal there). Along it, Gauss-Seidel closes a gap by 1e-4 a sweep, and halving
# the step does not change that. Where its sweeps stop (Dmax, Vmax), they leave a motion along that
# direction which the gaps and rates hardly show, and which decides whether the four-bar goes on as a
# parallelogram or turns onto the crossed branch. At instants whose softest pivot is below this, the
# iterative solver's stages solve the whole system (§7) instead; the rows factorise K at every instant
# anyway. The four-bar is below it for 0.06 s either side of flat; the 8-Loop never goes below it, Bricard's
# mechanism always is (docs/limits.md: the runs, and why not 1e-2).
NEAR_SINGULAR = 0.1
# Away from a singular position the sweeps can still grow a gap (one joint's correction throwing its
# neighbour off by more than GROWTH_LIMIT) or close it too slowly, each sweep by the same factor; halving
# the step changes neither. So where the sweeps grow the worst gap, or its fall over the last RATE_WINDOW
# sweeps, kept up, would not bring it below the limit within max_corrections (sweeps_too_slow), the rest
# of the stage solves the whole system; only the whole system's growth halves the step.
RATE_WINDOW = 16


@borrowing_entry_kernel
def joint_errors(model, position, rotation, work):
    """work.errors (R,): the row errors of every joint in the given frames, how far body b is off
    relative to body a."""
    joints.all_errors(model, position, rotation, work.joint_scratch, work.errors)


@borrowing_entry_kernel
def joint_gaps(model, errors, gaps):
    """(m,) size of each joint's error; angular rows count as rad on a 1 m lever. Returns the worst
    joint (-1 when there are none)."""
    worst = -1
    for j in range(model.joint_kind.shape[0]):
        total = 0.0
        for r in range(model.joint_row_start[j], model.joint_row_start[j + 1]):
            total += errors[r] * errors[r]
        gaps[j] = np.sqrt(total)
        if worst < 0:
            worst = j
        elif not np.isnan(gaps[worst]) and (np.isnan(gaps[j]) or gaps[j] > gaps[worst]):
            worst = j  # the largest gap, or the first that is not a number
    return worst


@borrowing_kernel
def unwrap(model, raw, previous):
    """An angle coordinate continued across +-pi from its previous value; a length as it is."""
    return previous + (raw - previous + np.pi) % (2 * np.pi) - np.pi


@borrowing_kernel
def axis_coordinates(model, position, rotation, previous, out, work):
    """out (q,): every joint coordinate in the given frames, an angle unwrapped from `previous`
    (which may be out itself)."""
    raw = work.coordinate_raw
    joints.all_coordinates(model, position, rotation, work.joint_scratch, raw)
    for a in range(model.axis_joint.shape[0]):
        out[a] = unwrap(model, raw[a], previous[a]) if model.axis_is_angle[a] else raw[a]


@borrowing_entry_kernel
def look(model, settings, state, rows, flight, work, h, driven):
    """A sweep's look-ahead: the flight, every joint's gap there, and for the loop drives the joint
    coordinates there and the axis rates now (nothing else reads them: a mechanism without loop
    drives, such as A02's 121 hinges, does not find them). Returns the worst joint."""
    fly(model, settings.taylor_order, state.time[0], state.position, state.rotation, state.twist, h, flight, driven)
    joint_errors(model, flight.position, flight.rotation, work)
    worst = joint_gaps(model, work.errors, work.gaps)
    if driven is not None and has_loop_drives(model):
        axis_coordinates(model, flight.position, flight.rotation, state.axis_coordinate, work.coordinate_h, work)
        for k in range(model.drive_axis.shape[0]):
            a = model.drive_axis[k]
            work.rate_at_look[a] = joint_rows.axis_rate(model, rows, a, state.twist)
    return worst


@borrowing_kernel
def _correct_rows(model, rows, twist, rows_errors, rows_gaps, dmax, h, first_joint, last_joint, stats, row_impulse):
    """Schmitt P-step 2 for the system: I = K^-1 delta / h for every joint whose gap >= Dmax at once,
    added to row_impulse (R,)."""
    count = 0
    rhs = rows.rhs
    for j in range(first_joint, last_joint):
        violating = rows_gaps[j] >= dmax
        count += violating
        for r in range(model.joint_row_start[j], model.joint_row_start[j + 1]):
            rhs[r] = rows_errors[r] if violating else 0.0
    if count:
        joint_rows.solve_system(model, rows, rhs, rows.solution, rows.permuted, rows.null_along)
        for r in range(rhs.shape[0]):
            rows.solution[r] *= -1.0 / h
            row_impulse[r] += rows.solution[r]
        joint_rows.apply_row_impulses(model, rows, rows.solution, twist)
        stats[CORRECTIONS] += count
        stats[SOLVES] += 1
    return count


@borrowing_kernel
def _correct_joint(model, rows, twist, j, rhs, scale):
    """One joint's own impulse: -(its block of K)^-1 rhs * scale, applied to its two bodies."""
    start, end = model.joint_row_start[j], model.joint_row_start[j + 1]
    a, b = model.joint_body[j, 0], model.joint_body[j, 1]
    inverse = rows.block_inverse[j]
    for r in range(end - start):
        impulse = 0.0
        for c in range(end - start):
            impulse -= inverse[r, c] * rhs[start + c]
        impulse *= scale
        for i in range(6):
            twist[a, i] += rows.row_response[start + r, 0, i] * impulse
            twist[b, i] += rows.row_response[start + r, 1, i] * impulse


@borrowing_kernel
def _correct_colour(model, rows, twist, errors, gaps, dmax, h, colour, stats):
    count = 0
    for k in range(model.color_start[colour], model.color_start[colour + 1]):
        j = model.color_joint[k]
        if gaps[j] >= dmax:
            count += 1
            _correct_joint(model, rows, twist, j, errors, 1.0 / h)
    if count:
        stats[CORRECTIONS] += count
        stats[SOLVES] += 1
    return count


@borrowing_kernel
def correct_joints(model, settings, state, rows, flight, work, h, stats, whole, driven, dmax):
    """The joint corrections of one sweep, of every joint whose gap is dmax or more, by the whole
    system's solve when `whole` (the system solver's always: solves_whole); returns how many joints
    were corrected."""
    m = model.joint_kind.shape[0]
    if whole:
        return _correct_rows(model, rows, state.twist, work.errors, work.gaps, dmax, h, 0, m, stats, work.row_impulse)
    corrected = 0
    for colour in range(model.color_start.shape[0] - 1):
        if colour > 0 and corrected:
            fly(model, settings.taylor_order, state.time[0], state.position, state.rotation, state.twist, h, flight,
                driven)
            joint_errors(model, flight.position, flight.rotation, work)
            joint_gaps(model, work.errors, work.gaps)
        corrected += _correct_colour(model, rows, state.twist, work.errors, work.gaps, dmax, h, colour, stats)
    return corrected


@borrowing_kernel
def watched_look(model, settings, state, rows, flight, work, h, first_worst, driven):
    """A sweep's look-ahead under Schmitt §5's divergence watch: (worst joint, its gap, the first
    sweep's worst gap (first_worst < 0: this is the first sweep), whether the sweeps may go on: the
    gap is finite and has not grown past GROWTH_LIMIT times the first sweep's, or Dmax)."""
    joint = look(model, settings, state, rows, flight, work, h, driven)
    gap = work.gaps[joint] if joint >= 0 else 0.0
    if first_worst < 0:
        first_worst = gap
    going = np.isfinite(gap) and gap <= GROWTH_LIMIT * max(first_worst, settings.dmax)
    return joint, gap, first_worst, going


@borrowing_kernel
def correct_joints_and_drives(model, settings, state, rows, flight, work, h, stats, loop_drives, whole, driven, dmax):
    """A sweep's corrections (P-step 2): the joints off by dmax or more (correct_joints), then the loop
    drives when there are any. Returns (joints corrected, the drives' largest change, whether the drives
    moved the bodies)."""
    corrected = correct_joints(model, settings, state, rows, flight, work, h, stats, whole, driven, dmax)
    drive_change, moved = 0.0, False
    if driven is not None and loop_drives:
        # with the joints closed at this look-ahead, drives that would move by less than Dmax leave
        # its flight standing: it is where the step lands
        drive_change, moved = solve_loop_drives(model, rows, state.twist, state.axis_coordinate, work.coordinate_h,
                                                work.rate_at_look, work.accumulated, state.time[0], h,
                                                dmax if corrected == 0 else 0.0)
    return corrected, drive_change, moved


@borrowing_kernel
def build_lever_rows(model, settings, state, flight, work, fraction, guess_time):
    """work.lever_rows: every row `fraction` of the way from the state to the look-ahead `flight`
    (settings.levers THIRDS): rotations along the shortest turn between the two (R0 exp(fraction
    log(R0^T R1))), centres of mass along the chord. The chord, not the flight's parabola: the two
    differ by g h^2 / 9 at two thirds, which would tilt the velocity correction's impulses by as much
    as the chords they take out. A guess_time > 0 is the joint correction's first guess, made before
    its look-ahead was corrected (which still falls by gravity): the centres go fraction guess_time
    along their own velocity instead, so a resting body keeps its levers and a held load's balance does
    not move with the step."""
    lever = work.lever_flight
    relative, turn, vector = lever.derivatives[0], lever.increment, lever.omega_body
    for b in range(state.position.shape[0]):
        for i in range(3):
            if guess_time > 0.0:
                lever.position[b, i] = state.position[b, i] + fraction * guess_time * state.twist[b, i]
            else:
                lever.position[b, i] = state.position[b, i] + fraction * (flight.position[b, i] - state.position[b, i])
            for k in range(3):  # R0^T R1
                relative[i, k] = (state.rotation[b, 0, i] * flight.rotation[b, 0, k]
                                  + state.rotation[b, 1, i] * flight.rotation[b, 1, k]
                                  + state.rotation[b, 2, i] * flight.rotation[b, 2, k])
        # its rotation vector: sin(angle) axis from the antisymmetric part, the angle by atan2
        vector[0] = 0.5 * (relative[2, 1] - relative[1, 2])
        vector[1] = 0.5 * (relative[0, 2] - relative[2, 0])
        vector[2] = 0.5 * (relative[1, 0] - relative[0, 1])
        sine = np.sqrt(vector[0] ** 2 + vector[1] ** 2 + vector[2] ** 2)
        if sine > 0.0:
            angle = np.arctan2(sine, 0.5 * (relative[0, 0] + relative[1, 1] + relative[2, 2] - 1.0))
            for i in range(3):
                vector[i] *= angle / sine
        steady_increment(vector, fraction, turn)
        for i in range(3):
            for k in range(3):
                lever.rotation[b, i, k] = (state.rotation[b, i, 0] * turn[0, k] + state.rotation[b, i, 1] * turn[1, k]
                                           + state.rotation[b, i, 2] * turn[2, k])
    joint_rows.build(model, settings.solver, lever.position, lever.rotation, work.lever_rows)


@borrowing_kernel
def _keep_twist(source, target):
    for b in range(source.shape[0]):
        for i in range(6):
            target[b, i] = source[b, i]


@borrowing_kernel
def solves_whole(model, settings, rows):
    """Whether a stage at the instant of `rows` solves the whole system (§7): the system solver's
    always; the iterative solver's near a singular position (NEAR_SINGULAR), where its sweeps stall
    and the path they take decides the branch the mechanism goes on along."""
    return settings.solver == SYSTEM or rows.softest_pivot[0] < NEAR_SINGULAR


@borrowing_entry_kernel
def sweeps_too_slow(sweep, largest, checkpoint, limit, budget):
    """Whether the iterative solver's sweeps, which brought the worst gap (or rate) from `checkpoint`
    RATE_WINDOW sweeps ago to `largest` at sweep `sweep`, would at that rate still be at or above
    `limit` after `budget` sweeps (RATE_WINDOW)."""
    if largest < limit or checkpoint == np.inf:
        return False
    if largest >= checkpoint:
        return True
    return sweep + RATE_WINDOW * np.log(limit / largest) / np.log(largest / checkpoint) > budget


@borrowing_kernel
def hand_over(settings, sweep, going, whole, gap, first_worst, checkpoint):
    """After a position sweep's look-ahead (watched_look: `going`, `gap`), whether the rest of the
    stage solves the whole system (RATE_WINDOW): from here if the iterative solver's own sweeps grew
    the gap, which becomes the measure of growth; every RATE_WINDOW sweeps if they fall too slowly,
    `gap` becoming the next checkpoint. Returns (whole, first_worst, checkpoint)."""
    if not going:
        return True, gap, checkpoint
    if sweep % RATE_WINDOW == 0 and not whole:
        return sweeps_too_slow(sweep, gap, checkpoint, settings.dmax, settings.max_corrections), first_worst, gap
    return whole, first_worst, checkpoint


@borrowing_kernel
def levers_at_thirds(settings):
    """Whether this run's joint impulses take their levers at thirds: settings.levers THIRDS with the
    system solver. The iterative solver's sweeps project one joint at a time, and along rows that are
    not the step end's their order decides where they stop: they lose energy (docs/limits.md, the
    levers at thirds), so its levers stay at the step's ends."""
    return settings.levers == THIRDS and settings.solver == SYSTEM


@borrowing_entry_kernel
def correct_positions(model, settings, state, rows, flight, work, h, stats, driven, jointed, guessed):
    """P-steps 1 and 2 with the loop drives, until every joint's look-ahead gap is below Dmax.
    Returns (converged, worst joint, its gap); not converged asks the caller to halve h (Schmitt §5:
    a gap that grows, or no convergence within max_corrections sweeps). On success `flight` holds
    the look-ahead that P-step 3 lands on. Drive impulses accumulate in work.accumulated, which the
    sub-step clears, the joints' in work.row_impulse. jointed: None for a model without joints
    (arrays.joints_flag), whose joint code numba then prunes. guessed: a mechanism with loop drives
    solved as a whole system, with its levers at the step's start, starts from the impulses of its
    last sub-steps where they apply (warm_start.py; the plain sub-steps of advance_steps only)."""
    loop_drives = jointed is not None and driven is not None and has_loop_drives(model)
    work.row_impulse[:] = 0.0
    if jointed is None or (model.row_joint.shape[0] == 0 and not loop_drives):
        work.levers_ready[0] = False
        fly(model, settings.taylor_order, state.time[0], state.position, state.rotation, state.twist, h, flight,
            driven)
        return True, -1, 0.0
    thirds = levers_at_thirds(settings)
    work.levers_ready[0] = thirds
    warm = (guessed and loop_drives and settings.solver == SYSTEM and not thirds
            and rows.softest_pivot[0] >= NEAR_SINGULAR and warm_start.applies(work, state.time[0], h))
    if warm:
        warm_start.guess(model, state, rows, work, h)
        converged, worst_joint, worst_gap = _sweeps(model, settings, state, rows, flight, work, h, stats, driven,
                                                    loop_drives, False, warm_start.WARM_SHARE * settings.dmax)
        if converged:
            return converged, worst_joint, worst_gap
        warm_start.take_back(state, work)  # a guess the sweeps could not close: the sub-step from its own start
    return _sweeps(model, settings, state, rows, flight, work, h, stats, driven, loop_drives, thirds, settings.dmax)


@borrowing_kernel
def _sweeps(model, settings, state, rows, flight, work, h, stats, driven, loop_drives, thirds, dmax):
    """correct_positions' sweeps, each a look-ahead and the corrections of the joints off by dmax or
    more and of the loop drives, with Schmitt §5's divergence watch."""
    impulse_rows = work.lever_rows if thirds else rows
    whole = solves_whole(model, settings, rows)
    first_worst = -1.0
    worst_joint, worst_gap = -1, 0.0
    checkpoint = np.inf
    for sweep in range(settings.max_corrections):
        worst_joint, worst_gap, first_worst, going = watched_look(model, settings, state, rows, flight, work, h,
                                                                  first_worst, driven)
        if not going and whole:
            return False, worst_joint, worst_gap
        whole, first_worst, checkpoint = hand_over(settings, sweep, going, whole, worst_gap, first_worst, checkpoint)
        if thirds and sweep == 0:  # a first guess of where the step lands: the bodies' own velocities
            build_lever_rows(model, settings, state, flight, work, 1.0 / 3.0, h)
            _keep_twist(state.twist, work.twist_before)
        elif thirds and sweep == 1:
            # one correction has brought the look-ahead to where the step lands, to O(h^3): the rows
            # a third of the way there, and the correction again from the step's start along them
            # (a resting arm held by a servo at its limit turns within the step, and its balance
            # moved by 1.2e-5 rad with the guess's levers)
            build_lever_rows(model, settings, state, flight, work, 1.0 / 3.0, 0.0)
            _keep_twist(work.twist_before, state.twist)
            work.accumulated[:] = 0.0
            work.row_impulse[:] = 0.0
            worst_joint, worst_gap, first_worst, going = watched_look(model, settings, state, rows, flight, work, h,
                                                                      first_worst, driven)
            if not going:
                return False, worst_joint, worst_gap
        corrected, drive_change, moved = correct_joints_and_drives(model, settings, state, impulse_rows, flight,
                                                                   work, h, stats, loop_drives, whole, driven, dmax)
        if corrected == 0 and drive_change < dmax:
            if moved:  # the drives moved the bodies after the last look-ahead
                fly(model, settings.taylor_order, state.time[0], state.position, state.rotation, state.twist, h,
                    flight, driven)
            return True, worst_joint, worst_gap
    return False, worst_joint, worst_gap


@borrowing_entry_kernel
def correct_velocities(model, settings, state, rows, work, h, stats, driven, jointed):
    """Schmitt P-step 4: complementary impulses until no joint's rate exceeds Vmax. Limits that are
    reached take part as one-sided rows, motors with what is left of their budget for the step (the
    drive impulses the position correction spent, work.accumulated). The rates are those of `rows`
    (the step's end); after a joint correction at thirds (work.levers_ready) the joints' impulses
    act along work.lever_rows, which prepare_velocity_levers built (the system solver's only:
    levers_at_thirds). A model without joints (jointed None) has nothing to correct: drives act on joints."""
    if jointed is None:
        return
    velocity_accumulated = work.velocity_accumulated
    for k in range(model.drive_kind.shape[0]):
        motor = model.drive_kind[k] == MOTOR_POSITION or model.drive_kind[k] == MOTOR_VELOCITY
        velocity_accumulated[k] = work.accumulated[k] if motor else 0.0
    twist = state.twist
    on_levers = work.levers_ready[0]
    impulse_rows = work.lever_rows if on_levers else rows
    rates = work.errors  # reused: row rates instead of row errors
    previous = np.inf
    whole = solves_whole(model, settings, rows)
    checkpoint = np.inf
    for sweep in range(settings.max_corrections):
        joint_rows.rates(model, rows, twist, rates)
        worst = joint_gaps(model, rates, work.gaps)
        largest = work.gaps[worst] if worst >= 0 else 0.0
        if not whole and sweep % RATE_WINDOW == 0:
            whole = sweeps_too_slow(sweep, largest, checkpoint, settings.vmax, settings.max_corrections)
            checkpoint = largest
        limit = LEVER_TIGHTNESS * settings.vmax if on_levers else settings.vmax
        joints_open = largest >= limit
        if joints_open:
            if largest > SLOW_CLOSING * previous:
                # near a singular position the rows two thirds along do not close the rates at the end
                # (their K is near singular where the end's is not): the end's own rows finish the step
                impulse_rows, on_levers = rows, False
            previous = largest
            _close_rates(model, rows, impulse_rows, twist, rates, whole, stats)
        # the drives after the joints: their impulses act through the joints and leave the joints'
        # rates closed, where the joints' impulses would move the drives' axes again
        drive_change = 0.0
        if driven is not None:
            drive_change = drive_velocities(model, rows, twist, state.axis_coordinate, velocity_accumulated,
                                            state.time[0], h, settings.dmax)
        if not joints_open and drive_change < settings.vmax:
            return


@borrowing_kernel
def _close_rates(model, rows, impulse_rows, twist, rates, whole, stats):
    """One velocity solve of P-step 4: the joints' impulses that bring their row rates `rates` (R,) to
    zero, by the whole system (along impulse_rows) or joint by joint, a colour at a time."""
    if whole:
        joint_rows.solve_system(model, impulse_rows, rates, impulse_rows.solution, impulse_rows.permuted,
                                impulse_rows.null_along)
        for r in range(rates.shape[0]):
            impulse_rows.solution[r] *= -1.0
        joint_rows.apply_row_impulses(model, impulse_rows, impulse_rows.solution, twist)
        stats[VELOCITY_SOLVES] += 1
    else:
        for colour in range(model.color_start.shape[0] - 1):
            if colour > 0:
                joint_rows.rates(model, rows, twist, rates)
            for k in range(model.color_start[colour], model.color_start[colour + 1]):
                _correct_joint(model, rows, twist, model.color_joint[k], rates, 1.0)
            stats[VELOCITY_SOLVES] += 1


@borrowing_kernel
def prepare_velocity_levers(model, settings, state, flight, work):
    """With settings.levers THIRDS, after the joint correction and before P-step 3 (`flight` is where
    the step lands): the rows two thirds of the way there, for the velocity correction's impulses.
    Only after a joint correction that took its levers at thirds (work.levers_ready): the contact
    loop's takes them at the step's start, and two thirds after that would give a spinning arm sliding
    on the floor energy (the pair must add up to one)."""
    if work.levers_ready[0] and settings.velocity_correction and model.row_joint.shape[0] > 0:
        build_lever_rows(model, settings, state, flight, work, 2.0 / 3.0, 0.0)


@borrowing_entry_kernel
def is_finite(state):
    total = 0.0
    for b in range(state.position.shape[0]):
        for i in range(3):
            total += state.position[b, i] + state.rotation[b, i, 0] + state.rotation[b, i, 1] + state.rotation[b, i, 2]
        for i in range(6):
            total += state.twist[b, i]
    return np.isfinite(total)


@borrowing_entry_kernel
def advance(model, settings, state, rows, flight, work, h, driven, jointed):
    """P-step 3 and what follows it up to the velocity correction: the velocity correction's levers
    (prepare_velocity_levers), land on the flight, move the joint coordinates and the clock on, rows
    at the new instant, the second half of the explicit forces. Returns False when the state became
    non-finite."""
    if jointed is not None:
        prepare_velocity_levers(model, settings, state, flight, work)
    land(flight, state.position, state.rotation, state.twist)
    if jointed is not None:
        axis_coordinates(model, state.position, state.rotation, state.axis_coordinate, state.axis_coordinate, work)
    state.time[0] += h
    if not is_finite(state):
        return False
    if jointed is not None:
        joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
    else:
        joint_rows.world_inverse_inertia(model, state.rotation, rows)
    if driven is not None:
        apply_explicit_forces(model, rows, state.twist, state.axis_coordinate, state.time[0], 0.5 * h)
    return True


@borrowing_entry_kernel
def substep(model, settings, state, rows, flight, work, h, stats, driven, jointed, guessed):
    """One sub-step without contacts, as its stages after the first half of the explicit forces (the
    caller's): P-steps 1-2 (joints and loop drives), P-step 3, the other half of the forces, P-step 4.
    Returns (status, index, size) as DONE ... STIFF_SPRING say. jointed: None for a model without
    joints (the contact step's; the mechanism's steps compile it for any model). guessed: the joint
    correction may start from the last sub-steps' impulses (correct_positions)."""
    if driven is not None:
        spring, load = unstable_explicit_spring(model, rows, state.time[0], h)
        if spring >= 0:
            return STIFF_SPRING, spring, load
    work.accumulated[:] = 0.0
    converged, worst_joint, worst_gap = correct_positions(model, settings, state, rows, flight, work, h, stats, driven,
                                                          jointed, guessed)
    if not converged:
        return GAP, worst_joint, worst_gap
    if not advance(model, settings, state, rows, flight, work, h, driven, jointed):
        return NON_FINITE, worst_joint, np.inf
    if settings.velocity_correction:
        correct_velocities(model, settings, state, rows, work, h, stats, driven, jointed)
    if not is_finite(state):
        return NON_FINITE, worst_joint, np.inf
    return DONE, worst_joint, worst_gap


@borrowing_kernel
def first_non_finite_body(state):
    """The first body whose frame or velocity is infinite or NaN (-1 if none)."""
    for b in range(state.position.shape[0]):
        total = 0.0
        for i in range(3):
            total += state.position[b, i] + state.rotation[b, i, 0] + state.rotation[b, i, 1] + state.rotation[b, i, 2]
        for i in range(6):
            total += state.twist[b, i]
        if not np.isfinite(total):
            return b
    return -1


@borrowing_kernel
def copy_state(source, target):
    """Element by element: a slice assignment of one array to another may copy through a temporary
    (numba checks them for overlap), which a borrowing kernel cannot make."""
    for b in range(source.position.shape[0]):
        for i in range(3):
            target.position[b, i] = source.position[b, i]
            for k in range(3):
                target.rotation[b, i, k] = source.rotation[b, i, k]
        for i in range(6):
            target.twist[b, i] = source.twist[b, i]
    for a in range(source.axis_coordinate.shape[0]):
        target.axis_coordinate[a] = source.axis_coordinate[a]
    target.time[0] = source.time[0]


@borrowing_entry_kernel
def advance_steps(model, settings, state, saved, rows, flight, work, duration, steps, h, control, stats, driven,
                  rows_valid=True):
    """`steps` steps of `duration` each for a mechanism without contacts, in sub-steps (Schmitt §5):
    a sub-step that fails is undone from `saved` (state arrays of the same shapes) and retried at
    half its length; after GROW_AFTER good ones in a row a halved length doubles back, up to h.
    control = (sub-step length, good sub-steps in a row), carried from call to call; `rows` hold the
    state's instant on return, and on entry unless `rows_valid` is False (then they are built first:
    Python then needs no compiled entry of its own for the rows). One call for many steps: calling a
    kernel with the model's arrays costs about as much as a four-bar's sub-step. Returns (steps done,
    why they stopped (0, TOO_MANY_SUBSTEPS or TOO_SHORT), the last failure's status, index, size and
    the length of its sub-step), the sizes as `substep` returns them."""
    if not rows_valid:
        joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
    status, index, size, failed_length = DONE, -1, 0.0, 0.0
    rejected = np.inf  # the imbalance of the last sub-step the energy gate undid, J (inf: none since one was kept)
    for step in range(steps):
        end = state.time[0] + duration
        remaining = duration
        substeps = 0
        while remaining > 1e-9 * duration:
            substeps += 1
            if substeps > MAX_SUBSTEPS:
                return step, TOO_MANY_SUBSTEPS, status, index, size, failed_length
            length = whirl_step(model, state.rotation, state.twist, min(control[0], remaining), h)
            copy_state(state, saved)
            # where only gravity, the joints, impulse springs and efforts act, the sub-step keeps the balance of
            # energy and work (energy_gate.py)
            gated = settings.energy_rate > 0.0 and length * 2**GATE_HALVINGS >= h
            kinetic, energy, noise = (energy_and_noise(model, settings, state, rows, length, driven) if gated
                                       else (0.0, 0.0, 0.0))
            if driven is not None:
                apply_explicit_forces(model, rows, state.twist, state.axis_coordinate, state.time[0], 0.5 * length)
            outcome, culprit, amount = substep(model, settings, state, rows, flight, work, length, stats, driven, True,
                                               True)
            if outcome == DONE and gated:
                change = imbalance(model, settings, saved, state, rows, energy, driven)
                # a halving that does not shrink the imbalance (the step's own falls as L^3) shows it is not the
                # step's: the sub-step is kept
                if change > energy_allowance(settings, kinetic, noise, length) and change < GATE_SHRINK * rejected:
                    copy_state(saved, state)  # undone and halved, as a failed sub-step is; not a failure
                    joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
                    control[0] /= 2
                    control[1] = 0
                    stats[ENERGY_HALVINGS] += 1
                    rejected = change
                    continue
            rejected = np.inf
            if outcome == DONE:
                warm_start.keep(model, work, state.time[0], length)
                stats[SUBSTEPS] += 1
                remaining -= length
                control[1] += 1
                if control[1] >= GROW_AFTER and control[0] < h:
                    control[0], control[1] = min(2 * control[0], h), 0
                continue
            status, index, size, failed_length = outcome, culprit, amount, length
            if outcome == NON_FINITE:
                index = first_non_finite_body(state)
            copy_state(saved, state)
            joint_rows.build(model, settings.solver, state.position, state.rotation, rows)
            control[0] /= 2
            control[1] = 0
            stats[HALVINGS] += 1
            if control[0] < h / 2**MAX_HALVINGS:
                return step, TOO_SHORT, status, index, size, failed_length
        state.time[0] = end
    return steps, 0, status, index, size, failed_length
