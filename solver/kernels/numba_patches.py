"""What the solver's process changes in numba to compile less: each change is only in how numba
compiles, never in what a kernel computes (docs/compile_time.md measures each). Every patch checks
that this numba has what it replaces and answers False, changing nothing, where it does not (read
against the numba versions the extension bundles, 0.62 and 0.68). Imported by jit.py once numba is
configured."""


def _plain_slice_errors() -> bool:
    """Have an array assigned to a slice of another shape raise numba's plain ValueError ("cannot
    assign slice from input of different size") instead of one naming both shapes. The named shapes
    are formatted by compiled string code in the error path of every such assignment
    (docs/compile_time.md). The message is the only change,
    for every numba kernel in the process. False where this numba has no such overload to swap."""
    from numba.core.typing import templates
    from numba.np import arrayobj

    raising = getattr(arrayobj, "raise_with_shape_context", None)
    plain = getattr(arrayobj, "ol_raise_with_shape_context_generic", None)
    swapped = False
    for function, function_type in templates.builtin_registry.globals:
        if raising is not None and plain is not None and function is raising:
            for template in function_type.templates:
                if template.metadata.get("target") == "CPU":
                    template._overload_func = staticmethod(plain)
                    swapped = True
    return swapped


PLAIN_SLICE_ERRORS = _plain_slice_errors()


def _quick_flag_comparison() -> bool:
    """Have numba compare its compile flags without reading each option through its property. Every
    call typed against an overload looks up numba's cache of overloads by a key that holds the flags of
    the compile, and comparing two sets of flags read every option through its property on both sides
    (docs/compile_time.md). Same values, same hash,
    same equality; False where this numba's flags are not the TargetConfig read against (0.62, 0.68)."""
    from numba.core import targetconfig

    config = targetconfig.TargetConfig
    if not (hasattr(config, "values") and "_values" in getattr(config, "__slots__", ())):
        return False

    def values(self) -> dict:
        own = self._values
        return {name: own[name] if name in own else option.default for name, option in self.options.items()}

    def equal(self, other):
        if self is other:
            return True
        if type(self) is type(other):  # the same options: only those set on either side can differ
            mine, theirs, options = self._values, other._values, self.options
            return all(mine.get(name, options[name].default) == theirs.get(name, options[name].default)
                       for name in mine.keys() | theirs.keys())
        if isinstance(other, config):
            return values(self) == values(other)
        return NotImplemented

    def hashed(self) -> int:
        return hash(tuple(sorted(self.options)))  # numba's hash: that of the sorted names of the options

    config.values, config.__eq__, config.__hash__ = values, equal, hashed
    return True


QUICK_FLAG_COMPARISON = _quick_flag_comparison()


def _overloads_shared_by_wrappers() -> bool:
    """Compile an @overload's implementation (numba's np.empty, an array's copy, …) once for the kernels
    with a Python entry and those without. numba keys its overload implementations by every flag of the
    kernel being compiled, so np.empty(n) was compiled again for an entry kernel, an inner kernel and a
    kernel twin; but an implementation is built with the overloads' own options (no Python entry) and
    takes over only the runtime, fast-math, error-model and inlining flags from the kernel, never its
    wrappers. Nor is a C wrapper built for an implementation, which only kernels call. False where
    this numba's overload templates are not those read against (0.62, 0.68)."""
    from numba.core import targetconfig
    from numba.core.typing import templates

    template = getattr(templates, "_OverloadFunctionTemplate", None)
    if template is None or not hasattr(template, "_get_impl") or not hasattr(template, "_build_impl"):
        return False
    wrappers = ("no_cpython_wrapper", "no_cfunc_wrapper")

    def get_impl(self, args, kws):
        flags = targetconfig.ConfigStack.top_or_none()
        set_wrappers = [name for name in wrappers if flags is not None and name in flags.options and flags.is_set(name)]
        if set_wrappers:
            flags = flags.copy()
            for name in set_wrappers:
                flags.discard(name)
        cache_key = self.context, tuple(args), tuple(kws.items()), flags
        found = self._impl_cache.get(cache_key)
        if found is not None:
            return found
        if not self._jit_options.get("no_cfunc_wrapper", False):  # nothing takes an implementation's address
            type(self)._jit_options = {**self._jit_options, "no_cfunc_wrapper": True}
        return self._build_impl(cache_key, args, kws)

    template._get_impl = get_impl
    return True


