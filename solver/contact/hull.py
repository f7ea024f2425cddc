"""Convex hulls by quickhull (Barber, Dobkin and Huhdanpaa 1996), taken greedily so that it can
stop at a given number of corners.

Quickhull grows a hull from a tetrahedron: every point outside the hull belongs to the outside set
of one face; the point furthest out (the eye) is added by removing the faces it sees and joining
their boundary (the horizon) to it with new faces, among which the outside sets of the removed
faces are shared again. Each point is tested against the few faces that replace the face it
belongs to, so the work is O(n log n) on average, not the O(n^4) of testing every vertex triple.

Here the eye is always the point furthest outside the whole hull (a heap of the faces' furthest
points), so stopping after k corners gives the hull of k points that leaves the least out in this
greedy sense, and `omitted_depth` says how far the furthest left-out point lies outside it. Points
within a tolerance of a face plane (relative to the points' extent) count as on it, Barber et al.'s
thick faces, so coplanar points never become corners.
"""
import heapq
from dataclasses import dataclass

import numpy as np

RELATIVE_TOLERANCE = 1e-10  # of the points' extent: closer to a face plane than this is on it


@dataclass(frozen=True)
class Hull:
    vertices: np.ndarray  # (v, 3) the hull's corners, rows of the given points
    normals: np.ndarray  # (f, 3) outward unit normals of its face planes, coplanar faces merged
    offsets: np.ndarray  # (f,) plane offsets: n . x <= offset inside
    omitted_depth: float  # how far the furthest point left out (by max_vertices) is outside; 0 if none


def spans_volume(points: np.ndarray) -> bool:
    """Whether the points have a hull with volume (not all on a plane, a line or a point)."""
    return _initial_tetrahedron(_centred(points)[0], _tolerance(points)) is not None


def convex_hull(points: np.ndarray, max_vertices: int | None = None) -> Hull:
    """The hull of (n, 3) points spanning a volume, with at most `max_vertices` corners (at least 4)."""
    points = np.asarray(points, dtype=float)
    centred, middle = _centred(points)
    tolerance = _tolerance(points)
    seed = _initial_tetrahedron(centred, tolerance)
    if seed is None:
        raise ValueError("the points do not span a volume")
    growth = _Growth(centred, seed, tolerance)
    growth.grow(max(4, max_vertices) if max_vertices is not None else len(points))
    corners, normals, offsets = growth.result()
    normals, offsets = _merged_planes(normals, offsets, tolerance)
    return Hull(points[corners], normals, offsets + normals @ middle, growth.omitted_depth())


