"""One direct step for the contacts that hold, beside the correction loop's Gauss-Seidel passes.

A stack's contacts pass its load down level by level, and four corners on a face carry what three
could (their rows are dependent), so projected Gauss-Seidel shrinks what is left of a resting stack's
look-ahead gaps by only about 2 % a pass, and from no impulse at all (a stack's first step) it needs
thousands of passes. While every contact presses and sticks, the passes are solving a linear system,
K_HH l_H = K_H l - r_H over the held contacts' rows; this solves it at once (Newton's step on the
complementarity problem): the support is guessed as the contacts that press or must press, and
corrected until every held normal impulse pushes and every contact let go stays open. The result is
kept only if every friction impulse then lies within its cone. Otherwise, with a contact that slides,
the passes go on alone. Contacts that share no body their impulses move (contact_islands) have no
entry of K between them, and each such island is solved and kept on its own: a box sliding down a
slope does not leave a tower elsewhere in the scene to the passes.

Arrays as kernels/contact/passes.py names them, m contacts and n bodies.
"""
import numpy as np

from .passes import look_ahead_residual
from .contact_rows import apply_impulses, coupling, row_rate
from ..jit import entry_kernel, kernel
from ..sparse import DEPENDENT_PIVOT

# Dependent rows (four corners on a face) leave the held impulses free along K's null space, where the
# passes pile up impulses that cancel (friction squeezing a box) until a cone seems full. The direct
# step takes the least of them: K + SPREAD diag(K) first, then the exact K for the remainder.
SPREAD = 1e-4
SUPPORT_GUESSES = 8  # corrections of the guessed support before the passes are left to find it
# Multiply-adds of the direct step's L D L^T the retry rule (codes.SETTLE_RETRY_WORK) counts as one contact's
# projection in a pass: a share of the work that keeps the tries worth their cost, not the projection's time
# (docs/contact_step.md)
PROJECTION_WORK = 400


