"""Motors that hold their axes against contact impulses. In P-step 4 a motor has brought its axis to
its target before the contacts are solved; a contact impulse must then move the mechanism as it
moves with those axes held, or the contacts turn a braked wheel again. With C_HH the held axes'
couplings through the joints (rows.axis_coupling) and R_H their responses (rows.drive_response), a
row's response r through the joints becomes r - R_H C_HH^-1 J_H r, the Schur complement's over the
held axes as well (Schmitt §7), and the motors answer it with the impulses -C_HH^-1 J_H r, which
their torque budget must cover (contact/motor_hold.py releases a motor that it does not)."""
import numpy as np

from ..jit import entry_kernel, kernel
from ..rows import LOCKED, axis_coupling, axis_rate, prepare_drive_rows


@entry_kernel
def held_inverse(model, rows, hold):
    """(q, q) C_HH^-1 over the axes `hold` (q,) bool marks, 0 elsewhere, by Gauss-Jordan elimination;
    an axis that depends on those before it (a loop's) is taken out of `hold`."""
    prepare_drive_rows(model, rows)
    q = hold.shape[0]
    table = np.zeros((q, 2 * q))
    for a in range(q):
        if hold[a] and not rows.drive_stiffness[a] > LOCKED:
            hold[a] = False
    for a in range(q):
        if hold[a]:
            for b in range(q):
                if hold[b]:
                    table[a, b] = axis_coupling(model, rows, a, b)
            table[a, q + a] = 1.0
    for p in range(q):
        if not hold[p]:
            continue
        if table[p, p] <= LOCKED * rows.drive_stiffness[p]:
            hold[p] = False
            for r in range(q):
                table[r, p] = 0.0
                table[p, r] = 0.0
                table[r, q + p] = 0.0
                table[p, q + r] = 0.0
            continue
        pivot = table[p, p]
        for c in range(2 * q):
            table[p, c] /= pivot
        for r in range(q):
            if r == p or not hold[r] or table[r, p] == 0.0:
                continue
            factor = table[r, p]
            for c in range(2 * q):
                table[r, c] -= factor * table[p, c]
    return table[:, q:].copy()


@kernel
def remove_held_part(model, rows, hold, inverse, through, motor_impulse):
    """`through` (n, 6), a response through the joints, with the held axes' part taken out; their
    motors' answering impulses per unit impulse into `motor_impulse` (q,)."""
    q = hold.shape[0]
    for a in range(q):
        motor_impulse[a] = 0.0
    for b in range(q):
        if not hold[b]:
            continue
        rate = axis_rate(model, rows, b, through)
        if rate == 0.0:
            continue
        for a in range(q):
            if hold[a]:
                motor_impulse[a] -= inverse[a, b] * rate
    for a in range(q):
        if motor_impulse[a] != 0.0:
            response = rows.drive_response[a]
            for body in range(through.shape[0]):
                for i in range(6):
                    through[body, i] += response[body, i] * motor_impulse[a]


@entry_kernel
def push_axis(model, rows, hold, inverse, axis, impulse, twist, motor_impulse):
    """An impulse along `axis` applied to the (n, 6) twist through the joints, the held axes held;
    the held motors' answering impulses are added to `motor_impulse` (q,)."""
    through = np.empty_like(twist)
    for body in range(twist.shape[0]):
        for i in range(6):
            through[body, i] = rows.drive_response[axis, body, i] * impulse
    answer = np.empty(hold.shape[0])
    remove_held_part(model, rows, hold, inverse, through, answer)
    for body in range(twist.shape[0]):
        for i in range(6):
            twist[body, i] += through[body, i]
    for a in range(hold.shape[0]):
        motor_impulse[a] += answer[a]
