"""A uniform grid over a triangle mesh's bounding boxes, so a query near a point touches only the
few triangles there: large terrains stay fast."""
import numpy as np


class TriangleGrid:
    def __init__(self, vertices: np.ndarray, triangles: np.ndarray):
        self.corners = vertices[triangles]  # (T, 3, 3)
        edge1 = self.corners[:, 1] - self.corners[:, 0]
        edge2 = self.corners[:, 2] - self.corners[:, 0]
        normals = np.cross(edge1, edge2)
        self.normals = normals / np.linalg.norm(normals, axis=1, keepdims=True)  # (T, 3) by the winding
        low, high = self.corners.min(axis=1), self.corners.max(axis=1)
        self.cell = max(float(np.median(np.max(high - low, axis=1))), 1e-6)
        self.origin = low.min(axis=0)
        self.cells: dict[tuple, list[int]] = {}
        first, last = self._index(low), self._index(high)
        for t in range(len(triangles)):
            for i in range(first[t, 0], last[t, 0] + 1):
                for j in range(first[t, 1], last[t, 1] + 1):
                    for k in range(first[t, 2], last[t, 2] + 1):
                        self.cells.setdefault((i, j, k), []).append(t)

    def _index(self, points: np.ndarray) -> np.ndarray:
        return np.floor((points - self.origin) / self.cell).astype(int)

    def near(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """Triangles whose cells meet the box [low, high]."""
        first, last = self._index(low), self._index(high)
        found: set[int] = set()
        for i in range(first[0], last[0] + 1):
            for j in range(first[1], last[1] + 1):
                for k in range(first[2], last[2] + 1):
                    found.update(self.cells.get((i, j, k), ()))
        return np.fromiter(found, dtype=int, count=len(found))
