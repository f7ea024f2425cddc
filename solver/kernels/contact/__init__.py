"""The contact kernels: finding contacts in one call (detection) through the broad phase (near_pairs),
the narrow phase (narrow_phase, manifold and its shapes: polytopes, capsules, segments, manifold_points)
and corners against meshes (mesh_probes over bvh); the contact rows and their responses through the
joints (contact_rows, held_motors), the projected Gauss-Seidel passes and impacts (passes), the
correction loop with contacts (contact_loop), the direct step for held contacts (held_contacts) and
Lemke's algorithm (lemke). solver/contact/ orchestrates them."""
