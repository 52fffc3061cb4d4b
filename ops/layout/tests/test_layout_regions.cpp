// The layout family's region operators (Repeat, Cat, Slice, ConstantPadNd,
// ReflectionPad1d, Roll, Tril/Triu and their in-place forms) against
// references computed here by index arithmetic on host vectors: every A2
// dtype of each, views with strides and offsets, empty tensors, in-place
// aliasing, and every error path with its code (the op_api code of
// math/tile, conversion/concat_d, conversion/slice, conversion/pad_v3,
// conversion/mirror_pad, conversion/roll, conversion/tril, conversion/triu in
// hicann/ops-math).
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "layout_test_support.hpp"

namespace {

using namespace layouttest;

/// Where out's element at an index comes from: self's index, or nothing (filled).
using SourceOf = std::function<bool(const Shape& outIndex, Shape* selfIndex)>;

/// The expected row-major elements of out: self's values where sourceOf
/// names an element, fill elsewhere.
std::vector<Complex> expected_of(const std::vector<Complex>& values, const Shape& selfShape, const Shape& outShape,
                                 const SourceOf& sourceOf, Complex fill = 0) {
    std::vector<Complex> out;
    for (int64_t i = 0; i < numel(outShape); ++i) {
        Shape selfIndex;
        out.push_back(sourceOf(index_of(i, outShape), &selfIndex) ? values[static_cast<size_t>(flat(selfIndex, selfShape))]
                                                                  : fill);
    }
    return out;
}

/// Inputs of dtype t: integers and floats in [-100, 100) (unsigned ones clamped at 0).
std::vector<Complex> values_of_dtype(aclDataType t, int64_t n, uint32_t seed) {
    return sample(t, static_cast<size_t>(n), seed, -100, 100);
}

/// Tril's entry points, or Triu's.
struct Triangle {
    aclnnStatus (*phase1)(const aclTensor*, int64_t, aclTensor*, uint64_t*, aclOpExecutor**);
    Phase2 phase2;
    /// (InplaceTril takes a const selfRef, InplaceTriu not.)
    std::function<aclnnStatus(aclTensor*, int64_t, uint64_t*, aclOpExecutor**)> inplace;
    Phase2 inplacePhase2;
};
Triangle triangle_entries(bool lower) {
    return lower ? Triangle{aclnnTrilGetWorkspaceSize, aclnnTril, aclnnInplaceTrilGetWorkspaceSize, aclnnInplaceTril}
                 : Triangle{aclnnTriuGetWorkspaceSize, aclnnTriu, aclnnInplaceTriuGetWorkspaceSize, aclnnInplaceTriu};
}

class LayoutRegions : public AclTest {
protected:
    aclnnStatus repeat(const DeviceTensor& self, const IntArray& repeats, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnRepeatGetWorkspaceSize, aclnnRepeat, self.get(), repeats.get(), out.get());
    }
    aclnnStatus cat(const TensorList& tensors, int64_t dim, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnCatGetWorkspaceSize, aclnnCat, tensors.get(), dim, out.get());
    }
    aclnnStatus slice(const DeviceTensor& self, int64_t dim, int64_t start, int64_t end, int64_t step,
                      DeviceTensor& out) {
        return run_aclnn(stream_, aclnnSliceGetWorkspaceSize, aclnnSlice, self.get(), dim, start, end, step,
                         out.get());
    }
    aclnnStatus pad(const DeviceTensor& self, const IntArray& pads, const Scalar& value, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnConstantPadNdGetWorkspaceSize, aclnnConstantPadNd, self.get(), pads.get(),
                         value.get(), out.get());
    }
    aclnnStatus reflect(const DeviceTensor& self, const IntArray& padding, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnReflectionPad1dGetWorkspaceSize, aclnnReflectionPad1d, self.get(),
                         padding.get(), out.get());
    }
    aclnnStatus roll(const DeviceTensor& x, const IntArray& shifts, const IntArray& dims, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnRollGetWorkspaceSize, aclnnRoll, x.get(), shifts.get(), dims.get(), out.get());
    }
    aclnnStatus triangle(bool lower, const DeviceTensor& self, int64_t diagonal, DeviceTensor& out) {
        const Triangle op = triangle_entries(lower);
        return run_aclnn(stream_, op.phase1, op.phase2, self.get(), diagonal, out.get());
    }
    aclnnStatus triangle_inplace(bool lower, DeviceTensor& selfRef, int64_t diagonal) {
        const Triangle op = triangle_entries(lower);
        return run_aclnn(stream_, op.inplace, op.inplacePhase2, selfRef.get(), diagonal);
    }
};

/// Tensors of the same views, for a list (which destroys its tensors).
const aclTensor* copy_of(const aclTensor* t) { return aclcpu::testkit::copy_tensor(t); }
const aclTensor* copy_of(const DeviceTensor& t) { return copy_of(t.get()); }
const aclTensor* copy_of(const RawTensor& t) { return copy_of(t.get()); }

// ---- Repeat -----------------------------------------------------------------

/// The reference of Repeat: out's index modulo self's sizes (aligned right).
SourceOf repeated(const Shape& selfShape) {
    return [selfShape](const Shape& outIndex, Shape* selfIndex) {
        const size_t lead = outIndex.size() - selfShape.size();
        for (size_t d = 0; d < selfShape.size(); ++d) selfIndex->push_back(outIndex[lead + d] % selfShape[d]);
        return true;
    };
}

