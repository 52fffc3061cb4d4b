// The layout family's error-path tables: tensors that only phase 1 sees,
// described by shape, dtype and format, and the refused calls of operators
// on two tensors (with their other arguments bound) or on a tensor, an
// aclIntArray and an out.
#pragma once

#include <algorithm>
#include <vector>

#include "ops/op_test_support.hpp"

namespace layouttest {

using namespace optest;

/// What phase 1 sees of a tensor: a contiguous view of shape, dtype and format.
struct Described {
    Shape shape;
    aclDataType dtype = ACL_FLOAT;
    aclFormat format = ACL_FORMAT_ND;
};

/// A tensor over bytes the test owns, of any dtype (DeviceTensor cannot
/// write every one) and format; its values do not matter: only phase 1 runs.
class RawTensor {
public:
    RawTensor(const Described& described)  // NOLINT: implicit, so that a table row reads as a tensor
        : bytes_(static_cast<size_t>(std::max<int64_t>(numel(described.shape), 1)) * 16) {
        const Shape& shape = described.shape;
        const Shape strides = contiguous_strides(shape);
        tensor_ = aclCreateTensor(shape.data(), shape.size(), described.dtype, strides.data(), 0, described.format,
                                  shape.data(), shape.size(), bytes_.get());
    }
    ~RawTensor() { aclDestroyTensor(tensor_); }
    RawTensor(const RawTensor&) = delete;
    RawTensor& operator=(const RawTensor&) = delete;
    aclTensor* get() const { return tensor_; }

private:
    DeviceBuffer bytes_;
    aclTensor* tensor_ = nullptr;
};

/// A refused call on two tensors: why, and the two.
struct PairCase {
    const char* why;
    Described first;
    Described second;
};

/// phase1(first, second) on tensors of each case's descriptions.
template <class Phase1>
void expect_each_pair_refused(const Phase1& phase1, const std::vector<PairCase>& cases) {
    expect_each_refused(cases, [&](const PairCase& c) {
        return phase1(RawTensor(c.first).get(), RawTensor(c.second).get());
    });
}

/// A refused call on a tensor, an aclIntArray and an out: why, and the three.
struct ArrayCase {
    const char* why;
    Described self;
    std::vector<int64_t> array;
    Described out;
};

/// phase1(self, array, out) on each case's.
template <class Phase1>
void expect_each_array_refused(const Phase1& phase1, const std::vector<ArrayCase>& cases) {
    expect_each_refused(cases, [&](const ArrayCase& c) {
        return phase1(RawTensor(c.self).get(), IntArray(c.array).get(), RawTensor(c.out).get());
    });
}

/// The error paths of an operator entry(self, array, out): phase 1 succeeds
/// on valid's, fails with 161001 for each null argument in turn
/// (expect_each_null_is_161001) and with 161002 on each of refused.
template <class Entry>
void expect_array_entry_errors(Entry entry, const ArrayCase& valid, const std::vector<ArrayCase>& refused) {
    const RawTensor self(valid.self);
    const RawTensor out(valid.out);
    const IntArray array(valid.array);
    EXPECT_EQ(phase1_of(entry, self.get(), array.get(), out.get()), ACLNN_SUCCESS) << valid.why;
    expect_each_null_is_161001(entry, self.get(), array.get(), out.get());
    expect_each_array_refused([entry](const aclTensor* s, const aclIntArray* a, aclTensor* o) {
        return phase1_of(entry, s, a, o);
    }, refused);
}

/// The row-major multi-index of element i of shape.
inline Shape index_of(int64_t i, const Shape& shape) {
    Shape index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = i % shape[d];
        i /= shape[d];
    }
    return index;
}

/// The row-major position of index in shape.
inline int64_t flat(const Shape& index, const Shape& shape) {
    int64_t position = 0;
    for (size_t d = 0; d < shape.size(); ++d) position = position * shape[d] + index[d];
    return position;
}

}  // namespace layouttest
