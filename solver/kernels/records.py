"""A lasting group of arrays (the model's, the joints' rows, the work arrays) handed to the kernels as
one reference. numba passes a tuple of arrays member by member, some nine values an array, through
every call it does not inline: the model's 42 arrays and the rows' 63 made every kernel that takes
them slow to lower and to optimise (docs/compile_time.md) and every call from Python slow to type.
A record is numba's StructRef (a pointer to the arrays, counted by numba's runtime) over the same
arrays: Python keeps the tuple and kernels read the record, so what a kernel writes into an array
Python reads from the tuple. Kernels read a record's fields in place, without the runtime, so the
borrowing kernels (compiled without it, jit.py) read them too."""
from numba.core import cgutils, imputils, types
from numba.core.datamodel import default_manager, models
from numba.core.extending import infer_getattr, lower_getattr_generic, lower_setattr_generic
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


def _fields(context, builder, record_type, record):
    """The record's fields in place: its payload, found through the data pointer of its MemInfo as
    numba's own inline lookup finds it (NRT_MemInfo_data_fast), which needs no runtime."""
    meminfo = cgutils.create_struct_proxy(record_type)(context, builder, value=record).meminfo
    data = builder.load(cgutils.gep(builder, builder.bitcast(meminfo, _meminfo_struct_type.as_pointer()), 0, 3))
    payload_type = record_type.get_data_type()
    data = builder.bitcast(data, context.data_model_manager[payload_type].get_value_type().as_pointer())
    return cgutils.create_struct_proxy(payload_type)(context, builder, ref=data)


@lower_getattr_generic(RecordType)
def _get_field(context, builder, record_type, record, attr):
    value = getattr(_fields(context, builder, record_type, record), attr)
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
    """A Record of the tuple `group` (jit.py compiles it, once per kind of tuple, cached with the kernels)."""
    return record_of(group)
