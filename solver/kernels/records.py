"""A lasting group of arrays (the model's, the joints' rows, the work arrays) handed to the kernels as
one reference. numba passes a tuple of arrays member by member, some nine values an array, through
every call it does not inline: the model's 42 arrays and the rows' 63 made every kernel that takes
them slow to lower and to optimise (docs/compile_time.md) and every call from Python slow to type.
A record is numba's StructRef (a pointer to the arrays, counted by numba's runtime) over the same
arrays: Python keeps the tuple and kernels read the record, so what a kernel writes into an array
Python reads from the tuple. Kernels read a record's fields in place, without the runtime, so the
borrowing kernels (compiled without it, jit.py) read them too.

`record_from_python` writes a record's fields from Python, as numba's own entry would unbox them,
so making one compiles nothing; `make_record` is numba's way, compiled (about 1.5 s a kind of tuple,
cold), for a numba whose layout `record_from_python` does not know."""
import ctypes

import numpy as np
from numba import typeof
from numba.core import cgutils, imputils, registry, types
from numba.core.datamodel import default_manager, models
from numba.core.extending import infer_getattr, lower_getattr_generic, lower_setattr_generic
from numba.core.runtime import _nrt_python, nrt
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.core.typing.templates import AttributeTemplate
from numba.experimental import structref
from numba.extending import overload


class RecordType(types.StructRef):
    """numba's type of a record: its fields' names and types, those of the tuple it was made from."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(kind)) for name, kind in fields)


default_manager.register(RecordType, models.StructRefModel)


@infer_getattr
class RecordAttribute(AttributeTemplate):
    key = RecordType

    def generic_resolve(self, typ, attr):
        return typ.field_dict.get(attr)


def _invariant(builder, load):
    """`load` marked as reading memory no kernel writes while it runs (LLVM's invariant.load): a record's
    payload and its arrays' shapes and data pointers are set once, by its maker. Without the mark LLVM
    reloads them after every store into any array, which might have written over them."""
    load.set_metadata("invariant.load", builder.module.add_metadata([]))
    return load


def _fields(context, builder, record_type, record):
    """The record's fields in place: its payload, found through the data pointer of its MemInfo as
    numba's own inline lookup finds it (NRT_MemInfo_data_fast), which needs no runtime."""
    meminfo = cgutils.create_struct_proxy(record_type)(context, builder, value=record).meminfo
    info = builder.bitcast(meminfo, _meminfo_struct_type.as_pointer())
    data = _invariant(builder, builder.load(cgutils.gep(builder, info, 0, 3)))
    payload_type = record_type.get_data_type()
    data = builder.bitcast(data, context.data_model_manager[payload_type].get_value_type().as_pointer())
    return cgutils.create_struct_proxy(payload_type)(context, builder, ref=data)


@lower_getattr_generic(RecordType)
def _get_field(context, builder, record_type, record, attr):
    fields = _fields(context, builder, record_type, record)
    index = fields._datamodel.get_field_position(attr)
    value = fields._cast_member_to_value(index, _invariant(builder, builder.load(fields._get_ptr_by_index(index))))
    return imputils.impl_ret_borrowed(context, builder, record_type.field_dict[attr], value)


@lower_setattr_generic(RecordType)
def _set_field(context, builder, signature, args, attr):
    """Only the record's maker sets fields (it runs with numba's runtime, which counts the arrays)."""
    record_type, value_type = signature.args
    record, value = args
    fields = _fields(context, builder, record_type, record)
    field_type = record_type.field_dict[attr]
    value = context.cast(builder, value, value_type, field_type)
    old = getattr(fields, attr)
    context.nrt.incref(builder, value_type, value)
    context.nrt.decref(builder, value_type, old)
    setattr(fields, attr, value)


class Record(structref.StructRefProxy):
    """A record on the Python side: only handed to kernels (Python reads the tuple it was made from)."""


structref.define_boxing(RecordType, Record)


def record_of(group):
    """A record of the tuple `group`'s arrays, field for field (compiled only)."""
    raise NotImplementedError("record_of is compiled only: call make_record")


@overload(record_of)
def _record_of(group):
    record_type = RecordType(tuple(zip(group.fields, group.types)))
    lines = ["def make(group):", "    record = structref.new(record_type)"]
    lines += [f"    record.{name} = group[{index}]" for index, name in enumerate(group.fields)]
    lines.append("    return record")
    scope = {"structref": structref, "record_type": record_type}
    exec("\n".join(lines), scope)
    return scope["make"]


def make_record(group):
    """A Record of the tuple `group`, by numba (jit.py compiles it, once per kind of tuple, where
    `record_from_python` declines)."""
    return record_of(group)


# numba's C helpers its compiled entries call: an array's fields from a numpy array (with a new
# MemInfo holding the array), and a MemInfo pointer, acquired, from its Python object
_array_fields = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(
    _nrt_python.c_helpers["adapt_ndarray_from_python"])
_acquired_pointer = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.py_object)(_nrt_python.c_helpers["meminfo_from_pyobject"])
_WORD = 8  # every field of an array's struct is a pointer or an intp
_payload_sizes: dict[RecordType, int | None] = {}


