#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets: tests/fuzz/corpus/<target>/
for the object targets and the backward operators' fuzz_backward,
ops/<operator>/tests/corpus/ for each operator's or engine's.

Each seed is built with Seed, an encoder of the grammar fuzz_support.hpp's
Decoder reads (keep the two in step).  Per target the seeds reach every
argument check of the API, the empty-tensor path and successful calls that
run phase 2 on the device.  Run it after changing the grammar:

    python3 tests/fuzz/make_seeds.py
"""
import pathlib
import struct

# fuzz_support.cpp's tables, in the same order.
DTYPES = [0, 1, 27, 11, 12, 2, 6, 3, 9, 4, 7, 8, 10, 16, 17, 33, 13, 29, 30, 34, 35, 36, 37, 38, 39, 40, 41,
          -1, 5, 14, 15, 18, 26, 28, 42, 255, 2**31 - 1, -2**31, -2]
FORMATS = [2, 0, 1, 3, 4, 12, 16, 27, 29, 30, 32, 33, 35, 47, 50, 51, 52, 53, 54, -1, 5, 100, 2**31 - 1]
SPECIAL_DIMS = [-1, -2**63, 2**63 - 1, 2**62, 2**32, 2**31, 2**40, 3037000500, 16, 63, 64, 65, 127, 128, 255, 256,
                1000, 1023, 1024, 1025, 2048, 4095, 4096, 4097, 8192, 8193, 65536, 2**20, -4096, -2**40, 9]
RAW_DIM = 224 + 31

FLOAT, FLOAT16, INT8, INT32, UINT8, INT16, UINT16, INT64, DOUBLE, BOOL, BF16 = 0, 1, 2, 3, 4, 6, 7, 9, 11, 12, 27
UINT32, UINT64, COMPLEX64, COMPLEX128, COMPLEX32 = 8, 10, 16, 17, 33
NZ = 29
NCHW = 0
ON_DEVICE, PHASE1_ONLY = 0, 1


def f32(value):
    return struct.pack('<f', value)


def f64(value):
    return struct.pack('<d', value)


class Seed:
    """Records choices in the order the Decoder reads them; FuzzedDataProvider
    reads integers from the end of the input, most significant byte first,
    so the input is the recorded stream reversed."""

    def __init__(self):
        self.stream = []
        self.made = []  # shapes of the non-null tensors, as the Decoder's made_

    def byte(self, value):
        self.stream.append(value & 0xFF)

    def word(self, value):
        self.stream += list((value & (2**64 - 1)).to_bytes(8, 'big'))

    def bit(self, value):
        self.byte(1 if value else 0)

    def rare(self, value=False):
        self.byte(15 if value else 0)

    def real(self, value):
        self.word(int.from_bytes(f64(value), 'little'))

    def dim(self, value):
        if 0 <= value <= 8:
            self.byte(value)
        elif value in SPECIAL_DIMS:
            self.byte(224 + SPECIAL_DIMS.index(value))
        else:
            self.byte(RAW_DIM)
            self.word(value)

    def dtype(self, code):
        self.byte(DTYPES.index(code))

    def tensor(self, shape=(), dtype=FLOAT, strides='null', offset=0, storage='fit', fmt=2, copy=None,
               broadcast=None, null=False):
        """A fresh tensor, or (copy=i) a copy of the i-th non-null tensor with
        dtype None meaning "keep its dtype", or (broadcast=(i, drop, ones))
        that tensor less its drop leading dims, with dims in ones set to 1."""
        if null:
            self.byte(7)
            return
        ref = copy if copy is not None else broadcast[0] if broadcast is not None else None
        if ref is None or not self.made:
            self.byte(0)
            self.byte(len(shape))
            for d in shape:
                self.dim(d)
            self.dtype(FLOAT if dtype is None else dtype)
        else:
            self.byte(2 if broadcast is None else 6)
            if len(self.made) > 1:
                self.byte(ref)
            shape = list(self.made[ref])
            if broadcast is not None:
                _, drop, ones = broadcast
                if shape:
                    self.byte(drop)
                shape = shape[drop:]
                for i in range(len(shape)):
                    self.bit(i in ones)
                    if i in ones:
                        shape[i] = 1
            self.bit(dtype is not None)
            if dtype is not None:
                self.dtype(dtype)
        if strides == 'null':
            self.byte(0)
        elif strides == 'row':
            self.byte(1)
        elif strides == 'col':
            self.byte(3)
        else:
            self.byte(2)
            for s in strides:
                self.dim(s)
        self.bit(offset != 0)
        if offset != 0:
            self.dim(offset)
        if storage == 'fit':
            self.byte(0)
        elif storage == 'short':
            self.byte(4)
        elif storage == 'view':
            self.byte(2)
        elif isinstance(storage, int):  # slack elements past the view's reach
            self.byte(1)
            self.byte(storage)
        else:
            self.byte(3)
            self.byte(len(storage))
            for d in storage:
                self.dim(d)
        if fmt == 2:
            self.byte(0)
        elif fmt == NZ:
            self.byte(6)
        else:
            self.byte(7)
            self.byte(FORMATS.index(fmt))
        self.made.append(list(shape))

    def scalar(self, dtype=FLOAT, value=b'', kind='value'):
        if kind == 'null':
            self.byte(7)
            return
        self.byte(6 if kind == 'null_value' else 0)
        self.dtype(dtype)
        raw = value.ljust(16, b'\0')
        self.word(int.from_bytes(raw[:8], 'little'))
        self.word(int.from_bytes(raw[8:], 'little'))

    def small_int(self, value):
        """fuzz_support.hpp's int_of: value + 10 in a byte, or byte 255 and a raw word."""
        if -10 <= value <= 21:
            self.byte(value + 10)
        else:
            self.byte(255)
            self.word(value & (2**64 - 1))

    def run(self, null_workspace_size=False, null_executor=False):
        self.rare(null_workspace_size)
        self.rare(null_executor)

    def data(self):
        return bytes(reversed(self.stream))


# ---------------------------------------------------------------------------- operators


def elementwise_seeds(tail, tensors=3, dtypes=(FLOAT, FLOAT16, BF16), bad_dtype=INT32, **kwargs):
    """Seeds for an operator whose tensors all share one shape; tail(seed)
    encodes what follows the tensors (scalars, doubles, run flags)."""
    def seed(shape=(2, 3), dtype=FLOAT, place=ON_DEVICE, override=None, run=()):
        s = Seed()
        s.byte(place)
        for i in range(tensors):
            args = (override or {}).get(i)
            if args is not None:
                s.tensor(**args)
            elif i == 0:
                s.tensor(shape, dtype)
            else:
                s.tensor(copy=0, dtype=None)
        tail(s, *run)
        return s

    seeds = {}
    for dtype in dtypes:
        seeds[f'ok_{dtype}'] = seed(dtype=dtype)
    seeds['ok_rank0'] = seed(shape=())
    seeds['ok_rank8'] = seed(shape=(1, 2, 1, 2, 1, 2, 1, 2))
    seeds['ok_4097'] = seed(shape=(4097,))
    seeds['ok_8193'] = seed(shape=(8193,))
    seeds['ok_phase1_only'] = seed(place=PHASE1_ONLY)
    seeds['ok_empty'] = seed(shape=(0, 3))
    seeds['ok_col_major_output'] = seed(override={tensors - 1: dict(copy=0, dtype=None, strides='col')})
    seeds['ok_offset_input'] = seed(override={1: dict(copy=0, dtype=None, offset=3, storage=5)})
    seeds['ok_strided_input'] = seed(override={1: dict(copy=0, dtype=None, strides=[8, 2], storage=4)})
    seeds['ok_storage_as_view'] = seed(override={0: dict(shape=(2, 3), storage='view')})
    seeds['ok_nz_format'] = seed(override={0: dict(shape=(2, 3), fmt=NZ)})
    for i in range(tensors):
        seeds[f'null_tensor{i}'] = seed(override={i: dict(null=True)})
        seeds[f'bad_dtype{i}'] = seed(override={i: dict(copy=0, dtype=bad_dtype)} if i else
                                      {0: dict(shape=(2, 3), dtype=bad_dtype)})
        seeds[f'unknown_dtype{i}'] = seed(override={i: dict(copy=0, dtype=255)} if i else
                                          {0: dict(shape=(2, 3), dtype=255)})
        seeds[f'short_storage{i}'] = seed(override={i: dict(copy=0, dtype=None, storage='short')} if i else
                                          {0: dict(shape=(2, 3), storage='short')})
        seeds[f'rank9_{i}'] = seed(shape=(1,) * 9) if i == 0 else seed(
            override={i: dict(shape=(1, 1, 1, 1, 1, 1, 1, 2, 3), dtype=FLOAT)})
        seeds[f'shape_mismatch{i}'] = seed(override={i: dict(shape=(3, 2), dtype=FLOAT)}) if i else None
    seeds['negative_dim'] = seed(override={1: dict(shape=(-1, 3))})
    seeds['huge_dims'] = seed(shape=(2**62, 2**62))
    seeds['huge_stride'] = seed(override={1: dict(copy=0, dtype=None, strides=[2**63 - 1, 1])})
    seeds['huge_offset'] = seed(override={1: dict(copy=0, dtype=None, offset=2**63 - 1)})
    seeds['overflow_square'] = seed(shape=(3037000500, 3037000500))
    seeds['null_workspace_size'] = seed(run=(True, False))
    seeds['null_executor'] = seed(run=(False, True))
    seeds.update(kwargs)
    return {name: s for name, s in seeds.items() if s is not None}


def softplus_tail(s, null_ws=False, null_ex=False, beta=(FLOAT, f32(1.0)), threshold=(FLOAT, f32(20.0))):
    for spec in (beta, threshold):
        if spec is None:
            s.scalar(kind='null')
        else:
            s.scalar(*spec)
    s.run(null_ws, null_ex)


def softplus_seeds():
    seeds = elementwise_seeds(softplus_tail, dtypes=(FLOAT, FLOAT16, BF16, DOUBLE), bad_dtype=INT32)

    def with_scalars(name, beta, threshold, self_dtype=FLOAT):
        s = Seed()
        s.byte(ON_DEVICE)
        s.tensor((2, 3), FLOAT)
        s.tensor(copy=0, dtype=self_dtype)
        s.tensor(copy=0, dtype=None)
        softplus_tail(s, beta=beta, threshold=threshold)
        seeds[name] = s

    with_scalars('null_beta', None, (FLOAT, f32(20.0)))
    with_scalars('null_threshold', (FLOAT, f32(1.0)), None)
    with_scalars('int_self', (FLOAT, f32(1.0)), (FLOAT, f32(20.0)), INT32)
    with_scalars('bool_self', (FLOAT, f32(1.0)), (FLOAT, f32(20.0)), BOOL)
    with_scalars('uint16_self', (FLOAT, f32(1.0)), (FLOAT, f32(20.0)), UINT16)
    with_scalars('double_beta_nan', (DOUBLE, f64(float('nan'))), (INT64, (7).to_bytes(8, 'little')))
    return seeds


def hardshrink_tail(s, null_ws=False, null_ex=False, lambd=(FLOAT, f32(0.5))):
    if lambd is None:
        s.scalar(kind='null')
    else:
        s.scalar(*lambd)
    s.run(null_ws, null_ex)


def hardshrink_seeds():
    seeds = elementwise_seeds(hardshrink_tail, bad_dtype=DOUBLE)

    def custom(name, tensors, lambd=(FLOAT, f32(0.5))):
        s = Seed()
        s.byte(ON_DEVICE)
        for args in tensors:
            s.tensor(**args)
        hardshrink_tail(s, lambd=lambd)
        seeds[name] = s

    custom('ok_broadcast', [dict(shape=(3,)), dict(shape=(2, 3)), dict(copy=1, dtype=None)])
    custom('ok_promote', [dict(shape=(2, 3)), dict(copy=0, dtype=FLOAT16), dict(copy=0, dtype=FLOAT16)])
    custom('ok_broadcast_variant', [dict(shape=(2, 3, 4)), dict(broadcast=(0, 1, {0})), dict(copy=0, dtype=None)])
    custom('not_broadcastable', [dict(shape=(2, 3)), dict(shape=(2, 4)), dict(copy=0, dtype=None)])
    custom('grad_input_not_broadcast_shape',
           [dict(shape=(3,)), dict(shape=(2, 3)), dict(copy=0, dtype=None)])
    custom('ok_empty_not_broadcastable', [dict(shape=(0,)), dict(shape=(1, 1, 1, 4)), dict(shape=(2,))])
    custom('null_lambd', [dict(shape=(2, 3)), dict(copy=0, dtype=None), dict(copy=0, dtype=None)], None)
    custom('negative_lambd', [dict(shape=(2, 3)), dict(copy=0, dtype=None), dict(copy=0, dtype=None)],
           (FLOAT, f32(-1.0)))
    custom('complex_lambd', [dict(shape=(2, 3)), dict(copy=0, dtype=None), dict(copy=0, dtype=None)],
           (16, f32(1.0) + f32(2.0)))
    return seeds


def logit_tail(s, null_ws=False, null_ex=False, eps=-1.0):
    s.real(eps)
    s.run(null_ws, null_ex)


def logit_seeds():
    seeds = elementwise_seeds(logit_tail, bad_dtype=DOUBLE)
    for name, eps in (('eps_0_1', 0.1), ('eps_nan', float('nan')), ('eps_inf', float('inf')), ('eps_2', 2.0)):
        s = Seed()
        s.byte(ON_DEVICE)
        s.tensor((2, 3), FLOAT)
        s.tensor(copy=0, dtype=None)
        s.tensor(copy=0, dtype=None)
        logit_tail(s, eps=eps)
        seeds[name] = s
    s = Seed()
    s.byte(ON_DEVICE)
    s.tensor((20000,), FLOAT16)
    s.tensor(copy=0, dtype=None)
    s.tensor(copy=0, dtype=None, strides=[2], storage=[40000])
    logit_tail(s)
    seeds['ok_three_chunks_strided_out'] = s
    return seeds


def softmax_seeds():
    seeds = {}

    def seed(name, data=(2, 2, 2, 4), dtype=FLOAT, mask=None, overrides=None, scale=1.0, fix_triu=False,
             run=(False, False), place=ON_DEVICE):
        overrides = overrides or {}
        s = Seed()
        s.byte(place)
        s.tensor(**overrides.get(0, dict(shape=data, dtype=dtype)))
        s.tensor(**overrides.get(1, dict(copy=0, dtype=None)))
        s.tensor(**overrides.get(2, dict(shape=mask if mask is not None else data, dtype=BOOL)))
        s.tensor(**overrides.get(3, dict(copy=0, dtype=None)))
        s.real(scale)
        s.rare(fix_triu)
        s.run(*run)
        seeds[name] = s

    for dtype in (FLOAT, FLOAT16, BF16):
        seed(f'ok_{dtype}', dtype=dtype)
    seed('ok_scale', scale=0.125)
    seed('ok_scale_nan', scale=float('nan'))
    seed('ok_mask_11', mask=(1, 1, 2, 4))
    seed('ok_mask_b1', mask=(2, 1, 2, 4))
    seed('ok_mask_1n', mask=(1, 2, 2, 4))
    seed('ok_s2_1025', data=(1, 1, 2, 1025))
    seed('ok_s2_4096', data=(1, 1, 1, 4096))
    seed('ok_many_rows', data=(2, 3, 64, 16))
    seed('ok_phase1_only', place=PHASE1_ONLY)
    seed('ok_empty', data=(0, 2, 2, 4))
    seed('ok_strided_input', overrides={1: dict(copy=0, dtype=None, strides='col')})
    seed('ok_out_f16_with_room', overrides={3: dict(copy=0, dtype=FLOAT16, storage=(64,))})
    seed('out_f16_too_small', overrides={3: dict(copy=0, dtype=FLOAT16)})
    seed('s2_4097', data=(1, 1, 1, 4097))
    seed('rank3', data=(2, 2, 4))
    seed('rank5', data=(1, 2, 2, 2, 4))
    seed('y_shape', overrides={1: dict(shape=(2, 2, 2, 3))})
    seed('out_shape', overrides={3: dict(shape=(2, 2, 4, 2))})
    seed('mask_rank3', mask=(2, 2, 4))
    seed('mask_last_dims', mask=(2, 2, 2, 3))
    seed('mask_batch', mask=(3, 2, 2, 4))
    seed('mask_float', overrides={2: dict(copy=0, dtype=None)})
    seed('y_dtype', overrides={1: dict(copy=0, dtype=FLOAT16)})
    seed('bad_dtype', dtype=DOUBLE)
    seed('unknown_dtype', dtype=255)
    seed('nz_data', overrides={0: dict(shape=(2, 2, 2, 4), fmt=NZ)})
    seed('nz_mask', overrides={2: dict(shape=(2, 2, 2, 4), dtype=BOOL, fmt=NZ)})
    seed('fix_triu_mask', fix_triu=True)
    seed('short_storage_mask', overrides={2: dict(shape=(2, 2, 2, 4), dtype=BOOL, storage='short')})
    seed('huge_s1', data=(2**40, 2, 2, 4))
    for i in range(4):
        seed(f'null_tensor{i}', overrides={i: dict(null=True)})
    seed('null_workspace_size', run=(True, False))
    seed('null_executor', run=(False, True))
    return seeds


def prelu_seeds():
    seeds = {}

    def seed(name, self_shape=(2, 3, 4), weight=(3,), grad_weight=None, dtype=FLOAT, overrides=None,
             run=(False, False), place=ON_DEVICE):
        overrides = overrides or {}
        s = Seed()
        s.byte(place)
        s.tensor(**overrides.get(0, dict(shape=self_shape, dtype=dtype)))             # gradOutput
        s.tensor(**overrides.get(1, dict(copy=0, dtype=None)))                        # self
        s.tensor(**overrides.get(2, dict(shape=weight, dtype=dtype)))                 # weight
        s.tensor(**overrides.get(3, dict(copy=1, dtype=None)))                        # gradInput
        s.tensor(**overrides.get(4, dict(shape=grad_weight if grad_weight is not None else weight, dtype=dtype)))
        s.run(*run)
        seeds[name] = s

    for dtype in (FLOAT, FLOAT16, BF16):
        seed(f'ok_{dtype}', dtype=dtype)
    seed('ok_scalar_weight', weight=(1,))
    seed('ok_1d_self', self_shape=(5,), weight=(1,))
    seed('ok_weight_4d', weight=(1, 3, 1, 1), grad_weight=(3,))
    seed('ok_broadcast_grad_output', overrides={0: dict(shape=(4,), dtype=FLOAT), 1: dict(shape=(2, 3, 4))})
    seed('ok_rank8', self_shape=(2, 3, 1, 1, 1, 1, 1, 2))
    seed('ok_big', self_shape=(4, 16, 512), weight=(16,))
    seed('ok_strided_self', overrides={1: dict(copy=0, dtype=None, strides='col')})
    seed('ok_phase1_only', place=PHASE1_ONLY)
    seed('ok_empty', self_shape=(0, 3, 4))
    seed('weight_not_channels', weight=(4,))
    seed('grad_weight_4d', weight=(1, 3, 1, 1))
    seed('grad_weight_shape', grad_weight=(2,))
    seed('rank0_self', self_shape=(), weight=(2,))
    seed('broadcast_grows_self', overrides={0: dict(shape=(5, 2, 3, 4), dtype=FLOAT), 1: dict(shape=(2, 3, 4))})
    seed('not_broadcastable', overrides={0: dict(shape=(2, 3, 5), dtype=FLOAT), 1: dict(shape=(2, 3, 4))})
    seed('grad_input_shape', overrides={3: dict(shape=(2, 3, 5), dtype=FLOAT)})
    seed('dtype_mismatch', overrides={2: dict(shape=(3,), dtype=FLOAT16)})
    seed('bad_dtype', dtype=DOUBLE)
    seed('rank9', self_shape=(2, 3, 1, 1, 1, 1, 1, 1, 1))
    seed('short_storage_weight', overrides={2: dict(shape=(3,), storage='short')})
    seed('huge_channels', self_shape=(2, 2**40), weight=(2**40,))
    for i in range(5):
        seed(f'null_tensor{i}', overrides={i: dict(null=True)})
    seed('null_workspace_size', run=(True, False))
    seed('null_executor', run=(False, True))
    return seeds


# fuzz_backward.cpp's kEntries, in the same order: each operator's seeds.
BACKWARD_ENTRIES = (('hardshrink_backward', hardshrink_seeds), ('logit_grad', logit_seeds),
                    ('softplus_backward', softplus_seeds), ('prelu_backward', prelu_seeds),
                    ('scaled_masked_softmax_backward', softmax_seeds))


def backward_seeds():
    """The seeds of the five backward operators for their one target,
    fuzz_backward: each operator's, its entry byte following the call's
    place byte."""
    seeds = {}
    for entry, (operator, operator_seeds) in enumerate(BACKWARD_ENTRIES):
        for name, s in operator_seeds().items():
            s.stream.insert(1, entry)
            seeds[f'{operator}_{name}'] = s
    return seeds


# ---------------------------------------------------------------------------- the arithmetic family


def value_of(dtype, value):
    """The bytes of an aclScalar of dtype holding value (complex: a pair)."""
    if dtype in (COMPLEX64, COMPLEX128):
        z = complex(value)
        fmt = '<ff' if dtype == COMPLEX64 else '<dd'
        return struct.pack(fmt, z.real, z.imag)
    if dtype == FLOAT:
        return f32(value)
    if dtype == DOUBLE:
        return f64(value)
    if dtype == FLOAT16:
        return struct.pack('<e', value)
    if dtype == BF16:
        return f32(value)[2:]
    if dtype == BOOL:
        return bytes([1 if value else 0])
    sizes = {INT8: 1, UINT8: 1, INT16: 2, UINT16: 2, INT32: 4, UINT32: 4, INT64: 8, UINT64: 8}
    return (int(value) & (2**(8 * sizes[dtype]) - 1)).to_bytes(sizes[dtype], 'little')


# Ordered as fuzz_binary.cpp's kSpecialModes; the last reads a raw word.
SPECIAL_MODES = [-1, 3, 4, -2, -2**31, 2**31 - 1, 255, 256, -256, 65536, -2**31 + 1, 2**31 - 2, 100, -100, 7, 0]

