"""The model's contact data as arrays: probe points of the bodies, obstacles, pairs that may touch."""
import numpy as np

from .broadphase import TriangleBVH
from .shapes import contact_hull, probe_points


class ContactLayout:
    """Constant contact data of a model (index 0 is the world, as for every body array)."""

    def __init__(self, model, spec: dict):
        bodies = spec["bodies"]
        n = len(model.body_names)
        self.body_friction = np.array([0.5] + [b["friction"] for b in bodies])  # (n,)
        self.body_restitution = np.array([0.0] + [b["restitution"] for b in bodies])  # (n,)
        probe_body, probe_local, probe_radius = [], [], []
        round_body, round_ends, round_radius = [], [], []
        box_body, box_centre, box_half, box_axes = [], [], [], []
        self.convex_surfaces = []  # (body, (f, 3) outward normals, (f,) offsets), principal frame
        for i, body in enumerate(bodies, start=1):
            if "shape" not in body:
                continue
            if body["shape"]["type"] == "convex":  # its hull's faces are a surface for other bodies' probes
                hull = contact_hull(body["shape"]["vertices"])
                points, radii = hull.vertices, np.zeros(len(hull.vertices))
                self.convex_surfaces.append((i, hull.normals @ model.body_principal_axes[i], hull.offsets))
            else:
                points, radii = probe_points(body["shape"])
            # shapes are given in the body frame about the centre of mass; the state uses the principal frame
            local = points @ model.body_principal_axes[i]
            probe_body += [i] * len(points)
            probe_local += list(local)
            probe_radius += list(radii)
            if body["shape"]["type"] == "box":  # a box is also a surface other bodies' probes meet
                box_body.append(i)
                box_centre.append(np.asarray(body["shape"]["centre"]) @ model.body_principal_axes[i])
                box_half.append(0.5 * np.asarray(body["shape"]["size"]))
                box_axes.append(model.body_principal_axes[i].T)  # the box's axes in the principal frame (rows)
            if body["shape"]["type"] in ("sphere", "capsule"):
                round_body.append(i)
                round_ends.append(local if len(local) == 2 else np.vstack((local, local)))
                round_radius.append(radii[0])
        self.probe_body = np.array(probe_body, dtype=int)  # (P,)
        self.probe_local = np.array(probe_local, dtype=float).reshape(-1, 3)  # (P, 3) principal frame
        self.probe_radius = np.array(probe_radius, dtype=float)  # (P,)
        self.round_body = np.array(round_body, dtype=int)  # (S,) bodies that are spheres or capsules
        self.round_ends = np.array(round_ends, dtype=float).reshape(-1, 2, 3)  # (S, 2, 3) segment ends
        self.round_radius = np.array(round_radius, dtype=float)  # (S,)
        self.box_body = np.array(box_body, dtype=int)  # (B,) bodies whose shape is a box
        self.box_centre = np.array(box_centre, dtype=float).reshape(-1, 3)  # (B, 3) principal frame
        self.box_half = np.array(box_half, dtype=float).reshape(-1, 3)  # (B, 3) half sizes along the box axes
        self.box_axes = np.array(box_axes, dtype=float).reshape(-1, 3, 3)  # (B, 3, 3) rows: box axes, principal frame
        self.planes = [o for o in spec["obstacles"] if o["type"] == "plane"]
        self.meshes = [(o, TriangleBVH.build(o["vertices"], o["triangles"])) for o in spec["obstacles"]
                       if o["type"] == "mesh"]
        # bodies joined by a joint do not collide with each other, as in every rig
        joined = {frozenset((int(a), int(b))) for a, b in zip(model.joint_body_a, model.joint_body_b)}
        shaped = sorted(set(probe_body))
        self.touching_pairs = {(a, b) for a in shaped for b in shaped if a != b
                               and frozenset((a, b)) not in joined and (model.body_dynamic[a] or model.body_dynamic[b])}
        surfaces = set(round_body) | set(box_body) | {body for body, _, _ in self.convex_surfaces}
        self.enabled = bool(len(probe_body)) and bool(self.planes or self.meshes or any(
            a in surfaces for a, _ in self.touching_pairs))
        self.body_count = n
        self._lay_out_bounds(model, surfaces)

    def _lay_out_bounds(self, model, surfaces: set) -> None:
        """Spheres about each body's centre of mass holding its probes and its surface, so a step in
        which no pair of bodies, no plane and no mesh comes near costs a few array operations."""
        n = self.body_count
        self.body_reach = np.zeros(n)  # (n,) m: every probe sphere and surface of the body lies within it
        for body, local, radius in zip(self.probe_body, self.probe_local, self.probe_radius):
            self.body_reach[body] = max(self.body_reach[body], float(np.linalg.norm(local)) + radius)
        for slot, body in enumerate(self.box_body):
            corners = self.box_centre[slot] + (np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1)
                                                         for sz in (-1, 1)]) * self.box_half[slot]) @ self.box_axes[slot]
            self.body_reach[body] = max(self.body_reach[body], float(np.linalg.norm(corners, axis=1).max()))
        pairs = sorted((a, b) for a, b in self.touching_pairs if a in surfaces)
        self.pair_bodies = np.array(pairs, dtype=int).reshape(-1, 2)  # (p, 2) surface body, probe body
        with_probes = self.probe_body[model.body_dynamic[self.probe_body]] if len(self.probe_body) else self.probe_body
        self.moving_probe_bodies = np.unique(with_probes).astype(int)  # (k,) dynamic bodies with probes
        self.mesh_bounds = np.array([(np.asarray(o["vertices"]).min(axis=0), np.asarray(o["vertices"]).max(axis=0))
                                     for o, _ in self.meshes]).reshape(-1, 2, 3)  # (meshes, low | high, 3)