OVERLOADS_SHARED_BY_WRAPPERS = _overloads_shared_by_wrappers()


def _call_types_kept() -> bool:
    """Resolve a function's call type once for the same argument types and compile flags. numba
    resolves `a[i, j]`, `x * y` and every other call by trying its templates in turn, in typing and
    again in lowering, for every occurrence (docs/compile_time.md). A resolution
    depends on the typing context, the types and, through the overloads' implementations, on the
    flags of the kernel being compiled, all in the key; one that fails is not kept (it raises each
    time, as numba's). False where this numba's function types are not those read against."""
    from numba.core import targetconfig
    from numba.core.types import functions

    resolve = functions.BaseFunction.get_call_type
    if getattr(resolve, "__code__", None) is None or resolve.__code__.co_varnames[:4] != ("self", "context", "args",
                                                                                           "kws"):
        return False
    resolved: dict = {}

    def get_call_type(self, context, args, kws):
        key = (self, context, tuple(args), tuple(kws.items()), targetconfig.ConfigStack.top_or_none())
        found = resolved.get(key)
        if found is None:
            found = resolve(self, context, args, kws)
            if found is not None:
                resolved[key] = found
        return found

    functions.BaseFunction.get_call_type = get_call_type
    return True


CALL_TYPES_KEPT = _call_types_kept()


def _live_variables_when_asked() -> bool:
    """Compute the variables live at each block's entry only where numba asks for them. numba's
    post-processor, run after every pass that changes a kernel's control flow (about nine times a
    kernel), computes them each time for object mode and generators; a nopython kernel never reads
    them (docs/compile_time.md). What the post-processor leaves otherwise is
    unchanged: the canonical blocks, the (lazy) variable lifetimes, the generator info, the dels."""
    from numba.core import analysis, ir, postproc, transforms

    run = postproc.PostProcessor.run
    code = getattr(run, "__code__", None)
    if (code is None or code.co_varnames[:3] != ("self", "emit_dels", "extend_lifetimes")
            or not hasattr(postproc, "VariableLifetime") or not hasattr(postproc.PostProcessor, "_insert_var_dels")
            or not hasattr(ir.FunctionIR, "get_block_entry_vars")):
        return False

    def run_lazily(self, emit_dels: bool = False, extend_lifetimes: bool = False):
        function_ir = self.func_ir
        if function_ir.is_generator:
            return run(self, emit_dels, extend_lifetimes)
        function_ir.blocks = transforms.canonicalize_cfg(function_ir.blocks)
        function_ir.variable_lifetime = postproc.VariableLifetime(function_ir.blocks)
        function_ir.generator_info = None
        if emit_dels:
            self._insert_var_dels(extend_lifetimes=extend_lifetimes)

    def get_block_entry_vars(self, block):
        if block not in self.block_entry_vars:  # as numba's post-processor computes them
            lifetime = postproc.VariableLifetime(self.blocks)
            live = analysis.compute_live_variables(lifetime.cfg, self.blocks, lifetime.usedefs.defmap,
                                                   lifetime.deadmaps.combined)
            for offset, each in self.blocks.items():
                self.block_entry_vars[each] = live[offset]
        return self.block_entry_vars[block]

    setattr(run_lazily, "numba_run", run)  # numba's own, which the tests compare with
    postproc.PostProcessor.run = run_lazily
    ir.FunctionIR.get_block_entry_vars = get_block_entry_vars
    return True


LIVE_VARIABLES_WHEN_ASKED = _live_variables_when_asked()