# The binary engine's entry points (fuzz_binary.cpp), in the order of its
# selector byte: (name, tensor kind, the scalars after the tensors with their
# default value, mode).  First the arithmetic family's ...
BINARY_ENTRIES = [
    ('add', 'pair_out', ['alpha'], False), ('adds', 'one_out', ['other', 'alpha'], False),
    ('inplace_add', 'inplace_pair', ['alpha'], False), ('inplace_adds', 'inplace_one', ['other', 'alpha'], False),
    ('add_v3', 'one_out', ['self', 'alpha'], False), ('inplace_add_v3', 'inplace_one', ['self', 'alpha'], False),
    ('sub', 'pair_out', ['alpha'], False), ('subs', 'one_out', ['other', 'alpha'], False),
    ('inplace_sub', 'inplace_pair', ['alpha'], False), ('inplace_subs', 'inplace_one', ['other', 'alpha'], False),
    ('rsub', 'pair_out', ['alpha'], False), ('rsubs', 'one_out', ['other', 'alpha'], False),
    ('mul', 'pair_out', [], False), ('muls', 'one_out', ['other'], False),
    ('inplace_mul', 'inplace_pair', [], False), ('inplace_muls', 'inplace_one', ['other'], False),
    ('div', 'pair_out', [], False), ('divs', 'one_out', ['other'], False),
    ('inplace_div', 'inplace_pair', [], False), ('inplace_divs', 'inplace_one', ['other'], False),
    ('div_mod', 'pair_out', [], True), ('div_mods', 'one_out', ['other'], True),
    ('inplace_div_mod', 'inplace_pair', [], True), ('inplace_div_mods', 'inplace_one', ['other'], True),
    # ... then the pow and comparison families'.
    ('pow_tensor_tensor', 'pair_out', [], False), ('pow_tensor_scalar', 'one_out', ['exponent'], False),
    ('inplace_pow_tensor_tensor', 'inplace_pair', [], False),
    ('inplace_pow_tensor_scalar', 'inplace_one', ['exponent'], False),
    ('pow_scalar_tensor', 'one_out', ['self'], False),
    ('eq_tensor', 'pair_out', [], False), ('gt_scalar', 'one_out', ['other'], False),
    ('inplace_eq_tensor', 'inplace_pair', [], False), ('inplace_gt_scalar', 'inplace_one', ['other'], False),
    # ... then the fill family's InplaceMaskedFillScalar (its other is the mask).
    ('inplace_masked_fill_scalar', 'inplace_pair', ['value'], False),
    # ... then the gradients on (gradOutput, x, gradInput); GeluBackwardV2's approximate rides in the mode byte
    # (b%4: none, tanh, erf, null).
    ('gelu_backward', 'pair_out', [], False), ('gelu_backward_v2', 'pair_out', [], True),
    ('silu_backward', 'pair_out', [], False), ('sigmoid_backward', 'pair_out', [], False),
    ('threshold_backward', 'pair_out', ['threshold'], False), ('tanh_backward', 'pair_out', [], False),
]
BINARY_ENTRY = {entry[0]: index for index, entry in enumerate(BINARY_ENTRIES)}
SCALAR_DEFAULTS = {'value': (FLOAT, -1.0), 'alpha': (FLOAT, 1.0), 'other': (FLOAT, 2.0), 'self': (FLOAT, 3.0), 'exponent': (FLOAT, 2.5),
                   'threshold': (FLOAT, 0.5)}
ARITH_DTYPES = (FLOAT, FLOAT16, BF16, DOUBLE, INT32, INT64, INT16, INT8, UINT8, BOOL, COMPLEX64, COMPLEX128)


def arith_out(s, out):
    """fuzz_binary.cpp's out%8: a tensor (dict), ('broadcast', dtype or
    None for self's), 'self' or 'other'."""
    if isinstance(out, dict):
        s.byte(0)
        s.tensor(**out)
    elif out == 'self':
        s.byte(6)
    elif out == 'other':
        s.byte(7)
    else:
        s.byte(5)
        s.bit(out[1] is not None)
        if out[1] is not None:
            s.dtype(out[1])


def arith_mode(s, mode):
    if 0 <= mode <= 2:
        s.byte(mode)
    elif mode in SPECIAL_MODES[:-1]:
        s.byte(240 + SPECIAL_MODES.index(mode))
    else:
        s.byte(255)
        s.word(mode)


def arith_seed(entry, kind, scalar_names, has_mode, self=None, other=None, out=None, scalars=None, mode=0,
               place=ON_DEVICE, run=(False, False)):
    """One call of entry point number `entry`: tensors as Seed.tensor's
    arguments (other 'self' aliases an in-place selfRef), scalars by name as
    (dtype, value), None (a null scalar) or 'null_value'."""
    s = Seed()
    s.byte(place)
    s.byte(entry)
    s.tensor(**(self or dict(shape=(2, 3), dtype=FLOAT)))
    if kind == 'pair_out':
        s.tensor(**(other or dict(copy=0, dtype=None)))
        arith_out(s, out if out is not None else dict(copy=0, dtype=None))
    elif kind == 'one_out':
        arith_out(s, out if out is not None else dict(copy=0, dtype=None))
    elif kind == 'inplace_pair':
        if other == 'self':
            s.byte(7)
        else:
            s.byte(0)
            s.tensor(**(other or dict(copy=0, dtype=None)))
    scalars = scalars or {}
    for name in scalar_names:
        spec = scalars.get(name, SCALAR_DEFAULTS[name])
        if spec is None:
            s.scalar(kind='null')
        elif spec == 'null_value':
            s.scalar(FLOAT, kind='null_value')
        else:
            s.scalar(spec[0], value_of(*spec))
    if has_mode:
        arith_mode(s, mode)
    s.run(*run)
    return s


def two_operand_seeds(entries):
    """Per entry point (BINARY_ENTRIES' rows): valid
    launches of every dtype, of broadcast shapes, strided and aliased
    operands, and the errors of each check (nulls, dtypes, shapes, formats,
    storage, modes)."""
    seeds = {}
    for entry, (api, kind, scalar_names, has_mode) in enumerate(entries):
        def add(name, **kwargs):
            seeds[f'{api}_{name}'] = arith_seed(entry, kind, scalar_names, has_mode, **kwargs)

        pair = kind in ('pair_out', 'inplace_pair')
        has_out = kind in ('pair_out', 'one_out')
        int_scalars = {name: (INT64, 2) for name in scalar_names}
        for dtype in ARITH_DTYPES:
            add(f'ok_{dtype}', self=dict(shape=(2, 3), dtype=dtype),
                scalars=int_scalars if dtype not in (FLOAT, FLOAT16, BF16, DOUBLE, COMPLEX64, COMPLEX128) else None)
        add('ok_alpha_2_5', scalars={name: (FLOAT, 2.5) for name in scalar_names})
        add('ok_alpha_nan', scalars={name: (DOUBLE, float('nan')) for name in scalar_names})
        add('ok_scalar_complex', scalars={name: (COMPLEX64, 1 + 2j) for name in scalar_names})
        add('ok_scalar_bool', self=dict(shape=(2, 3), dtype=BOOL), scalars={name: (BOOL, 1) for name in scalar_names})
        add('ok_scalar_half', self=dict(shape=(2, 3), dtype=FLOAT16),
            scalars={name: (FLOAT16, 0.5) for name in scalar_names})
        add('ok_rank0', self=dict(shape=()))
        add('ok_rank8', self=dict(shape=(1, 2, 1, 2, 1, 2, 1, 2)))
        add('ok_4097', self=dict(shape=(4097,), dtype=FLOAT16))
        add('ok_8193', self=dict(shape=(8193,)))
        add('ok_phase1_only', place=PHASE1_ONLY)
        add('ok_empty', self=dict(shape=(0, 3)))
        add('ok_strided_self', self=dict(shape=(2, 3), strides='col'))
        add('ok_offset_self', self=dict(shape=(2, 3), offset=3, storage=5))
        add('ok_strides_self', self=dict(shape=(2, 3), strides=[8, 2], storage=4))
        add('ok_nchw', self=dict(shape=(1, 2, 2, 3), fmt=NCHW))
        add('nz_format', self=dict(shape=(2, 3), fmt=NZ))
        add('rank9', self=dict(shape=(1,) * 9))
        add('unsupported_dtype', self=dict(shape=(2, 3), dtype=UINT16))
        add('uint32', self=dict(shape=(2, 3), dtype=UINT32))
        add('complex32', self=dict(shape=(2, 3), dtype=COMPLEX32))
        add('unknown_dtype', self=dict(shape=(2, 3), dtype=255))
        add('short_storage', self=dict(shape=(2, 3), storage='short'))
        add('negative_dim', self=dict(shape=(-1, 3)))
        add('huge_dims', self=dict(shape=(2**62, 2**62)))
        add('huge_stride', self=dict(shape=(2, 3), strides=[2**63 - 1, 1]))
        add('huge_offset', self=dict(shape=(2, 3), offset=2**63 - 1))
        # A stride-0 view of INT64_MAX INT8 elements (the tiling's UB chunk overflowed ceil_div: found by the fuzzer).
        add('int8_view_of_int64_max_elements', self=dict(shape=(2**63 - 1,), dtype=INT8, strides=[0]))
        add('null_self', self=dict(null=True))
        add('null_workspace_size', run=(True, False))
        add('null_executor', run=(False, True))
        for name in scalar_names:
            add(f'null_{name}', scalars={name: None})
            add(f'null_value_{name}', scalars={name: 'null_value'})
            add(f'bad_dtype_{name}', scalars={name: (UINT16, 1)})
            add(f'bool_{name}_int_self', self=dict(shape=(2, 3), dtype=BOOL), scalars={name: (FLOAT, 0.5)})
            # A complex scalar whose real part no int64 holds, into an integer compute dtype (Rsubs: the fuzzer
            # found to_int64 converting it without saturating).
            add(f'int_self_huge_complex_{name}', self=dict(shape=(2, 3), dtype=INT32),
                scalars={**int_scalars, name: (COMPLEX128, complex(3e296, 1))})
            add(f'int_self_nan_complex_{name}', self=dict(shape=(2, 3), dtype=INT64),
                scalars={**int_scalars, name: (COMPLEX64, complex(float('nan'), 0))})
        if pair:
            add('ok_broadcast_other', self=dict(shape=(2, 3, 4)), other=dict(broadcast=(0, 1, {1})))
            add('ok_broadcast_rank0_other', self=dict(shape=(2, 3)), other=dict(shape=(), dtype=FLOAT))
            add('ok_mixed_dtypes', self=dict(shape=(2, 3), dtype=FLOAT16), other=dict(copy=0, dtype=FLOAT),
                out=dict(copy=0, dtype=FLOAT))
            add('ok_int_float', self=dict(shape=(2, 3), dtype=INT32), other=dict(copy=0, dtype=FLOAT),
                out=dict(copy=0, dtype=FLOAT))
            add('ok_bool_int8', self=dict(shape=(2, 3), dtype=BOOL), other=dict(copy=0, dtype=INT8),
                out=dict(copy=0, dtype=INT8), scalars=int_scalars)
            add('ok_strided_other', other=dict(copy=0, dtype=None, strides=[1, 2], storage=2))
            add('not_broadcastable', self=dict(shape=(2, 3)), other=dict(shape=(2, 4), dtype=FLOAT))
            add('other_rank9', other=dict(shape=(1,) * 8 + (3,), dtype=FLOAT))
            add('null_other', other=dict(null=True))
            add('other_unknown_dtype', other=dict(copy=0, dtype=-2))
            add('other_short_storage', other=dict(copy=0, dtype=None, storage='short'))
            add('other_huge', other=dict(shape=(2**40, 1), dtype=FLOAT))
        if kind == 'pair_out':
            add('ok_mutual_broadcast', self=dict(shape=(2, 1, 4)), other=dict(shape=(3, 1), dtype=FLOAT),
                out=('broadcast', None))
            add('ok_mutual_broadcast_f16_out', self=dict(shape=(2, 1, 4), dtype=FLOAT16),
                other=dict(shape=(3, 1), dtype=FLOAT16), out=('broadcast', FLOAT))
            add('ok_other_bigger', self=dict(shape=(4,)), other=dict(shape=(2, 3, 4), dtype=FLOAT),
                out=dict(copy=1, dtype=None))
            add('ok_out_is_self', out='self')
            add('ok_out_is_other', out='other')
            add('ok_out_is_self_broadcast_other', self=dict(shape=(2, 3, 4)), other=dict(broadcast=(0, 2, set())),
                out='self')
            add('out_is_broadcast_other', self=dict(shape=(2, 3, 4)), other=dict(broadcast=(0, 2, set())),
                out='other')
            add('out_shape', out=dict(shape=(3, 2), dtype=FLOAT))
            add('out_broadcast_to_self_only', self=dict(shape=(2, 1, 4)), other=dict(shape=(3, 1), dtype=FLOAT),
                out=dict(copy=0, dtype=None))
        if kind == 'inplace_pair':
            add('ok_other_is_self', other='self')
            add('self_needs_broadcast', self=dict(shape=(3, 1)), other=dict(shape=(2, 3, 4), dtype=FLOAT))
            add('ok_inplace_int_self_float_other', self=dict(shape=(2, 3), dtype=INT32),
                other=dict(copy=0, dtype=FLOAT))
        if kind == 'one_out':
            add('ok_out_is_self', out='self')
            add('ok_contiguous_out', self=dict(shape=(2, 3), strides='col'), out=('broadcast', None))
            add('ok_contiguous_out_double', out=('broadcast', DOUBLE))
        if has_out:
            add('null_out', out=dict(null=True))
            add('ok_out_col_major', out=dict(copy=0, dtype=None, strides='col'))
            add('ok_out_offset', out=dict(copy=0, dtype=None, offset=2, storage=3))
            add('ok_out_float16', out=dict(copy=0, dtype=FLOAT16))
            add('out_int_from_float', out=dict(copy=0, dtype=INT32))
            add('out_bool_from_float', out=dict(copy=0, dtype=BOOL))
            add('out_unknown_dtype', out=dict(copy=0, dtype=255))
            # Dtypes can_cast admits from an integer but the kernel cannot write (refused since the fuzzer found
            # UINT16 written as FLOAT past its storage, and a division by zero in the tiling for sizeless codes).
            for dtype, name in ((UINT16, 'uint16'), (UINT32, 'uint32'), (UINT64, 'uint64'), (COMPLEX32, 'complex32'),
                                (13, 'string'), (29, 'int4')):
                add(f'out_{name}_from_int32', self=dict(shape=(2, 3), dtype=INT32), out=dict(copy=0, dtype=dtype),
                    scalars=int_scalars)
            add('out_short_storage', out=dict(copy=0, dtype=None, storage='short'))
            add('out_nz', out=dict(copy=0, dtype=None, fmt=NZ))
            add('out_zero_stride', out=dict(copy=0, dtype=None, strides=[0, 1], storage=3))
        if has_mode:
            for mode in SPECIAL_MODES[:-1] + [2**40 + 5]:
                add(f'mode_{mode}', mode=mode)
            for dtype in (FLOAT, FLOAT16, BF16, DOUBLE, INT32, INT64, INT8, UINT8, INT16, BOOL, COMPLEX64):
                for mode in (1, 2):
                    add(f'ok_{dtype}_mode{mode}', self=dict(shape=(2, 3), dtype=dtype), mode=mode,
                        scalars=int_scalars if dtype not in (FLOAT, FLOAT16, BF16, DOUBLE, COMPLEX64) else None)
            add('empty_complex_mode1', self=dict(shape=(0,), dtype=COMPLEX64), mode=1)
            add('ok_mode2_zero_divisor', self=dict(shape=(2, 3), dtype=INT32),
                scalars={name: (INT32, 0) for name in scalar_names}, mode=2)
    return seeds


# ---------------------------------------------------------------------------- the binary engine

def binary_seeds():
    """two_operand_seeds of every entry point on the binary engine, and the
    exponents that choose PowTensorScalar's kernels (Pows, Square, none)."""
    seeds = two_operand_seeds(BINARY_ENTRIES)
    for dtype in (FLOAT, FLOAT16, BF16, INT8, INT32, INT64, BOOL, DOUBLE, COMPLEX64):
        for value in (0.5, 2, 3, -0.5, -1, -2, 1, 0):
            scalar = (FLOAT, value) if dtype in (FLOAT, FLOAT16, BF16, DOUBLE, COMPLEX64) else (INT64, value)
            seeds[f'pow_tensor_scalar_ok_{dtype}_exponent_{value}'] = arith_seed(
                BINARY_ENTRY['pow_tensor_scalar'], 'one_out', ['exponent'], False, self=dict(shape=(2, 3), dtype=dtype),
                scalars={'exponent': scalar})
    # EqTensor checks only the promoted dtype on A2: a COMPLEX32 input reaches the engine (the fuzzer found it
    # read as floats past its storage).
    seeds['eq_tensor_complex32_self'] = arith_seed(BINARY_ENTRY['eq_tensor'], 'pair_out', [], False, self=dict(shape=(2, 3), dtype=COMPLEX32),
                                                   other=dict(copy=0, dtype=COMPLEX128), out=('broadcast', BOOL))
    # MaskedFill's mask is BOOL: full, broadcast and strided masks over every selfRef dtype.
    masked_fill = BINARY_ENTRY['inplace_masked_fill_scalar']
    for dtype in (FLOAT, FLOAT16, BF16, INT8, INT32, INT64, BOOL):
        for name, mask in (('full', dict(copy=0, dtype=BOOL)), ('broadcast', dict(broadcast=(0, 1, {0}), dtype=BOOL)),
                           ('strided', dict(copy=0, dtype=BOOL, strides='col'))):
            seeds[f'inplace_masked_fill_scalar_mask_{name}_{dtype}'] = arith_seed(
                masked_fill, 'inplace_pair', ['value'], False, self=dict(shape=(2, 3, 4), dtype=dtype), other=mask,
                scalars={'value': (DOUBLE, -float('inf')) if dtype in (FLOAT, FLOAT16, BF16) else (INT64, 300)})
    return seeds



# fuzz_binary.cpp's entries 40-43, the dropout family, follow BINARY_ENTRIES.
DROPOUT_ENTRY = len(BINARY_ENTRIES)


def mask_bytes(elements):
    """The mask's size for `elements` elements: whole 128-bit vectors."""
    return (elements + 127) // 128 * 16


def dropout_seeds():
    """fuzz_binary.cpp's dropout grammar: DoMask and DropoutBackward over
    every dtype with strided masks and outs, Dropout at p 0, between, 1 and
    NaN, train or not, and each GenMask form with FLOAT16/BF16/INT32 ratio
    dtypes, seed and offset tensors; then refusals (mask sizes, dtypes)."""
    seeds = {}

    def apply(entry, name, dtype, p, shape=(3, 50), mask=None, out=None, strides='null'):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(DROPOUT_ENTRY + entry)
        s.tensor(shape=shape, dtype=dtype, strides=strides)
        n = 1
        for d in shape:
            n *= d
        s.tensor(**(mask or dict(shape=(mask_bytes(n),), dtype=UINT8)))
        arith_out(s, out if out is not None else dict(copy=0, dtype=None))
        s.real(p)
        s.run()
        seeds[name] = s

    for dtype in (FLOAT, FLOAT16, BF16):
        for p in (0.0, 0.3, 1.0, float('nan')):
            apply(0, f'dropout_do_mask_{dtype}_p{p}', dtype, p)
        for scale in (2.0, 1.0, 0.0, 0.5):
            apply(1, f'dropout_backward_{dtype}_scale{scale}', dtype, scale)
    apply(0, 'dropout_do_mask_strided', FLOAT16, 0.25, strides='col', mask=dict(shape=(40,), dtype=UINT8, strides=(2,)),
          out=dict(copy=0, dtype=FLOAT, strides='col'))
    apply(0, 'dropout_do_mask_short_mask', FLOAT, 0.5, mask=dict(shape=(31,), dtype=UINT8))
    apply(0, 'dropout_do_mask_int_self', INT32, 0.5, out=dict(copy=0, dtype=FLOAT))
    apply(1, 'dropout_backward_long_mask', BF16, 2.0, mask=dict(shape=(48,), dtype=UINT8))

    def dropout(name, dtype, p, train, shape=(5, 30), out_dtype=None, mask_len=None):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(DROPOUT_ENTRY + 2)
        s.tensor(shape=shape, dtype=dtype)
        s.tensor(copy=0, dtype=out_dtype)
        n = 1
        for d in shape:
            n *= d
        s.tensor(shape=(mask_bytes(n) if mask_len is None else mask_len,), dtype=UINT8)
        s.real(p)
        s.bit(train)
        s.word(1234)
        s.word(5)
        s.run()
        seeds[name] = s

    for dtype in (FLOAT, FLOAT16, BF16):
        for p in (0.0, 0.4, 1.0):
            dropout(f'dropout_{dtype}_p{p}', dtype, p, True)
    dropout('dropout_eval', FLOAT, 0.4, False)
    dropout('dropout_nan_p', FLOAT16, float('nan'), True, out_dtype=FLOAT)
    dropout('dropout_wrong_mask', FLOAT, 0.4, True, mask_len=8)

    def gen_mask(name, form, shape, prob, prob_dtype=FLOAT, out_len=None):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(DROPOUT_ENTRY + 3)
        s.byte(form)
        s.byte(len(shape))
        n = 1
        for d in shape:
            s.small_int(d)
            n *= d
        s.rare(False)
        s.real(prob)
        s.word(99)
        s.word(7)
        s.dtype(prob_dtype)
        s.tensor(shape=(mask_bytes(n) if out_len is None else out_len,), dtype=UINT8)
        if form == 2:
            s.tensor(shape=(1,), dtype=INT64)
            s.tensor(shape=(1,), dtype=INT64)
        s.run()
        seeds[name] = s

    for form in range(3):
        for prob_dtype in (FLOAT, FLOAT16, BF16, INT32):
            gen_mask(f'dropout_gen_mask_{form}_{prob_dtype}', form, (3, 21, 5), 0.3, prob_dtype)
        gen_mask(f'dropout_gen_mask_{form}_p0', form, (7,), 0.0)
        gen_mask(f'dropout_gen_mask_{form}_p1', form, (2, 9), 1.0)
        gen_mask(f'dropout_gen_mask_{form}_wrong_size', form, (7,), 0.5, out_len=8)
    return seeds


# ---------------------------------------------------------------------------- objects


# ---------------------------------------------------------------------------- the unary engine

