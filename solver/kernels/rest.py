"""Which bodies have rested long enough to sleep after a step (sleeping.py, Box2D's islands): each body's
rest time and held steps, the islands the touching contacts and the joints make, and those that fall
asleep, in one call a step."""
import numpy as np

from .jit import entry_kernel, kernel


@entry_kernel
def note_rest(h, start_position, start_rotation, end_position, end_rotation, twist, reach, may_sleep, asleep, moves,
              sleep_speed, held_bound, sleep_after, held_steps_needed, link_a, link_b, rest_time, held_steps, island):
    """After a step of h from the start to the end frames (n, 3) and (n, 3, 3), at the (n, 6) twist:
    each body's rest time (s, below the sleep speed in both its speed and its step's displacement, its
    centre's or its farthest point's, reach about the centre) and held steps (moved and sped by at most
    `held_bound` m over the step), in place; a body held `held_steps_needed` steps has rested
    `sleep_after` at once. Then the islands of the awake bodies that move (`moves` (n,)) linked by the
    links (k,) (bodies a and b) into `island` (n,), each body labelled by a root of its island. Returns
    (n,) the bodies that fall asleep: of islands whose bodies all may sleep and have rested
    `sleep_after`, resting on something that does not move or sleeps."""
    n = twist.shape[0]
    for b in range(n):
        turn, path, speed2, spin2 = 0.0, 0.0, 0.0, 0.0
        for i in range(3):
            path += (end_position[b, i] - start_position[b, i]) ** 2
            speed2 += twist[b, i] ** 2
            spin2 += twist[b, 3 + i] ** 2
            for j in range(3):
                turn += start_rotation[b, i, j] * end_rotation[b, i, j]  # 1 + 2 cos(the step's angle)
        angle = np.arccos(min(max(0.5 * (turn - 1.0), -1.0), 1.0))
        moved = max(np.sqrt(path), angle * reach[b])
        speed = max(np.sqrt(speed2), np.sqrt(spin2) * reach[b])
        may = may_sleep[b] and not asleep[b]
        rest_time[b] = rest_time[b] + h if speed < sleep_speed and moved < sleep_speed * h and may else 0.0
        held = moved <= held_bound and speed * h <= held_bound and may
        held_steps[b] = held_steps[b] + 1 if held else 0
        if held_steps[b] >= held_steps_needed:
            rest_time[b] = max(rest_time[b], sleep_after)
        island[b] = b
    for k in range(link_a.shape[0]):  # union-find with path halving
        a, b = link_a[k], link_b[k]
        if moves[a] and not asleep[a] and moves[b] and not asleep[b]:
            island[_root(island, a)] = _root(island, b)
    for b in range(n):
        island[b] = _root(island, b)
    blocked = np.zeros(n, dtype=np.bool_)
    grounded = np.zeros(n, dtype=np.bool_)
    for b in range(n):
        if moves[b] and not asleep[b] and (not may_sleep[b] or rest_time[b] < sleep_after):
            blocked[island[b]] = True
    for k in range(link_a.shape[0]):
        a, b = link_a[k], link_b[k]
        if not moves[a] or not moves[b] or asleep[a] or asleep[b]:
            grounded[island[a]] = grounded[island[b]] = True
    falling = np.zeros(n, dtype=np.bool_)
    for b in range(n):
        falling[b] = moves[b] and not asleep[b] and not blocked[island[b]] and grounded[island[b]]
    return falling


@kernel
def _root(parent, b):
    while parent[b] != b:
        parent[b] = parent[parent[b]]
        b = parent[b]
    return b
