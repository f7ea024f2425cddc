"""Contact and Coulomb friction against obstacles and between bodies (Schmitt §11, Stewart-Trinkle).

shapes.py reads body shapes and obstacles; detection.py finds touching and colliding pairs as probe
points against surfaces; impulse.py is Schmitt's method (contact pairs as temporary rows in the
correction loop, impacts by Poisson's law); lcp.py is Stewart and Trinkle's time-stepping LCP,
solved by Lemke's algorithm (lemke.py).
"""