# fuzz_elementwise_unary.cpp's kEntries, in the same order: (api, in place,
# bound tensors, outGelu, scalars, signed-byte integers, activateLeft bit).
ELEMENTWISE_UNARY_ENTRIES = (
    [(api, 'Inplace' in api, 0, False, 0, 0, False) for api in (
        'aclnnAbs', 'aclnnNeg', 'aclnnInplaceNeg', 'aclnnSign', 'aclnnExp', 'aclnnInplaceExp', 'aclnnLog',
        'aclnnInplaceLog', 'aclnnSqrt', 'aclnnInplaceSqrt', 'aclnnSin', 'aclnnInplaceSin', 'aclnnCos',
        'aclnnInplaceCos', 'aclnnTanh', 'aclnnInplaceTanh', 'aclnnRelu', 'aclnnInplaceRelu', 'aclnnSigmoid',
        'aclnnInplaceSigmoid', 'aclnnHardsigmoid', 'aclnnInplaceHardsigmoid', 'aclnnHardswish',
        'aclnnInplaceHardswish', 'aclnnSilu', 'aclnnGelu')]
    + [('aclnnGeluV2', False, 0, False, 0, 1, False), ('aclnnElu', False, 0, False, 3, 0, False),
       ('aclnnInplaceElu', True, 0, False, 3, 0, False), ('aclnnLeakyRelu', False, 0, False, 1, 0, False),
       ('aclnnInplaceLeakyRelu', True, 0, False, 1, 0, False), ('aclnnSoftplus', False, 0, False, 2, 0, False),
       ('aclnnThreshold', False, 0, False, 2, 0, False), ('aclnnInplaceThreshold', True, 0, False, 2, 0, False),
       ('aclnnSwiGlu', False, 0, False, 0, 1, False), ('aclnnGeGlu', False, 0, True, 0, 2, False),
       ('aclnnGeGluV3', False, 0, True, 0, 2, True), ('aclnnClamp', False, 0, False, 2, 0, False),
       ('aclnnClampMin', False, 0, False, 1, 0, False), ('aclnnClampMax', False, 0, False, 1, 0, False),
       ('aclnnInplaceClampMax', True, 0, False, 1, 0, False), ('aclnnClampTensor', False, 2, False, 0, 0, False),
       ('aclnnClampMinTensor', False, 1, False, 0, 0, False),
       ('aclnnInplaceClampMinTensor', True, 1, False, 0, 0, False),
       ('aclnnClampMaxTensor', False, 1, False, 0, 0, False),
       ('aclnnInplaceClampMaxTensor', True, 1, False, 0, 0, False),
       ('aclnnInplaceFillScalar', True, 0, False, 1, 0, False), ('aclnnInplaceZero', True, 0, False, 0, 0, False),
       ('aclnnArange', True, 0, False, 3, 0, False), ('aclnnSwiGluGrad', False, 1, False, 0, 1, False)])

# Arange's scalars for its seeds: start 0, end 6, step 1 (its out has 6 elements).
ARANGE_SCALARS = {0: (FLOAT, f32(0.0)), 1: (FLOAT, f32(6.0)), 2: (FLOAT, f32(1.0))}


def elementwise_unary_seeds():
    """Per entry point of fuzz_elementwise_unary: launches of every dtype,
    long, strided and empty tensors, an out aliasing self or of another
    dtype, the errors of each check (nulls, dtypes, ranks, shapes, formats,
    the caller's pointers); per scalar a null, complex, infinite, NaN and
    DOUBLE one; per bound tensor a broadcast, null, empty and mismatched one;
    the gated forms' dims, approximate values, halved outputs and activateLeft."""
    seeds = {}
    for entry, (api, inplace, bounds, out_gelu, scalars, ints, flag) in enumerate(ELEMENTWISE_UNARY_ENTRIES):
        gated = out_gelu or api == 'aclnnSwiGlu'
        # SwiGluGrad's bound is yGrad, of x's shape halved along dim; its out is x's shape.
        default_bound = dict(shape=(2, 2), dtype=FLOAT) if api == 'aclnnSwiGluGrad' else dict(shape=(4,), dtype=FLOAT)
        default_scalars = ARANGE_SCALARS if api == 'aclnnArange' else {}

        def seed(self=None, out=None, place=ON_DEVICE, run=(False, False), values=None, bound=None, gelu=None,
                 integers=None, left=False):
            s = Seed()
            s.byte(place)
            s.byte(entry)
            s.tensor(**(self or dict(shape=(2, 4), dtype=FLOAT)))
            if not inplace:
                default_out = dict(shape=(2, 2), dtype=FLOAT) if gated else dict(copy=0, dtype=None)
                arith_out(s, out if out is not None else default_out)
            for i in range(bounds):
                s.tensor(**((bound or {}).get(i) or default_bound))
            if out_gelu:
                s.tensor(**(gelu or dict(shape=(2, 2), dtype=FLOAT)))
            for i in range(scalars):
                spec = {**default_scalars, **(values or {})}.get(i, (FLOAT, f32(1.0)))
                if spec is None:
                    s.scalar(kind='null')
                else:
                    s.scalar(*spec)
            for i in range(ints):
                s.byte((integers or {}).get(i, -1 if i == 0 else 0) & 0xFF)
            if flag:
                s.bit(left)
            s.run(*run)
            return s

        for dtype in (FLOAT, FLOAT16, BF16, DOUBLE, INT32, INT64, INT8, UINT8, INT16, BOOL, COMPLEX64, COMPLEX128,
                      UINT16):
            out = dict(shape=(2, 2), dtype=dtype) if gated else None
            seeds[f'{api}_dtype{dtype}'] = seed(self=dict(shape=(2, 4), dtype=dtype), out=out,
                                                gelu=dict(shape=(2, 2), dtype=dtype))
        long_bound = dict(shape=(2049,)) if api == 'aclnnSwiGluGrad' else dict(shape=(4098,))
        seeds[f'{api}_4098'] = seed(self=dict(shape=(4098,)), out=dict(shape=(2049,)) if gated else None,
                                    gelu=dict(shape=(2049,)), bound={0: long_bound, 1: dict(shape=(1,))})
        seeds[f'{api}_strided'] = seed(self=dict(shape=(2, 4), strides='col'))
        seeds[f'{api}_empty'] = seed(self=dict(shape=(0, 4)), out=dict(shape=(0, 2)) if gated else None,
                                     gelu=dict(shape=(0, 2)))
        seeds[f'{api}_rank9'] = seed(self=dict(shape=(1,) * 9))
        seeds[f'{api}_nz'] = seed(self=dict(shape=(2, 4), fmt=NZ))
        seeds[f'{api}_short_storage'] = seed(self=dict(shape=(2, 4), storage='short'))
        seeds[f'{api}_null_self'] = seed(self=dict(null=True))
        seeds[f'{api}_null_workspace_size'] = seed(run=(True, False))
        seeds[f'{api}_phase1_only'] = seed(place=PHASE1_ONLY)
        if not inplace:
            seeds[f'{api}_out_is_self'] = seed(out='self')
            for dtype in (DOUBLE, COMPLEX64, INT32, FLOAT16):
                seeds[f'{api}_out_dtype{dtype}'] = seed(out=('broadcast', dtype))
            seeds[f'{api}_out_shape_mismatch'] = seed(out=dict(shape=(4, 2)))
            seeds[f'{api}_null_out'] = seed(out=dict(null=True))
        for i in range(scalars):
            seeds[f'{api}_null_scalar{i}'] = seed(values={i: None})
            seeds[f'{api}_complex_scalar{i}'] = seed(values={i: (COMPLEX64, value_of(COMPLEX64, 1 + 1j))})
            seeds[f'{api}_inf_scalar{i}'] = seed(values={i: (FLOAT, f32(float('inf')))})
            seeds[f'{api}_nan_scalar{i}'] = seed(values={i: (FLOAT, f32(float('nan')))})
            seeds[f'{api}_double_scalar{i}'] = seed(values={i: (DOUBLE, value_of(DOUBLE, -0.5))})
            seeds[f'{api}_int_scalar{i}'] = seed(values={i: (INT32, (300).to_bytes(4, 'little'))})
        for i in range(bounds):
            for name, bound in {'row': dict(shape=(4,), dtype=INT32), 'column': dict(shape=(2, 1), dtype=FLOAT16),
                                'null': dict(null=True), 'empty': dict(shape=(0,)), 'mismatch': dict(shape=(3,)),
                                'wider': dict(shape=(3, 2, 4)), 'complex': dict(shape=(4,), dtype=COMPLEX64),
                                'strided': dict(shape=(2, 4), strides='col', dtype=DOUBLE)}.items():
                seeds[f'{api}_bound{i}_{name}'] = seed(bound={i: bound})
        for i in range(ints):
            for value in (0, 1, 2, -1, -2, -3, 5, -128):
                seeds[f'{api}_int{i}_{value}'] = seed(integers={i: value})
        if gated:
            seeds[f'{api}_dim0'] = seed(self=dict(shape=(4, 3)), out=dict(shape=(2, 3)), gelu=dict(shape=(2, 3)),
                                        integers={0: 0})
            seeds[f'{api}_odd'] = seed(self=dict(shape=(2, 3)))
            seeds[f'{api}_transposed'] = seed(self=dict(shape=(4, 4), strides='col'), out=dict(shape=(4, 2)),
                                              gelu=dict(shape=(4, 2)))
        if out_gelu:
            seeds[f'{api}_gelu_mismatch'] = seed(gelu=dict(shape=(2, 4)))
            seeds[f'{api}_gelu_dtype'] = seed(gelu=dict(shape=(2, 2), dtype=FLOAT16))
            seeds[f'{api}_null_gelu'] = seed(gelu=dict(null=True))
        if flag:
            seeds[f'{api}_activate_left'] = seed(left=True)
    return seeds

# ---------------------------------------------------------------------------- the layout engine

LAYOUT_DTYPES = (FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64, UINT16, UINT32, UINT64, BOOL,
                 COMPLEX64, COMPLEX128)


def layout_seeds():
    """fuzz_layout.cpp's grammar: Cast between dtype pairs, InplaceCopy with
    broadcasting, aliasing and bad shapes, Permute with good, repeated,
    negative, out-of-range and null dims; each with its argument errors."""
    seeds = {}

    def seed(entry, self=None, out=None, tail=None, place=ON_DEVICE, run=(False, False)):
        s = Seed()
        s.byte(place)
        s.byte(entry)
        s.tensor(**(self or dict(shape=(2, 3))))
        if out is not None:
            arith_out(s, out)
        if tail is not None:
            tail(s)
        s.run(*run)
        return s

    def ints(s, values, null=False):
        s.byte(len(values))
        for v in values:
            s.small_int(v)
        s.rare(null)

    def dims(values, null=False):
        return lambda s: ints(s, values, null)

    for a in LAYOUT_DTYPES:
        for b in (FLOAT, FLOAT16, INT32, COMPLEX64, BOOL, UINT64):
            seeds[f'cast_{a}_{b}'] = seed(0, dict(shape=(2, 3), dtype=a), ('broadcast', b), lambda s, b=b: s.dtype(b))
    seeds['cast_strided'] = seed(0, dict(shape=(3, 4), strides='col'), ('broadcast', INT8), lambda s: s.dtype(INT8))
    seeds['cast_dtype_mismatch'] = seed(0, out=('broadcast', FLOAT16), tail=lambda s: s.dtype(INT32))
    seeds['cast_bad_dtype'] = seed(0, out=('broadcast', FLOAT16), tail=lambda s: s.dtype(255))
    seeds['cast_null_out'] = seed(0, out=dict(null=True), tail=lambda s: s.dtype(FLOAT))
    seeds['cast_rank9'] = seed(0, dict(shape=(1,) * 9), ('broadcast', FLOAT), lambda s: s.dtype(FLOAT))
    seeds['cast_null_workspace_size'] = seed(0, out=('broadcast', FLOAT), tail=lambda s: s.dtype(FLOAT),
                                             run=(True, False))
    for name, src in {'same': dict(copy=0, dtype=None), 'row': dict(shape=(1, 3), dtype=INT32),
                      'column': dict(shape=(2, 1), dtype=FLOAT16), 'scalar': dict(shape=(), dtype=DOUBLE),
                      'bad_broadcast': dict(shape=(3, 3)), 'wider': dict(shape=(4, 2, 3)),
                      'empty': dict(shape=(0, 3)), 'null': dict(null=True)}.items():
        seeds[f'copy_{name}'] = seed(1, tail=lambda s, src=src: (s.byte(0), s.tensor(**src)))
    seeds['copy_aliased'] = seed(1, tail=lambda s: s.byte(7))
    seeds['copy_strided_self'] = seed(1, dict(shape=(3, 4), strides='col'), tail=lambda s: (s.byte(0), s.tensor(
        shape=(3, 4), dtype=BF16)))
    for name, values in {'identity': [0, 1], 'swap': [1, 0], 'negative': [-1, -2], 'repeated': [1, 1],
                         'negative_repeat': [1, -1], 'range': [2, 0], 'short': [0], 'long': [0, 1, 2],
                         'wild': [2**62, 0]}.items():
        seeds[f'permute_{name}'] = seed(2, dict(shape=(2, 3)), dict(shape=(3, 2)), dims(values))
    seeds['permute_null_dims'] = seed(2, dict(shape=(2, 3)), dict(shape=(3, 2)), dims([1, 0], null=True))
    seeds['permute_4d'] = seed(2, dict(shape=(2, 3, 4, 5), dtype=INT64), dict(shape=(5, 2, 4, 3), dtype=INT64),
                               dims([3, 0, 2, 1]))
    seeds['permute_empty'] = seed(2, dict(shape=(0, 3)), dict(shape=(3, 0)), dims([1, 0]))
    seeds['permute_empty_into_full'] = seed(2, dict(shape=(0, 3)), dict(shape=(3, 2)), dims([1, 0]))
    # Repeat
    for name, (shape, repeats, out, dtype) in {
            'tile': ((2, 3), [2, 1, 3], (2, 2, 9), FLOAT), 'scalar': ((), [3, 2], (3, 2), INT64),
            'zero': ((2, 3), [0, 1], (0, 3), FLOAT16), 'deep': ((2, 2, 2, 2, 2), [2, 2, 2, 2, 2], (4, 4, 4, 4, 4), INT8),
            'negative': ((2, 3), [-1, 1], (2, 3), FLOAT), 'short': ((2, 3), [2], (4, 3), FLOAT),
            'wrong_out': ((2, 3), [2, 2], (4, 3), COMPLEX64)}.items():
        seeds[f'repeat_{name}'] = seed(3, dict(shape=shape, dtype=dtype), dict(shape=out, dtype=dtype),
                                       lambda s, r=repeats: ints(s, r))
    seeds['repeat_null'] = seed(3, dict(shape=(2, 3)), dict(shape=(2, 3)), lambda s: ints(s, [1, 1], True))

    # Cat: count, tensors, dim, out, rare(null list)
    def cat(tensors, dim, out, null=False):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(4)
        s.byte(len(tensors))
        for t in tensors:
            s.tensor(**t)
        s.small_int(dim)
        s.tensor(**out)
        s.rare(null)
        s.run(False, False)
        return s
    seeds['cat_rows'] = cat([dict(shape=(2, 3)), dict(shape=(1, 3))], 0, dict(shape=(3, 3)))
    seeds['cat_columns_cast'] = cat([dict(shape=(2, 3), dtype=INT32), dict(shape=(2, 2), dtype=FLOAT16)], -1,
                                    dict(shape=(2, 5), dtype=FLOAT))
    seeds['cat_strided'] = cat([dict(shape=(3, 4), strides='col'), dict(shape=(3, 4), offset=2, storage=4)], 1,
                               dict(shape=(3, 8), dtype=DOUBLE))
    seeds['cat_empties'] = cat([dict(shape=(0,)), dict(shape=(0, 3)), dict(shape=(2, 3), dtype=BOOL)], 0,
                               dict(shape=(2, 3), dtype=BOOL))
    seeds['cat_bad_dim'] = cat([dict(shape=(2, 3)), dict(shape=(2, 3))], 5, dict(shape=(4, 3)))
    seeds['cat_mismatch'] = cat([dict(shape=(2, 3)), dict(shape=(2, 4))], 0, dict(shape=(4, 3)))
    seeds['cat_null_list'] = cat([dict(shape=(2, 3))], 0, dict(shape=(2, 3)), null=True)
    seeds['cat_eight'] = cat([dict(shape=(1, 2))] * 8, 0, dict(shape=(8, 2)))

    # Slice: dim, start, end, step
    for name, (shape, args, out) in {'step': ((4, 10), (1, 2, 9, 3), (4, 3)), 'negative': ((4, 10), (-1, -4, 21, 1),
                                      (4, 4)), 'empty': ((4, 10), (1, 7, 3, 1), (4, 0)),
                                     'zero_step': ((4, 10), (0, 0, 4, 0), (4, 10)),
                                     'wild': ((4, 10), (0, -2**62, 2**62, 2**62), (1, 10))}.items():
        seeds[f'slice_{name}'] = seed(5, dict(shape=shape), dict(shape=out),
                                      lambda s, a=args: [s.small_int(v) for v in a])

    # ConstantPadNd: pad, scalar value
    for name, (shape, pads, out, dtype) in {
            'grow': ((2, 3), [1, 2], (2, 6), FLOAT), 'crop': ((2, 3, 4), [-1, 2, 2, -1], (2, 4, 5), INT32),
            'bool': ((2, 3), [0, 1, 1, 0], (3, 4), BOOL), 'empty_self': ((0, 2), [0, 0, 1, 1], (2, 2), COMPLEX64),
            'odd': ((2, 3), [1], (2, 4), FLOAT), 'wild': ((2, 3), [2**62, 2**62], (2, 3), FLOAT)}.items():
        seeds[f'pad_{name}'] = seed(6, dict(shape=shape, dtype=dtype), dict(shape=out, dtype=dtype),
                                    lambda s, p=pads: (ints(s, p), s.scalar(DOUBLE, f64(2.5))))
    seeds['pad_null_value'] = seed(6, dict(shape=(2, 3)), dict(shape=(2, 5)),
                                   lambda s: (ints(s, [1, 1]), s.scalar(kind='null')))

    # ReflectionPad1d: padding
    for name, (shape, padding, out) in {'both': ((3, 5), [2, 3], (3, 10)), 'batch': ((2, 3, 5), [4, 0], (2, 3, 9)),
                                        'crop': ((3, 5), [-1, 2], (3, 6)), 'too_wide': ((3, 5), [5, 0], (3, 10)),
                                        'empty_batch': ((0, 2, 3), [1, 1], (0, 2, 5))}.items():
        seeds[f'reflect_{name}'] = seed(7, dict(shape=shape, dtype=COMPLEX128 if name == 'batch' else FLOAT16),
                                        dict(shape=out, dtype=COMPLEX128 if name == 'batch' else FLOAT16),
                                        lambda s, p=padding: ints(s, p))

    # Roll: shifts, dims
    for name, (shifts, dims_) in {'dim': ([1], [0]), 'two': ([-2, 7], [1, -1]), 'twice': ([1, 1], [1, 1]),
                                  'flat': ([7], []), 'flat_wild': ([-2**62], []), 'sizes': ([1, 2], [0]),
                                  'range': ([1], [3])}.items():
        seeds[f'roll_{name}'] = seed(8, dict(shape=(3, 4), dtype=INT16), dict(shape=(3, 4), dtype=INT16),
                                     lambda s, a=shifts, b=dims_: (ints(s, a), ints(s, b)))
    seeds['roll_in_place'] = seed(8, dict(shape=(64,), dtype=INT32), 'self', lambda s: (ints(s, [32]), ints(s, [0])))

    # Tril (9), Triu (10): bit in place, then tensors, diagonal
    for entry, op in ((9, 'tril'), (10, 'triu')):
        for diagonal in (0, -2, 3, 2**40):
            s = Seed()
            s.byte(ON_DEVICE)
            s.byte(entry)
            s.bit(False)
            s.tensor(shape=(2, 4, 6), dtype=UINT16)
            arith_out(s, dict(shape=(2, 4, 6), dtype=UINT16))
            s.small_int(diagonal)
            s.run(False, False)
            seeds[f'{op}_{diagonal}'] = s
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(entry)
        s.bit(True)
        s.tensor(shape=(5, 5), strides='col', dtype=DOUBLE)
        s.small_int(1)
        s.run(False, False)
        seeds[f'{op}_in_place'] = s
    seeds['permute_phase1_only'] = seed(2, dict(shape=(2, 3)), dict(shape=(3, 2)), dims([1, 0]), place=PHASE1_ONLY)

    # TransMatmulWeight (11, bit 1): a weight whose storage holds its NZ
    # layout or not; the size functions (bit 0): bit V2, ints, dtype, rare(null out)
    for name, weight in {'f16': dict(shape=(16, 16), dtype=FLOAT16),
                         'f16_padded': dict(shape=(20, 40), dtype=FLOAT16, storage=(1536,)),
                         'int8_batched': dict(shape=(2, 17, 33), dtype=INT8, storage=(4096,)),
                         'bf16_short': dict(shape=(20, 40), dtype=BF16),
                         'float': dict(shape=(4, 4), dtype=FLOAT),
                         'transposed': dict(shape=(24, 18), dtype=FLOAT16, strides='col', storage=(1024,))}.items():
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(11)
        s.bit(True)
        s.tensor(**weight)
        s.run(False, False)
        seeds[f'trans_matmul_weight_{name}'] = s
    for name, (v2, shape, dtype, null) in {'v2_f16': (True, [5, 7], FLOAT16, False),
                                           'v2_int8': (True, [2, 17, 33], INT8, False),
                                           'v2_zero': (True, [0, 7], FLOAT, False),
                                           'v1': (False, [3, 5], FLOAT16, False),
                                           'v2_null_out': (True, [4, 4], BF16, True)}.items():
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(11)
        s.bit(False)
        s.bit(v2)
        ints(s, shape)
        s.dtype(dtype)
        s.rare(null)
        seeds[f'matmul_weight_size_{name}'] = s
    return seeds


def tensor_args(s, null_view=False, view_count=None, null_storage=False, storage_count=None, data=True, **tensor):
    s.tensor(**tensor)
    s.rare(null_view)
    s.rare(null_storage)
    for null, count in ((null_view, view_count), (null_storage, storage_count)):
        if null:
            s.bit(count is not None)
            if count is not None:
                s.word(count)
    s.bit(data)