@entry_kernel
def settle(contact_rows, accumulated, friction, gap_h, slip_h, rates_at_look, twist, h, tolerance, alone):
    """The impulses that close the look-ahead gaps and slips (as contact.position_pass measures them)
    of the contacts that press, and leave every other contact open to within its `tolerance` (m,) (a
    rate, m/s), applied to `accumulated` and `twist` island by island (contact_islands). With `alone`
    each island whose pressing contacts can all stick takes them, whatever another island's contacts
    do; without it (no pass follows to measure the islands left to the passes) all islands take them
    or none. A frictionless contact holds only its normal. Returns whether every island took them
    (and some contact pressed), and the work done as a number of contact projections (PROJECTION_WORK)."""
    m = accumulated.shape[0]
    rates = np.empty(3)
    residual = np.empty((m, 3))
    for c in range(m):
        look_ahead_residual(contact_rows, gap_h, slip_h, rates_at_look, twist, h, c, rates, residual[c])
    pressing = np.empty(m, dtype=np.bool_)
    for c in range(m):
        pressing[c] = accumulated[c, 0] > 0.0 or residual[c, 0] < -tolerance[c]
    # what the current impulses do to the twist: the held rows' right side is K_H l - r_H
    current = np.zeros(twist.shape[0])
    apply_impulses(contact_rows, accumulated, current)
    coupled = blocks_of_k(contact_rows, twist.shape[0] // 6)
    work = coupled[1].shape[0] * 108 // PROJECTION_WORK  # 9 couplings a block, each over two bodies
    island_start, island_contacts = contact_islands(coupled[0], coupled[1])
    after, difference, kept = np.zeros((m, 3)), np.zeros((m, 3)), np.empty((m, 3))
    held_island = np.zeros(m, dtype=np.bool_)  # the contacts of islands that hold
    change, total = np.empty(twist.shape[0]), np.zeros(twist.shape[0])
    every, pressed = True, False
    for island in range(island_start.shape[0] - 1):
        members = island_contacts[island_start[island]:island_start[island + 1]]
        held, island_work = _settle_island(contact_rows, coupled, accumulated, friction, residual, current, pressing,
                                           tolerance, members, after, difference, change, alone)
        work += island_work
        if held < 0:
            continue  # none of its contacts presses: nothing to settle there
        pressed = True
        if held == 0:
            every = False
            if not alone:
                return False, work
            continue
        for i in range(twist.shape[0]):
            total[i] += change[i]
        for c in members:
            held_island[c] = True
            for i in range(3):
                kept[c, i] = after[c, i]
    for i in range(twist.shape[0]):
        twist[i] += total[i]
    for c in range(m):
        if held_island[c]:
            for i in range(3):
                accumulated[c, i] = kept[c, i]
    return every and pressed, work


@kernel
def _settle_island(contact_rows, coupled, accumulated, friction, residual, current, pressing, tolerance, members, after,
                   difference, change, alone):
    """settle for the contacts `members` of one island: 1 with their impulses in `after` and what they
    change of the twist in `change` (6 n,) if they hold, 0 if not, -1 if none of them presses; and the
    work done. `pressing` (m,) is the first guess of the support, which a copy corrects for the
    members; `difference` (m, 3) workspace, 0 outside the members, and left so. With `alone` (passes
    follow) the guesses end, failing, once a correction turns a contact back to where an earlier guess
    had it: a support that swings rather than closes in is left to the passes and a later try."""
    guess = np.zeros(pressing.shape[0], dtype=np.bool_)  # the members' support, no other contact
    for c in members:
        guess[c] = pressing[c]
    turned = np.zeros(pressing.shape[0], dtype=np.bool_)  # members a correction has turned once
    swinging = False
    work = 0
    consistent = False
    held = 1
    for _ in range(SUPPORT_GUESSES):
        held_work = _held_impulses(contact_rows, coupled, friction, residual, current, guess, after)
        if held_work < 0:
            held = -1
            break
        work += held_work // PROJECTION_WORK
        for i in range(change.shape[0]):
            change[i] = 0.0
        for c in members:
            for i in range(3):
                difference[c, i] = after[c, i] - accumulated[c, i]
        apply_impulses(contact_rows, difference, change)
        consistent = True
        for c in members:
            lets_go = guess[c] and after[c, 0] < 0.0
            # pushed in by the others' impulses: it presses too
            pushed_in = not guess[c] and residual[c, 0] + row_rate(contact_rows, c, 0, change) < -tolerance[c]
            if lets_go or pushed_in:
                guess[c] = pushed_in
                consistent = False
                swinging = swinging or turned[c]
                turned[c] = True
        if consistent or (swinging and alone):
            break
    for c in members:
        difference[c, 0] = difference[c, 1] = difference[c, 2] = 0.0
    if held < 0:
        return -1, work
    if not consistent:
        return 0, work
    for c in members:
        if np.hypot(after[c, 1], after[c, 2]) > friction[c] * after[c, 0]:
            return 0, work  # sliding: its friction is not a linear row
    return 1, work


@kernel
def _held_impulses(contact_rows, coupled, friction, residual, current, pressing, after):
    """after (m, 3) <- the impulses of the pressing contacts that close their gaps and slips, the least
    along K's null space, and 0 for the others. `coupled`: K's blocks (blocks_of_k). `current` (6 n,)
    is what the impulses so far do to the twist. Returns the multiply-adds of its factorisations, -1
    if no contact presses."""
    m = after.shape[0]
    held = np.empty(3 * m, dtype=np.int64)  # the held rows, 3 c + direction (0 normal, 1-2 tangents)
    count = 0
    for c in range(m):
        if pressing[c]:
            for r in range(3 if friction[c] > 0.0 else 1):
                held[count] = 3 * c + r
                count += 1
    if count == 0:
        return -1
    matrix = np.zeros((count, count))  # K over the held rows: J W
    rhs = np.empty(count)
    position = np.full(3 * m, -1, dtype=np.int64)  # each row's place among the held
    for p in range(count):
        position[held[p]] = p
    block_start, block_contact, block = coupled
    for p in range(count):
        c, k = held[p] // 3, held[p] % 3
        for b in range(block_start[c], block_start[c + 1]):
            e = block_contact[b]
            for j in range(3):
                q = position[3 * e + j]
                if q >= 0:
                    matrix[p, q] = block[b, k, j]
        rhs[p] = row_rate(contact_rows, c, k, current) - residual[c, k]
    spread = matrix.copy()
    for p in range(count):
        spread[p, p] *= 1.0 + SPREAD
    solution = rhs.copy()
    work = _solve_dropping_dependent(spread, solution)
    remainder = rhs.copy()  # what the spread solution leaves, solved exactly
    for p in range(count):
        for q in range(count):
            remainder[p] -= matrix[p, q] * solution[q]
    work += _solve_dropping_dependent(matrix, remainder)
    for c in range(after.shape[0]):
        after[c, 0] = after[c, 1] = after[c, 2] = 0.0
    for p in range(count):
        after[held[p] // 3, held[p] % 3] = solution[p] + remainder[p]
    return work + 2 * count * count


@kernel
def blocks_of_k(contact_rows, n):
    """K's (3, 3) blocks between contacts that share a body their impulses move (n bodies), by rows:
    contact c's are block[block_start[c]:block_start[c + 1]], with block_contact the other contact of
    each. Returns (block_start (m + 1,), block_contact, block)."""
    m = contact_rows.body.shape[0]
    seen = np.zeros(m, dtype=np.bool_)
    listed = np.empty(m, dtype=np.int64)
    by_body_start, by_body = contacts_by_body(contact_rows, n)
    block_start = np.zeros(m + 1, dtype=np.int64)
    for c in range(m):
        block_start[c + 1] = block_start[c] + _partners(contact_rows, by_body_start, by_body, c, seen, listed)
    partners = np.empty(block_start[m], dtype=np.int64)
    block = np.empty((block_start[m], 3, 3))
    for c in range(m):
        _partners(contact_rows, by_body_start, by_body, c, seen, listed)
        for b in range(block_start[c], block_start[c + 1]):
            partners[b] = listed[b - block_start[c]]
            for k in range(3):
                for j in range(3):
                    block[b, k, j] = coupling(contact_rows, c, k, partners[b], j)
    return block_start, partners, block


@kernel
def contact_islands(block_start, block_contact):
    """The contacts in groups that share no body their impulses move, from blocks_of_k's partners:
    (groups + 1,) where each group starts, and the contacts, by group, each in ascending order. K has
    no entry between two groups, so each solves alone."""
    m = block_start.shape[0] - 1
    group = np.full(m, -1, dtype=np.int64)
    queue = np.empty(m, dtype=np.int64)
    count = 0
    for first in range(m):
        if group[first] >= 0:
            continue
        group[first], queue[0], size = count, first, 1
        k = 0
        while k < size:
            c = queue[k]
            k += 1
            for b in range(block_start[c], block_start[c + 1]):
                e = block_contact[b]
                if group[e] < 0:
                    group[e] = count
                    queue[size] = e
                    size += 1
        count += 1
    start = np.zeros(count + 1, dtype=np.int64)
    for c in range(m):
        start[group[c] + 1] += 1
    for g in range(count):
        start[g + 1] += start[g]
    filled = start[:count].copy()
    contacts = np.empty(m, dtype=np.int64)
    for c in range(m):  # ascending within each group: the rows keep the order they had together
        contacts[filled[group[c]]] = c
        filled[group[c]] += 1
    return start, contacts


@kernel
def _partners(contact_rows, by_body_start, by_body, c, seen, listed):
    """The contacts whose impulses move body a or b of contact c, into `listed` (each once; `seen`
    (m,) bool workspace, left all False); returns how many."""
    found = 0
    for side in range(2):
        body = contact_rows.body[c, side]
        for k in range(by_body_start[body], by_body_start[body + 1]):
            e = by_body[k]
            if not seen[e]:
                seen[e] = True
                listed[found] = e
                found += 1
    for k in range(found):
        seen[listed[k]] = False
    return found


@kernel
def contacts_by_body(contact_rows, n):
    """For each of n bodies, the contacts whose impulses move it: (n + 1,) where each body's start, and
    the contacts, by body."""
    m = contact_rows.body.shape[0]
    start = np.zeros(n + 1, dtype=np.int64)
    for c in range(m):
        for e in range(contact_rows.response_start[c], contact_rows.response_start[c + 1]):
            start[contact_rows.response_body[e] + 1] += 1
    for b in range(n):
        start[b + 1] += start[b]
    filled = start[:n].copy()
    contacts = np.empty(start[n], dtype=np.int64)
    for c in range(m):
        for e in range(contact_rows.response_start[c], contact_rows.response_start[c + 1]):
            body = contact_rows.response_body[e]
            contacts[filled[body]] = c
            filled[body] += 1
    return start, contacts


@entry_kernel
def _solve_dropping_dependent(matrix, rhs):
    """rhs <- a solution of matrix x = rhs (symmetric, positive semi-definite) by L D L^T in place,
    a row whose pivot is below DEPENDENT_PIVOT of its diagonal taken as dependent on the rows before
    it (its impulse 0, as kernels/sparse.py drops a joint's). Right-looking, each column's update
    over its entries that are not 0: contacts that share no body leave K's entries 0. Returns the
    multiply-adds it made."""
    n = rhs.shape[0]
    pivot = np.empty(n)
    diagonal = np.empty(n)
    for k in range(n):
        diagonal[k] = matrix[k, k]
    entries = np.empty(n, dtype=np.int64)
    work = n * n  # the two triangular solves
    for k in range(n):
        own = matrix[k, k]
        dependent = not own > DEPENDENT_PIVOT * diagonal[k]
        pivot[k] = np.inf if dependent else own
        count = 0
        for i in range(k + 1, n):
            if dependent:
                matrix[i, k] = 0.0
            elif matrix[i, k] != 0.0:
                entries[count] = i
                count += 1
        work += count * (count + 1) // 2
        for p in range(count):  # the trailing lower triangle less L[:, k] D_k L[:, k]^T
            i = entries[p]
            scaled = matrix[i, k] / own
            for q in range(p + 1):
                j = entries[q]
                matrix[i, j] -= scaled * matrix[j, k]
        for p in range(count):
            matrix[entries[p], k] /= own
    for k in range(n):  # L y = rhs
        for j in range(k):
            rhs[k] -= matrix[k, j] * rhs[j]
    for k in range(n):  # D z = y; a dependent row takes no impulse
        rhs[k] = 0.0 if pivot[k] == np.inf else rhs[k] / pivot[k]
    for k in range(n - 1, -1, -1):  # L^T x = z
        for i in range(k + 1, n):
            rhs[k] -= matrix[i, k] * rhs[i]
    return work
