"""Where every body is: the part of the state that joints read, now or at the look-ahead."""
from dataclasses import dataclass

import numpy as np


@dataclass
class Frames:
    position: np.ndarray  # (n, 3) centre of mass, world
    rotation: np.ndarray  # (n, 3, 3) principal body frame -> world (columns are the principal axes)

    def points(self, body: np.ndarray, local: np.ndarray) -> np.ndarray:
        """(m,) bodies, (m, 3) points in their principal frames -> (m, 3) world points."""
        return self.position[body] + np.einsum("mij,mj->mi", self.rotation[body], local)

    def vectors(self, body: np.ndarray, local: np.ndarray) -> np.ndarray:
        """(m,) bodies, (m, 3) directions in their principal frames -> (m, 3) world directions."""
        return np.einsum("mij,mj->mi", self.rotation[body], local)

    def to_local_points(self, body: np.ndarray, world: np.ndarray) -> np.ndarray:
        return np.einsum("mji,mj->mi", self.rotation[body], world - self.position[body])

    def to_local_vectors(self, body: np.ndarray, world: np.ndarray) -> np.ndarray:
        return np.einsum("mji,mj->mi", self.rotation[body], world)
