"""The broad phase of one step (contact/detection.py): which shape slots may touch each other or a
plane within the step, by spheres about their bodies' centres swept along the step."""
import numpy as np

from ...codes import BODIES, PLANE
from ..jit import kernel


@kernel
def near_pairs(slot_body, slot_reach, slot_moves, slot_pairs, plane_point, plane_normal, position_now, rotation_now,
               position_ahead, rotation_ahead, margin):
    """(kind, a, b, margin) of the pairs the narrow phase looks at (kernels/contact/narrow_phase.contact_points):
    the slot pairs (p, 2) whose spheres (slot_reach about the body's centre, S) come within `margin`
    over the step, then each moving slot near each plane; a pair's margin is `margin` plus how far
    its slots may move towards each other in the step."""
    slots, pairs, planes = slot_body.shape[0], slot_pairs.shape[0], plane_point.shape[0]
    sweep = np.empty(slots)
    finite = np.empty(slots, dtype=np.bool_)
    for s in range(slots):
        body = slot_body[s]
        path, turn_trace = 0.0, 0.0
        for i in range(3):
            path += (position_ahead[body, i] - position_now[body, i]) ** 2
            for j in range(3):
                turn_trace += rotation_now[body, i, j] * rotation_ahead[body, i, j]
        # how far any point of the slot moves: its centre's path and its reach turned through the
        # angle of the body's rotation over the step (a chord is shorter than its arc)
        sweep[s] = np.sqrt(path) + slot_reach[s] * np.arccos(min(max(0.5 * (turn_trace - 1.0), -1.0), 1.0))
        finite[s] = True
        for i in range(3):  # by element: a row's ufunc lowers numba's array loops
            finite[s] = finite[s] and np.isfinite(position_now[body, i]) and np.isfinite(position_ahead[body, i])
    kind = np.empty(pairs + planes * slots, dtype=np.int64)
    first, second = np.empty_like(kind), np.empty_like(kind)
    pair_margin = np.empty(kind.shape[0])
    count = 0
    for p in range(pairs):
        a, b = slot_pairs[p, 0], slot_pairs[p, 1]
        body_a, body_b = slot_body[a], slot_body[b]
        now, ahead, relative = 0.0, 0.0, 0.0
        for i in range(3):
            offset_now = position_now[body_a, i] - position_now[body_b, i]
            offset_ahead = position_ahead[body_a, i] - position_ahead[body_b, i]
            now += offset_now**2
            ahead += offset_ahead**2
            relative += (offset_ahead - offset_now) ** 2
        # along a straight relative path the centres come no nearer than (|start| + |end| - path) / 2
        closest = 0.5 * (np.sqrt(now) + np.sqrt(ahead) - np.sqrt(relative))
        if closest < slot_reach[a] + slot_reach[b] + sweep[a] + sweep[b] + margin:
            kind[count], first[count], second[count] = BODIES, a, b
            pair_margin[count] = margin + sweep[a] + sweep[b]
            count += 1
    for plane in range(planes):
        for s in range(slots):
            if not (slot_moves[s] and finite[s]):
                continue
            body = slot_body[s]
            height_now, height_ahead = 0.0, 0.0
            for i in range(3):
                height_now += (position_now[body, i] - plane_point[plane, i]) * plane_normal[plane, i]
                height_ahead += (position_ahead[body, i] - plane_point[plane, i]) * plane_normal[plane, i]
            if min(height_now, height_ahead) < slot_reach[s] + margin:
                kind[count], first[count], second[count] = PLANE, plane, s
                pair_margin[count] = margin + sweep[s]
                count += 1
    return kind[:count].copy(), first[:count].copy(), second[:count].copy(), pair_margin[:count].copy()