def _meminfos_found_directly() -> bool:
    """Increment and decrement a value's reference counts without extracting its members that hold
    none. numba finds a value's MemInfos by extracting every member, recursively (an array's shape and
    strides, a tuple's floats) and emits those extractions as dead code, lowered, written out and
    parsed for LLVM to delete (docs/compile_time.md). A member is
    skipped only where numba's own search through it would find no MemInfo (a type met again while
    its members are searched counts as holding one)."""
    from numba.core.runtime import context

    if getattr(getattr(context.NRTContext, "get_meminfos", None), "__code__", None) is None:
        return False
    holding: dict = {}

    def holds(models, builder, member_type) -> bool:
        key = models, member_type
        if key not in holding:
            holding[key] = True
            model = models[member_type]
            holding[key] = model.has_nrt_meminfo() or any(holds(models, builder, inner)
                                                          for inner, _ in model.traverse(builder))
        return holding[key]

    def get_meminfos(self, builder, ty, val):
        """numba's list of (type, MemInfo) inside the value."""
        models = self._context.data_model_manager
        model = models[ty]
        found = [(ty, model.get_nrt_meminfo(builder, val))] if model.has_nrt_meminfo() else []
        for member_type, member in model.traverse(builder):
            if holds(models, builder, member_type):
                found.extend(self.get_meminfos(builder, member_type, member(val)))
        return found

    context.NRTContext.get_meminfos = get_meminfos
    return True


MEMINFOS_FOUND_DIRECTLY = _meminfos_found_directly()


def _llvm_calls_unannounced() -> bool:
    """Stop numba announcing each call into LLVM as a pair of "numba:llvm_lock" events, which only
    feed the LLVM-lock timer of a kernel's compile metadata (docs/compile_time.md). The lock itself
    stays."""
    import llvmlite.binding as llvm

    callbacks = getattr(getattr(llvm.ffi.lib, "_lock", None), "_cblist", None)
    if not isinstance(callbacks, list):
        return False
    announcing = [pair for pair in callbacks if getattr(pair[0], "__module__", None) == "numba.core.base"]
    for acquired, released in announcing:
        llvm.ffi.unregister_lock_callback(acquired, released)
    return bool(announcing)


LLVM_CALLS_UNANNOUNCED = _llvm_calls_unannounced()


def _member(context, builder, kind, value, name: str):
    """The member `name` of a struct value of numba type `kind`, where numba's data model puts it."""
    return builder.extract_value(value, context.data_model_manager[kind].get_field_position(name))


def _struct(context, builder, kind, **members):
    """A struct value of numba type `kind` made of the named members, where numba's data model puts them."""
    from llvmlite import ir as llvm_ir

    model = context.data_model_manager[kind]
    value = llvm_ir.Constant(model.get_value_type(), llvm_ir.Undefined)
    for name, member in members.items():
        value = builder.insert_value(value, member, model.get_field_position(name))
    return value


