"""The two exceptions a user of the solver meets."""


class ModelError(ValueError):
    """An invalid mechanism description; the message names the body, joint or field at fault."""


class SimulationDiverged(RuntimeError):
    """The state could not be kept finite, even after halving the step to its floor."""

    def __init__(self, message: str, time: float, joint: str | None, body: str | None = None):
        super().__init__(message)
        self.time = time
        self.joint = joint
        self.body = body  # a body whose mass or inertia is out of scale with the rest, when one is