TEST_F(LayoutRegions, RepeatTilesEveryListedDtype) {
    // DTYPE_SUPPORT_910B310P_LIST of math/tile/op_api/aclnn_repeat.cpp.
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_UINT8, ACL_INT8,
                              ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL, ACL_BF16, ACL_UINT32, ACL_UINT64,
                              ACL_UINT16}) {
        SCOPED_TRACE(name(dtype));
        const std::vector<Complex> values = values_of_dtype(dtype, 6, 3);
        DeviceTensor self(TensorSpec({2, 3}, dtype));
        self.write_complex(values);
        auto out = DeviceTensor::output(TensorSpec({2, 2, 9}, dtype));
        ASSERT_EQ(repeat(self, {2, 1, 3}, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(out->read_complex(), expected_of(values, {2, 3}, {2, 2, 9}, repeated({2, 3})));
    }
}

TEST_F(LayoutRegions, RepeatReadsAStridedViewIntoAnOffsetOut) {
    // self: the transpose of a [5, 4] buffer with an offset; out with row gaps.
    const std::vector<Complex> values = values_of_dtype(ACL_FLOAT, 20, 5);
    DeviceTensor self(TensorSpec({4, 5}, ACL_FLOAT, {1, 4}, 2, {30}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({12, 10}, ACL_FLOAT, {13, 1}, 3, {13 * 12 + 3}));
    ASSERT_EQ(repeat(self, {3, 2}, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, {4, 5}, {12, 10}, repeated({4, 5})));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(LayoutRegions, RepeatOfMoreDimsThanALayoutHolds) {
    // 5 dims each repeated: 10 step dims, more than a StridedLayout's 8.
    const Shape shape = {2, 3, 2, 3, 2};
    const std::vector<Complex> values = values_of_dtype(ACL_INT32, numel(shape), 7);
    DeviceTensor self(TensorSpec(shape, ACL_INT32));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({4, 6, 6, 6, 4}, ACL_INT32));
    ASSERT_EQ(repeat(self, {2, 2, 3, 2, 2}, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, shape, {4, 6, 6, 6, 4}, repeated(shape)));
}

TEST_F(LayoutRegions, RepeatOfAScalarAndOfNothing) {
    DeviceTensor scalar(TensorSpec({}, ACL_INT64));
    scalar.write_complex({42});
    auto out = DeviceTensor::output(TensorSpec({3, 2}, ACL_INT64));
    ASSERT_EQ(repeat(scalar, {3, 2}, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), std::vector<Complex>(6, 42));
    // repeats of size 0: self copied as it is (ViewCopy).
    auto same = DeviceTensor::output(TensorSpec({}, ACL_INT64));
    ASSERT_EQ(repeat(scalar, {}, *same), ACLNN_SUCCESS);
    EXPECT_EQ(same->read_complex(), std::vector<Complex>{42});
    // A zero repeat or an empty self: nothing written, out's shape not checked.
    DeviceTensor self(TensorSpec({2, 2}, ACL_FLOAT));
    auto untouched = DeviceTensor::output(TensorSpec({5}, ACL_FLOAT));
    EXPECT_EQ(repeat(self, {0, 2}, *untouched), ACLNN_SUCCESS);
    EXPECT_EQ(untouched->read(), std::vector<double>(5, -7.0));
    DeviceTensor empty(TensorSpec({0, 2}, ACL_FLOAT));
    EXPECT_EQ(repeat(empty, {2, 2}, *untouched), ACLNN_SUCCESS);
}

TEST_F(LayoutRegions, RepeatErrors) {
    const Described f32{{2, 3}}, f32Out{{4, 3}}, deep{Shape(9, 1)};
    expect_array_entry_errors(
        aclnnRepeatGetWorkspaceSize, {"valid", f32, {2, 1}, f32Out},
        {{"dtype outside the list", {{2, 3}, ACL_COMPLEX32}, {2, 1}, {{2, 3}, ACL_COMPLEX32}},
         {"dtypes differ", f32, {2, 1}, {{4, 3}, ACL_FLOAT16}},
         {"fewer repeats than dims", f32, {2}, f32Out},
         {"negative", f32, {2, -1}, f32Out},
         {"rank 9", deep, Shape(9, 1), deep},
         {"9 repeats", f32, Shape(9, 1), f32Out},
         {"out is not [2, 6]", f32, {1, 2}, f32Out}});
}

// ---- Cat ----------------------------------------------------------------------

TEST_F(LayoutRegions, CatJoinsAlongEachDimForEveryListedDtype) {
    // ASCEND910B_DTYPE_SUPPORT_LIST of conversion/concat_d/op_api/aclnn_cat.cpp.
    for (aclDataType dtype : {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8, ACL_UINT8,
                              ACL_DOUBLE, ACL_COMPLEX64, ACL_BF16, ACL_BOOL}) {
        for (int64_t dim : {0, 1, -1, -2}) {
            SCOPED_TRACE(name(dtype) + " dim " + std::to_string(dim));
            const size_t axis = static_cast<size_t>(dim < 0 ? dim + 2 : dim);
            Shape aShape = {3, 4};
            Shape bShape = {3, 4};
            bShape[axis] = 2;
            Shape outShape = aShape;
            outShape[axis] += 2;
            const std::vector<Complex> a = values_of_dtype(dtype, numel(aShape), 1);
            const std::vector<Complex> b = values_of_dtype(dtype, numel(bShape), 2);
            DeviceTensor aTensor(TensorSpec(aShape, dtype));
            DeviceTensor bTensor(TensorSpec(bShape, dtype));
            aTensor.write_complex(a);
            bTensor.write_complex(b);
            auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
            ASSERT_EQ(cat({copy_of(aTensor), copy_of(bTensor)}, dim, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            std::vector<Complex> expected;
            for (int64_t i = 0; i < numel(outShape); ++i) {
                Shape index = index_of(i, outShape);
                if (index[axis] < aShape[axis]) {
                    expected.push_back(a[static_cast<size_t>(flat(index, aShape))]);
                } else {
                    index[axis] -= aShape[axis];
                    expected.push_back(b[static_cast<size_t>(flat(index, bShape))]);
                }
            }
            EXPECT_EQ(out->read_complex(), expected);
        }
    }
}

TEST_F(LayoutRegions, CatCastsEachInputToOutSkipsEmptiesAndReadsViews) {
    // INT32 and FLOAT16 promote to FLOAT16, which casts to FLOAT out; a 1-D
    // [0] tensor is dropped before the checks (EraseDim1EmptyTensor), a
    // [0, 2] one after them (SplitToConcat); the first input is a transposed
    // view, out a view with gaps.
    const std::vector<Complex> a = values_of_dtype(ACL_INT32, 6, 4);
    const std::vector<Complex> b = values_of_dtype(ACL_FLOAT16, 4, 5);
    DeviceTensor aTensor(TensorSpec({3, 2}, ACL_INT32, {1, 3}, 1, {8}));
    DeviceTensor bTensor(TensorSpec({2, 2}, ACL_FLOAT16));
    DeviceTensor flatEmpty(TensorSpec({0}, ACL_DOUBLE));
    DeviceTensor empty(TensorSpec({0, 2}, ACL_INT8));
    aTensor.write_complex(a);
    bTensor.write_complex(b);
    auto out = DeviceTensor::output(TensorSpec({5, 2}, ACL_FLOAT, {3, 1}, 2, {17}));
    ASSERT_EQ(cat({copy_of(flatEmpty), copy_of(aTensor), copy_of(empty), copy_of(bTensor)}, 0, *out), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<Complex> expected;
    for (const Complex& v : a) expected.push_back(cast(v, ACL_INT32, ACL_FLOAT));
    for (const Complex& v : b) expected.push_back(cast(v, ACL_FLOAT16, ACL_FLOAT));
    EXPECT_EQ(out->read_complex(), expected);
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(LayoutRegions, CatOfNothingToJoinDoesNothing) {
    // Only 1-D empties: CANN returns before any check, out unread.
    DeviceTensor flatEmpty(TensorSpec({0}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({3}, ACL_FLOAT));
    EXPECT_EQ(cat({copy_of(flatEmpty)}, 5, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>(3, -7.0));
    // Only empties of another rank: checked, then nothing to join.
    DeviceTensor empty(TensorSpec({0, 3}, ACL_FLOAT));
    EXPECT_EQ(cat({copy_of(empty), copy_of(empty)}, 0, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>(3, -7.0));
    // Even then an out reaching past its storage, and past the 64-byte device
    // block it points into, is refused (acl-cpu's guard; the fuzz target found
    // the empty path took it unchecked).
    DeviceBuffer bytes(16);
    const int64_t shape[] = {4, 5};
    const int64_t strides[] = {5, 1};
    const int64_t storage[] = {4};
    aclTensor* outside = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, bytes.get());
    for (const std::vector<const aclTensor*>& tensors :
         {std::vector<const aclTensor*>{copy_of(flatEmpty)}, {copy_of(empty)}}) {
        expect_error(phase1_of(aclnnCatGetWorkspaceSize, TensorList(tensors).get(), int64_t{0}, outside),
                     ACLNN_ERR_PARAM_INVALID);
    }
    aclDestroyTensor(outside);
}

TEST_F(LayoutRegions, CatErrors) {
    const RawTensor a({{2, 3}}), out({{4, 3}});
    const auto phase1 = [](const TensorList& tensors, int64_t dim, aclTensor* o) {
        return phase1_of(aclnnCatGetWorkspaceSize, tensors.get(), dim, o);
    };
    EXPECT_EQ(phase1({copy_of(a), copy_of(a)}, 0, out.get()), ACLNN_SUCCESS);
    expect_error(phase1(TensorList::none(), 0, out.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1({copy_of(a), nullptr}, 0, out.get()), ACLNN_ERR_PARAM_NULLPTR);
    expect_error(phase1({copy_of(a), copy_of(a)}, 0, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    struct Case {
        const char* why;
        std::vector<Described> tensors;
        int64_t dim;
        Described out;
    };
    const Described f32{{2, 3}}, f32Out{{4, 3}};
    expect_each_refused(
        std::vector<Case>{
            {"UINT16", {f32, {{2, 3}, ACL_UINT16}}, 0, f32Out},
            {"to COMPLEX128", {{{2, 3}, ACL_DOUBLE}, {{2, 3}, ACL_COMPLEX64}}, 0, {{4, 3}, ACL_COMPLEX64}},
            {"FLOAT -> INT32", {f32, f32}, 0, {{4, 3}, ACL_INT32}},
            {"formats differ", {f32, {{2, 3}, ACL_FLOAT, ACL_FORMAT_NCHW}}, 0, f32Out},
            {"dim range", {f32, f32}, 2, f32Out},
            {"dim range", {f32, f32}, -3, f32Out},
            {"ranks differ", {f32, {{6}}}, 0, f32Out},
            {"dim 1 differs", {f32, {{2, 2}}}, 0, f32Out},
            {"out not [2, 6]", {f32, f32}, 1, f32Out},
        },
        [&](const Case& c) {
            std::vector<std::unique_ptr<RawTensor>> inputs;
            std::vector<const aclTensor*> tensors;
            for (const Described& t : c.tensors) {
                inputs.push_back(std::make_unique<RawTensor>(t));
                tensors.push_back(copy_of(*inputs.back()));
            }
            return phase1(tensors, c.dim, RawTensor(c.out).get());
        });
    // An executor holds any number of tensors (it once held 8, which
    // refused an eighth non-empty input with 561001).
    const RawTensor row({{1, 3}}), twelve({{12, 3}});
    std::vector<const aclTensor*> rows;
    for (int i = 0; i < 12; ++i) rows.push_back(copy_of(row));
    EXPECT_EQ(phase1(rows, 0, twelve.get()), ACLNN_SUCCESS);
}

// ---- Slice --------------------------------------------------------------------

TEST_F(LayoutRegions, SliceClampsStartAndEndAsCann) {
    // CalculateValuesSliceUpper/LowerForSlice of conversion/slice/op_api/aclnn_slice.cpp.
    const Shape shape = {4, 10};
    struct Case {
        int64_t dim, start, end, step;
    };
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_INT8, ACL_INT32, ACL_UINT8, ACL_BOOL, ACL_BF16}) {
        for (const Case& c : {Case{1, 2, 9, 3}, Case{-1, -4, 100, 1}, Case{1, -100, 5, 2}, Case{0, 1, -1, 1},
                              Case{1, 7, 3, 1}, Case{-2, 0, 4, 5}, Case{1, 12, 20, 1}}) {
            SCOPED_TRACE(name(dtype) + " " + std::to_string(c.dim) + ":" + std::to_string(c.start) + ":" +
                         std::to_string(c.end) + ":" + std::to_string(c.step));
            const size_t axis = static_cast<size_t>(c.dim < 0 ? c.dim + 2 : c.dim);
            const int64_t size = shape[axis];
            int64_t start = c.start < 0 ? c.start + size : c.start;
            int64_t end = c.end < 0 ? c.end + size : c.end;
            start = std::min(std::max<int64_t>(start, 0), size);
            end = std::max(start, std::min(end, size));
            Shape outShape = shape;
            outShape[axis] = (end - start + c.step - 1) / c.step;
            const std::vector<Complex> values = values_of_dtype(dtype, numel(shape), 8);
            DeviceTensor self(TensorSpec(shape, dtype));
            self.write_complex(values);
            auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
            ASSERT_EQ(slice(self, c.dim, c.start, c.end, c.step, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(out->read_complex(), expected_of(values, shape, outShape, [&](const Shape& o, Shape* s) {
                          *s = o;
                          (*s)[axis] = start + o[axis] * c.step;
                          return true;
                      }));
        }
    }
}

TEST_F(LayoutRegions, SliceOfAStridedOffsetView) {
    const std::vector<Complex> values = values_of_dtype(ACL_FLOAT, 48, 2);
    DeviceTensor self(TensorSpec({6, 8}, ACL_FLOAT, {1, 6}, 4, {60}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({2, 8}, ACL_FLOAT, {9, 1}, 1, {20}));
    ASSERT_EQ(slice(self, 0, 1, 6, 3, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, {6, 8}, {2, 8}, [](const Shape& o, Shape* s) {
                  *s = {1 + 3 * o[0], o[1]};
                  return true;
              }));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(LayoutRegions, SliceErrors) {
    const RawTensor self({{4, 6}}), out({{4, 2}});
    const auto phase1 = [](const aclTensor* s, int64_t dim, int64_t start, int64_t end, int64_t step, aclTensor* o) {
        return phase1_of(aclnnSliceGetWorkspaceSize, s, dim, start, end, step, o);
    };
    EXPECT_EQ(phase1(self.get(), 1, 0, 4, 2, out.get()), ACLNN_SUCCESS);
    expect_each_null_is_161001(aclnnSliceGetWorkspaceSize, self.get(), int64_t{1}, int64_t{0}, int64_t{4}, int64_t{2},
                               out.get());
    struct Case {
        const char* why;
        Described self;
        int64_t dim, start, end, step;
        Described out;
    };
    const Described f32{{4, 6}}, f32Out{{4, 2}}, deep{Shape(9, 1)}, scalar{{}};
    expect_each_refused(
        std::vector<Case>{
            {"out's dtype differs", f32, 1, 0, 4, 2, {{4, 2}, ACL_FLOAT16}},
            {"DOUBLE not listed", {{4, 6}, ACL_DOUBLE}, 1, 0, 4, 2, {{4, 2}, ACL_DOUBLE}},
            {"rank 9", deep, 0, 0, 1, 1, deep},
            {"rank 0", scalar, 0, 0, 1, 1, scalar},
            {"dim range", f32, 2, 0, 4, 2, f32Out},
            {"dim range", f32, -3, 0, 4, 2, f32Out},
            {"step 0", f32, 1, 0, 4, 0, f32Out},
            {"out not [4, 4]", f32, 1, 0, 4, 1, f32Out},
        },
        [&](const Case& c) {
            return phase1(RawTensor(c.self).get(), c.dim, c.start, c.end, c.step, RawTensor(c.out).get());
        });
    // An empty slice into an empty out: nothing to do.
    const RawTensor none({{4, 0}});
    EXPECT_EQ(phase1(self.get(), 1, 5, 2, 1, none.get()), ACLNN_SUCCESS);
}

// ---- ConstantPadNd ----------------------------------------------------------

/// The reference of ConstantPadNd: out index minus the leading pad, inside self.
SourceOf padded(const Shape& selfShape, const Shape& pads) {
    return [selfShape, pads](const Shape& o, Shape* s) {
        const size_t rank = selfShape.size();
        for (size_t d = 0; d < rank; ++d) {
            const size_t pair = rank - 1 - d;
            const int64_t before = 2 * pair < pads.size() ? pads[2 * pair] : 0;
            const int64_t at = o[d] - before;
            if (at < 0 || at >= selfShape[d]) return false;
            s->push_back(at);
        }
        return true;
    };
}

Shape padded_shape(const Shape& shape, const Shape& pads) {
    Shape out = shape;
    for (size_t i = 0; 2 * i < pads.size(); ++i) out[shape.size() - 1 - i] += pads[2 * i] + pads[2 * i + 1];
    return out;
}

TEST_F(LayoutRegions, ConstantPadNdPadsAndCropsEveryListedDtype) {
    // DTYPE_SUPPORT_910B_LIST of conversion/pad_v3/op_api/aclnn_constant_pad_nd.cpp;
    // value (a FLOAT scalar 2.5) is cast to the dtype as ConvertToTensor does.
    const Shape shape = {2, 3, 4};
    for (aclDataType dtype : {ACL_FLOAT, ACL_INT32, ACL_FLOAT16, ACL_INT8, ACL_DOUBLE, ACL_INT16, ACL_INT64,
                              ACL_UINT64, ACL_UINT32, ACL_UINT16, ACL_UINT8, ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128,
                              ACL_BF16}) {
        for (const Shape& pads : {Shape{1, 2}, Shape{1, 2, 0, 3}, Shape{-1, 2, 2, -1}, Shape{0, 0, 1, 1, 1, 0},
                                  Shape{-2, -1}}) {
            SCOPED_TRACE(name(dtype));
            const std::vector<Complex> values = values_of_dtype(dtype, numel(shape), 6);
            DeviceTensor self(TensorSpec(shape, dtype));
            self.write_complex(values);
            const Shape outShape = padded_shape(shape, pads);
            auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
            ASSERT_EQ(pad(self, pads, Scalar(2.5), *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const Complex fill = cast(Complex(2.5), ACL_FLOAT, dtype);
            EXPECT_EQ(out->read_complex(), expected_of(values, shape, outShape, padded(shape, pads), fill));
        }
    }
}

TEST_F(LayoutRegions, ConstantPadNdOfViewsEmptySelfAndNoPad) {
    // A transposed self with an offset into an out with row gaps; an INT64 value.
    const std::vector<Complex> values = values_of_dtype(ACL_FLOAT16, 12, 9);
    DeviceTensor self(TensorSpec({4, 3}, ACL_FLOAT16, {1, 4}, 2, {14}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({6, 4}, ACL_FLOAT16, {5, 1}, 1, {31}));
    ASSERT_EQ(pad(self, {0, 1, 1, 1}, Scalar(-3.0, ACL_INT64), *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, {4, 3}, {6, 4}, padded({4, 3}, {0, 1, 1, 1}), -3.0));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    // An empty self padded: out is all value (HandleSelfEmpty).
    DeviceTensor empty(TensorSpec({0, 2}, ACL_INT32));
    auto filled = DeviceTensor::output(TensorSpec({2, 2}, ACL_INT32));
    ASSERT_EQ(pad(empty, {0, 0, 1, 1}, Scalar(7.0), *filled), ACLNN_SUCCESS);
    EXPECT_EQ(filled->read(), std::vector<double>(4, 7.0));
    // No pad: a copy.
    auto copied = DeviceTensor::output(TensorSpec({4, 3}, ACL_FLOAT16));
    ASSERT_EQ(pad(self, {0, 0}, Scalar(1.0), *copied), ACLNN_SUCCESS);
    EXPECT_EQ(copied->read_complex(), values);
}

TEST_F(LayoutRegions, ConstantPadNdErrors) {
    const RawTensor self({{2, 3}}), out({{2, 5}});
    const Scalar value(0.0);
    const IntArray pads{1, 1};
    EXPECT_EQ(phase1_of(aclnnConstantPadNdGetWorkspaceSize, self.get(), pads.get(), value.get(), out.get()),
              ACLNN_SUCCESS);
    expect_each_null_is_161001(aclnnConstantPadNdGetWorkspaceSize, self.get(), pads.get(), value.get(), out.get());
    const auto phase1 = [&](const aclTensor* s, const aclIntArray* p, aclTensor* o) {
        return phase1_of(aclnnConstantPadNdGetWorkspaceSize, s, p, value.get(), o);
    };
    const Described f32{{2, 3}}, f32Out{{2, 5}}, c32{{2, 3}, ACL_COMPLEX32}, deep{Shape(9, 1)};
    expect_each_array_refused(
        phase1, {{"dtypes differ", f32, {1, 1}, {{2, 5}, ACL_FLOAT16}},
                 {"not listed", c32, {0, 0}, c32},
                 {"NCHW self, ND out", {{2, 3}, ACL_FLOAT, ACL_FORMAT_NCHW}, {1, 1}, f32Out},
                 {"rank 9", deep, {}, deep},
                 {"ranks differ", f32, {1, 1}, {{10}}},
                 {"odd length", f32, {1, 1, 0}, f32Out},
                 {"3 pairs", f32, {1, 1, 0, 0, 0, 0}, f32Out},
                 {"3 - 4 < 0", f32, {-4, 6}, f32Out},
                 {"out not [2, 6]", f32, {1, 2}, f32Out},
                 {"INT64_MAX pads", f32, {INT64_MAX, INT64_MAX}, f32Out},
                 // A dim padded to size 0 while another grows: CANN refuses the output.
                 {"a dim padded to 0 while another grows", f32, {-3, 0, 1, 1}, {{4, 0}}}});
    // Cropped to nothing without growing: an empty out, nothing to do.
    const RawTensor cropped({{2, 0}});
    EXPECT_EQ(phase1(self.get(), IntArray{-3, 0}.get(), cropped.get()), ACLNN_SUCCESS);
}

// ---- ReflectionPad1d --------------------------------------------------------

/// The reference of ReflectionPad1d: the last index mirrored at both edges.
SourceOf reflected(const Shape& selfShape, int64_t left) {
    return [selfShape, left](const Shape& o, Shape* s) {
        *s = o;
        const int64_t width = selfShape.back();
        int64_t at = o.back() - left;
        if (at < 0) at = -at;
        if (at >= width) at = 2 * (width - 1) - at;
        s->back() = at;
        return true;
    };
}

TEST_F(LayoutRegions, ReflectionPad1dMirrorsEveryListedDtype) {
    // ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST of conversion/mirror_pad/op_api/aclnn_reflection_pad1d.cpp.
    for (aclDataType dtype : {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_DOUBLE, ACL_INT8,
                              ACL_UINT8, ACL_BOOL, ACL_BF16, ACL_COMPLEX64, ACL_COMPLEX128}) {
        for (const Shape& padding : {Shape{2, 3}, Shape{0, 0}, Shape{4, 0}, Shape{-1, 2}, Shape{3, -2}}) {
            for (const Shape& shape : {Shape{3, 5}, Shape{2, 3, 5}}) {
                SCOPED_TRACE(name(dtype) + " " + std::to_string(padding[0]) + "," + std::to_string(padding[1]));
                const std::vector<Complex> values = values_of_dtype(dtype, numel(shape), 4);
                DeviceTensor self(TensorSpec(shape, dtype));
                self.write_complex(values);
                Shape outShape = shape;
                outShape.back() += padding[0] + padding[1];
                auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
                ASSERT_EQ(reflect(self, padding, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                EXPECT_EQ(out->read_complex(), expected_of(values, shape, outShape, reflected(shape, padding[0])));
            }
        }
    }
}

TEST_F(LayoutRegions, ReflectionPad1dOfAStridedViewAndEmptyBatches) {
    const std::vector<Complex> values = values_of_dtype(ACL_FLOAT, 24, 3);
    DeviceTensor self(TensorSpec({4, 6}, ACL_FLOAT, {1, 4}, 3, {28}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({4, 11}, ACL_FLOAT, {12, 1}, 2, {50}));
    ASSERT_EQ(reflect(self, {5, 0}, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, {4, 6}, {4, 11}, reflected({4, 6}, 5)));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    // A 3-D self with 0 batches: nothing to do.
    DeviceTensor empty(TensorSpec({0, 2, 3}, ACL_FLOAT));
    auto emptyOut = DeviceTensor::output(TensorSpec({0, 2, 5}, ACL_FLOAT));
    EXPECT_EQ(reflect(empty, {1, 1}, *emptyOut), ACLNN_SUCCESS);
}

TEST_F(LayoutRegions, ReflectionPad1dErrors) {
    const Described f32{{2, 4}}, f32Out{{2, 7}}, flat{{4}}, deep{{1, 1, 2, 4}};
    expect_array_entry_errors(
        aclnnReflectionPad1dGetWorkspaceSize, {"valid", f32, {1, 2}, f32Out},
        {{"UINT16 not listed", {{2, 4}, ACL_UINT16}, {1, 2}, {{2, 7}, ACL_UINT16}},
         {"dtypes differ", f32, {1, 2}, {{2, 7}, ACL_FLOAT16}},
         {"formats differ", f32, {1, 2}, {{2, 7}, ACL_FLOAT, ACL_FORMAT_NCHW}},
         {"rank 1", flat, {1, 2}, flat},
         {"rank 4", deep, {1, 2}, deep},
         {"ranks differ", f32, {1, 2}, {{1, 2, 7}}},
         {"3 pads", f32, {1, 2, 0}, f32Out},
         {"pad >= width", f32, {4, -1}, f32Out},
         {"last dim not 6", f32, {1, 1}, f32Out},
         {"rows differ", f32, {1, 2}, {{3, 7}}},
         // An empty 2-D self, or a 3-D one empty past its batch dim: refused.
         {"empty 2-D self", {{0, 4}}, {1, 2}, {{0, 7}}}});
}

// ---- Roll ----------------------------------------------------------------------

TEST_F(LayoutRegions, RollAlongDimsAndFlattenedForEveryListedDtype) {
    // ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST of conversion/roll/op_api/aclnn_roll.cpp.
    const Shape shape = {3, 4, 5};
    struct Case {
        Shape shifts, dims;
    };
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_UINT32, ACL_BOOL,
                              ACL_INT64, ACL_BF16, ACL_INT16}) {
        for (const Case& c : {Case{{1}, {0}}, Case{{-2, 7}, {2, -2}}, Case{{1, 1}, {1, 1}}, Case{{2, -1, 3}, {0, 1, 2}},
                              Case{{7}, {}}, Case{{-23}, {}}, Case{{60}, {}}}) {
            SCOPED_TRACE(name(dtype));
            const std::vector<Complex> values = values_of_dtype(dtype, numel(shape), 5);
            DeviceTensor x(TensorSpec(shape, dtype));
            x.write_complex(values);
            auto out = DeviceTensor::output(TensorSpec(shape, dtype));
            ASSERT_EQ(roll(x, c.shifts, c.dims, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const int64_t n = numel(shape);
            EXPECT_EQ(out->read_complex(), expected_of(values, shape, shape, [&](const Shape& o, Shape* s) {
                          if (c.dims.empty()) {
                              *s = index_of(((flat(o, shape) - c.shifts[0]) % n + n) % n, shape);
                              return true;
                          }
                          *s = o;
                          for (size_t i = 0; i < c.dims.size(); ++i) {
                              const size_t d = static_cast<size_t>(c.dims[i] < 0 ? c.dims[i] + 3 : c.dims[i]);
                              (*s)[d] = (((*s)[d] - c.shifts[i]) % shape[d] + shape[d]) % shape[d];
                          }
                          return true;
                      }));
        }
    }
}

TEST_F(LayoutRegions, RollOfStridedViewsAndOfAScalar) {
    // Flattened over a transposed x into an out with gaps: the flat order is the views'.
    const Shape shape = {4, 6};
    const std::vector<Complex> values = values_of_dtype(ACL_INT32, 24, 1);
    DeviceTensor x(TensorSpec(shape, ACL_INT32, {1, 4}, 1, {25}));
    x.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec(shape, ACL_INT32, {8, 1}, 2, {34}));
    ASSERT_EQ(roll(x, {9}, {}, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, shape, shape, [&](const Shape& o, Shape* s) {
                  *s = index_of((flat(o, shape) + 24 - 9) % 24, shape);
                  return true;
              }));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    DeviceTensor scalar(TensorSpec({}, ACL_FLOAT));
    scalar.write_complex({3.5});
    auto scalarOut = DeviceTensor::output(TensorSpec({}, ACL_FLOAT));
    ASSERT_EQ(roll(scalar, {4}, {}, *scalarOut), ACLNN_SUCCESS);
    EXPECT_EQ(scalarOut->read(), std::vector<double>{3.5});
}

TEST_F(LayoutRegions, RollInPlaceReadsTheOldValues) {
    // x and out one tensor: each of the two steps reads what the other
    // writes, so the engine copies x first (CANN's Roll reads a contiguous
    // copy).  Large enough to span several blocks.
    constexpr int64_t n = 1 << 16;
    std::vector<double> values(n);
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = static_cast<double>(i % 1000);
    DeviceTensor x(TensorSpec({n}, ACL_INT32));
    x.write(values);
    ASSERT_EQ(roll(x, {n / 2}, {0}, x), ACLNN_SUCCESS);
    const std::vector<double> after = x.read();
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(after[static_cast<size_t>(i)], values[static_cast<size_t>((i + n / 2) % n)]) << i;
}

TEST_F(LayoutRegions, RollErrors) {
    const RawTensor x({{2, 3}}), out({{2, 3}});
    const auto phase1 = [](const aclTensor* t, const IntArray& shifts, const IntArray& dims, aclTensor* o) {
        return phase1_of(aclnnRollGetWorkspaceSize, t, shifts.get(), dims.get(), o);
    };
    EXPECT_EQ(phase1(x.get(), {1}, {1}, out.get()), ACLNN_SUCCESS);
    expect_each_null_is_161001(aclnnRollGetWorkspaceSize, x.get(), IntArray{1}.get(), IntArray{1}.get(), out.get());
    struct Case {
        const char* why;
        Described x;
        std::vector<int64_t> shifts, dims;
        Described out;
    };
    const Described f32{{2, 3}}, deep{Shape(9, 1)}, scalar{{}};
    expect_each_refused(
        std::vector<Case>{
            {"DOUBLE not listed", {{2, 3}, ACL_DOUBLE}, {1}, {1}, {{2, 3}, ACL_DOUBLE}},
            {"dtypes differ", f32, {1}, {1}, {{2, 3}, ACL_FLOAT16}},
            {"shapes differ", f32, {1}, {1}, {{3, 2}}},
            {"sizes differ", f32, {1, 2}, {1}, f32},
            {"no dims, 2 shifts", f32, {1, 2}, {}, f32},
            {"rank 9", deep, {1}, {0}, deep},
            {"dim range", f32, {1}, {2}, f32},
            {"dim range", f32, {1}, {-3}, f32},
            {"dims for a scalar", scalar, {1}, {0}, scalar},
        },
        [&](const Case& c) { return phase1(RawTensor(c.x).get(), c.shifts, c.dims, RawTensor(c.out).get()); });
    // An empty x: nothing to do, dims not checked.
    const RawTensor empty({{0, 3}});
    EXPECT_EQ(phase1(empty.get(), {1}, {5}, empty.get()), ACLNN_SUCCESS);
}

// ---- Tril, Triu ----------------------------------------------------------------

/// The reference of Tril (lower) and Triu: element (.., i, j) kept when
/// j - i <= diagonal (lower) or >= diagonal (upper), else 0.
SourceOf triangle_of(int64_t diagonal, bool lower) {
    return [diagonal, lower](const Shape& o, Shape* s) {
        *s = o;
        const int64_t offset = o[o.size() - 1] - o[o.size() - 2];
        return lower ? offset <= diagonal : offset >= diagonal;
    };
}

const std::vector<aclDataType> kTriangleDtypes = {ACL_UINT8, ACL_INT8,    ACL_INT16, ACL_INT32,  ACL_INT64,
                                                  ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BOOL,  ACL_BF16,
                                                  ACL_UINT16, ACL_UINT32, ACL_UINT64};

TEST_F(LayoutRegions, TrilAndTriuKeepTheirTriangleForEveryListedDtype) {
    // DTYPE_SUPPORT_LIST_910B of conversion/tril and conversion/triu op_api.
    const Shape shape = {2, 4, 6};
    for (aclDataType dtype : kTriangleDtypes) {
        for (int64_t diagonal : {0, 1, -2, 5, -4, 7, -100}) {
            for (bool lower : {true, false}) {
                SCOPED_TRACE(name(dtype) + (lower ? " tril " : " triu ") + std::to_string(diagonal));
                const std::vector<Complex> values = values_of_dtype(dtype, numel(shape), 2);
                DeviceTensor self(TensorSpec(shape, dtype));
                self.write_complex(values);
                auto out = DeviceTensor::output(TensorSpec(shape, dtype));
                ASSERT_EQ(triangle(lower, self, diagonal, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                const std::vector<Complex> expected = expected_of(values, shape, shape, triangle_of(diagonal, lower));
                EXPECT_EQ(out->read_complex(), expected);
                // In place: the same through selfRef.
                ASSERT_EQ(triangle_inplace(lower, self, diagonal), ACLNN_SUCCESS);
                EXPECT_EQ(self.read_complex(), expected);
            }
        }
    }
}

TEST_F(LayoutRegions, TrilOfStridedBatchesAndOfABigMatrix) {
    // Batches of transposed matrices with an offset into an out with gaps.
    const Shape shape = {3, 5, 4};
    const std::vector<Complex> values = values_of_dtype(ACL_FLOAT, 60, 8);
    DeviceTensor self(TensorSpec(shape, ACL_FLOAT, {20, 1, 5}, 2, {62}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec(shape, ACL_FLOAT, {25, 5, 1}, 1, {76}));
    ASSERT_EQ(triangle(true, self, -1, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), expected_of(values, shape, shape, triangle_of(-1, true)));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    // 1536 x 1536 in place: a copy and a fill per row, over every block.
    const Shape big = {1536, 1536};
    const std::vector<Complex> bigValues = values_of_dtype(ACL_FLOAT16, numel(big), 3);
    DeviceTensor matrix(TensorSpec(big, ACL_FLOAT16));
    matrix.write_complex(bigValues);
    ASSERT_EQ(triangle_inplace(false, matrix, 3), ACLNN_SUCCESS);
    EXPECT_EQ(matrix.read_complex(), expected_of(bigValues, big, big, triangle_of(3, false)));
}

TEST_F(LayoutRegions, TrilAndTriuErrors) {
    const RawTensor self({{3, 3}}), out({{3, 3}});
    const Described f32{{3, 3}}, c64{{3, 3}, ACL_COMPLEX64}, row{{3}}, deep{Shape(9, 2)};
    for (bool lower : {true, false}) {
        SCOPED_TRACE(lower ? "tril" : "triu");
        const Triangle op = triangle_entries(lower);
        const auto phase1 = [&](const aclTensor* s, aclTensor* o) { return phase1_of(op.phase1, s, int64_t{0}, o); };
        EXPECT_EQ(phase1(self.get(), out.get()), ACLNN_SUCCESS);
        expect_each_null_is_161001(op.phase1, self.get(), int64_t{0}, out.get());
        expect_each_pair_refused(phase1, {{"COMPLEX64 not listed on A2", c64, c64},
                                          {"dtypes differ", f32, {{3, 3}, ACL_FLOAT16}},
                                          {"formats differ", f32, {{3, 3}, ACL_FLOAT, ACL_FORMAT_NCHW}},
                                          {"rank 1", row, row},
                                          {"rank 9", deep, deep},
                                          {"shapes differ", f32, {{3, 4}}}});
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        expect_error(op.inplace(nullptr, 0, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
        expect_error(op.inplace(self.get(), 0, nullptr, &executor), ACLNN_ERR_PARAM_NULLPTR);
    }
    // A matrix cut by its diagonal in 2^21 rows needs more steps than
    // acl-cpu's limit (kMaxSteps): 561000 in phase 1, where it once looped
    // over every row (phase 1 only, without data: a device block would
    // have to hold the whole view).
    const int64_t huge[] = {int64_t{1} << 21, int64_t{1} << 21};
    const int64_t hugeStrides[] = {int64_t{1} << 21, 1};
    aclTensor* giant = aclCreateTensor(huge, 2, ACL_FLOAT, hugeStrides, 0, ACL_FORMAT_ND, huge, 2, nullptr);
    {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        expect_error(aclnnTrilGetWorkspaceSize(giant, 0, giant, &workspace, &executor), ACLNN_ERR_INNER);
        // Cut nowhere (the diagonal past every column): one step.
        ASSERT_EQ(aclnnTriuGetWorkspaceSize(giant, int64_t{1} << 40, giant, &workspace, &executor), ACLNN_SUCCESS);
        aclDestroyAclOpExecutor(executor);
    }
    aclDestroyTensor(giant);
    // A storage no address space holds (2^62 one-byte elements) is refused:
    // in it a column stride of 2^61 passed the storage check, and the steps
    // of the region right of the last column overflowed int64 computing its
    // first element (UBSan at 3 * stride; found by fuzz_layout).
    const int64_t matrix[] = {2, 3};
    const int64_t wideStrides[] = {1, int64_t{1} << 61};
    const int64_t bigStorage[] = {(int64_t{1} << 62) + 2};
    aclTensor* wide = aclCreateTensor(matrix, 2, ACL_INT8, wideStrides, 0, ACL_FORMAT_ND, bigStorage, 1, nullptr);
    expect_error_naming(phase1_of(aclnnTrilGetWorkspaceSize, wide, int64_t{0}, wide), ACLNN_ERR_PARAM_INVALID,
                        "address space");
    aclDestroyTensor(wide);
    // An empty 1-D self: Tril refuses its rank; Triu checks the rank only of a non-empty self.
    const RawTensor emptyRow({{0}});
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnTrilGetWorkspaceSize(emptyRow.get(), 0, emptyRow.get(), &workspace, &executor),
                 ACLNN_ERR_PARAM_INVALID);
    ASSERT_EQ(aclnnTriuGetWorkspaceSize(emptyRow.get(), 0, emptyRow.get(), &workspace, &executor), ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(executor);
}

}  // namespace