def tensor_seeds():
    seeds = {}

    def seed(name, first, second=None, getter=0, null_tensor=False):
        s = Seed()
        tensor_args(s, **first)
        s.byte(getter)
        s.bit(null_tensor)
        tensor_args(s, **(second or dict(shape=(4,), dtype=FLOAT16)))
        seeds[name] = s

    seed('contiguous', dict(shape=(2, 3, 4)))
    seed('rank0', dict(shape=()), getter=1)
    seed('rank9', dict(shape=(1, 2, 1, 2, 1, 2, 1, 2, 3)), getter=2)
    seed('transposed', dict(shape=(4, 2), strides='col', storage='view', fmt=0), getter=3)
    seed('offset', dict(shape=(2, 2), offset=5, storage=9), getter=4)
    seed('empty', dict(shape=(2, 0, 3)), getter=5)
    seed('huge_dims', dict(shape=(2**62, 2**62, 4)), getter=6)
    seed('huge_strides', dict(shape=(3, 3), strides=[2**63 - 1, 2**62]))
    seed('negative_dim', dict(shape=(2, -1)), null_tensor=True)
    seed('negative_stride', dict(shape=(2, 2), strides=[-1, 1]))
    seed('negative_offset', dict(shape=(2,), offset=-4096))
    seed('negative_storage', dict(shape=(2,), storage=[-1]))
    seed('null_view_count', dict(shape=(2, 3), null_view=True, view_count=3))
    seed('null_view_huge_count', dict(shape=(2, 3), null_view=True, view_count=2**64 - 1))
    seed('null_view_zero', dict(shape=(2, 3), strides=[-1, 1], null_view=True))
    seed('null_storage_count', dict(shape=(2, 3), null_storage=True, storage_count=2))
    seed('null_storage_zero', dict(shape=(2, 3), null_storage=True))
    seed('unknown_dtype_format', dict(shape=(2,), dtype=2**31 - 1, fmt=100))
    seed('every_format', dict(shape=(2,), fmt=-1))
    seed('nz', dict(shape=(16, 16), fmt=NZ))
    seed('reinit_invalid', dict(shape=(2, 3)), dict(shape=(2, -1)))
    seed('reinit_null_view', dict(shape=(2, 3)), dict(shape=(2, 3), null_view=True, view_count=1))
    seed('reinit_rank9', dict(shape=(2, 3)), dict(shape=(1,) * 9, dtype=BF16))
    seed('reinit_no_data', dict(shape=(2, 3)), dict(shape=(5,), data=False))
    for i, dtype in enumerate(DTYPES):
        seed(f'dtype_{i}', dict(shape=(3,), dtype=dtype), getter=i % 7)
    return seeds


def scalar_seeds():
    seeds = {}

    def seed(name, scalar, softplus=True, tensor_dtype=0, place=ON_DEVICE, threshold=(FLOAT, f32(20.0))):
        s = Seed()
        s.scalar(**scalar)
        s.bit(softplus)
        s.byte(tensor_dtype)
        s.byte(place)
        if softplus:
            if threshold is None:
                s.scalar(kind='null')
            else:
                s.scalar(*threshold)
        s.run()
        seeds[name] = s

    for i, dtype in enumerate(DTYPES):
        seed(f'dtype_{i}', dict(dtype=dtype, value=bytes([0x3F, 0x80, 0, 0, 0x40, 0, 0, 0] * 2)),
             softplus=i % 2 == 0, tensor_dtype=i % 3)
    seed('float_one', dict(dtype=FLOAT, value=f32(1.0)))
    seed('double_nan', dict(dtype=DOUBLE, value=f64(float('nan'))), softplus=False)
    seed('double_inf', dict(dtype=DOUBLE, value=f64(float('-inf'))))
    seed('half_ones', dict(dtype=FLOAT16, value=b'\xff\xff'), softplus=False)
    seed('int64_min', dict(dtype=INT64, value=(2**63).to_bytes(8, 'little')), softplus=False)
    seed('null_value', dict(kind='null_value', dtype=FLOAT))
    seed('null_scalar', dict(kind='null'), softplus=False)
    seed('null_threshold', dict(dtype=FLOAT, value=f32(1.0)), threshold=None)
    seed('phase1_only', dict(dtype=FLOAT, value=f32(1.0)), place=PHASE1_ONLY)
    return seeds


# ---------------------------------------------------------------------------- the reduction engine


def reduction_seeds():
    """fuzz_reduction.cpp's grammar: ReduceSum, Mean, MeanV2, Amax and Amin
    over every listed dtype, dim lists good, negative, repeated, out of range
    and null, keepdim both ways, strided and empty inputs, 0-d inputs, wrong
    outs, and a full reduction large enough to split over blocks."""
    seeds = {}

    def seed(entry, self, dims, keep, out, dtype=None, noop=False, null_dims=False, run=(False, False),
             place=ON_DEVICE):
        s = Seed()
        s.byte(place)
        s.byte(entry)
        s.tensor(**self)
        s.byte(len(dims))
        for v in dims:
            s.small_int(v)
        s.rare(null_dims)
        s.bit(keep)
        if entry in (0, 1):
            s.dtype(dtype if dtype is not None else self.get('dtype', FLOAT))
        elif entry == 2:
            s.bit(noop)
        s.tensor(**out)
        s.run(*run)
        return s

    names = {0: 'sum', 1: 'mean', 2: 'mean_v2', 3: 'amax', 4: 'amin'}
    for entry, name in names.items():
        for dtype in (FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64, BOOL, COMPLEX64):
            seeds[f'{name}_rows_{dtype}'] = seed(entry, dict(shape=(3, 4, 5), dtype=dtype), [-1], False,
                                                dict(shape=(3, 4), dtype=dtype))
        seeds[f'{name}_outer_keep'] = seed(entry, dict(shape=(3, 4, 5)), [0], True, dict(shape=(1, 4, 5)))
        seeds[f'{name}_middle'] = seed(entry, dict(shape=(3, 4, 5), strides='col', offset=3), [1], False,
                                       dict(shape=(3, 5)))
        seeds[f'{name}_two'] = seed(entry, dict(shape=(2, 3, 4, 5)), [0, 2], False, dict(shape=(3, 5)))
        seeds[f'{name}_all'] = seed(entry, dict(shape=(3, 4, 5)), [], False, dict(shape=()))
        seeds[f'{name}_repeated'] = seed(entry, dict(shape=(3, 4)), [1, -1], False, dict(shape=(3,)))
        seeds[f'{name}_range'] = seed(entry, dict(shape=(3, 4)), [2], False, dict(shape=(3,)))
        seeds[f'{name}_wild_dim'] = seed(entry, dict(shape=(3, 4)), [2**62], False, dict(shape=(3,)))
        seeds[f'{name}_null_dims'] = seed(entry, dict(shape=(3, 4)), [0], False, dict(shape=(4,)), null_dims=True)
        seeds[f'{name}_empty'] = seed(entry, dict(shape=(0, 4)), [0], False, dict(shape=(4,)))
        seeds[f'{name}_empty_kept'] = seed(entry, dict(shape=(0, 4)), [1], False, dict(shape=(0,)))
        seeds[f'{name}_scalar'] = seed(entry, dict(shape=()), [0], False, dict(shape=()))
        seeds[f'{name}_wrong_out'] = seed(entry, dict(shape=(3, 4)), [0], False, dict(shape=(3,)))
        seeds[f'{name}_rank9'] = seed(entry, dict(shape=(1,) * 9), [0], False, dict(shape=(1,) * 8))
        seeds[f'{name}_null_out'] = seed(entry, dict(shape=(3, 4)), [0], False, dict(null=True))
        seeds[f'{name}_split'] = seed(entry, dict(shape=(2**20,)), [0], False, dict(shape=()))
        seeds[f'{name}_split_rows'] = seed(entry, dict(shape=(8193, 2)), [0], False, dict(shape=(2,)))
        seeds[f'{name}_null_workspace_size'] = seed(entry, dict(shape=(3, 4)), [0], False, dict(shape=(4,)),
                                                    run=(True, False))
    seeds['sum_f32_to_int64'] = seed(0, dict(shape=(3, 4)), [1], False, dict(shape=(3,), dtype=INT64), dtype=INT64)
    seeds['sum_to_bool'] = seed(0, dict(shape=(3, 4)), [1], False, dict(shape=(3,), dtype=BOOL), dtype=BOOL)
    seeds['sum_bad_dtype'] = seed(0, dict(shape=(3, 4)), [1], False, dict(shape=(3,)), dtype=UINT32)
    seeds['sum_dtype_mismatch'] = seed(0, dict(shape=(3, 4)), [1], False, dict(shape=(3,)), dtype=INT32)
    seeds['mean_f16_in_f32'] = seed(1, dict(shape=(3, 4), dtype=FLOAT16), [1], False, dict(shape=(3,)), dtype=FLOAT)
    seeds['mean_cannot_cast'] = seed(1, dict(shape=(3, 4)), [1], False, dict(shape=(3,), dtype=INT32), dtype=FLOAT)
    seeds['mean_v2_noop'] = seed(2, dict(shape=(3, 4)), [], False, dict(shape=(3, 4)), noop=True)

    def one_dim(entry, self, dim, flags, out, dtype=None):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(entry)
        s.tensor(**self)
        s.small_int(dim)
        if dtype is not None:
            s.dtype(dtype)
        for flag in flags:
            s.bit(flag)
        s.tensor(**out)
        s.run()
        return s

    def arg_max(self, dim, keep, out):
        return one_dim(5, self, dim, [keep], out)

    for dtype in (FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64, BOOL):
        seeds[f'argmax_rows_{dtype}'] = arg_max(dict(shape=(3, 4, 5), dtype=dtype), -1, False,
                                               dict(shape=(3, 4), dtype=INT64))
    seeds['argmax_outer_int32'] = arg_max(dict(shape=(3, 4, 5)), 0, True, dict(shape=(1, 4, 5), dtype=INT32))
    seeds['argmax_strided'] = arg_max(dict(shape=(3, 4, 5), strides='col', offset=3), 1, False,
                                      dict(shape=(3, 5), dtype=INT64))
    seeds['argmax_range'] = arg_max(dict(shape=(3, 4)), 2, False, dict(shape=(3,), dtype=INT64))
    seeds['argmax_wild'] = arg_max(dict(shape=(3, 4)), 2**62, False, dict(shape=(3,), dtype=INT64))
    seeds['argmax_scalar'] = arg_max(dict(shape=()), -1, False, dict(shape=(), dtype=INT64))
    seeds['argmax_empty'] = arg_max(dict(shape=(0, 4)), 1, False, dict(shape=(0,), dtype=INT64))
    seeds['argmax_split'] = arg_max(dict(shape=(2**20,)), 0, False, dict(shape=(), dtype=INT64))
    seeds['argmax_wrong_out'] = arg_max(dict(shape=(3, 4)), 0, False, dict(shape=(3,), dtype=INT64))
    seeds['argmax_float_out'] = arg_max(dict(shape=(3, 4)), 1, False, dict(shape=(3,), dtype=FLOAT))
    for dtype in (FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64, COMPLEX64, BOOL):
        seeds[f'cumsum_{dtype}'] = one_dim(6, dict(shape=(3, 4, 5), dtype=FLOAT), 1, [], dict(shape=(3, 4, 5),
                                           dtype=dtype), dtype=dtype)
        seeds[f'cumsum_v2_{dtype}'] = one_dim(7, dict(shape=(3, 4, 5), dtype=dtype), -1, [True, True],
                                              dict(shape=(3, 4, 5), dtype=dtype))
    seeds['cumsum_strided'] = one_dim(6, dict(shape=(3, 4, 5), strides='col', offset=2), 0, [],
                                      dict(shape=(3, 4, 5), strides='col'), dtype=FLOAT)
    seeds['cumsum_scalar'] = one_dim(6, dict(shape=()), -1, [], dict(shape=()), dtype=FLOAT)
    seeds['cumsum_empty'] = one_dim(6, dict(shape=(0, 4)), 1, [], dict(shape=(0, 4)), dtype=FLOAT)
    seeds['cumsum_range'] = one_dim(6, dict(shape=(3, 4)), 2, [], dict(shape=(3, 4)), dtype=FLOAT)
    seeds['cumsum_wild'] = one_dim(7, dict(shape=(3, 4)), 2**62, [False, False], dict(shape=(3, 4)))
    seeds['cumsum_dtype_mismatch'] = one_dim(6, dict(shape=(3, 4)), 0, [], dict(shape=(3, 4)), dtype=INT32)
    seeds['cumsum_long'] = one_dim(7, dict(shape=(5000, 3)), 0, [False, True], dict(shape=(5000, 3)))
    seeds.update(more_reduction_seeds(one_dim))
    seeds.update(mse_seeds())
    seeds.update(nll_seeds())
    seeds.update(batch_norm_seeds())
    return seeds


def batch_norm_seeds():
    """fuzz_reduction.cpp's entry 26: BatchNorm in training and inference
    over each dtype, optional operands null, strided, empty and high-rank
    inputs, statistics split over blocks, mixed dtypes, and the refused
    ranks, shapes and dtypes."""
    seeds = {}

    def bn(x, training=True, channel=None, out=None, save=None, params=(True, True, True, True), momentum=0.1,
           eps=1e-5, run=(False, False)):
        c = x['shape'][1] if len(x['shape']) > 1 else 1
        channel = channel if channel is not None else dict(shape=(c,), dtype=x.get('dtype', FLOAT))
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(26)
        s.tensor(**x)
        for given in params:
            s.tensor(**(channel if given else dict(null=True)))
        s.bit(training)
        s.real(momentum)
        s.real(eps)
        s.tensor(**(out if out is not None else dict(shape=x['shape'], dtype=x.get('dtype', FLOAT))))
        for _ in range(2):
            s.tensor(**(save if save is not None else channel))
        s.run(*run)
        return s

    for dtype in (FLOAT, FLOAT16, BF16, DOUBLE):
        for training in (True, False):
            seeds[f'bn_{int(training)}_{dtype}'] = bn(dict(shape=(2, 3, 4, 5), dtype=dtype), training)
    seeds['bn_2d'] = bn(dict(shape=(6, 4)))
    seeds['bn_nulls'] = bn(dict(shape=(2, 3, 4)), params=(False, False, False, False))
    seeds['bn_null_save_infer'] = bn(dict(shape=(2, 3, 4)), False, save=dict(null=True))
    seeds['bn_null_save_train'] = bn(dict(shape=(2, 3, 4)), True, save=dict(null=True))
    seeds['bn_mixed'] = bn(dict(shape=(2, 3, 4), dtype=FLOAT16), channel=dict(shape=(3,), dtype=BF16))
    seeds['bn_strided'] = bn(dict(shape=(4, 3, 5), strides='col', offset=2), channel=dict(shape=(3,), strides='col'))
    seeds['bn_empty'] = bn(dict(shape=(0, 3, 2)))
    seeds['bn_rank8'] = bn(dict(shape=(1, 3, 1, 2, 1, 2, 1, 2)))
    seeds['bn_rank1'] = bn(dict(shape=(3,)))
    seeds['bn_wrong_channels'] = bn(dict(shape=(2, 3)), channel=dict(shape=(2,)))
    seeds['bn_wrong_out'] = bn(dict(shape=(2, 3)), out=dict(shape=(3, 2)))
    seeds['bn_split'] = bn(dict(shape=(4096, 2, 64)))
    seeds['bn_one_per_channel'] = bn(dict(shape=(1, 3)))
    seeds['bn_nan_eps'] = bn(dict(shape=(2, 3)), momentum=float('nan'), eps=-1.0)
    seeds['bn_null_workspace_size'] = bn(dict(shape=(2, 3)), run=(True, False))
    return seeds


def mse_seeds():
    """fuzz_reduction.cpp's entries 18, 19 and 27: MseLoss, MseLossBackward
    and MseLossOut over each reduction and dtype, broadcast, strided, empty and 0-d inputs,
    a reduction split over blocks, mixed dtypes, and the refused reductions,
    dtypes and shapes."""
    seeds = {}

    def mse(tensors, reduction, out, run=(False, False), entry=None):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(entry if entry is not None else 18 if len(tensors) == 2 else 19)
        for tensor in tensors:
            s.tensor(**tensor)
        s.small_int(reduction)
        s.tensor(**out)
        s.run(*run)
        return s

    scalar_out = dict(shape=())
    for dtype in (FLOAT, FLOAT16, BF16, DOUBLE, INT32):
        pair = [dict(shape=(3, 5), dtype=dtype), dict(shape=(3, 5), dtype=dtype)]
        seeds[f'mse_none_{dtype}'] = mse(pair, 0, dict(shape=(3, 5), dtype=dtype))
        seeds[f'mse_mean_{dtype}'] = mse(pair, 1, dict(shape=(), dtype=dtype))
        seeds[f'mse_sum_{dtype}'] = mse(pair, 2, dict(shape=(), dtype=dtype))
        for reduction in (0, 1, 2):
            seeds[f'mse_grad_{reduction}_{dtype}'] = mse([dict(shape=(3, 5), dtype=dtype)] + pair, reduction,
                                                         dict(shape=(3, 5), dtype=dtype))
    # MseLossOut (27): mean and sum along dim 0 only.
    for reduction in (0, 1, 2):
        for dtype in (FLOAT, FLOAT16, BF16):
            out_shape = (3, 5) if reduction == 0 else (5,)
            pair = [dict(shape=(3, 5), dtype=dtype), dict(shape=(5,), dtype=dtype)]
            seeds[f'mse_out_{reduction}_{dtype}'] = mse(pair, reduction, dict(shape=out_shape, dtype=dtype), entry=27)
    seeds['mse_out_rank0'] = mse([dict(shape=()), dict(shape=())], 1, scalar_out, entry=27)
    seeds['mse_out_empty'] = mse([dict(shape=(0, 4)), dict(shape=(4,))], 2, dict(shape=(4,)), entry=27)
    seeds['mse_out_bad_shape'] = mse([dict(shape=(3, 4)), dict(shape=(4,))], 1, scalar_out, entry=27)
    seeds['mse_broadcast'] = mse([dict(shape=(2, 1, 4)), dict(shape=(3, 1))], 1, scalar_out)
    seeds['mse_broadcast_none'] = mse([dict(shape=(2, 1, 4)), dict(shape=(3, 1))], 0, dict(shape=(2, 3, 4)))
    seeds['mse_mixed'] = mse([dict(shape=(4, 3), dtype=FLOAT16), dict(shape=(3,), dtype=FLOAT)], 2, scalar_out)
    seeds['mse_strided'] = mse([dict(shape=(3, 4), strides='col', offset=2), dict(shape=(3, 4))], 1, scalar_out)
    seeds['mse_empty_mean'] = mse([dict(shape=(0, 4)), dict(shape=(4,))], 1, scalar_out)
    seeds['mse_empty_sum'] = mse([dict(shape=(3,)), dict(shape=(0, 3))], 2, dict(shape=(), dtype=FLOAT16))
    seeds['mse_rank0'] = mse([dict(shape=()), dict(shape=())], 1, scalar_out)
    seeds['mse_split'] = mse([dict(shape=(2**20,)), dict(shape=(1,))], 2, scalar_out)
    seeds['mse_reduction_3'] = mse([dict(shape=(3,)), dict(shape=(3,))], 3, scalar_out)
    seeds['mse_reduction_wild'] = mse([dict(shape=(3,)), dict(shape=(3,))], 2**62, scalar_out)
    seeds['mse_vector_out'] = mse([dict(shape=(3,)), dict(shape=(3,))], 1, dict(shape=(1,)))
    seeds['mse_null_out'] = mse([dict(shape=(3,)), dict(shape=(3,))], 1, dict(null=True))
    seeds['mse_not_broadcastable'] = mse([dict(shape=(2, 3)), dict(shape=(3, 2))], 1, scalar_out)
    seeds['mse_null_workspace_size'] = mse([dict(shape=(3,)), dict(shape=(3,))], 1, scalar_out, run=(True, False))
    seeds['mse_grad_scalar_dy'] = mse([dict(shape=()), dict(shape=(3, 4)), dict(shape=(4,))], 1, dict(shape=(3, 4)))
    seeds['mse_grad_strided'] = mse([dict(shape=(3, 4)), dict(shape=(3, 4), strides='col'), dict(shape=(3, 4))], 0,
                                    dict(shape=(3, 4), strides='col'))
    seeds['mse_grad_out_f16'] = mse([dict(shape=(3, 4))] * 3, 2, dict(shape=(3, 4), dtype=FLOAT16))
    seeds['mse_grad_empty'] = mse([dict(shape=(0, 4)), dict(shape=(4,)), dict(shape=(4,))], 1, dict(shape=(0, 4)))
    seeds['mse_grad_mixed'] = mse([dict(shape=(3,), dtype=FLOAT16), dict(shape=(3,)), dict(shape=(3,))], 1,
                                  dict(shape=(3,)))
    seeds['mse_grad_target_not_broadcastable'] = mse([dict(shape=(3,)), dict(shape=(3,)), dict(shape=(2,))], 1,
                                                     dict(shape=(3,)))
    seeds['mse_grad_split'] = mse([dict(shape=()), dict(shape=(8193,)), dict(shape=(8193,))], 1, dict(shape=(8193,)))
    return seeds


def class_rows_seed(entry, tensors, classes):
    """The start of a seed of fuzz_reduction.cpp's class losses (entries
    20-25): the entry, the tensors before target, target and the classes its
    storage cycles through, then the weight (tensors' last)."""
    s = Seed()
    s.byte(ON_DEVICE)
    s.byte(entry)
    for tensor in tensors[:-2]:
        s.tensor(**tensor)
    s.tensor(**tensors[-2])
    s.byte(len(classes))
    for value in classes:
        s.small_int(value)
    s.tensor(**tensors[-1])
    return s


