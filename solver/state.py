"""What changes every step: the bodies' frames and velocities, and the joints' unwrapped coordinates."""
from dataclasses import dataclass

import numpy as np

from .frames import Frames


@dataclass
class State:
    time: float
    frames: Frames  # centres of mass and principal-frame rotations
    twist: np.ndarray  # (n, 6) world velocity of the centre of mass | world angular velocity
    axis_coordinate: np.ndarray  # (q,) joint coordinates, hinge angles unwrapped across turns
    touching: frozenset = frozenset()  # keys of the contacts touching now (to tell an impact from a rest)

    @property
    def velocity(self) -> np.ndarray:
        return self.twist[:, :3]

    @property
    def angular_velocity(self) -> np.ndarray:
        return self.twist[:, 3:]

    @classmethod
    def initial(cls, model) -> "State":
        twist = np.concatenate((model.body_velocity0, model.body_angular_velocity0), axis=1)
        frames = Frames(model.start.position.copy(), model.start.rotation.copy())
        return cls(0.0, frames, twist, model.axis_coordinate0.copy())

    def copy(self) -> "State":
        return State(self.time, Frames(self.frames.position.copy(), self.frames.rotation.copy()),
                     self.twist.copy(), self.axis_coordinate.copy(), self.touching)

