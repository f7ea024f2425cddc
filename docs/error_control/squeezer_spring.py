"""Where Andrews' squeezer's error comes from: the crank's angle and rate after its first millisecond,
taken in 1, 2, 4, 8 and 16 equal steps without the energy gate, against 1,000 steps (Dmax 1e-12),
with the squeezer's spring and with its stiffness set to 0.
    python docs/error_control/squeezer_spring.py"""
from scenes import mechanisms
from scenes import Model, Simulation

SPAN = 1e-3  # s


def squeezer(h: float, stiffness: float) -> Simulation:
    spec = mechanisms.andrews_squeezer(h=h, dmax=1e-12)
    for joint in spec["joints"]:
        if joint["type"] == "spring":
            joint["stiffness"] = stiffness
    sim = Simulation(Model.from_dict(spec), energy_tolerance=0.0)
    sim.run(SPAN)
    return sim


for stiffness in (mechanisms.SQUEEZER_SPRING[0], 0.0):
    reference = squeezer(SPAN / 1000, stiffness)
    angle, rate = reference.joint_position("O"), reference.angular_velocity("body1")[2]
    for steps in (1, 2, 4, 8, 16):
        sim = squeezer(SPAN / steps, stiffness)
        print(f"spring {stiffness:g} N/m, {steps:2d} steps: angle {sim.joint_position('O') / angle - 1:+.3e}, "
              f"rate {sim.angular_velocity('body1')[2] / rate - 1:+.3e} (relative)")