def nll_seeds():
    """fuzz_reduction.cpp's entries 20-23: NLLLoss, NLLLoss2d and their
    gradients over each reduction and dtype, with classes in and out of
    range and ignored, a 1-D self, empty and strided inputs, and the refused
    dtypes, reductions and shapes."""
    seeds = {}

    def nll(entry, tensors, classes, reduction, ignore, outs, run=(False, False)):
        s = class_rows_seed(entry, tensors, classes)
        s.small_int(reduction)
        s.small_int(ignore)
        for tensor in outs:
            s.tensor(**tensor)
        s.run(*run)
        return s

    one = dict(shape=(1,))
    for dtype in (FLOAT, FLOAT16, BF16, DOUBLE):
        for target in (INT64, INT32, UINT8):
            rows = [dict(shape=(6, 4), dtype=dtype), dict(shape=(6,), dtype=target), dict(shape=(4,), dtype=dtype)]
            for reduction in (0, 1, 2):
                out = dict(shape=(6,) if reduction == 0 else (), dtype=dtype)
                seeds[f'nll_{reduction}_{dtype}_{target}'] = nll(20, rows, [0, 3, 1, -100], reduction, -100,
                                                                 [out, dict(shape=(1,), dtype=dtype)])
                grad = dict(shape=(6,) if reduction == 0 else (), dtype=dtype)
                seeds[f'nll_grad_{reduction}_{dtype}_{target}'] = nll(
                    22, [grad, dict(shape=(6, 4), dtype=dtype)] + rows[1:], [2, 1], reduction, 1,
                    [dict(shape=(1,), dtype=dtype), dict(shape=(6, 4), dtype=dtype)])
    image = [dict(shape=(2, 3, 2, 2)), dict(shape=(2, 2, 2), dtype=INT64), dict(shape=(3,))]
    for reduction in (0, 1, 2):
        seeds[f'nll2d_{reduction}'] = nll(21, image, [0, 2, 1], reduction, 2,
                                          [dict(shape=(2, 2, 2) if reduction == 0 else (1,)), one])
        grad = dict(shape=(2, 2, 2) if reduction == 0 else ())
        seeds[f'nll2d_grad_{reduction}'] = nll(23, [grad] + image, [1, 0, 2, 2], reduction, -100,
                                               [one, dict(shape=(2, 3, 2, 2))])
    rows = [dict(shape=(5, 3)), dict(shape=(5,), dtype=INT64), dict(shape=(3,))]
    seeds['nll_out_of_range'] = nll(20, rows, [0, 3], 1, -100, [dict(shape=()), one])
    seeds['nll_negative_class'] = nll(22, [dict(shape=())] + rows, [-1], 2, -100, [one, dict(shape=(5, 3))])
    seeds['nll_all_ignored'] = nll(20, rows, [4], 1, 4, [dict(shape=()), one])
    seeds['nll_one_row'] = nll(20, [dict(shape=(3,)), dict(shape=(), dtype=INT32), dict(shape=(3,))], [2], 0, -100,
                               [one, one])
    seeds['nll_grad_one_row_target_1d'] = nll(22, [dict(shape=()), dict(shape=(3,)), dict(shape=(3,), dtype=INT64),
                                                   dict(shape=(3,))], [1], 1, -100, [one, dict(shape=(3,))])
    seeds['nll_empty'] = nll(20, [dict(shape=(0, 3)), dict(shape=(0,), dtype=INT64), dict(shape=(3,))], [], 1, -100,
                             [dict(shape=()), one])
    seeds['nll_no_classes'] = nll(20, [dict(shape=(2, 0)), dict(shape=(2,), dtype=INT64), dict(shape=(0,))], [0], 2,
                                  -100, [dict(shape=()), one])
    seeds['nll_strided'] = nll(20, [dict(shape=(5, 3), strides='col', offset=1), dict(shape=(5,), dtype=INT64,
                                    strides='col'), dict(shape=(3,))], [2, 0, 1], 0, -100,
                               [dict(shape=(5,), strides='col'), one])
    seeds['nll_long'] = nll(20, [dict(shape=(3000, 2)), dict(shape=(3000,), dtype=INT32), dict(shape=(2,))], [0, 1],
                            1, -100, [dict(shape=()), one])
    seeds['nll_reduction_wild'] = nll(20, rows, [0], 2**62, -100, [dict(shape=()), one])
    seeds['nll_weight_dtype'] = nll(20, rows[:2] + [dict(shape=(3,), dtype=FLOAT16)], [0], 1, -100,
                                    [dict(shape=()), one])
    seeds['nll_target_float'] = nll(20, [rows[0], dict(shape=(5,)), rows[2]], [], 1, -100, [dict(shape=()), one])
    seeds['nll_null_weight'] = nll(20, rows[:2] + [dict(null=True)], [0], 1, -100, [dict(shape=()), one])
    seeds['nll_null_workspace_size'] = nll(20, rows, [0], 1, -100, [dict(shape=()), one], run=(True, False))
    seeds.update(cross_entropy_seeds())
    return seeds


def cross_entropy_seeds():
    """fuzz_reduction.cpp's entries 24 and 25: CrossEntropyLoss and its
    gradient over each reduction (and the refused "max" and the null default)
    and dtype, with and without weights, label smoothing, classes out of
    range, empty batches and the refused shapes and smoothing."""
    seeds = {}

    def ce(entry, tensors, classes, reduction, ignore, smoothing, outs):
        s = class_rows_seed(entry, tensors, classes)
        s.byte(reduction)
        s.small_int(ignore)
        s.real(smoothing)
        for tensor in outs:
            s.tensor(**tensor)
        s.run(False, False)
        return s

    for dtype in (FLOAT, FLOAT16, BF16, INT32):
        rows = [dict(shape=(6, 5), dtype=dtype), dict(shape=(6,), dtype=INT64), dict(shape=(5,))]
        for reduction in (0, 1, 2):
            loss = dict(shape=(6,) if reduction == 0 else (1,), dtype=dtype)
            outs = [loss, dict(shape=(6, 5), dtype=dtype), loss, dict(shape=(6,), dtype=dtype)]
            seeds[f'ce_{reduction}_{dtype}'] = ce(24, rows, [0, 4, -100, 2], reduction, -100, 0.0, outs)
            seeds[f'ce_smooth_{reduction}_{dtype}'] = ce(24, rows, [1, 3], reduction, 3, 0.2, outs)
            grad = dict(shape=(6,) if reduction == 0 else (), dtype=dtype)
            seeds[f'ce_grad_{reduction}_{dtype}'] = ce(25, [grad, dict(shape=(6, 5), dtype=dtype)] + rows[1:],
                                                       [0, 4, -100], reduction, -100, 0.0,
                                                       [dict(shape=(6, 5), dtype=dtype)])
    rows = [dict(shape=(4, 3)), dict(shape=(4,), dtype=INT64), dict(null=True)]
    outs = [dict(shape=(1,)), dict(shape=(4, 3)), dict(shape=(1,)), dict(shape=(4,))]
    seeds['ce_no_weight'] = ce(24, rows, [2, 1], 1, -100, 0.0, outs)
    seeds['ce_default_reduction'] = ce(24, rows, [2, 1], 4, -100, 0.0, outs)
    seeds['ce_reduction_max'] = ce(24, rows, [2, 1], 3, -100, 0.0, outs)
    seeds['ce_out_of_range'] = ce(24, rows, [3], 2, -100, 0.0, outs)
    seeds['ce_smoothing_2'] = ce(24, rows, [0], 1, -100, 2.0, outs)
    seeds['ce_empty'] = ce(24, [dict(shape=(0, 3)), dict(shape=(0,), dtype=INT64), dict(null=True)], [], 1, -100, 0.0,
                           [dict(shape=(1,)), dict(shape=(0, 3)), dict(shape=(1,)), dict(shape=(0,))])
    seeds['ce_long'] = ce(24, [dict(shape=(2000, 3)), dict(shape=(2000,), dtype=INT64), dict(shape=(3,))], [0, 2], 1,
                          -100, 0.1, [dict(shape=(1,)), dict(shape=(2000, 3)), dict(shape=(1,)), dict(shape=(2000,))])
    seeds['ce_strided'] = ce(24, [dict(shape=(4, 3), strides='col', offset=1), dict(shape=(4,), dtype=INT64),
                                  dict(null=True)], [1], 0, -100, 0.0,
                             [dict(shape=(4,), strides='col'), dict(shape=(4, 3), strides='col'), dict(shape=(4,)),
                              dict(shape=(4,))])
    seeds['ce_grad_smoothing'] = ce(25, [dict(shape=()), dict(shape=(4, 3)), dict(shape=(4,), dtype=INT64),
                                         dict(null=True)], [1], 1, -100, 0.5, [dict(shape=(4, 3))])
    seeds['ce_grad_strided'] = ce(25, [dict(shape=(4,)), dict(shape=(4, 3), strides='col'),
                                       dict(shape=(4,), dtype=INT64), dict(shape=(3,))], [1, 2, 0], 0, 0, 0.0,
                                  [dict(shape=(4, 3), strides='col')])
    return seeds


def more_reduction_seeds(one_dim):
    """fuzz_reduction.cpp's entries 8-17: Prod, ProdDim, Max, Min, MaxDim,
    MinDim, Any, All, Norm and Argsort."""
    seeds = {}

    def start(entry, self):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(entry)
        s.tensor(**self)
        return s

    def prod(self, out, dtype):
        s = start(8, self)
        s.dtype(dtype)
        s.tensor(**out)
        s.run()
        return s

    def prod_dim(self, dim, keep, out, dtype):
        s = start(9, self)
        s.small_int(dim)
        s.bit(keep)
        s.dtype(dtype)
        s.tensor(**out)
        s.run()
        return s

    def value_index(entry, self, dim, keep, out, indices):
        s = start(entry, self)
        s.small_int(dim)
        s.bit(keep)
        s.tensor(**out)
        s.tensor(**indices)
        s.run()
        return s

    def dim_list(entry, self, dims, keep, out, p=None):
        s = start(entry, self)
        if p is not None:
            s.scalar(FLOAT, f32(p))
        s.byte(len(dims))
        for v in dims:
            s.small_int(v)
        s.rare(False)
        s.bit(keep)
        s.tensor(**out)
        s.run()
        return s

    for dtype in (FLOAT, FLOAT16, BF16, INT32, INT64, BOOL, COMPLEX64):
        seeds[f'prod_{dtype}'] = prod(dict(shape=(3, 4), dtype=dtype), dict(shape=(), dtype=dtype), dtype)
        seeds[f'prod_dim_{dtype}'] = prod_dim(dict(shape=(3, 4), dtype=dtype), 1, False, dict(shape=(3,), dtype=dtype),
                                              dtype)
    seeds['prod_empty'] = prod(dict(shape=(0, 4)), dict(shape=()), FLOAT)
    seeds['prod_split'] = prod_dim(dict(shape=(2**20,)), 0, True, dict(shape=(1,)), FLOAT)
    for entry, name in ((10, 'max'), (11, 'min')):
        for dtype in (FLOAT, FLOAT16, INT8, BOOL, DOUBLE):
            s = start(entry, dict(shape=(3, 4, 5), strides='col', offset=1, dtype=dtype))
            s.tensor(shape=(1,), dtype=dtype)
            s.run()
            seeds[f'{name}_{dtype}'] = s
    for entry, name in ((12, 'max_dim'), (13, 'min_dim')):
        for dtype in (FLOAT, FLOAT16, BF16, INT64, BOOL):
            seeds[f'{name}_{dtype}'] = value_index(entry, dict(shape=(3, 4, 5), dtype=dtype), 1, False,
                                                   dict(shape=(3, 5), dtype=dtype), dict(shape=(3, 5), dtype=INT64))
        seeds[f'{name}_split'] = value_index(entry, dict(shape=(2**20,)), 0, True, dict(shape=(1,)),
                                             dict(shape=(1,), dtype=INT32))
        seeds[f'{name}_scalar'] = value_index(entry, dict(shape=()), -1, False, dict(shape=()),
                                              dict(shape=(), dtype=INT64))
    for entry, name in ((14, 'any'), (15, 'all')):
        for dtype in (FLOAT, FLOAT16, INT8, UINT8, BOOL, DOUBLE):
            seeds[f'{name}_{dtype}'] = dim_list(entry, dict(shape=(3, 4, 5), dtype=dtype), [-1, 0], False,
                                                dict(shape=(4,), dtype=BOOL))
        seeds[f'{name}_all_dims'] = dim_list(entry, dict(shape=(3, 4), strides='col'), [], True,
                                             dict(shape=(1, 1), dtype=UINT8))
        seeds[f'{name}_empty'] = dim_list(entry, dict(shape=(0, 4)), [0], False, dict(shape=(4,), dtype=BOOL))
    for p in (0.0, 1.0, 2.0, float('inf'), float('-inf'), 3.0, 0.5):
        seeds[f'norm_p{p}'] = dim_list(16, dict(shape=(3, 4, 5)), [1, 2], True, dict(shape=(3, 1, 1)), p=p)
    seeds['norm_half'] = dim_list(16, dict(shape=(3, 4), dtype=FLOAT16), [], False, dict(shape=()), p=2.0)
    seeds['norm_empty'] = dim_list(16, dict(shape=(0, 4)), [0], False, dict(shape=(4,)), p=2.0)
    seeds['norm_split'] = dim_list(16, dict(shape=(2**20,)), [0], False, dict(shape=()), p=2.0)
    for dtype in (FLOAT, FLOAT16, BF16, INT8, UINT8, INT16, INT32, INT64):
        seeds[f'argsort_{dtype}'] = one_dim(17, dict(shape=(3, 4, 5), dtype=dtype), 1, [True],
                                            dict(shape=(3, 4, 5), dtype=INT64))
    seeds['argsort_strided'] = one_dim(17, dict(shape=(3, 4, 5), strides='col', offset=2), -1, [False],
                                       dict(shape=(3, 4, 5), dtype=INT64, strides='col'))
    seeds['argsort_scalar'] = one_dim(17, dict(shape=()), 0, [False], dict(shape=(), dtype=INT64))
    seeds['argsort_empty'] = one_dim(17, dict(shape=(0, 4)), 1, [False], dict(shape=(0, 4), dtype=INT64))
    seeds['argsort_long'] = one_dim(17, dict(shape=(3, 5000)), 1, [True], dict(shape=(3, 5000), dtype=INT64))
    return seeds


# ---------------------------------------------------------------------------- the index engine

def index_call(entry, self, dim, index, values, place=ON_DEVICE):
    """fuzz_index.cpp's start of a call: place, entry, self, dim (none for
    Embedding), the index tensor and its values."""
    s = Seed()
    s.byte(place)
    s.byte(entry)
    s.tensor(**self)
    if dim is not None:
        s.small_int(dim)
    s.tensor(**index)
    s.byte(len(values))
    for v in values:
        s.small_int(v)
    return s


def index_seeds():
    """fuzz_index.cpp's grammar: IndexSelect, GatherV2, Embedding and the
    IndexCopy pair over every index dtype, strided views, 0-d and empty
    tensors, with index values in range, negative, out of range and wild;
    and their errors."""
    seeds = {}

    def seed(entry, self, dim, index, values, out, place=ON_DEVICE, run=(False, False), source=None):
        s = index_call(entry, self, None if entry == 2 else dim, index, values, place)
        if source is not None:
            s.tensor(**source)
        if out is not None:
            s.tensor(**out)
        s.run(*run)
        return s

    for entry, name in ((0, 'index_select'), (1, 'gather_v2')):
        for index_dtype in (INT32, INT64):
            for dtype in (FLOAT, FLOAT16, BF16, INT8, DOUBLE, BOOL):
                seeds[f'{name}_{dtype}_{index_dtype}'] = seed(
                    entry, dict(shape=(4, 3), dtype=dtype), 0, dict(shape=(3,), dtype=index_dtype), [2, 0, 3],
                    dict(shape=(3, 3), dtype=dtype))
        seeds[f'{name}_negative'] = seed(entry, dict(shape=(4, 3)), -1, dict(shape=(2,), dtype=INT64), [-1, -4],
                                         dict(shape=(4, 2)))
        seeds[f'{name}_out_of_range'] = seed(entry, dict(shape=(4, 3)), 0, dict(shape=(4,), dtype=INT32),
                                             [4, -5, 2**31 - 1, -2**31], dict(shape=(4, 3)))
        seeds[f'{name}_wild'] = seed(entry, dict(shape=(4, 3)), 1, dict(shape=(2,), dtype=INT64), [2**63 - 1, -2**63],
                                     dict(shape=(4, 2)))
        seeds[f'{name}_strided'] = seed(entry, dict(shape=(3, 4), strides='col', offset=2), 1,
                                        dict(shape=(3,), dtype=INT64, strides=(2,), offset=1), [3, 1], dict(
                                            shape=(3, 3), strides='col'))
        seeds[f'{name}_scalar_self'] = seed(entry, dict(shape=()), 0, dict(shape=(1,), dtype=INT64), [0],
                                            dict(shape=()))
        seeds[f'{name}_scalar_index'] = seed(entry, dict(shape=(2, 3)), 1, dict(shape=(), dtype=INT32), [2],
                                             dict(shape=(2, 1)))
        seeds[f'{name}_empty'] = seed(entry, dict(shape=(0, 3)), 0, dict(shape=(2,), dtype=INT64), [0],
                                      dict(shape=(2, 3)))
        seeds[f'{name}_dim_out_of_range'] = seed(entry, dict(shape=(4, 3)), 5, dict(shape=(3,), dtype=INT64), [0],
                                                 dict(shape=(3, 3)))
        seeds[f'{name}_bad_out'] = seed(entry, dict(shape=(4, 3)), 0, dict(shape=(3,), dtype=INT64), [0],
                                        dict(shape=(3, 4)))
        seeds[f'{name}_null_index'] = seed(entry, dict(shape=(4, 3)), 0, dict(null=True), [], dict(shape=(3, 3)))
        seeds[f'{name}_null_workspace_size'] = seed(entry, dict(shape=(4, 3)), 0, dict(shape=(3,), dtype=INT64),
                                                    [1], dict(shape=(3, 3)), run=(True, False))
    seeds['gather_v2_index_2d'] = seed(1, dict(shape=(5, 2, 3), dtype=INT16), 1, dict(shape=(2, 2), dtype=INT64),
                                       [1, -2, 0, 9], dict(shape=(5, 2, 2, 3), dtype=INT16))
    seeds['index_select_2d_index'] = seed(0, dict(shape=(4, 3)), 0, dict(shape=(2, 2), dtype=INT64), [0],
                                          dict(shape=(2, 2, 3)))
    for index_dtype in (INT32, INT64):
        seeds[f'embedding_{index_dtype}'] = seed(2, dict(shape=(5, 4)), None, dict(shape=(2, 3), dtype=index_dtype),
                                                 [4, 0, -1, 5, 2], dict(shape=(2, 3, 4)))
    seeds['embedding_scalar_index'] = seed(2, dict(shape=(5, 4), dtype=DOUBLE), None, dict(shape=(), dtype=INT64),
                                           [3], dict(shape=(4,), dtype=DOUBLE))
    seeds['embedding_bad_out'] = seed(2, dict(shape=(5, 4)), None, dict(shape=(2,), dtype=INT64), [1],
                                      dict(shape=(2, 5)))
    seeds['embedding_strided'] = seed(2, dict(shape=(5, 4), strides='col'), None,
                                      dict(shape=(3,), dtype=INT32, strides=(3,)), [1, 4, 0],
                                      dict(shape=(3, 4), strides='col'))
    # InplaceIndexCopy (3, no out) and IndexCopy (4)
    for entry, name in ((3, 'inplace_index_copy'), (4, 'index_copy')):
        out = None if entry == 3 else dict(shape=(4, 3))
        for index_dtype in (INT32, INT64):
            seeds[f'{name}_{index_dtype}'] = seed(entry, dict(shape=(4, 3)), 0, dict(shape=(3,), dtype=index_dtype),
                                                  [2, -1, 2, 4], out, source=dict(shape=(3, 3)))
        seeds[f'{name}_dim1_strided'] = seed(entry, dict(shape=(4, 3), strides='col'), 1,
                                             dict(shape=(2,), dtype=INT64, strides=(2,)), [0, 2], out,
                                             source=dict(shape=(4, 2), dtype=None))
        seeds[f'{name}_scalar_source'] = seed(entry, dict(shape=(3,)), 0, dict(shape=(), dtype=INT64), [1],
                                              None if entry == 3 else dict(shape=(3,)), source=dict(shape=()))
        seeds[f'{name}_bad_source'] = seed(entry, dict(shape=(4, 3)), 0, dict(shape=(3,), dtype=INT64), [0], out,
                                           source=dict(shape=(3, 2)))
        seeds[f'{name}_wild'] = seed(entry, dict(shape=(4, 3), dtype=INT8), 0, dict(shape=(2,), dtype=INT64),
                                     [2**62, -2**63], None if entry == 3 else dict(shape=(4, 3), dtype=INT8),
                                     source=dict(shape=(2, 3), dtype=INT8))
    seeds.update(index_map_seeds())
    seeds.update(embedding_grad_seeds())
    return seeds


def embedding_grad_seeds():
    """fuzz_index.cpp's entry 11, EmbeddingDenseBackward: grad, indices and
    their values, numWeights, paddingIdx, scaleGradByFreq, out."""
    seeds = {}

    def grad(grad_spec, index, values, num_weights, padding, scale, out, run=(False, False)):
        s = index_call(11, grad_spec, None, index, values)
        s.small_int(num_weights)
        s.small_int(padding)
        s.bit(scale)
        s.tensor(**out)
        s.run(*run)
        return s

    for dtype in (FLOAT, FLOAT16, BF16, DOUBLE):
        for index_dtype in (INT32, INT64, FLOAT, BOOL):
            seeds[f'embedding_grad_{dtype}_{index_dtype}'] = grad(
                dict(shape=(4, 3), dtype=dtype), dict(shape=(4,), dtype=index_dtype), [2, 0, 2, 7], 5, -1, False,
                dict(shape=(5, 3), dtype=dtype))
    seeds['embedding_grad_scaled_padded'] = grad(dict(shape=(2, 3, 4)), dict(shape=(2, 3), dtype=INT64),
                                                 [1, 1, 0, 3, -2, 1], 4, 0, True, dict(shape=(4, 4)))
    seeds['embedding_grad_strided'] = grad(dict(shape=(4, 3), strides='col'), dict(shape=(4,), dtype=INT32,
                                                                                    strides=(2,)),
                                           [1, 0], 2, 1, True, dict(shape=(2, 3), strides='col', dtype=FLOAT16))
    seeds['embedding_grad_empty'] = grad(dict(shape=(0, 3)), dict(shape=(0,), dtype=INT64), [], 3, -1, False,
                                         dict(shape=(3, 3)))
    seeds['embedding_grad_bad_rows'] = grad(dict(shape=(4, 3)), dict(shape=(3,), dtype=INT64), [0], 2, -1, False,
                                            dict(shape=(2, 3)))
    seeds['embedding_grad_bad_out'] = grad(dict(shape=(4, 3)), dict(shape=(4,), dtype=INT64), [0], 2, -1, False,
                                           dict(shape=(3, 3)))
    seeds['embedding_grad_null_executor'] = grad(dict(shape=(4, 3)), dict(shape=(4,), dtype=INT64), [0], 2, -1,
                                                 False, dict(shape=(2, 3)), run=(False, True))
    return seeds


