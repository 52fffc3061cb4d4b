// What the fuzz targets of elementwise operators share: the tensor
// arguments of their calls, where an out comes from (decoded, over the
// inputs' broadcast shape, or an input itself), and the decoding of the
// one-tensor forms.  The grammar of those, which tests/fuzz/make_seeds.py
// encodes (keep the two in step):
//
//   pair + out:  tensor self, tensor other, out%8:
//                  0-4 tensor out
//                  5   out contiguous over the broadcast shape of self and
//                      other (self's view when they do not broadcast),
//                      bit: 0 self's dtype, 1 reads a dtype
//                  6   out is self (the same aclTensor)
//                  7   out is other
//   in-place pair: tensor selfRef, other%8: 7 other is selfRef, else tensor other
//   one + out:   tensor self, out%8:
//                  0-4 tensor out
//                  5   out contiguous over self's view,
//                      bit: 0 self's dtype, 1 reads a dtype
//                  6-7 out is self (the same aclTensor)
//   in-place one:  tensor selfRef
//
// A tensor the operator writes -- out, selfRef, or self when out aliases
// it -- is made with OperatorCall::output, so that phase 2 may write it and
// only through its view.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"

namespace aclcpu::fuzz::elementwise {

/// The tensor arguments of an out-of-place call (other stays null in the scalar forms).
struct Tensors {
    const aclTensor* self = nullptr;
    const aclTensor* other = nullptr;
    aclTensor* out = nullptr;
};

/// The tensor arguments of an in-place tensor call.
struct InplaceTensors {
    aclTensor* selfRef = nullptr;
    const aclTensor* other = nullptr;
};

/// The broadcast of two views (right-aligned, a dim of 1 stretching), or
/// fallback when they do not broadcast.
inline std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                            const std::vector<int64_t>& fallback) {
    std::vector<int64_t> shape(std::max(a.size(), b.size()));
    for (size_t i = 0; i < shape.size(); ++i) {
        const int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (x != y && x != 1 && y != 1) return fallback;
        shape[shape.size() - 1 - i] = x == 1 ? y : x;
    }
    return shape;
}

/// Where out comes from (the out%8 choice).
enum class OutSource { decoded, broadcast, self, other };

inline OutSource out_source(Decoder& in, bool hasOther) {
    const uint8_t choice = in.byte() % 8;
    if (choice < 5) return OutSource::decoded;
    if (choice == 5) return OutSource::broadcast;
    return choice == 7 && hasOther ? OutSource::other : OutSource::self;
}

/// An out that is none of the inputs: decoded, or (broadcast) contiguous
/// over shape, of self's dtype or a decoded one.
inline TensorSpec fresh_out(Decoder& in, OutSource source, const std::vector<int64_t>& shape, aclDataType selfDtype) {
    if (source == OutSource::decoded) return in.tensor();
    const aclDataType dtype = in.bit() ? in.dtype() : selfDtype;
    return TensorSpec::contiguous(shape, dtype);
}

/// self and out of a one-tensor form: a unary operator, or the scalar forms
/// of the arithmetic family (Adds ... DivMods; AddV3's tensor other and out,
/// as self and out).
inline Tensors one_and_out(Decoder& in, OperatorCall& call) {
    const TensorSpec self = in.tensor();
    Tensors tensors;
    const OutSource source = out_source(in, false);
    if (source == OutSource::self || source == OutSource::other) {
        tensors.out = call.output(self);
        tensors.self = tensors.out;
        return tensors;
    }
    const TensorSpec out = fresh_out(in, source, self.view, self.dtype);
    tensors.self = call.input(self);
    tensors.out = call.output(out);
    return tensors;
}

/// self, other and out of a two-tensor form (Add ... DivMod, Pow, Eq).
inline Tensors pair_and_out(Decoder& in, OperatorCall& call) {
    const TensorSpec self = in.tensor();
    const TensorSpec other = in.tensor();
    Tensors tensors;
    const OutSource source = out_source(in, true);
    switch (source) {
        case OutSource::self:
            tensors.out = call.output(self);
            tensors.self = tensors.out;
            tensors.other = call.input(other);
            break;
        case OutSource::other:
            tensors.self = call.input(self);
            tensors.out = call.output(other);
            tensors.other = tensors.out;
            break;
        case OutSource::broadcast:
        case OutSource::decoded: {
            const TensorSpec out =
                fresh_out(in, source, broadcast_shape(self.view, other.view, self.view), self.dtype);
            tensors.self = call.input(self);
            tensors.other = call.input(other);
            tensors.out = call.output(out);
            break;
        }
    }
    return tensors;
}

/// selfRef (written) and other of the in-place tensor forms; other may be selfRef itself.
inline InplaceTensors inplace_pair(Decoder& in, OperatorCall& call) {
    InplaceTensors tensors;
    tensors.selfRef = call.output(in.tensor());
    tensors.other = in.byte() % 8 == 7 ? tensors.selfRef : call.input(in.tensor());
    return tensors;
}

/// selfRef (written) of an in-place one-tensor form.
inline aclTensor* inplace_one(Decoder& in, OperatorCall& call) { return call.output(in.tensor()); }

}  // namespace aclcpu::fuzz::elementwise
