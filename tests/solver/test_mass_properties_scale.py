"""Mass properties measured against the body's own size, not its distance from the origin."""
import numpy as np
import pytest

from mechbake.solver import ModelError
from mechbake.solver.mass_properties import mesh_mass_properties

from scenes import BOX_FACES, box


@pytest.mark.parametrize("size, where", [(0.02, [200.0, 0, 0]), (0.001, [1000.0, -1000.0, 50.0]),
                                         (0.02, [0.0, 0, 0])])
def test_a_small_box_far_from_the_origin_has_the_closed_form(size, where):
    props = mesh_mass_properties(box([size, size, size / 2], centre=where), BOX_FACES, density=1000.0)
    mass = 1000.0 * size**3 / 2
    assert props.mass == pytest.approx(mass, rel=1e-6)
    assert props.centre == pytest.approx(where, abs=1e-9 * np.abs(where).max(initial=1.0))
    expected = mass / 12 * np.diag([1.25, 1.25, 2.0]) * size**2
    assert props.inertia == pytest.approx(expected, rel=1e-4, abs=1e-6 * expected.max())


def test_a_small_flat_sheet_far_away_is_still_refused():
    with pytest.raises(ModelError, match="object 'sheet': the mesh encloses no volume"):
        mesh_mass_properties(box([0.02, 0.02, 0.0], centre=[200.0, 0, 0]), BOX_FACES, density=1.0, name="sheet")


def test_non_finite_vertices_are_counted_not_listed():
    vertices = np.tile(box([1, 1, 1]), (12500, 1))  # 100 000 vertices
    vertices[[7, 70, 700, 7000], 1] = np.nan
    with pytest.raises(ModelError) as error:
        mesh_mass_properties(vertices, BOX_FACES, density=1.0, name="bad")
    assert str(error.value) == ("object 'bad': the mesh has vertices that are not finite: 4 of 100000, "
                                "first #7, #70, #700")