def index_map_seeds():
    """fuzz_index.cpp's entries 5-10: Scatter and ScatterValue (in place and
    not, each reduce), IndexFillTensor and RepeatInterleaveInt(WithDim)."""
    seeds = {}

    def scatter(entry, self, dim, index, values, reduce, src=None, value=None, out=None, run=(False, False)):
        s = index_call(entry, self, dim, index, values)
        if value is not None:
            s.scalar(*value)
        else:
            s.tensor(**src)
        s.small_int(reduce)
        if out is not None:
            s.tensor(**out)
        s.run(*run)
        return s

    for reduce in (0, 1, 2):
        for dtype in (FLOAT, FLOAT16, BF16, INT8, INT64, BOOL, DOUBLE):
            seeds[f'scatter_{dtype}_{reduce}'] = scatter(
                5, dict(shape=(3, 4), dtype=dtype), 1, dict(shape=(2, 3), dtype=INT64), [1, 1, -1, 4, 0, 2], reduce,
                src=dict(shape=(3, 4), dtype=dtype), out=dict(shape=(3, 4), dtype=dtype))
        seeds[f'inplace_scatter_strided_{reduce}'] = scatter(
            6, dict(shape=(4, 3), strides='col', offset=1), 0, dict(shape=(3, 2), dtype=INT32, strides='col'),
            [3, 0, -4, 2, 2, 1], reduce, src=dict(shape=(3, 3), offset=2))
        seeds[f'scatter_value_{reduce}'] = scatter(7, dict(shape=(2, 3)), -1, dict(shape=(2, 2), dtype=INT64),
                                                   [0, 2, -3, 5], reduce, value=(FLOAT, f32(2.5)),
                                                   out=dict(shape=(2, 3)))
    seeds['inplace_scatter_value_scalar'] = scatter(8, dict(shape=()), 0, dict(shape=(), dtype=INT64), [0], 1,
                                                    value=(DOUBLE, f64(3.0)))
    seeds['scatter_empty_index'] = scatter(5, dict(shape=(2, 2)), 0, dict(shape=(0,), dtype=INT64), [], 0,
                                           src=dict(shape=(3,)), out=dict(shape=(2, 2)))
    seeds['scatter_reduce_max'] = scatter(5, dict(shape=(2, 2)), 0, dict(shape=(2, 2), dtype=INT64), [0], 3,
                                          src=dict(shape=(2, 2)), out=dict(shape=(2, 2)))
    seeds['scatter_wild'] = scatter(6, dict(shape=(3, 3), dtype=INT32), 0, dict(shape=(2, 3), dtype=INT64),
                                    [2**63 - 1, -2**63, 2**31], 1, src=dict(shape=(3, 3), dtype=INT32))

    def fill(self, dim, index, value, out):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(9)
        s.tensor(**self)
        s.small_int(dim)
        s.byte(len(index))
        for v in index:
            s.small_int(v)
        s.rare(False)
        s.scalar(*value)
        s.tensor(**out)
        s.run(False, False)
        return s

    for dtype in (FLOAT, FLOAT16, BF16, INT32, INT64, BOOL):
        seeds[f'index_fill_{dtype}'] = fill(dict(shape=(3, 4), dtype=dtype), 1, [0, -1, 0], (FLOAT, f32(-2.0)),
                                            dict(shape=(3, 4), dtype=dtype))
    seeds['index_fill_strided'] = fill(dict(shape=(3, 4), strides='col'), 0, [2], (DOUBLE, f64(7.0)),
                                       dict(shape=(3, 4), strides='col', offset=3))
    seeds['index_fill_scalar'] = fill(dict(shape=()), -1, [0], (FLOAT, f32(1.0)), dict(shape=()))
    seeds['index_fill_out_of_range'] = fill(dict(shape=(3, 4)), 0, [3], (FLOAT, f32(1.0)), dict(shape=(3, 4)))

    def repeat(with_dim, self, repeats, dim, output_size, out):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(10)
        s.byte(0 if with_dim else 1)
        s.tensor(**self)
        s.small_int(repeats)
        if with_dim:
            s.small_int(dim)
        s.small_int(output_size)
        s.tensor(**out)
        s.run(False, False)
        return s

    for dtype in (FLOAT, FLOAT16, INT8, BOOL, INT64):
        seeds[f'repeat_dim_{dtype}'] = repeat(True, dict(shape=(2, 3), dtype=dtype), 2, 1, 6,
                                              dict(shape=(2, 6), dtype=dtype))
        seeds[f'repeat_int_{dtype}'] = repeat(False, dict(shape=(2, 3), dtype=dtype), 3, 0, 18,
                                              dict(shape=(18,), dtype=dtype))
    seeds['repeat_dim_strided'] = repeat(True, dict(shape=(3, 2), strides='col', offset=1), 3, 0, 9,
                                         dict(shape=(9, 2), strides='col'))
    seeds['repeat_int_scalar'] = repeat(False, dict(shape=()), 4, 0, 4, dict(shape=(4,)))
    seeds['repeat_dim_output_size_0'] = repeat(True, dict(shape=(2,)), 2, 0, 0, dict(shape=(4,)))
    seeds['repeat_dim_bad_output_size'] = repeat(True, dict(shape=(2,)), 2, 0, 5, dict(shape=(5,)))
    return seeds


# ---------------------------------------------------------------------------- the window engine


def window_seeds():
    """fuzz_window.cpp's grammar: Im2col, AvgPool2d, MaxPool and
    UpsampleNearest2d over their A2 dtypes, 3-D and 4-D selfs, every list
    length, ceilMode, padding, strided views and empty batches; and their
    errors."""
    NCL, NHWC = 47, 1
    seeds = {}

    def ints(s, values):
        s.byte(len(values))
        for v in values:
            s.small_int(v)
        s.rare(False)

    def seed(entry, self, lists, out, tail=(), place=ON_DEVICE, run=(False, False)):
        s = Seed()
        s.byte(place)
        s.byte(entry)
        s.tensor(**self)
        for item in lists:
            if isinstance(item, tuple) and item[0] == 'int':
                s.small_int(item[1])
            elif isinstance(item, tuple) and item[0] == 'bit':
                s.bit(item[1])
            elif isinstance(item, tuple) and item[0] == 'byte':
                s.byte(item[1])
            else:
                ints(s, item)
        s.tensor(**out)
        s.run(*run)
        return s

    for dtype in (FLOAT, FLOAT16, BF16):
        seeds[f'im2col_{dtype}'] = seed(0, dict(shape=(1, 2, 5, 6), dtype=dtype), [[2, 3], [1, 1], [1, 0], [2, 1]],
                                        dict(shape=(1, 12, 12), dtype=dtype))
        seeds[f'avgpool_{dtype}'] = seed(1, dict(shape=(1, 2, 6, 6), dtype=dtype, fmt=NCHW),
                                         [[3, 3], [2, 2], [1, 1], ('bit', 0), ('bit', 1), ('int', 0), ('byte', 1)],
                                         dict(shape=(1, 2, 3, 3), dtype=dtype, fmt=NCHW))
    for dtype in (FLOAT, FLOAT16):
        seeds[f'maxpool_{dtype}'] = seed(2, dict(shape=(1, 2, 6, 6), dtype=dtype, fmt=NCHW),
                                         [[3, 3], [2, 2], ('int', 0), [1, 0, 2, 1], [1, 1], ('int', 1)],
                                         dict(shape=(1, 2, 4, 3), dtype=dtype, fmt=NCHW))
    for dtype in (FLOAT, FLOAT16, DOUBLE, UINT8, BF16):
        seeds[f'upsample_{dtype}'] = seed(3, dict(shape=(1, 2, 3, 4), dtype=dtype, fmt=NCHW), [[5, 7]],
                                          dict(shape=(1, 2, 5, 7), dtype=dtype, fmt=NCHW))
    seeds['im2col_3d_strided'] = seed(0, dict(shape=(2, 5, 6), strides='col', offset=3), [[3, 2], [2, 1], [1, 1],
                                      [1, 2]], dict(shape=(12, 12), strides='col'))
    seeds['im2col_empty'] = seed(0, dict(shape=(0, 2, 4, 4)), [[2, 2], [1, 1], [0, 0], [1, 1]], dict(shape=(0, 8, 9)))
    seeds['im2col_bad_out'] = seed(0, dict(shape=(1, 2, 4, 4)), [[2, 2], [1, 1], [0, 0], [1, 1]],
                                   dict(shape=(1, 8, 8)))
    seeds['im2col_wild'] = seed(0, dict(shape=(1, 2, 4, 4)), [[2**62, 2], [2**40, 1], [2**61, 0], [1, 1]],
                                dict(shape=(1, 8, 8)))
    seeds['avgpool_ncl_ceil_divisor'] = seed(1, dict(shape=(2, 5, 6), fmt=NCL), [[2, 3], [1, 2], [1, 1],
                                             ('bit', 1), ('bit', 0), ('int', -3), ('byte', 3)],
                                             dict(shape=(2, 6, 4), fmt=NCL))
    seeds['avgpool_strided'] = seed(1, dict(shape=(1, 2, 6, 6), strides='col', offset=2, fmt=NCHW),
                                    [[2], [], [1], ('bit', 0), ('bit', 0), ('int', 0), ('byte', 1)],
                                    dict(shape=(1, 2, 4, 4), strides='col', fmt=NCHW))
    seeds['avgpool_bad_format'] = seed(1, dict(shape=(1, 2, 6, 6)), [[2, 2], [2, 2], [0, 0], ('bit', 0), ('bit', 1),
                                       ('int', 0), ('byte', 1)], dict(shape=(1, 2, 3, 3)))
    seeds['maxpool_chw_strided'] = seed(2, dict(shape=(2, 5, 6), strides='col', offset=1),
                                        [[2, 3], [], ('int', 0), [1], [], ('int', 0)], dict(shape=(2, 6, 6)))
    seeds['maxpool_negative_pads'] = seed(2, dict(shape=(1, 1, 6, 4), fmt=NCHW),
                                          [[3, 3], [1], ('int', 0), [-1, 0], [1], ('int', 0)],
                                          dict(shape=(1, 1, 2, 2), fmt=NCHW))
    seeds['maxpool_empty'] = seed(2, dict(shape=(0, 2, 4, 4), fmt=NCHW), [[2, 2], [2, 2], ('int', 0), [0], [1],
                                  ('int', 0)], dict(shape=(0, 2, 2, 2), fmt=NCHW))
    seeds['upsample_nhwc_strided'] = seed(3, dict(shape=(1, 3, 4, 2), strides='col', fmt=NHWC), [[6, 3]],
                                          dict(shape=(1, 6, 3, 2), strides='col', fmt=NHWC))
    seeds['upsample_bad_size'] = seed(3, dict(shape=(1, 2, 3, 4), fmt=NCHW), [[5, 7, 1]],
                                      dict(shape=(1, 2, 5, 7), fmt=NCHW))
    seeds['upsample_null_workspace_size'] = seed(3, dict(shape=(1, 2, 3, 4), fmt=NCHW), [[5, 7]],
                                                 dict(shape=(1, 2, 5, 7), fmt=NCHW), run=(True, False))

    def conv(x, w, b, stride, pad, dilation, transposed, output_padding, groups, cube, y, place=ON_DEVICE):
        s = Seed()
        s.byte(place)
        s.byte(4)
        for t in (x, w):
            s.tensor(**t)
        if b is None:
            s.tensor(null=True)
        else:
            s.tensor(**b)
        for item in (stride, pad, dilation):
            ints(s, item)
        s.bit(transposed)
        ints(s, output_padding)
        s.small_int(groups)
        s.byte(cube + 1)
        s.tensor(**y)
        s.run()
        return s

    for dtype in (FLOAT, FLOAT16, BF16):
        seeds[f'conv1d_{dtype}'] = conv(dict(shape=(2, 4, 9), dtype=dtype, fmt=NCL),
                                        dict(shape=(6, 2, 3), dtype=dtype, fmt=NCL), dict(shape=(6,), dtype=dtype),
                                        [2], [1, 2], [1], False, [0], 2, 1, dict(shape=(2, 6, 5), dtype=dtype, fmt=NCL))
        seeds[f'conv2d_{dtype}'] = conv(dict(shape=(1, 3, 6, 5), dtype=dtype, fmt=NCHW),
                                        dict(shape=(2, 3, 3, 2), dtype=dtype, fmt=NCHW), None,
                                        [1, 2], [1, 0], [1, 1], False, [0, 0], 1, 0,
                                        dict(shape=(1, 2, 6, 2), dtype=dtype, fmt=NCHW))
        seeds[f'conv_transpose1d_{dtype}'] = conv(dict(shape=(1, 4, 5), dtype=dtype, fmt=NCL),
                                                  dict(shape=(4, 3, 3), dtype=dtype, fmt=NCL),
                                                  dict(shape=(6,), dtype=dtype), [2], [1], [1], True, [1], 2, 1,
                                                  dict(shape=(1, 6, 10), dtype=dtype, fmt=NCL))
    seeds['conv_transpose2d_depthwise'] = conv(dict(shape=(1, 3, 4, 4), fmt=NCHW), dict(shape=(3, 1, 3, 3), fmt=NCHW),
                                               None, [2, 2], [1, 0, 1, 0], [1, 1], True, [1, 1], 3, 2,
                                               dict(shape=(1, 3, 10, 10), fmt=NCHW))
    seeds['conv2d_strided'] = conv(dict(shape=(1, 2, 5, 6), strides='col', offset=3, fmt=NCHW),
                                   dict(shape=(4, 2, 2, 2), strides='col', fmt=NCHW), None, [1, 1], [0, 0], [1, 1],
                                   False, [0, 0], 1, 1, dict(shape=(1, 4, 4, 5), strides='col', fmt=NCHW))
    seeds['conv_empty_batch'] = conv(dict(shape=(0, 2, 6), fmt=NCL), dict(shape=(3, 2, 3), fmt=NCL), None, [1], [0],
                                     [1], False, [0], 1, 1, dict(shape=(0, 3, 4), fmt=NCL))
    seeds['conv_bad_output'] = conv(dict(shape=(1, 2, 6), fmt=NCL), dict(shape=(3, 2, 3), fmt=NCL), None, [1], [0],
                                    [1], False, [0], 1, 1, dict(shape=(1, 3, 5), fmt=NCL))
    seeds['conv_wild'] = conv(dict(shape=(1, 2, 6), fmt=NCL), dict(shape=(3, 2, 3), fmt=NCL), None, [2**62], [2**61],
                              [2**40], True, [2**50], 1, 1, dict(shape=(1, 3, 5), fmt=NCL))
    return seeds


# ---------------------------------------------------------------------------- the row engine


