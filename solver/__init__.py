"""MechBake's solver: impulse-based simulation of jointed rigid bodies (Schmitt and Bender).

numpy, with its hot path compiled by numba (kernels/, loaded with the first Simulation); never
imports bpy.
"""
from .errors import ModelError, SimulationDiverged
from .model import Model, Settings, load_model
from .simulation import Simulation

__all__ = ["Model", "Settings", "Simulation", "load_model", "ModelError", "SimulationDiverged"]
