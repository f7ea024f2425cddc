"""Contact and Coulomb friction against obstacles and between bodies (Schmitt §11, Stewart-Trinkle).

shapes.py reads body shapes and obstacles, shape_table.py lays them out; detection.py finds the
contacts of a step: the manifolds of bodies and planes (kernels/contact/narrow_phase.py, kernels/contact/manifold.py)
and bodies' corners against meshes (mesh_contacts.py), each a point of one body against a tangent plane
of the other; impulse.py is Schmitt's method (contact pairs as temporary rows in the
correction loop, impacts by Poisson's law); stewart_trinkle.py is Stewart and Trinkle's time-stepping LCP,
solved by Lemke's algorithm (lcp_solver.py).
"""
