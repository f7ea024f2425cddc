"""The model's contact data as arrays: the bodies' shapes, the obstacles, the pairs that may touch."""
from collections import namedtuple

import numpy as np

from .mesh_bvh import TriangleBVH
from .mesh_contacts import mesh_probes
from .shape_table import BOX, CAPSULE, HULL, POINT, end_to_end, first_offsets, shape_table, slot_reach


# What finding contacts (kernels/contact/detection.py) reads besides the shape table, made once a model.
# Meshes are TriangleBVHs packed end to end: mesh k's nodes are node_*[mesh_first_node[k]:mesh_first_node[k + 1]]
# and its triangles triangle_*, order, corners and normals [mesh_first_triangle[k]:mesh_first_triangle[k + 1]],
# their indices counting from the mesh's own start.
ContactTable = namedtuple("ContactTable", [
    "slot_reach",  # (S,) m: each slot's shape lies within this of its body's centre of mass
    "body_friction", "body_restitution",  # (n,) each body's (index 0 the world's)
    "plane_point", "plane_normal",  # (P, 3) world, the normal unit
    "plane_friction", "plane_restitution",  # (P,)
    "probe_body", "probe_local", "probe_radius",  # the probes against meshes (mesh_contacts.MeshProbes)
    "mesh_friction", "mesh_restitution",  # (M,)
    "mesh_first_node", "mesh_first_triangle",  # (M + 1,) int64
    "mesh_first_leaf",  # (M,) int64: TriangleBVH.first_leaf of each mesh
    "node_low", "node_high", "node_start", "node_stop",  # TriangleBVH's node fields, end to end
    "triangle_low", "triangle_high", "order", "corners", "normals",  # its triangle fields, end to end
])


class ContactLayout:
    """Constant contact data of a model (index 0 is the world, as for every body array)."""

    def __init__(self, model, spec: dict):
        bodies = spec["bodies"]
        self.body_friction = np.array([0.5] + [b["friction"] for b in bodies])  # (n,)
        self.body_restitution = np.array([0.0] + [b["restitution"] for b in bodies])  # (n,)
        self.shapes = shape_table([(i, body["shape"], model.body_principal_axes[i])
                                   for i, body in enumerate(bodies, start=1) if "shape" in body])
        self.slot_reach = slot_reach(self.shapes)  # (S,) m about the slot's body's centre of mass
        slot_body = self.shapes.body
        self.slot_moves = model.body_dynamic[slot_body]  # (S,) the slots obstacles are tested against
        self.planes = [o for o in spec["obstacles"] if o["type"] == "plane"]
        self.plane_point = np.array([p["point"] for p in self.planes], dtype=float).reshape(-1, 3)  # (P, 3) world
        self.plane_normal = np.array([p["normal"] for p in self.planes], dtype=float).reshape(-1, 3)  # (P, 3) unit
        self.plane_friction = np.array([p["friction"] for p in self.planes], dtype=float)  # (P,)
        self.plane_restitution = np.array([p["restitution"] for p in self.planes], dtype=float)  # (P,)
        self.meshes = [(o, TriangleBVH.build(o["vertices"], o["triangles"])) for o in spec["obstacles"]
                       if o["type"] == "mesh"]
        self.mesh_probes = mesh_probes(self.shapes)  # every corner of a body, for meshes
        self.slot_pairs = _slot_pairs(model, self.shapes)  # (p, 2) slot a, slot b
        self.table = self._contact_table()
        self.enabled = bool(len(slot_body)) and bool(self.planes or self.meshes or len(self.slot_pairs))

    def _contact_table(self) -> ContactTable:
        meshes = [bvh for _, bvh in self.meshes]

        def packed(field, shape, dtype=float):
            return end_to_end(meshes, field, shape, dtype)

        surface = np.array([[mesh["friction"], mesh["restitution"]] for mesh, _ in self.meshes], dtype=float)
        surface = surface.reshape(-1, 2)
        probes = self.mesh_probes
        return ContactTable(
            self.slot_reach, self.body_friction, self.body_restitution, self.plane_point, self.plane_normal,
            self.plane_friction, self.plane_restitution, probes.probe_body.astype(np.int64),
            np.ascontiguousarray(probes.probe_local, dtype=float), probes.probe_radius.astype(float),
            np.ascontiguousarray(surface[:, 0]), np.ascontiguousarray(surface[:, 1]),
            first_offsets([len(bvh.node_low) for bvh in meshes]), first_offsets([len(bvh.order) for bvh in meshes]),
            np.array([bvh.first_leaf for bvh in meshes], dtype=np.int64),
            packed("node_low", (3,)), packed("node_high", (3,)), packed("node_start", (), np.int64),
            packed("node_stop", (), np.int64), packed("triangle_low", (3,)), packed("triangle_high", (3,)),
            packed("order", (), np.int64), packed("corners", (3, 3)), packed("normals", (3,)))


def _slot_pairs(model, shapes) -> np.ndarray:
    """(p, 2) the pairs of shape slots that may touch: of different bodies not joined to each other
    (as in every rig), at least one of them moving, not two points; slot a is the polyhedron when
    one of them is (a hull before a box), so every pair has its kernel (kernels/contact/narrow_phase.py)."""
    body, kind = shapes.body, shapes.kind
    slot, other = _slots_of_body_pairs(model, body)
    keep = ~((kind[slot] == POINT) & (kind[other] == POINT))
    slot, other = slot[keep], other[keep]
    rank_of_kind = np.empty(4, dtype=np.int64)
    rank_of_kind[[HULL, BOX, CAPSULE, POINT]] = np.arange(4)  # a takes the lower rank
    rank = rank_of_kind[kind]
    swap = rank[other] < rank[slot]
    return np.column_stack((np.where(swap, other, slot), np.where(swap, slot, other))).astype(np.int64).reshape(-1, 2)


def _slots_of_body_pairs(model, body: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of slots (slot < other, in row-major order) whose bodies differ, are not joined and
    are not both without motion: built from the pairs of bodies, so a body of many slots (a points
    shape) costs pairs with the other bodies' slots only, not with its own."""
    n = len(model.body_names)
    order = np.argsort(body, kind="stable")
    bodies, first, count = np.unique(body[order], return_index=True, return_counts=True)
    a, b = np.triu_indices(len(bodies), 1)  # indices into bodies, whose values are sorted: bodies[a] < bodies[b]
    joined = np.minimum(model.joint_body_a, model.joint_body_b) * n + np.maximum(model.joint_body_a, model.joint_body_b)
    keep = ~np.isin(bodies[a] * n + bodies[b], joined) & (model.body_dynamic[bodies[a]] | model.body_dynamic[bodies[b]])
    a, b = a[keep], b[keep]
    products = count[a] * count[b]
    pair = np.repeat(np.arange(len(a)), products)
    within = np.arange(len(pair)) - np.repeat(np.cumsum(products) - products, products)
    slot_a = order[first[a][pair] + within // count[b][pair]]
    slot_b = order[first[b][pair] + within % count[b][pair]]
    slot, other = np.minimum(slot_a, slot_b), np.maximum(slot_a, slot_b)
    rows = np.lexsort((other, slot))
    return slot[rows], other[rows]

