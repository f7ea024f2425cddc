"""Ballistic motion for the Python side (the contact stage): one call of the flight kernel
(kernels/flight.py, Schmitt §3) into fresh arrays."""
from .arrays import drives_flag, flight_arrays
from .frames import Frames


def fly(model, arrays, frames: Frames, twist, h: float, time: float) -> Frames:
    """Every body's frames after moving h along its ballistic path from (frames, twist) at `time`, as
    the model arrays given say (a Simulation's: its sleeping bodies fixed)."""
    from .kernels.flight import fly as fly_kernel  # the kernels load with the first simulation

    flight = flight_arrays(model)
    fly_kernel(arrays, model.settings.taylor_order, time, frames.position, frames.rotation, twist, h, flight,
               drives_flag(arrays))
    return Frames(flight.position, flight.rotation)