def _elements_lowered_directly() -> bool:
    """Lower the read or write of one element of a C-contiguous array (`a[i, j]`, `a[i] = x`: signed
    integer indices, a number or boolean element) as its address and one load or store, and a row
    (`a[i]` of a matrix) as the row's array built in place. numba's own lowering copies the array's
    struct to the stack, reads every shape and stride and multiplies by steps of one: 30 to 85 LLVM
    instructions an access, which LLVM then deletes again (docs/compile_time.md). The address is
    numba's (a negative index wraps once, C order) and so is the row (its MemInfo counted, its parent
    kept). With bounds checking on, and for any other access, numba's own lowering."""
    import operator

    from llvmlite import ir as llvm_ir
    from numba.core import cgutils, imputils, types
    from numba.np import arrayobj

    if not all(hasattr(arrayobj, name) for name in ("getitem_arraynd_intp", "getitem_array_tuple", "setitem_array",
                                                    "load_item", "store_item")):
        return False
    lower = imputils.builtin_registry.lower  # numba's registry; the most specific type's implementation is chosen

    def direct(context, array_type, index_types) -> bool:
        return (type(array_type) is types.Array and array_type.layout == "C" and not context.enable_boundscheck
                and len(index_types) <= array_type.ndim
                and isinstance(array_type.dtype, (types.Number, types.Boolean))
                and all(isinstance(kind, types.Integer) and kind.signed for kind in index_types))

    def address(context, builder, array_type, array, index_types, indices):
        """The address of the element, or of the row's first element, the leading indices name."""
        shape = _member(context, builder, array_type, array, "shape")
        flat = None
        for axis in range(array_type.ndim):
            size = builder.extract_value(shape, axis)
            if axis < len(index_types):
                kind = index_types[axis]
                index = context.cast(builder, indices[axis], kind, types.intp)
                if not (isinstance(kind, types.IntegerLiteral) and kind.literal_value >= 0):
                    index = builder.select(builder.icmp_signed("<", index, index.type(0)), builder.add(index, size),
                                           index)
            else:
                index = None
            if flat is None:
                flat = index
            else:
                flat = builder.mul(flat, size) if index is None else builder.add(builder.mul(flat, size), index)
        return builder.gep(_member(context, builder, array_type, array, "data"), [flat])

    def row(context, builder, array_type, array, row_type, data, leading):
        """The array of the trailing axes at `data`: numba's view, with the source's MemInfo counted."""
        model = context.data_model_manager[row_type]
        shape, strides = (_member(context, builder, array_type, array, name) for name in ("shape", "strides"))
        row_shape, row_strides = (llvm_ir.Constant(model.get_value_type().elements[model.get_field_position(name)],
                                                   llvm_ir.Undefined) for name in ("shape", "strides"))
        nitems = context.get_constant(types.intp, 1)
        for axis in range(row_type.ndim):
            size = builder.extract_value(shape, leading + axis)
            nitems = builder.mul(nitems, size, flags=["nsw"])
            row_shape = builder.insert_value(row_shape, size, axis)
            row_strides = builder.insert_value(row_strides, builder.extract_value(strides, leading + axis), axis)
        kept = {name: _member(context, builder, array_type, array, name) for name in ("meminfo", "parent", "itemsize")}
        value = _struct(context, builder, row_type, nitems=nitems, data=data, shape=row_shape, strides=row_strides,
                        **kept)
        return imputils.impl_ret_borrowed(context, builder, row_type, value)

    def get(context, builder, sig, array, index_types, indices):
        array_type, result_type = sig.args[0], sig.return_type
        pointer = address(context, builder, array_type, array, index_types, indices)
        if len(index_types) == array_type.ndim:
            return arrayobj.load_item(context, builder, array_type, pointer)
        return row(context, builder, array_type, array, result_type, pointer, len(index_types))

    def viewable(sig, index_count) -> bool:
        result_type = sig.return_type
        return index_count == sig.args[0].ndim or (type(result_type) is types.Array and result_type.layout == "C"
                                                   and result_type.ndim == sig.args[0].ndim - index_count)

    @lower(operator.getitem, types.Array, types.Integer)
    def get_by_integer(context, builder, sig, args):
        if not (direct(context, sig.args[0], sig.args[1:]) and viewable(sig, 1)):
            return arrayobj.getitem_arraynd_intp(context, builder, sig, args)
        return get(context, builder, sig, args[0], sig.args[1:], args[1:])

    @lower(operator.getitem, types.Array, types.BaseTuple)
    def get_by_tuple(context, builder, sig, args):
        index_types = tuple(sig.args[1].types)
        if not (direct(context, sig.args[0], index_types) and viewable(sig, len(index_types))):
            return arrayobj.getitem_array_tuple(context, builder, sig, args)
        indices = cgutils.unpack_tuple(builder, args[1], len(index_types))
        return get(context, builder, sig, args[0], index_types, indices)

    @lower(operator.setitem, types.Array, types.Integer, types.Any)
    @lower(operator.setitem, types.Array, types.BaseTuple, types.Any)
    def set_element(context, builder, sig, args):
        array_type, index_type, value_type = sig.args
        index_types = tuple(index_type.types) if isinstance(index_type, types.BaseTuple) else (index_type,)
        if not (direct(context, array_type, index_types) and len(index_types) == array_type.ndim
                and isinstance(value_type, (types.Number, types.Boolean))):
            return arrayobj.setitem_array(context, builder, sig, args)
        indices = (cgutils.unpack_tuple(builder, args[1], len(index_types)) if isinstance(index_type, types.BaseTuple)
                   else (args[1],))
        pointer = address(context, builder, array_type, args[0], index_types, indices)
        value = context.cast(builder, args[2], value_type, array_type.dtype)
        return arrayobj.store_item(context, builder, array_type, value, pointer)

    return True


