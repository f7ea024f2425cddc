"""The query of a triangle mesh's bounding volume hierarchy (built in contact/mesh_bvh.py): the
triangles whose boxes meet each of many boxes, by walking the tree from the root and descending
only into nodes whose boxes meet the query box."""
import numpy as np

from ..jit import entry_kernel, kernel

STACK_DEPTH = 128  # pending nodes; a complete tree of 2^62 leaves needs 63


@entry_kernel
def triangles_meeting_boxes(node_low, node_high, node_start, node_stop, first_leaf, triangle_low, triangle_high,
                            order, box_low, box_high):
    """For Q boxes (Q, 3): (Q + 1,) offsets and the (K,) triangles found, box q's being
    found[offsets[q]:offsets[q + 1]], each in the tree's order."""
    count = box_low.shape[0]
    offsets = np.zeros(count + 1, dtype=np.int64)
    found = np.empty(max(16, 8 * count), dtype=np.int64)
    used = 0
    stack = np.empty(STACK_DEPTH, dtype=np.int64)
    for q in range(count):
        stack[0] = 0  # the root
        depth = 1
        while depth > 0:
            depth -= 1
            node = stack[depth]
            if not _boxes_meet(node_low[node], node_high[node], box_low[q], box_high[q]):
                continue
            if node < first_leaf:
                stack[depth] = 2 * node + 1
                stack[depth + 1] = 2 * node + 2
                depth += 2
                continue
            for position in range(node_start[node], node_stop[node]):
                if _boxes_meet(triangle_low[position], triangle_high[position], box_low[q], box_high[q]):
                    if used == found.shape[0]:  # grow the output by doubling
                        grown = np.empty(2 * used, dtype=np.int64)
                        grown[:used] = found
                        found = grown
                    found[used] = order[position]
                    used += 1
        offsets[q + 1] = used
    return offsets, found[:used].copy()


@kernel
def _boxes_meet(low_a, high_a, low_b, high_b):
    for axis in range(3):
        if low_a[axis] > high_b[axis] or low_b[axis] > high_a[axis]:
            return False
    return True
