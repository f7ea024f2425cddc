"""Resting islands fall asleep and cost nothing until something touches them (Box2D's and Bullet's
sleeping, by islands as Box2D v3 does).

An island is a set of bodies linked by touching contacts and by joints. It falls asleep once every body
in it has moved slower than `sleep_speed` (its centre, and its shape's farthest point about the centre)
for SLEEP_AFTER seconds, if it rests on something that does not move (the world, a plane, a mesh, a
fixed body, through a contact or a joint): a pile or a chain lying on the floor sleeps, a body drifting
slowly in space does not. A body that the last HELD_STEPS steps left where they found it (moved and sped
by less than the contacts' convergence, CONTACT_TIGHTNESS Dmax over a step, and than HELD_SPEED allows)
is held: nothing in its island changes with time (no motor, spring or motion table), so every later step
repeats the last, and it counts as rested at once (a stack placed at rest sleeps after two steps, not
half a second). Only bodies with a shape sleep, and only on joints that hold them without moving them
(no motor, servo, brake, spring or applied effort; limits may act): an island that holds another body,
or a body with a motion table, stays awake. A sleeping body keeps its place and has no speed; the
kernels see it as fixed (no mass, no gravity), and the broad phase looks only at pairs in which a body
moves. A sleeping island wakes whole (its joints link it, so every body jointed to it wakes too) as soon
as a moving body comes within the contact margin of one of its bodies.
"""
import numpy as np

from .drives import LOWER_LIMIT, UPPER_LIMIT
from .frames import Frames
from .joints import SPRING

SLEEP_AFTER = 0.5  # s an island stays below the sleep speed before it sleeps (Box2D's b2_timeToSleep)
HELD_STEPS = 2  # steps in a row that leave a body where they found it before it counts as rested
# A held body also moves less in a step than one accelerating from rest to this fraction of the sleep
# speed over SLEEP_AFTER would: whatever the step, it could not have left the sleep speed in that time
HELD_SPEED = 0.1