def rows_seeds():
    """fuzz_rows.cpp's grammar: Softmax and LogSoftmax along each dim of
    contiguous, transposed and offset views, rows of 1 and 0-d tensors, bad
    dims, dtypes and shapes; RmsNorm over 1-D and 2-D gammas, strided rows,
    every dtype pair and each wrong dtype or shape."""
    seeds = {}

    def softmax(entry, self, out, dim, place=ON_DEVICE, run=(False, False)):
        s = Seed()
        s.byte(place)
        s.byte(entry)
        s.tensor(**self)
        arith_out(s, out)
        s.small_int(dim)
        s.run(*run)
        return s

    for entry, name in ((0, 'softmax'), (1, 'log_softmax')):
        for dtype in (FLOAT, FLOAT16, BF16, DOUBLE):
            for dim in (-1, 0, 1):
                seeds[f'{name}_{dtype}_dim{dim}'] = softmax(entry, dict(shape=(3, 5), dtype=dtype),
                                                             ('broadcast', None), dim)
        seeds[f'{name}_column_major'] = softmax(entry, dict(shape=(4, 6), strides='col'), ('broadcast', None), 0)
        seeds[f'{name}_offset'] = softmax(entry, dict(shape=(2, 3, 4), offset=5, storage=7), 'self', 1)
        seeds[f'{name}_rows_of_one'] = softmax(entry, dict(shape=(5, 1)), ('broadcast', None), 1)
        seeds[f'{name}_scalar'] = softmax(entry, dict(shape=()), ('broadcast', None), 0)
        seeds[f'{name}_long_row'] = softmax(entry, dict(shape=(2, 70000)), ('broadcast', None), 1,
                                            place=PHASE1_ONLY)
        seeds[f'{name}_empty'] = softmax(entry, dict(shape=(0, 3)), ('broadcast', None), 7)
        seeds[f'{name}_bad_dim'] = softmax(entry, dict(shape=(2, 3)), ('broadcast', None), 2)
        seeds[f'{name}_wild_dim'] = softmax(entry, dict(shape=(2, 3)), ('broadcast', None), -2**63)
        seeds[f'{name}_int'] = softmax(entry, dict(shape=(2, 3), dtype=INT32), ('broadcast', FLOAT), 1)
        seeds[f'{name}_out_half'] = softmax(entry, dict(shape=(2, 3)), ('broadcast', FLOAT16), 1)
        seeds[f'{name}_wrong_out'] = softmax(entry, dict(shape=(2, 3)), dict(shape=(3, 2)), 1)
        seeds[f'{name}_rank9'] = softmax(entry, dict(shape=(1,) * 8 + (2,)), ('broadcast', None), 1)
        seeds[f'{name}_null_out'] = softmax(entry, dict(shape=(2, 3)), dict(null=True), 1)
        seeds[f'{name}_null_executor'] = softmax(entry, dict(shape=(2, 3)), ('broadcast', None), 1,
                                                 run=(False, True))
        seeds[f'{name}_huge_stride'] = softmax(entry, dict(shape=(2, 3), strides=(2**62, 1)),
                                               ('broadcast', None), 0)

    def softmax_backward(entry, grad, output, out, dim, place=ON_DEVICE):
        s = Seed()
        s.byte(place)
        s.byte(entry)
        s.tensor(**grad)
        s.tensor(**output)
        arith_out(s, out)
        s.small_int(dim)
        s.run(False, False)
        return s

    for entry, name in ((8, 'softmax_backward'), (9, 'log_softmax_backward')):
        for dtype in (FLOAT, FLOAT16, BF16):
            for dim in (-1, 0):
                x = dict(shape=(3, 5), dtype=dtype)
                seeds[f'{name}_{dtype}_dim{dim}'] = softmax_backward(entry, x, x, ('broadcast', None), dim)
        seeds[f'{name}_strided'] = softmax_backward(entry, dict(shape=(4, 6), strides='col'),
                                                    dict(shape=(4, 6), offset=2, storage=3), 'self', 1)
        seeds[f'{name}_into_output'] = softmax_backward(entry, dict(shape=(2, 3, 4)), dict(shape=(2, 3, 4)),
                                                        'other', 1)
        seeds[f'{name}_scalar'] = softmax_backward(entry, dict(shape=()), dict(shape=()), ('broadcast', None), 0)
        seeds[f'{name}_long_row'] = softmax_backward(entry, dict(shape=(2, 70000)), dict(shape=(2, 70000)),
                                                     ('broadcast', None), 1, place=PHASE1_ONLY)
        seeds[f'{name}_out_double'] = softmax_backward(entry, dict(shape=(2, 3)), dict(shape=(2, 3)),
                                                       ('broadcast', DOUBLE), 1)
        seeds[f'{name}_empty'] = softmax_backward(entry, dict(shape=(0, 3)), dict(shape=(2, 3), dtype=INT32),
                                                  ('broadcast', None), 9)
        seeds[f'{name}_mixed'] = softmax_backward(entry, dict(shape=(2, 3)), dict(shape=(2, 3), dtype=FLOAT16),
                                                  ('broadcast', None), 1)
        seeds[f'{name}_wrong_shape'] = softmax_backward(entry, dict(shape=(2, 3)), dict(shape=(3, 2)),
                                                        ('broadcast', None), 5)
        seeds[f'{name}_double'] = softmax_backward(entry, dict(shape=(2, 3), dtype=DOUBLE),
                                                   dict(shape=(2, 3), dtype=DOUBLE), ('broadcast', None), 1)

    def rms(name, x, gamma, y, rstd, eps=1e-6, place=ON_DEVICE):
        s = Seed()
        s.byte(place)
        s.byte(2)
        s.tensor(**x)
        s.tensor(**gamma)
        s.real(eps)
        s.tensor(**y)
        s.tensor(**rstd)
        s.run()
        seeds[f'rms_norm_{name}'] = s

    for xd, gd in ((FLOAT16, FLOAT), (BF16, FLOAT), (FLOAT16, FLOAT16), (BF16, BF16), (FLOAT, FLOAT)):
        rms(f'{xd}_{gd}', dict(shape=(2, 3, 8), dtype=xd), dict(shape=(8,), dtype=gd), dict(shape=(2, 3, 8), dtype=xd),
            dict(shape=(2, 3, 1)))
    rms('gamma_2d', dict(shape=(2, 3, 8)), dict(shape=(3, 8)), dict(shape=(2, 3, 8)), dict(shape=(2, 1, 1)))
    rms('strided', dict(shape=(3, 5), strides='col'), dict(shape=(5,), strides=(2,), storage=10),
        dict(shape=(3, 5), offset=2, storage=3), dict(shape=(3, 1), strides=(2, 1), storage=2))
    rms('nan_eps', dict(shape=(2, 4)), dict(shape=(4,)), dict(shape=(2, 4)), dict(shape=(2, 1)), eps=float('nan'))
    rms('empty', dict(shape=(0, 4)), dict(shape=(4,)), dict(shape=(0, 4)), dict(shape=(0, 1)))
    rms('gamma_bf16_x_half', dict(shape=(2, 4), dtype=FLOAT16), dict(shape=(4,), dtype=BF16),
        dict(shape=(2, 4), dtype=FLOAT16), dict(shape=(2, 1)))
    rms('gamma_too_long', dict(shape=(2, 4)), dict(shape=(5,)), dict(shape=(2, 4)), dict(shape=(2, 1)))
    rms('gamma_whole_x', dict(shape=(2, 4)), dict(shape=(2, 4)), dict(shape=(2, 4)), dict(shape=(1, 1)))
    rms('rstd_wrong', dict(shape=(2, 4)), dict(shape=(4,)), dict(shape=(2, 4)), dict(shape=(2, 4)))
    rms('rstd_half', dict(shape=(2, 4)), dict(shape=(4,)), dict(shape=(2, 4)), dict(shape=(2, 1), dtype=FLOAT16))
    rms('null_gamma', dict(shape=(2, 4)), dict(null=True), dict(shape=(2, 4)), dict(shape=(2, 1)))
    rms('huge_stride', dict(shape=(2, 4), strides=(2**61, 1)), dict(shape=(4,)), dict(shape=(2, 4)),
        dict(shape=(2, 1)))

    def layer(name, x, norm, weight, bias, out, mean, rstd, eps=1e-5, mode=0, null_norm=False):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(3)
        s.tensor(**x)
        s.byte(len(norm))
        for v in norm:
            s.small_int(v)
        s.rare(null_norm)
        for t in (weight, bias):
            s.tensor(**t)
        s.real(eps)
        for t in (out, mean, rstd):
            s.tensor(**t)
        s.small_int(mode)
        s.run()
        seeds[f'layer_norm_{name}'] = s

    none = dict(null=True)
    for dtype in (FLOAT, FLOAT16, BF16):
        for affine in (FLOAT, dtype):
            layer(f'{dtype}_{affine}', dict(shape=(2, 3, 8), dtype=dtype), [8], dict(shape=(8,), dtype=affine),
                  dict(shape=(8,), dtype=affine), dict(shape=(2, 3, 8), dtype=dtype), dict(shape=(2, 3, 1)),
                  dict(shape=(2, 3, 1)))
    layer('no_affine_no_stats', dict(shape=(4, 6)), [6], none, none, dict(shape=(4, 6)), none, none)
    layer('two_dims', dict(shape=(2, 3, 4)), [3, 4], dict(shape=(3, 4)), none, dict(shape=(2, 3, 4)),
          dict(shape=(2, 1, 1)), none)
    layer('strided', dict(shape=(3, 5), strides='col'), [5], dict(shape=(5,), strides=(2,), storage=10), none,
          dict(shape=(3, 5), offset=2, storage=3), dict(shape=(3, 1), strides=(2, 1), storage=2), none)
    layer('rows_of_no_element', dict(shape=(3, 0)), [0], none, none, dict(shape=(3, 0)), dict(shape=(3, 1)),
          dict(shape=(3, 1)))
    layer('no_rows', dict(shape=(0, 4)), [4], none, none, dict(shape=(0, 4)), none, none)
    layer('wrong_norm', dict(shape=(2, 4)), [5], none, none, dict(shape=(2, 4)), none, none)
    layer('empty_norm', dict(shape=(2, 4)), [], none, none, dict(shape=(2, 4)), none, none)
    layer('null_norm', dict(shape=(2, 4)), [4], none, none, dict(shape=(2, 4)), none, none, null_norm=True)
    layer('wild_norm', dict(shape=(2, 4)), [-2**63], none, none, dict(shape=(2, 4)), none, none)
    layer('stats_wrong_size', dict(shape=(2, 4)), [4], none, none, dict(shape=(2, 4)), dict(shape=(3,)), none)
    layer('mode_keep_fp16', dict(shape=(2, 4), dtype=FLOAT16), [4], none, none, dict(shape=(2, 4), dtype=FLOAT16),
          none, none, mode=2)
    layer('mode_bad', dict(shape=(2, 4)), [4], none, none, dict(shape=(2, 4)), none, none, mode=3)
    layer('mixed_affine', dict(shape=(2, 4), dtype=FLOAT16), [4], dict(shape=(4,)), dict(shape=(4,), dtype=FLOAT16),
          dict(shape=(2, 4), dtype=FLOAT16), none, none)
    layer('huge_stride', dict(shape=(2, 4), strides=(2**62, 1)), [4], none, none, dict(shape=(2, 4)), none, none)

    def entry_seed(entry, name, tensors_before, values, tensors_after, place=ON_DEVICE, bits=()):
        s = Seed()
        s.byte(place)
        s.byte(entry)
        for t in tensors_before:
            s.tensor(**t)
        for kind, v in values:
            getattr(s, kind)(v)
        for b in bits:
            s.bit(b)
        for t in tensors_after:
            s.tensor(**t)
        s.run()
        seeds[name] = s

    def add_rms(name, x1, x2, gamma, y, rstd, x_out, eps=1e-6):
        entry_seed(4, f'add_rms_norm_{name}', (x1, x2, gamma), [('real', eps)], (y, rstd, x_out))

    for dtype in (FLOAT, FLOAT16, BF16):
        x = dict(shape=(2, 3, 8), dtype=dtype)
        add_rms(dtype, x, x, dict(shape=(8,), dtype=dtype), x, dict(shape=(2, 3, 1)), x)
    half = dict(shape=(4, 8), dtype=FLOAT16)
    add_rms('pre', half, half, dict(shape=(8,), dtype=FLOAT16), half, none, half)
    add_rms('post', half, half, dict(shape=(8,), dtype=FLOAT16), half, none, none)
    add_rms('post_float', dict(shape=(4, 8)), dict(shape=(4, 8)), dict(shape=(8,)), dict(shape=(4, 8)), none, none)
    add_rms('gamma_whole', dict(shape=(2, 4)), dict(shape=(2, 4)), dict(shape=(2, 4)), dict(shape=(2, 4)),
            dict(shape=(1, 1)), dict(shape=(2, 4)))
    add_rms('strided', dict(shape=(3, 5), strides='col'), dict(shape=(3, 5), offset=2, storage=3),
            dict(shape=(5,), strides=(2,), storage=10), dict(shape=(3, 5)), dict(shape=(3, 1), strides=(2, 1), storage=2),
            dict(shape=(3, 5), strides='col'))
    add_rms('empty_gamma', dict(shape=(2, 0)), dict(shape=(2, 0)), dict(shape=(0,)), dict(shape=(2, 0)),
            dict(shape=(2, 1)), dict(shape=(2, 0)))
    add_rms('rstd_wrong', dict(shape=(2, 4)), dict(shape=(2, 4)), dict(shape=(4,)), dict(shape=(2, 4)),
            dict(shape=(2, 4)), dict(shape=(2, 4)))
    add_rms('x2_wider', dict(shape=(2, 4)), dict(shape=(2, 5)), dict(shape=(4,)), dict(shape=(2, 4)),
            dict(shape=(2, 1)), dict(shape=(2, 4)))

    def group(name, x, gamma, beta, n, c, hxw, g, out, mean, rstd, eps=1e-5):
        entry_seed(5, f'group_norm_{name}', (x, gamma, beta),
                   [('small_int', n), ('small_int', c), ('small_int', hxw), ('small_int', g), ('real', eps)],
                   (out, mean, rstd))

    for dtype in (FLOAT, FLOAT16, BF16):
        x = dict(shape=(2, 4, 3), dtype=dtype)
        group(dtype, x, dict(shape=(4,), dtype=dtype), dict(shape=(4,), dtype=dtype), 2, 4, 3, 2, x,
              dict(shape=(2, 2), dtype=dtype), dict(shape=(2, 2), dtype=dtype))
    group('no_affine', dict(shape=(2, 6, 2, 2)), none, none, 2, 6, 4, 3, dict(shape=(2, 6, 2, 2)), dict(shape=(2, 3)),
          dict(shape=(2, 3)))
    group('strided', dict(shape=(2, 4, 3), strides='col'), dict(shape=(4,), strides=(2,), storage=10), none, 2, 4, 3,
          2, dict(shape=(2, 4, 3), offset=2, storage=3), dict(shape=(2, 2), strides='col'), dict(shape=(2, 2)))
    group('empty_hxw', dict(shape=(2, 4, 0)), none, none, 2, 4, 0, 2, dict(shape=(2, 4, 0)), dict(shape=(2, 2)),
          dict(shape=(2, 2)))
    group('zero_group', dict(shape=(2, 4)), none, none, 2, 4, 1, 0, dict(shape=(2, 4)), dict(shape=(2, 0)),
          dict(shape=(2, 0)))
    group('wild_n', dict(shape=(2, 4)), none, none, -2**63, 4, 1, 2, dict(shape=(2, 4)), dict(shape=(2, 2)),
          dict(shape=(2, 2)))
    group('wrong_hxw', dict(shape=(2, 4, 3)), none, none, 2, 4, 5, 2, dict(shape=(2, 4, 3)), dict(shape=(2, 2)),
          dict(shape=(2, 2)))

    def cross_entropy(name, features, labels, loss, backprop):
        entry_seed(6, f'cross_entropy_{name}', (features, labels, loss, backprop), [], ())

    for dtype in (FLOAT, FLOAT16, BF16):
        x = dict(shape=(3, 7), dtype=dtype)
        cross_entropy(dtype, x, x, dict(shape=(3,), dtype=dtype), x)
    cross_entropy('strided', dict(shape=(3, 5), strides='col'), dict(shape=(3, 5), offset=2, storage=3),
                  dict(shape=(3,), strides=(2,), storage=2), dict(shape=(3, 5), strides='col'))
    cross_entropy('long_rows', dict(shape=(2, 70000)), dict(shape=(2, 70000)), dict(shape=(2,)),
                  dict(shape=(2, 70000)))
    cross_entropy('empty', dict(shape=(2, 0)), dict(shape=(2, 0)), dict(shape=(2,)), dict(shape=(2, 0)))
    cross_entropy('three_d', dict(shape=(1, 2, 3)), dict(shape=(1, 2, 3)), dict(shape=(1,)), dict(shape=(1, 2, 3)))
    cross_entropy('loss_wrong', dict(shape=(2, 3)), dict(shape=(2, 3)), dict(shape=(3,)), dict(shape=(2, 3)))

    def solve(name, b, a, x, m, upper=False, transpose=False, unit=False):
        entry_seed(7, f'triangular_solve_{name}', (b, a), [], (x, m), bits=(upper, transpose, unit))

    for dtype in (FLOAT, DOUBLE, COMPLEX64, COMPLEX128):
        for upper in (False, True):
            solve(f'{dtype}_{int(upper)}', dict(shape=(2, 4, 3), dtype=dtype), dict(shape=(2, 4, 4), dtype=dtype),
                  dict(shape=(2, 4, 3), dtype=dtype), dict(shape=(2, 4, 4), dtype=dtype), upper=upper,
                  transpose=not upper)
    solve('broadcast', dict(shape=(3, 1, 4, 2)), dict(shape=(2, 4, 4)), dict(shape=(3, 2, 4, 2)),
          dict(shape=(3, 2, 4, 4)))
    solve('strided_unit', dict(shape=(4, 3), strides='col'), dict(shape=(4, 4), offset=2, storage=3),
          dict(shape=(4, 3), strides='col'), none, unit=True)
    solve('empty', dict(shape=(4, 0)), dict(shape=(4, 4)), dict(shape=(4, 0)), dict(shape=(4, 4)))
    solve('unit_double', dict(shape=(2, 2), dtype=DOUBLE), dict(shape=(2, 2), dtype=DOUBLE),
          dict(shape=(2, 2), dtype=DOUBLE), none, unit=True)
    solve('not_square', dict(shape=(3, 2)), dict(shape=(3, 2)), dict(shape=(3, 2)), none)
    solve('null_x', dict(shape=(2, 2)), dict(shape=(2, 2)), none, none)

    def layer_grad(name, x, norm, stats, weight, mask, dx, daffine, dy=None, null_mask=False, place=ON_DEVICE):
        s = Seed()
        s.byte(place)
        s.byte(10)
        s.tensor(**(dy or x))
        s.tensor(**x)
        s.byte(len(norm))
        for v in norm:
            s.small_int(v)
        s.rare(False)
        for t in (stats, stats, weight, none):
            s.tensor(**t)
        s.byte(len(mask))
        for b in mask:
            s.bit(b)
        s.rare(null_mask)
        for t in (dx, daffine, daffine):
            s.tensor(**t)
        s.run()
        seeds[f'layer_norm_backward_{name}'] = s

    every = (True, True, True)
    for dtype in (FLOAT, FLOAT16, BF16):
        for weight_dtype in (FLOAT, dtype):
            x = dict(shape=(2, 3, 8), dtype=dtype)
            layer_grad(f'{dtype}_{weight_dtype}', x, [8], dict(shape=(2, 3, 1), dtype=dtype),
                       dict(shape=(8,), dtype=weight_dtype), every, x, dict(shape=(8,)))
    for bits in range(8):
        layer_grad(f'mask{bits}', dict(shape=(4, 6)), [6], dict(shape=(4, 1)), none,
                   (bool(bits & 1), bool(bits & 2), bool(bits & 4)), dict(shape=(4, 6)), dict(shape=(6,)))
    layer_grad('two_dims', dict(shape=(2, 3, 4)), [3, 4], dict(shape=(2,)), dict(shape=(3, 4)), every,
               dict(shape=(2, 3, 4)), dict(shape=(12,)))
    layer_grad('strided', dict(shape=(3, 5), strides='col'), [5], dict(shape=(3, 1), strides=(2, 1), storage=2),
               dict(shape=(5,), strides=(2,), storage=10), every, dict(shape=(3, 5), offset=2, storage=3),
               dict(shape=(5,), strides=(2,), storage=10), dy=dict(shape=(3, 5), offset=1, storage=2))
    layer_grad('long_rows', dict(shape=(2, 70000)), [70000], dict(shape=(2, 1)), none, every,
               dict(shape=(2, 70000)), dict(shape=(70000,)), place=PHASE1_ONLY)
    layer_grad('no_rows', dict(shape=(0, 4)), [4], dict(shape=(0, 1)), none, every, dict(shape=(0, 4)),
               dict(shape=(4,)))
    layer_grad('no_columns', dict(shape=(3, 0)), [0], dict(shape=(3, 1)), none, every, dict(shape=(3, 0)),
               dict(shape=(0,)))
    layer_grad('axis_loop', dict(shape=(2, 4, 4)), [2, 4], dict(shape=(2,)), dict(shape=(2, 4)), every,
               dict(shape=(2, 4, 4)), dict(shape=(16,)))
    layer_grad('short_mask', dict(shape=(2, 4)), [4], dict(shape=(2,)), none, (True, True), dict(shape=(2, 4)),
               dict(shape=(4,)))
    layer_grad('null_mask', dict(shape=(2, 4)), [4], dict(shape=(2,)), none, every, dict(shape=(2, 4)),
               dict(shape=(4,)), null_mask=True)
    layer_grad('null_dx', dict(shape=(2, 4)), [4], dict(shape=(2,)), none, every, none, dict(shape=(4,)))
    layer_grad('stats_wrong', dict(shape=(2, 4)), [4], dict(shape=(3,)), none, every, dict(shape=(2, 4)),
               dict(shape=(4,)))
    layer_grad('wild_norm', dict(shape=(2, 4)), [-2**63], dict(shape=(2,)), none, every, dict(shape=(2, 4)),
               dict(shape=(4,)))
    layer_grad('huge_stride', dict(shape=(2, 4), strides=(2**62, 1)), [4], dict(shape=(2,)), none, every,
               dict(shape=(2, 4)), dict(shape=(4,)))

    def rms_grad(name, x, rstd, gamma, dgamma, dy=None, dx=None, place=ON_DEVICE):
        entry_seed(11, f'rms_norm_grad_{name}', (dy or x, x, rstd, gamma, dx or x, dgamma), [], (), place=place)

    for xd, gd in ((FLOAT16, FLOAT), (BF16, FLOAT), (FLOAT16, FLOAT16), (BF16, BF16), (FLOAT, FLOAT)):
        rms_grad(f'{xd}_{gd}', dict(shape=(2, 1, 16), dtype=xd), dict(shape=(2,)), dict(shape=(16,), dtype=gd),
                 dict(shape=(16,)))
    rms_grad('gamma_2d', dict(shape=(2, 3, 8)), dict(shape=(2, 1, 1)), dict(shape=(3, 8)), dict(shape=(3, 8)))
    rms_grad('gamma_whole', dict(shape=(2, 8)), dict(shape=(1,)), dict(shape=(2, 8)), dict(shape=(2, 8)))
    rms_grad('strided', dict(shape=(3, 5), strides='col'), dict(shape=(3,), strides=(2,), storage=6),
             dict(shape=(5,), strides=(2,), storage=10), dict(shape=(5,), offset=1, storage=6),
             dy=dict(shape=(3, 5), offset=2, storage=3), dx=dict(shape=(3, 5), strides='col'))
    rms_grad('long_rows', dict(shape=(2, 70000)), dict(shape=(2,)), dict(shape=(70000,)), dict(shape=(70000,)),
             place=PHASE1_ONLY)
    rms_grad('empty', dict(shape=(0, 4)), dict(shape=(0,)), dict(shape=(4,)), dict(shape=(4,)))
    rms_grad('rstd_wrong', dict(shape=(2, 4)), dict(shape=(3,)), dict(shape=(4,)), dict(shape=(4,)))
    rms_grad('gamma_half_x_bf16', dict(shape=(2, 4), dtype=BF16), dict(shape=(2,)), dict(shape=(4,), dtype=FLOAT16),
             dict(shape=(4,)))
    rms_grad('huge_stride', dict(shape=(2, 4), strides=(2**61, 1)), dict(shape=(2,)), dict(shape=(4,)),
             dict(shape=(4,)))
    return seeds


# Inputs a fuzzer found, kept byte for byte beside the generated seeds (their
# names start with this): no grammar change may silently drop a reproducer.
FOUND_PREFIX = 'found_'


def write(folder, seeds):
    if folder.is_dir():
        for path in folder.iterdir():
            if not path.name.startswith(FOUND_PREFIX):
                path.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    for name, seed in sorted(seeds.items()):
        (folder / name).write_bytes(seed.data())


def rope_seeds():
    """fuzz_rope.cpp's grammar: RotaryPositionEmbedding in both modes over
    every dtype and every cos/sin form of the A2 tilings, strided views,
    empty x, and the refused modes, shapes, layouts and dtypes."""
    seeds = {}

    def seed(name, x, ones, mode=0, drop=0, dtype=FLOAT, sin_ones=None, out=None, x_args=None, place=ON_DEVICE,
             run=(False, False)):
        s = Seed()
        s.byte(place)
        s.tensor(shape=x, dtype=dtype, **(x_args or {}))
        s.tensor(broadcast=(0, drop, ones))
        s.tensor(broadcast=(0, drop, ones if sin_ones is None else sin_ones))
        s.small_int(mode)
        if out is None:
            s.tensor(copy=0, dtype=None)
        else:
            s.tensor(**out)
        s.run(*run)
        seeds[name] = s

    for dtype in (FLOAT, FLOAT16, BF16):
        for mode in (0, 1):
            seed(f'bsnd_1s1d_{dtype}_{mode}', (2, 5, 3, 8), (0, 2), mode, dtype=dtype)
            seed(f'bnsd_11sd_{dtype}_{mode}', (2, 3, 5, 6), (0, 1), mode, dtype=dtype)
            seed(f'sbnd_s11d_{dtype}_{mode}', (5, 2, 3, 34), (1, 2), mode, dtype=dtype)
    seed('half_bsnd_full', (2, 5, 3, 8), ())
    seed('half_bs1d', (2, 5, 3, 8), (2,))
    seed('half_b1sd', (2, 3, 5, 8), (1,))
    seed('half_111d', (1, 5, 3, 8), (1, 2))
    seed('half_111d_refused', (2, 5, 3, 8), (0, 1, 2))
    seed('half_1snd_refused', (2, 5, 3, 8), (0,))
    seed('half_bnsd_blocked', (8, 8, 2, 64), (0, 1))
    seed('half_d_limit', (1, 2, 1, 898), (0, 2))
    seed('odd_d', (1, 2, 1, 7), (0, 2), 1)
    seed('interleave_full_refused', (2, 5, 3, 8), (), 1)
    seed('mode_2', (2, 5, 3, 8), (0, 2), 2)
    seed('mode_wild', (2, 5, 3, 8), (0, 2), 2**40)
    seed('sin_differs', (2, 5, 3, 8), (0, 2), sin_ones=(0, 1, 2))
    seed('rank_3', (5, 3, 8), (1,))
    seed('rank_3_cos', (2, 5, 3, 8), (0, 2), drop=1)
    seed('empty_x', (2, 0, 3, 8), (0, 2))
    seed('strided_x', (2, 5, 3, 8), (0, 2), x_args=dict(strides='col', offset=3))
    seed('out_f16', (2, 5, 3, 8), (0, 2), out=dict(copy=0, dtype=FLOAT16))
    seed('out_wrong_shape', (2, 5, 3, 8), (0, 2), out=dict(shape=(2, 5, 3, 6)))
    seed('x_double', (2, 5, 3, 8), (0, 2), dtype=DOUBLE)
    seed('null_out', (2, 5, 3, 8), (0, 2), out=dict(null=True))
    seed('phase1_only', (2, 5, 3, 8), (0, 2), place=PHASE1_ONLY)
    seed('null_workspace_size', (2, 5, 3, 8), (0, 2), run=(True, False))
    return seeds