ELEMENTS_LOWERED_DIRECTLY = _elements_lowered_directly()


def _ranges_lowered_directly() -> bool:
    """Lower `for i in range(n)` and `range(a, b)` as values: the range as its three numbers, its
    iterator's start and count computed in place (the step is one), each step's index and its
    validity as a pair, without numba's structs copied to the stack, its zero-step check and division
    (about a hundred LLVM instructions a loop, docs/compile_time.md). The loop is numba's: the same
    counter and index in memory, counted and advanced as numba's are. A range of another step, or
    one not made in the block that iterates it, goes through numba's own lowering."""
    from llvmlite import ir as llvm_ir
    from numba.core import base, cgutils, imputils, types
    from numba.cpython import rangeobj  # noqa: F401  (numba's range lowering, registered before this one)

    state_type, iterator_type = types.range_state64_type, types.range_iter64_type
    registered = {(key, signature): implementation for implementation, key, signature
                  in imputils.builtin_registry.functions}
    numba_iterate = registered.get(("getiter", (state_type,)))
    pair_code = [getattr(getattr(base.BaseContext, name, None), "__code__", None)
                 for name in ("pair_first", "pair_second")]
    if (numba_iterate is None or ("iternext", (iterator_type,)) not in registered
            or any(code is None or code.co_varnames[:4] != ("self", "builder", "val", "ty") for code in pair_code)):
        return False
    lower = imputils.builtin_registry.lower  # registered after numba's own for the same types: chosen over them

    @lower(range, types.int64)
    def range_to(context, builder, sig, args):
        return _struct(context, builder, state_type, start=context.get_constant(types.int64, 0), stop=args[0],
                       step=context.get_constant(types.int64, 1))

    @lower(range, types.int64, types.int64)
    def range_from_to(context, builder, sig, args):
        return _struct(context, builder, state_type, start=args[0], stop=args[1],
                       step=context.get_constant(types.int64, 1))

    def step_of(context, value):
        """The range's step where it is a constant inserted in this block, else None."""
        position = context.data_model_manager[state_type].get_field_position("step")
        while isinstance(value, llvm_ir.InsertValue):
            if list(value.indices) == [position]:
                return value.value.constant if isinstance(value.value, llvm_ir.Constant) else None
            value = value.aggregate
        return None

    @lower("getiter", state_type)
    def iterate(context, builder, sig, args):
        (state,) = args
        if step_of(context, state) != 1:
            return numba_iterate(context, builder, sig, args)
        start, stop = (_member(context, builder, state_type, state, name) for name in ("start", "stop"))
        current = cgutils.alloca_once_value(builder, start)
        count = cgutils.alloca_once(builder, start.type)
        difference = builder.sub(stop, start)
        zero = context.get_constant(types.int64, 0)
        builder.store(builder.select(builder.icmp_signed(">", difference, zero), difference, zero), count)
        return _struct(context, builder, iterator_type, iter=current, stop=stop,
                       step=context.get_constant(types.int64, 1), count=count)

    @lower("iternext", iterator_type)
    def next_index(context, builder, sig, args):
        (iterator,) = args
        current, count_pointer, step = (_member(context, builder, iterator_type, iterator, name)
                                        for name in ("iter", "count", "step"))
        count = builder.load(count_pointer)
        valid = builder.icmp_signed(">", count, context.get_constant(types.int64, 0))
        index = builder.load(current)
        with builder.if_then(valid):
            builder.store(builder.sub(count, context.get_constant(types.int64, 1), flags=["nsw"]), count_pointer)
            builder.store(builder.add(index, step), current)
        return _struct(context, builder, sig.return_type, first=index, second=valid)

    def pair_first(self, builder, val, ty):
        return _member(self, builder, ty, val, "first")

    def pair_second(self, builder, val, ty):
        return _member(self, builder, ty, val, "second")

    base.BaseContext.pair_first, base.BaseContext.pair_second = pair_first, pair_second
    return True


RANGES_LOWERED_DIRECTLY = _ranges_lowered_directly()
