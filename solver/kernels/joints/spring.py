"""Spring-damper between two anchor points (Schmitt §10, eq. 9.1/9.2; Strashnov eq. 13-15).

It adds no rows to the correction: its force is a drive on the anchor-to-anchor length (drives.py).
Slots as the distance joint's."""
from . import distance

axis_row = distance.axis_row
coordinate = distance.coordinate