def matmul_seeds():
    """fuzz_matmul.cpp's grammar: Mm, BatchMatMul, Matmul and Mv over the
    Cube's dtypes and their mixes, transposed and broadcast views, vectors,
    empty dims, each cubeMathType and invalid ones, and shape errors;
    WeightQuantBatchMatmulV2 (entry 4) with INT8 and INT4 weights, ggml's
    views, offset and bias, a bad group size and quantScale."""
    seeds = {}

    def seed(entry, self, mat2, out, cube=0, run=(False, False)):
        s = Seed()
        s.byte(entry)
        s.tensor(**self)
        s.tensor(**mat2)
        s.tensor(**out)
        s.small_int(cube)
        s.run(*run)
        return s

    for cube in (-1, 0, 1, 2, 3, 4, 5):
        seeds[f'mm_cube_{cube}'] = seed(0, dict(shape=(3, 4)), dict(shape=(4, 5)), dict(shape=(3, 5)), cube)
    for a, b, o in ((FLOAT16, FLOAT16, FLOAT16), (BF16, BF16, FLOAT), (FLOAT, FLOAT16, BF16), (DOUBLE, FLOAT, FLOAT)):
        seeds[f'mm_{a}_{b}_{o}'] = seed(0, dict(shape=(3, 4), dtype=a), dict(shape=(4, 5), dtype=b),
                                        dict(shape=(3, 5), dtype=o))
    seeds['mm_transposed'] = seed(0, dict(shape=(3, 4), strides='col'), dict(shape=(4, 5), strides='col'),
                                  dict(shape=(3, 5), strides='col'))
    seeds['mm_k_zero'] = seed(0, dict(shape=(3, 0)), dict(shape=(0, 5)), dict(shape=(3, 5)))
    seeds['mm_bad_k'] = seed(0, dict(shape=(3, 4)), dict(shape=(3, 5)), dict(shape=(3, 5)))
    seeds['bmm_broadcast'] = seed(1, dict(shape=(1, 3, 4)), dict(shape=(2, 4, 5)), dict(shape=(2, 3, 5)), 2)
    seeds['bmm_zero_stride'] = seed(1, dict(shape=(2, 3, 4), strides=(0, 4, 1)), dict(shape=(2, 4, 5)),
                                    dict(shape=(2, 3, 5)), 3)
    seeds['bmm_bad_out'] = seed(1, dict(shape=(2, 3, 4)), dict(shape=(2, 4, 5)), dict(shape=(2, 3, 4)))
    seeds['matmul_vectors'] = seed(2, dict(shape=(4,)), dict(shape=(4,)), dict(shape=()))
    seeds['matmul_vector_batch'] = seed(2, dict(shape=(4,)), dict(shape=(2, 4, 3)), dict(shape=(2, 3)))
    seeds['matmul_nd'] = seed(2, dict(shape=(2, 1, 3, 4), dtype=FLOAT16), dict(shape=(3, 4, 5), dtype=FLOAT16),
                              dict(shape=(2, 3, 3, 5), dtype=FLOAT16), 1)
    seeds['matmul_scalar'] = seed(2, dict(shape=()), dict(shape=(4,)), dict(shape=()))
    seeds['mv'] = seed(3, dict(shape=(3, 4)), dict(shape=(4,)), dict(shape=(3,)))
    seeds['mv_empty_self'] = seed(3, dict(shape=(3, 0)), dict(shape=(0,)), dict(shape=(3,)))
    seeds['mm_null_workspace_size'] = seed(0, dict(shape=(3, 4)), dict(shape=(4, 5)), dict(shape=(3, 5)),
                                           run=(True, False))
    nz = dict(shape=(32, 16), dtype=FLOAT16, fmt=NZ, storage=(1, 2, 16, 16))
    seeds['weight_nz'] = seed(4, dict(shape=(4, 32), dtype=FLOAT16), nz, dict(shape=(4, 16), dtype=FLOAT16))
    seeds['weight_nz_transposed'] = seed(0, dict(shape=(4, 16), dtype=FLOAT16),
                                         dict(shape=(16, 32), dtype=FLOAT16, strides=(1, 16), fmt=NZ,
                                              storage=(1, 2, 16, 16)), dict(shape=(4, 32)))
    seeds['bmm_weight_nz'] = seed(5, dict(shape=(2, 4, 32), dtype=BF16),
                                  dict(shape=(2, 32, 16), dtype=BF16, fmt=NZ, storage=(2, 1, 2, 16, 16)),
                                  dict(shape=(2, 4, 16)), 4)

    def add_seed(entry, tensors, beta=1.0, alpha=1.0, cube=0):
        s = Seed()
        s.byte(entry)
        for t in tensors[:3]:
            s.tensor(**t)
        s.scalar(FLOAT, struct.pack('<f', beta))
        s.scalar(FLOAT, struct.pack('<f', alpha))
        for t in tensors[3:]:
            s.tensor(**t)
        s.small_int(cube)
        s.run()
        return s

    mats = [dict(shape=(3, 4)), dict(shape=(4, 5))]
    seeds['addmm'] = add_seed(6, [dict(shape=(5,))] + mats + [dict(shape=(3, 5))], 0.5, 2.0)
    seeds['addmm_beta_zero'] = add_seed(6, [dict(shape=(3, 1))] + mats + [dict(shape=(3, 5))], 0.0, 1.0, 4)
    seeds['baddbmm'] = add_seed(7, [dict(shape=(1, 3, 5), dtype=FLOAT16), dict(shape=(2, 3, 4), dtype=FLOAT16),
                                    dict(shape=(1, 4, 5), dtype=FLOAT16), dict(shape=(2, 3, 5), dtype=FLOAT16)], 1.0, 0.0)
    seeds['addmm_weight_nz'] = add_seed(8, [dict(shape=(16,)), dict(shape=(4, 32), dtype=FLOAT16), nz,
                                            dict(shape=(4, 16))], 2.0, 1.0)
    seeds['inplace_addmm'] = add_seed(9, [dict(shape=(3, 5), strides='col')] + mats, -1.0, 3.0, 1)
    seeds['inplace_baddbmm'] = add_seed(10, [dict(shape=(2, 3, 5)), dict(shape=(2, 3, 4)), dict(shape=(2, 4, 5))])

    def weight_quant(x, w, y, scale, offset=None, bias=None, quant_scale=None, group=0):
        s = Seed()
        s.byte(11)
        for t in (x, w, y):
            s.tensor(**t)
        s.small_int(0)
        s.tensor(**scale)
        for optional in (offset, bias, quant_scale):
            s.bit(optional is not None)
            if optional is not None:
                s.tensor(**optional)
        s.small_int(group // 16)
        s.run(False, False)
        return s

    INT4 = 29
    seeds['wq_int8_channel'] = weight_quant(dict(shape=(2, 64), dtype=FLOAT16), dict(shape=(64, 8), dtype=INT8),
                                            dict(shape=(2, 8), dtype=FLOAT16), dict(shape=(8,), dtype=FLOAT16))
    seeds['wq_int4_group_ggml'] = weight_quant(dict(shape=(1, 64), dtype=FLOAT16),
                                               dict(shape=(64, 8), dtype=INT4, strides='col'),
                                               dict(shape=(1, 8), dtype=FLOAT16),
                                               dict(shape=(2, 8), dtype=FLOAT16, strides='col'), group=32)
    # The few-row block path (K in blocks of 32 inside groups): INT8, an odd
    # column count; INT4 bf16 with an offset (computed tables), M = 3.
    seeds['wq_int8_group_ggml'] = weight_quant(dict(shape=(2, 96), dtype=FLOAT16),
                                               dict(shape=(96, 5), dtype=INT8, strides='col'),
                                               dict(shape=(2, 5), dtype=FLOAT16),
                                               dict(shape=(3, 5), dtype=FLOAT16, strides='col'), group=32)
    seeds['wq_int4_ggml_bf16_offset'] = weight_quant(dict(shape=(3, 128), dtype=BF16),
                                                     dict(shape=(128, 3), dtype=INT4, strides='col'),
                                                     dict(shape=(3, 3), dtype=BF16),
                                                     dict(shape=(2, 3), dtype=BF16, strides='col'),
                                                     offset=dict(shape=(2, 3), dtype=BF16, strides='col'), group=64)
    seeds['wq_bf16_offset_bias'] = weight_quant(dict(shape=(5, 64), dtype=BF16), dict(shape=(64, 6), dtype=INT4),
                                                dict(shape=(5, 6), dtype=BF16), dict(shape=(1, 6), dtype=BF16),
                                                offset=dict(shape=(1, 6), dtype=BF16), bias=dict(shape=(6,)))
    seeds['wq_bad_group'] = weight_quant(dict(shape=(2, 64), dtype=FLOAT16), dict(shape=(64, 8), dtype=INT8),
                                         dict(shape=(2, 8), dtype=FLOAT16), dict(shape=(2, 8), dtype=FLOAT16), group=48)
    seeds['wq_quant_scale'] = weight_quant(dict(shape=(2, 64), dtype=FLOAT16), dict(shape=(64, 8), dtype=INT8),
                                           dict(shape=(2, 8), dtype=INT8), dict(shape=(8,), dtype=FLOAT16),
                                           quant_scale=dict(shape=(8,), dtype=UINT64))
    return seeds


def attention_seeds():
    """fuzz_attention.cpp's grammar: FusedInferAttentionScoreV2 in each
    accepted layout and dtype, GQA, decode, pse and masks (broadcast too),
    the sparse modes, softmaxLse, empty tensors, and the refused layouts,
    lists, page attention, dtypes and shapes."""
    seeds = {}
    layouts = ['BNSD', 'BSND', 'BSH', 'BNSD_BSND', 'TND', 'SH', None]

    def seed(name, q, kv, out=None, pse=None, mask=None, lse=None, layout='BNSD', heads=2, kv_heads=2, pre=65535,
             nxt=65535, sparse=0, precise=0, lse_flag=False, lists=0, dtype=FLOAT16, place=ON_DEVICE,
             run=(False, False)):
        s = Seed()
        s.byte(place)
        s.tensor(shape=q, dtype=dtype)
        s.tensor(shape=kv, dtype=dtype)
        s.tensor(copy=1, dtype=None)
        for tensor in (pse, mask):
            if tensor is None:
                s.tensor(null=True)
            else:
                s.tensor(**tensor)
        s.tensor(**(out or dict(copy=0, dtype=None)))
        if lse is None:
            s.tensor(null=True)
        else:
            s.tensor(shape=lse, dtype=FLOAT)
        s.byte(layouts.index(layout))
        for value in (heads, kv_heads, pre, nxt, sparse, precise):
            s.small_int(value)
        s.bit(lse_flag)
        s.byte(lists)
        s.run(*run)
        seeds[name] = s

    seed('bnsd', (1, 2, 4, 8), (1, 2, 6, 8))
    seed('bnsd_bf16', (2, 2, 3, 8), (2, 2, 5, 8), dtype=BF16)
    seed('bsnd_gqa', (1, 3, 4, 8), (1, 5, 2, 8), layout='BSND', heads=4, kv_heads=2)
    seed('bsh', (2, 3, 16), (2, 5, 16), layout='BSH')
    seed('bnsd_bsnd', (1, 2, 3, 8), (1, 2, 5, 8), out=dict(shape=(1, 3, 2, 8), dtype=FLOAT16), layout='BNSD_BSND')
    seed('decode_pse', (2, 1, 2, 8), (2, 7, 2, 8), pse=dict(shape=(2, 2, 1, 7), dtype=FLOAT16, strides=(7, 0, 7, 1)),
         layout='BSND')
    seed('decode_mask', (2, 2, 1, 8), (2, 2, 7, 8), mask=dict(shape=(2, 7), dtype=BOOL))
    seed('mask_broadcast', (2, 2, 4, 8), (2, 2, 6, 8), mask=dict(shape=(2, 1, 4, 6), dtype=INT8, strides=(0, 24, 6, 1)))
    seed('mask_tokens', (1, 2, 4, 8), (1, 2, 6, 8), mask=dict(shape=(4, 6), dtype=UINT8), pre=1, nxt=0)
    seed('pse_batch1', (2, 2, 4, 8), (2, 2, 6, 8), pse=dict(shape=(1, 2, 4, 8), dtype=FLOAT16), lse=(2, 2, 4, 1),
         lse_flag=True)
    for mode in (1, 2, 3, 4, 5, -1):
        seed(f'sparse_{mode}', (1, 2, 4, 8), (1, 2, 6, 8), mask=dict(shape=(4, 6), dtype=BOOL), sparse=mode, pre=2,
             nxt=1)
    seed('precise_3', (1, 2, 4, 8), (1, 2, 6, 8), precise=3)
    seed('empty_query', (0, 2, 4, 8), (1, 2, 6, 8))
    seed('empty_keys', (1, 2, 4, 8), (1, 2, 0, 8))
    seed('tnd', (4, 2, 8), (6, 2, 8), layout='TND')
    seed('sh', (4, 16), (6, 16), layout='SH')
    seed('null_layout', (1, 2, 4, 8), (1, 2, 6, 8), layout=None)
    seed('two_kv_tensors', (1, 2, 4, 8), (1, 2, 6, 8), lists=1)
    seed('null_key_list', (1, 2, 4, 8), (1, 2, 6, 8), lists=2)
    seed('block_table', (1, 2, 4, 8), (1, 2, 6, 8), mask=dict(shape=(1, 2), dtype=INT32), lists=4)
    seed('v3', (1, 2, 4, 8), (1, 2, 6, 8), lists=2 << 3)
    seed('v4_gqa_lse', (1, 4, 3, 8), (1, 2, 6, 8), heads=4, kv_heads=2, lse=(1, 4, 3, 1), lse_flag=True,
         lists=3 << 3)
    seed('v4_query_rope', (1, 2, 4, 8), (1, 2, 6, 8), mask=dict(shape=(1, 2, 4, 4), dtype=FLOAT16),
         lists=(3 << 3) | 32)
    seed('int8_query', (1, 2, 4, 8), (1, 2, 6, 8), dtype=INT8)
    seed('heads_wild', (1, 2, 4, 8), (1, 2, 6, 8), heads=2**40, kv_heads=-3)
    seed('out_wrong', (1, 2, 4, 8), (1, 2, 6, 8), out=dict(shape=(1, 2, 4, 6), dtype=FLOAT16))
    seed('strided_query', (1, 2, 4, 8), (1, 2, 6, 8), out=dict(shape=(1, 2, 4, 8), dtype=FLOAT16, strides='col'))
    seed('phase1_only', (1, 2, 4, 8), (1, 2, 6, 8), place=PHASE1_ONLY)
    seed('null_workspace_size', (1, 2, 4, 8), (1, 2, 6, 8), run=(True, False))
    return seeds


# ---------------------------------------------------------------------------- the tensor-list engine


def tensor_list_seeds():
    """fuzz_tensor_lists.cpp's grammar: each foreach entry over lists of
    different sizes (an empty tensor, a strided and an offset view among
    them), in place, null lists and scalars, mismatched lists and dtypes; and
    ApplyAdamWV2 with and without amsgrad, mixed dtypes, an INT64 step and
    its refusals."""
    seeds = {}
    specs = [dict(shape=(3, 5)), dict(shape=(0,)), dict(shape=(4, 6), strides='col'), dict(shape=(9,), offset=2),
             dict(shape=(300,))]
    input_lists = [1, 3, 3, 1, 2, 0, 1, 3, 3]
    names = ['mul', 'addcmul', 'addcdiv', 'sqrt', 'lerp']

    def foreach(entry, tensors, inplace=False, null_list=None, out=None, scalar=(FLOAT, f32(1.5)), run=(False, False)):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(entry)
        s.byte(len(tensors))
        s.bit(inplace)
        for k in range(input_lists[entry]):
            s.rare(null_list == k)
            for spec in tensors:
                s.tensor(**spec)
        if not inplace:
            s.rare(null_list == 'out')
            for spec in (out if out is not None else [dict(shape=t['shape'], dtype=t.get('dtype', FLOAT))
                                                      for t in tensors]):
                s.tensor(**spec)
        if entry >= 6:
            s.tensor(**(dict(null=True) if scalar is None else scalar))
        elif entry != 3:
            if scalar is None:
                s.scalar(kind='null')
            else:
                s.scalar(*scalar)
        s.run(*run)
        return s

    def one_list(entry, tensors, null_list=False):
        """Entries 9 and 10 start alike: the count, a rare (null list), the tensors."""
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(entry)
        s.byte(len(tensors))
        s.rare(null_list)
        for spec in tensors:
            s.tensor(**spec)
        return s

    # NonFiniteCheckAndUnscale (entry 9): the list in place, foundInf, invScale.
    def unscale(tensors, found=dict(shape=(1,)), scale=dict(shape=()), null_list=False):
        s = one_list(9, tensors, null_list)
        s.tensor(**found)
        s.tensor(**scale)
        s.run(False, False)
        return s

    for dtype in (FLOAT, FLOAT16, BF16):
        seeds[f'unscale_{dtype}'] = unscale([dict(spec, dtype=dtype) for spec in specs if spec['shape'] != (0,)])
    seeds['unscale_mixed'] = unscale([dict(shape=(4,)), dict(shape=(4,), dtype=BF16)])
    seeds['unscale_empty_tensor'] = unscale([dict(shape=(0,))])
    seeds['unscale_empty_list'] = unscale([])
    seeds['unscale_found_half'] = unscale([dict(shape=(4,))], found=dict(shape=(1,), dtype=FLOAT16))
    seeds['unscale_scale_pair'] = unscale([dict(shape=(4,))], scale=dict(shape=(2,)))
    seeds['unscale_null_list'] = unscale([dict(shape=(4,))], null_list=True)

    # Norm (entry 10): x, out (one element each), the order.
    def norm(tensors, outs=None, order=(FLOAT, f32(2.0))):
        s = one_list(10, tensors)
        s.rare(False)
        for spec in (outs if outs is not None else [dict(shape=(), dtype=t.get('dtype', FLOAT)) for t in tensors]):
            s.tensor(**spec)
        s.scalar(*order)
        s.run(False, False)
        return s

    for dtype in (FLOAT, FLOAT16, BF16):
        seeds[f'norm_{dtype}'] = norm([dict(spec, dtype=dtype) for spec in specs])
    seeds['norm_one'] = norm(specs[:3], order=(INT64, (1).to_bytes(8, 'little')))
    seeds['norm_inf'] = norm(specs[:2], order=(DOUBLE, f64(float('inf'))))
    seeds['norm_wide_out'] = norm(specs[:1], outs=[dict(shape=(2,))])
    seeds['norm_half_out'] = norm(specs[:1], outs=[dict(shape=(1,), dtype=FLOAT16)])

    # The non-V2 forms (entries 6-8): the scalar a device tensor.
    for entry, name in ((6, 'mul_tensor_scalar'), (7, 'addcmul_tensor_scalar'), (8, 'addcdiv_tensor_scalar')):
        for dtype in (FLOAT, FLOAT16, BF16):
            typed = [dict(spec, dtype=dtype) for spec in specs]
            scalar_dtype = FLOAT16 if dtype == FLOAT16 else FLOAT
            seeds[f'{name}_{dtype}'] = foreach(entry, typed, scalar=dict(shape=(1,), dtype=scalar_dtype))
        seeds[f'{name}_double'] = foreach(entry, specs[:2], scalar=dict(shape=(), dtype=DOUBLE))
        seeds[f'{name}_two_elements'] = foreach(entry, specs[:2], scalar=dict(shape=(2,)))
        seeds[f'{name}_offset'] = foreach(entry, specs[:2], inplace=True, scalar=dict(shape=(1,), offset=3))
        seeds[f'{name}_null'] = foreach(entry, specs[:2], scalar=None)

    for entry, name in enumerate(names):
        for dtype in (FLOAT, FLOAT16, BF16):
            typed = [dict(spec, dtype=dtype) for spec in specs]
            scalar = (FLOAT16, struct.pack('<e', 0.5)) if dtype == FLOAT16 and entry != 4 else (FLOAT, f32(0.75))
            seeds[f'{name}_{dtype}'] = foreach(entry, typed, scalar=scalar)
        seeds[f'{name}_inplace'] = foreach(entry, specs[:3], inplace=True, scalar=(DOUBLE, f64(-2.0)))
        seeds[f'{name}_one'] = foreach(entry, [dict(shape=(7,))])
        seeds[f'{name}_empty_list'] = foreach(entry, [])
        seeds[f'{name}_null_list'] = foreach(entry, specs[:2], null_list=0)
        seeds[f'{name}_null_out'] = foreach(entry, specs[:2], null_list='out')
        seeds[f'{name}_out_shape'] = foreach(entry, [dict(shape=(2, 3))], out=[dict(shape=(3, 2))])
        seeds[f'{name}_out_dtype'] = foreach(entry, [dict(shape=(2, 3))], out=[dict(shape=(2, 3), dtype=FLOAT16)])
        seeds[f'{name}_int32'] = foreach(entry, [dict(shape=(4,), dtype=INT32)], scalar=(INT64, struct.pack('<q', 3)))
        if entry != 3:
            seeds[f'{name}_null_scalar'] = foreach(entry, [dict(shape=(4,))], scalar=None)
    seeds['mul_null_workspace_size'] = foreach(0, [dict(shape=(4,))], run=(True, False))

    def adam_w(var=FLOAT, state=FLOAT, grad=FLOAT, max_spec=None, step=dict(shape=(1,)), amsgrad=False,
               maximize=False, shape=(5, 7), hyper=(1e-3, 0.9, 0.999, 0.01, 1e-8)):
        s = Seed()
        s.byte(ON_DEVICE)
        s.byte(5)
        s.tensor(shape=shape, dtype=var)
        s.tensor(shape=shape, dtype=state)
        s.tensor(shape=shape, dtype=state)
        s.bit(max_spec is not None)
        if max_spec is not None:
            s.tensor(**max_spec)
        s.tensor(shape=shape, dtype=grad)
        s.tensor(**step)
        for h in hyper:
            s.real(h)
        s.bit(amsgrad)
        s.bit(maximize)
        s.run(False, False)
        return s

    for dtype in (FLOAT, FLOAT16, BF16):
        seeds[f'adam_w_{dtype}'] = adam_w(dtype, dtype, dtype)
        seeds[f'adam_w_amsgrad_{dtype}'] = adam_w(dtype, dtype, dtype, dict(shape=(5, 7), dtype=dtype), amsgrad=True,
                                                  maximize=True)
    seeds['adam_w_mixed'] = adam_w(FLOAT, FLOAT, BF16, dict(shape=(5, 7), dtype=BF16), amsgrad=True)
    seeds['adam_w_int64_step'] = adam_w(step=dict(shape=(1,), dtype=INT64))
    seeds['adam_w_strided_step'] = adam_w(step=dict(shape=(1, 1), strides='col', offset=3))
    seeds['adam_w_amsgrad_without_max'] = adam_w(amsgrad=True)
    seeds['adam_w_two_steps'] = adam_w(step=dict(shape=(2,)))
    seeds['adam_w_int32_step'] = adam_w(step=dict(shape=(1,), dtype=INT32))
    seeds['adam_w_double'] = adam_w(DOUBLE, DOUBLE, DOUBLE)
    seeds['adam_w_empty'] = adam_w(shape=(0, 3))
    seeds['adam_w_large'] = adam_w(shape=(4097,))
    seeds['adam_w_nan_hyper'] = adam_w(hyper=(float('nan'), 1.0, float('inf'), -1.0, 0.0))
    return seeds


def main():
    here = pathlib.Path(__file__).resolve().parent
    ops = here.parent.parent / 'ops'
    write(here / 'corpus' / 'fuzz_tensor', tensor_seeds())
    write(here / 'corpus' / 'fuzz_scalar', scalar_seeds())
    write(here / 'corpus' / 'fuzz_backward', backward_seeds())
    write(ops / 'arithmetic' / 'tests' / 'corpus', {**binary_seeds(), **dropout_seeds()})
    write(ops / 'unary_math' / 'tests' / 'corpus', elementwise_unary_seeds())
    write(ops / 'layout' / 'tests' / 'corpus', layout_seeds())
    write(ops / 'reduce' / 'tests' / 'corpus', reduction_seeds())
    write(ops / 'index' / 'tests' / 'corpus', index_seeds())
    write(ops / 'norm' / 'tests' / 'corpus', rows_seeds())
    write(ops / 'rope' / 'tests' / 'corpus', rope_seeds())
    write(ops / 'pooling' / 'tests' / 'corpus', window_seeds())
    write(ops / 'matmul' / 'tests' / 'corpus', matmul_seeds())
    write(ops / 'attention' / 'tests' / 'corpus', attention_seeds())
    write(ops / 'foreach' / 'tests' / 'corpus', tensor_list_seeds())


if __name__ == '__main__':
    main()