def _centred(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points about the middle of their box (for precision far from the origin), and that middle."""
    middle = 0.5 * (points.min(axis=0) + points.max(axis=0))
    return points - middle, middle


def _tolerance(points: np.ndarray) -> float:
    return RELATIVE_TOLERANCE * float((points.max(axis=0) - points.min(axis=0)).max())


def _initial_tetrahedron(points: np.ndarray, tolerance: float) -> list[int] | None:
    """Four points far apart: the two furthest apart of the six extremes along the axes, the point
    furthest from their line, the point furthest from the plane of the three. None when flat."""
    if len(points) < 4 or tolerance <= 0:
        return None
    extremes = np.concatenate((points.argmin(axis=0), points.argmax(axis=0)))
    pairs = points[extremes][:, None] - points[extremes][None]
    first, second = np.unravel_index(np.argmax(np.einsum("ijk,ijk->ij", pairs, pairs)), pairs.shape[:2])
    a, b = int(extremes[first]), int(extremes[second])
    line = (points[b] - points[a]) / np.linalg.norm(points[b] - points[a])
    offset = points - points[a]
    off_line = offset - np.outer(offset @ line, line)
    c = int(np.argmax(np.einsum("ij,ij->i", off_line, off_line)))
    if np.linalg.norm(off_line[c]) <= tolerance:
        return None
    normal = np.cross(points[b] - points[a], points[c] - points[a])
    heights = offset @ (normal / np.linalg.norm(normal))
    d = int(np.argmax(np.abs(heights)))
    if abs(heights[d]) <= tolerance:
        return None
    return [a, b, c, d]


class _Growth:
    """The hull while it grows: faces as vertex triples, counter-clockwise seen from outside."""

    def __init__(self, points: np.ndarray, seed: list[int], tolerance: float):
        self.points = points
        self.tolerance = tolerance
        self.faces: list[tuple[int, int, int]] = []
        self.normal: list[np.ndarray] = []
        self.offset: list[float] = []
        self.alive: list[bool] = []
        self.outside: list[np.ndarray] = []  # each face's outside set (point indices)
        self.edge_face: dict[tuple[int, int], int] = {}  # directed edge -> the face it belongs to
        self.corner_use: dict[int, int] = {}  # vertex -> number of live faces using it
        self.queue: list[tuple[float, int]] = []  # (-distance of the furthest outside point, face)
        self.dropped_depth = 0.0  # how far outside the eyes left out for rounding were
        a, b, c, d = seed
        inside = points[seed].mean(axis=0)
        new_faces = []
        for face in ((a, b, c), (a, c, d), (a, d, b), (b, d, c)):
            normal = np.cross(points[face[1]] - points[face[0]], points[face[2]] - points[face[0]])
            if normal @ (inside - points[face[0]]) > 0:  # wound inwards: turn it
                face = (face[0], face[2], face[1])
            new_faces.append(self._add_face(face))
        rest = np.setdiff1d(np.arange(len(points)), seed)
        self._share_out(rest, new_faces)

    def _add_face(self, face: tuple[int, int, int]) -> int:
        p0, p1, p2 = self.points[list(face)]
        normal = np.cross(p1 - p0, p2 - p0)
        length = np.linalg.norm(normal)
        normal = normal / length if length > 0 else normal
        index = len(self.faces)
        self.faces.append(face)
        self.normal.append(normal)
        self.offset.append(float(normal @ p0))
        self.alive.append(True)
        self.outside.append(np.zeros(0, dtype=int))
        for k in range(3):
            self.edge_face[(face[k], face[(k + 1) % 3])] = index
            self.corner_use[face[k]] = self.corner_use.get(face[k], 0) + 1
        return index

    def _remove_face(self, index: int) -> None:
        face = self.faces[index]
        self.alive[index] = False
        for k in range(3):
            del self.edge_face[(face[k], face[(k + 1) % 3])]
            self.corner_use[face[k]] -= 1
            if not self.corner_use[face[k]]:
                del self.corner_use[face[k]]

    def _share_out(self, candidates: np.ndarray, faces: list[int]) -> None:
        """Each candidate joins the outside set of the new face it is furthest above, if any."""
        if not len(candidates):
            return
        normals = np.array([self.normal[f] for f in faces])
        offsets = np.array([self.offset[f] for f in faces])
        heights = self.points[candidates] @ normals.T - offsets  # (candidates, faces)
        best = np.argmax(heights, axis=1)
        height = heights[np.arange(len(candidates)), best]
        for slot, face in enumerate(faces):
            mine = (best == slot) & (height > self.tolerance)
            if mine.any():
                self.outside[face] = candidates[mine]
                heapq.heappush(self.queue, (-float(height[mine].max()), face))

    def grow(self, max_vertices: int) -> None:
        while self.queue and len(self.corner_use) < max_vertices:
            _, face = heapq.heappop(self.queue)
            members = self.outside[face]
            if not self.alive[face] or not len(members):  # a face whose outside set was shared again
                continue
            heights = self.points[members] @ self.normal[face] - self.offset[face]
            eye = int(members[np.argmax(heights)])
            visible = self._visible_from(eye, face)
            horizon = self._horizon(visible)
            orphans = np.concatenate([self.outside[f] for f in visible])
            if horizon is None:  # rounding made the seen faces a ring, not a disc: leave the eye out
                self.dropped_depth = max(self.dropped_depth, float(heights.max()))
                orphans = orphans[orphans != eye]
                self.outside[face] = np.zeros(0, dtype=int)
                for f in visible:
                    self.outside[f] = np.zeros(0, dtype=int)
                self._share_out(orphans, visible)
                continue
            for f in visible:
                self._remove_face(f)
            new_faces = [self._add_face((u, v, eye)) for u, v in horizon]
            self._share_out(orphans[orphans != eye], new_faces)

    def _visible_from(self, eye: int, start: int) -> list[int]:
        """The faces the eye is above, found by walking across edges from the face it belongs to."""
        point = self.points[eye]
        visible, seen, stack = [], {start}, [start]
        while stack:
            face = stack.pop()
            visible.append(face)
            a, b, c = self.faces[face]
            for u, v in ((a, b), (b, c), (c, a)):
                neighbour = self.edge_face[(v, u)]
                if neighbour not in seen:
                    seen.add(neighbour)
                    if self.normal[neighbour] @ point - self.offset[neighbour] > 0:
                        stack.append(neighbour)
        return visible

    def _horizon(self, visible: list[int]) -> list[tuple[int, int]] | None:
        """The edges between seen and unseen faces, in order around the eye; None unless they form
        one loop (rounding can leave an unseen face inside the seen ones)."""
        seen = set(visible)
        following: dict[int, int] = {}
        for face in visible:
            a, b, c = self.faces[face]
            for u, v in ((a, b), (b, c), (c, a)):
                if self.edge_face[(v, u)] not in seen:
                    if u in following:
                        return None
                    following[u] = v
        start = next(iter(following))
        loop, u = [], start
        while True:
            loop.append((u, following[u]))
            u = following[u]
            if u == start or u not in following or len(loop) > len(following):
                break
        return loop if u == start and len(loop) == len(following) else None

    def result(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        live = [f for f, alive in enumerate(self.alive) if alive]
        corners = np.array(sorted(self.corner_use), dtype=int)
        return corners, np.array([self.normal[f] for f in live]), np.array([self.offset[f] for f in live])

    def omitted_depth(self) -> float:
        left = (-depth for depth, face in self.queue if self.alive[face] and len(self.outside[face]))
        return max(self.dropped_depth, max(left, default=0.0))


def _merged_planes(normals: np.ndarray, offsets: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """One plane for the triangles of a flat face (normals within 1e-7, offsets within 1e-7 of the
    extent; the odd pair on either side of a rounding step stays twice, which costs nothing)."""
    extent = tolerance / RELATIVE_TOLERANCE
    keys = np.column_stack((np.round(normals / 1e-7), np.round(offsets / (1e-7 * extent)))).astype(np.int64)
    _, first = np.unique(keys, axis=0, return_index=True)
    first = np.sort(first)
    return normals[first], offsets[first]