class Sleep:
    """Which bodies sleep now, and what the kernels and the broad phase see of them."""

    def __init__(self, model, arrays):
        """arrays: the model's ModelArrays; this keeps a copy of the body arrays it changes."""
        self.speed = model.settings.sleep_speed  # m/s; 0: nothing sleeps
        self._model = model
        self._awake_arrays = arrays
        layout = model.contacts
        n = len(model.body_names)
        self._joint_a, self._joint_b = model.joint_body_a, model.joint_body_b  # (m,) the bodies each joint links
        driven = np.zeros(n, dtype=bool)  # on a joint that moves its bodies by itself
        moving_joint = arrays.joint_kind == SPRING
        passive = (arrays.drive_kind == LOWER_LIMIT) | (arrays.drive_kind == UPPER_LIMIT)
        moving_joint[arrays.axis_joint[arrays.drive_axis[~passive]]] = True
        driven[self._joint_a[moving_joint]] = driven[self._joint_b[moving_joint]] = True
        shaped = np.zeros(n, dtype=bool)
        shaped[layout.shapes.body] = True
        # (n,) bodies that may sleep: moved by nothing but contacts, gravity and joints that only hold
        self.may_sleep = model.body_dynamic & ~driven & shaped & (self.speed > 0)
        self.reach = np.zeros(n)  # (n,) m: the farthest point of a body's shape from its centre of mass
        np.maximum.at(self.reach, layout.shapes.body, layout.slot_reach)
        self.asleep = np.zeros(n, dtype=bool)  # (n,)
        self.rest_time = np.zeros(n)  # (n,) s each body has moved slower than the sleep speed
        self.held_steps = np.zeros(n, dtype=int)  # (n,) steps in a row that left each body where it was
        from .contact.step import CONTACT_TIGHTNESS  # the contact step imports this module

        self._held_motion = CONTACT_TIGHTNESS * model.settings.dmax  # m a held body moves (and speeds h) at most
        self.island = np.full(n, -1)  # (n,) the island a sleeping body fell asleep in
        self.arrays = arrays._replace(body_inv_mass=arrays.body_inv_mass.copy(),
                                      body_inv_inertia=arrays.body_inv_inertia.copy(),
                                      body_gravity=arrays.body_gravity.copy(), body_rotates=arrays.body_rotates.copy())
        self.active = None  # what detection.find_contacts looks at while some body sleeps (ActiveSlots)
        self.nothing_moves = False  # every dynamic body sleeps and none is animated: a step is time passing
        self._moves = model.body_dynamic | model.body_animated  # (n,) bodies that move when awake
        self._island_of = np.zeros(n, dtype=np.int64)  # (n,) each body's island at the last step (kernels/rest.py)
        from .kernels.rest import note_rest  # the kernels load with the first simulation

        self._note_rest = note_rest

    def note_step(self, h: float, start: Frames, end: Frames, twist: np.ndarray, touching_a: np.ndarray,
                  touching_b: np.ndarray) -> np.ndarray:
        """After a step of h from `start` to `end` frames: each body's rest time, then the islands (linked
        by the touching contacts, bodies a and b (m,)) that have rested SLEEP_AFTER fall asleep. A body
        rests while both its speed and its step's displacement are below the sleep speed (a body pushed
        out of an overlap moves without speed); a held body (HELD_STEPS) has rested long enough at once.
        Returns the bodies that fell asleep."""
        if not self.may_sleep.any():
            return np.zeros(0, dtype=int)
        bound = min(self._held_motion, HELD_SPEED * self.speed * h * h / (2.0 * SLEEP_AFTER))
        falling = self._note_rest(h, start.position, start.rotation, end.position, end.rotation, twist, self.reach,
                                  self.may_sleep, self.asleep, self._moves, float(self.speed), bound, SLEEP_AFTER,
                                  HELD_STEPS, np.concatenate((touching_a, self._joint_a)),
                                  np.concatenate((touching_b, self._joint_b)), self.rest_time, self.held_steps,
                                  self._island_of)
        island = self._island_of
        if not falling.any():
            return np.zeros(0, dtype=int)
        bodies = np.flatnonzero(falling)
        self.asleep[bodies] = True
        self.island[bodies] = island[bodies]
        twist[bodies] = 0.0
        self._update()
        return bodies

    def speeds(self, twist: np.ndarray) -> np.ndarray:
        """(n,) m/s: how fast each body's centre, or its shape's farthest point about it, moves at the
        (n, 6) twist, whichever is faster."""
        return np.maximum(np.linalg.norm(twist[:, :3], axis=1), np.linalg.norm(twist[:, 3:], axis=1) * self.reach)

    def woken_by(self, body_a: np.ndarray, body_b: np.ndarray) -> np.ndarray:
        """The sleeping bodies to wake for contacts (bodies a and b (m,)) found within the margin: the
        whole islands of those that pair a sleeping body with a moving one."""
        if not self.asleep.any() or not len(body_a):
            return np.zeros(0, dtype=int)
        moving = self._moves & ~self.asleep
        touched = np.concatenate((body_a[self.asleep[body_a] & moving[body_b]],
                                  body_b[self.asleep[body_b] & moving[body_a]]))
        if not len(touched):
            return touched
        return np.flatnonzero(self.asleep & np.isin(self.island, self.island[touched]))

    def wake(self, bodies: np.ndarray) -> None:
        """Wakes the bodies (at rest, where they are)."""
        self.asleep[bodies] = False
        self.island[bodies] = -1
        self.rest_time[bodies] = 0.0
        self.held_steps[bodies] = 0
        self._update()

    def _update(self) -> None:
        """The kernels' body arrays with the sleeping bodies fixed, and the broad phase's slots."""
        awake, arrays, asleep = self._awake_arrays, self.arrays, self.asleep
        for field in ("body_inv_mass", "body_inv_inertia", "body_gravity", "body_rotates"):
            source, target = getattr(awake, field), getattr(arrays, field)
            target[:] = source
            target[asleep] = 0
        self.active = _active_slots(self._model, asleep) if asleep.any() else None
        model = self._model
        self.nothing_moves = not (model.body_dynamic & ~asleep).any() and not model.body_animated.any()


def _active_slots(model, asleep: np.ndarray):
    """What the broad phase looks at while some bodies sleep (detection.ActiveSlots): the slot pairs in
    which a body moves (awake, or animated: it wakes a sleeping one it nears), planes and meshes against
    awake bodies only."""
    from .contact.detection import ActiveSlots

    layout = model.contacts
    awake_dynamic = model.body_dynamic & ~asleep
    mover = awake_dynamic | model.body_animated
    body = layout.shapes.body
    pairs = layout.slot_pairs
    body_a, body_b = body[pairs[:, 0]], body[pairs[:, 1]]
    keep = awake_dynamic[body_a] | awake_dynamic[body_b] | (mover[body_a] & asleep[body_b]) | (
        mover[body_b] & asleep[body_a])
    return ActiveSlots(np.ascontiguousarray(pairs[keep]), awake_dynamic[body], awake_dynamic)
