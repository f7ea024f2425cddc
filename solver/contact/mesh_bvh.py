"""A bounding volume hierarchy over a triangle mesh, so that a query near a point touches only the
few triangles there, whatever the spread of the triangles' sizes.

Built once at model time with numpy, as a linear BVH (Lauterbach et al. 2009, "Fast BVH
Construction on GPUs"): the triangles are sorted along a Morton (Z-order) curve through their
centres, cut into leaves of LEAF_SIZE consecutive triangles, and the leaves paired level by level
into a complete binary tree. Every triangle lies in exactly one leaf, so a build is one sort, and a
large triangle costs one leaf whose box is large, not (as in a uniform grid) every cell it covers.
The query is the compiled kernel `kernels/contact/bvh.py`.
"""
from dataclasses import dataclass

import numpy as np

LEAF_SIZE = 4  # triangles per leaf
MORTON_BITS = 21  # per axis: three interleaved fit one 64-bit code


@dataclass(frozen=True)
class TriangleBVH:
    """Node i's children are nodes 2i + 1 and 2i + 2 (a heap); nodes from first_leaf on are leaves.
    Positions are places in the tree's order of the triangles; an empty leaf has an inverted box."""

    corners: np.ndarray  # (T, 3, 3) the corners of each triangle, world
    normals: np.ndarray  # (T, 3) unit normals by the winding (counter-clockwise seen from the front)
    order: np.ndarray  # (T,) the triangle at each position
    triangle_low: np.ndarray  # (T, 3) lower corner of the box of the triangle at each position
    triangle_high: np.ndarray  # (T, 3) its upper corner
    node_low: np.ndarray  # (N, 3) lower corner of each node's box, N = 2 L - 1 for L leaves (a power of 2)
    node_high: np.ndarray  # (N, 3) upper corner
    node_start: np.ndarray  # (N,) first position under the node
    node_stop: np.ndarray  # (N,) one past the last position under it
    first_leaf: int  # = L - 1

    @classmethod
    def build(cls, vertices: np.ndarray, triangles: np.ndarray) -> "TriangleBVH":
        corners = vertices[triangles]
        normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
        low, high = corners.min(axis=1), corners.max(axis=1)
        order = np.argsort(_morton_codes(0.5 * (low + high)), kind="stable")
        count = len(triangles)
        leaves = 1 << max(0, int(np.ceil(np.log2(max(1, -(-count // LEAF_SIZE))))))
        node_low = np.full((2 * leaves - 1, 3), np.inf)
        node_high = np.full((2 * leaves - 1, 3), -np.inf)
        padded_low = np.full((leaves * LEAF_SIZE, 3), np.inf)
        padded_high = np.full((leaves * LEAF_SIZE, 3), -np.inf)
        padded_low[:count], padded_high[:count] = low[order], high[order]
        level_low = padded_low.reshape(leaves, LEAF_SIZE, 3).min(axis=1)
        level_high = padded_high.reshape(leaves, LEAF_SIZE, 3).max(axis=1)
        first = leaves - 1
        while True:  # from the leaves up: a level's boxes hold its children's
            node_low[first:2 * first + 1], node_high[first:2 * first + 1] = level_low, level_high
            if first == 0:
                break
            level_low = np.minimum(level_low[0::2], level_low[1::2])
            level_high = np.maximum(level_high[0::2], level_high[1::2])
            first //= 2
        start, stop = _node_ranges(leaves, count)
        return cls(corners, normals, order, low[order], high[order], node_low, node_high, start, stop, leaves - 1)

    def near(self, box_low: np.ndarray, box_high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For Q boxes (Q, 3) low and high corners: the triangles whose boxes meet each, as
        (Q + 1,) offsets into (K,) triangle indices (box q's are found[offsets[q]:offsets[q + 1]])."""
        from ..kernels.contact import bvh  # compiled on first use: building a model never imports numba

        return bvh.triangles_meeting_boxes(self.node_low, self.node_high, self.node_start, self.node_stop,
                                           self.first_leaf, self.triangle_low, self.triangle_high, self.order,
                                           np.ascontiguousarray(box_low, dtype=float),
                                           np.ascontiguousarray(box_high, dtype=float))


def _morton_codes(points: np.ndarray) -> np.ndarray:
    """(n,) uint64 Z-order codes of points quantised to MORTON_BITS per axis over their box."""
    low = points.min(axis=0)
    extent = np.maximum(points.max(axis=0) - low, 1e-300)
    cells = (1 << MORTON_BITS) - 1
    quantised = np.minimum((points - low) / extent * cells, cells).astype(np.uint64)
    codes = np.zeros(len(points), dtype=np.uint64)
    for axis in range(3):
        codes |= _spread_bits(quantised[:, axis]) << np.uint64(axis)
    return codes


def _spread_bits(x: np.ndarray) -> np.ndarray:
    """Bit k of x moves to bit 3k (21 bits into 63), the usual masks of Morton coding."""
    for shift, mask in ((32, 0x1F00000000FFFF), (16, 0x1F0000FF0000FF), (8, 0x100F00F00F00F00F),
                        (4, 0x10C30C30C30C30C3), (2, 0x1249249249249249)):
        x = (x | (x << np.uint64(shift))) & np.uint64(mask)
    return x


def _node_ranges(leaves: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(N,) first and one-past-last positions under every node of the complete tree."""
    start = np.empty(2 * leaves - 1, dtype=np.int64)
    stop = np.empty(2 * leaves - 1, dtype=np.int64)
    first, width = leaves - 1, LEAF_SIZE
    while True:
        level = np.arange(first + 1) * width
        start[first:2 * first + 1] = np.minimum(level, count)
        stop[first:2 * first + 1] = np.minimum(level + width, count)
        if first == 0:
            break
        first, width = first // 2, 2 * width
    return start, stop