def _record_type_of(group) -> RecordType:
    """The record type of the tuple `group` (its items already records where they are records)."""
    group_type = typeof(group)
    return RecordType(tuple(zip(group_type.fields, group_type.types)))


def record_from_python(group) -> Record | None:
    """A Record of the tuple `group`, its fields written from Python; None where numba's layout of the
    fields is not the one written here (then `make_record` makes it). The record's memory holds a
    reference to a Python tuple that owns the arrays' MemInfos and the inner records, so the arrays
    live as long as the record, as with numba's maker."""
    record_type = _record_type_of(group)
    size = _payload_size(record_type)
    if size is None:
        return None
    payload = np.zeros(size, np.uint8)
    owned: list = [payload]
    end = _write_fields(group, list(record_type.field_dict.values()), payload.ctypes.data, owned)
    assert end - payload.ctypes.data == size, record_type
    meminfo = nrt.rtsys.meminfo_new(payload.ctypes.data, tuple(owned))
    return Record._numba_box_(record_type, meminfo)


def _write_fields(items, kinds, address: int, owned: list) -> int:
    """Write `items` of numba types `kinds` one after another from `address`, as numba lays out a
    struct of them; the address after the last."""
    for item, kind in zip(items, kinds):
        if isinstance(kind, types.Array):
            if _array_fields(item, address) != 0:
                raise TypeError(f"a record's array field holds {type(item).__name__}")
            owned.append(nrt.MemInfo(ctypes.c_void_p.from_address(address).value))
            address += _WORD * (5 + 2 * kind.ndim)
        elif isinstance(kind, RecordType):
            pointer = _acquired_pointer(item._meminfo)
            ctypes.c_void_p.from_address(address).value = pointer
            owned.append(nrt.MemInfo(pointer))
            address += _WORD
        else:
            address = _write_fields(item, kind.types, address, owned)
    return address


def _payload_size(record_type: RecordType) -> int | None:
    """The record's payload in bytes as numba lays it out, if that is the words `_write_fields`
    writes; else None."""
    if record_type not in _payload_sizes:
        context = registry.cpu_target.target_context
        nrt.rtsys.initialize(context)  # as numba does before its first compile or cache load
        model = context.data_model_manager[record_type.get_data_type()]
        size = context.get_abi_sizeof(model.get_value_type())
        written = _words(list(record_type.field_dict.values()))
        _payload_sizes[record_type] = size if written is not None and written * _WORD == size else None
    return _payload_sizes[record_type]


def _words(kinds) -> int | None:
    """The words `_write_fields` writes for fields of numba types `kinds`; None for a kind it cannot write."""
    words = 0
    for kind in kinds:
        if isinstance(kind, types.Array):
            words += 5 + 2 * kind.ndim
        elif isinstance(kind, RecordType):
            words += 1
        elif isinstance(kind, types.BaseTuple) and (inner := _words(kind.types)) is not None:
            words += inner
        else:
            return None
    return words
