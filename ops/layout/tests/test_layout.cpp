// The layout family (Cast, InplaceCopy, Permute) against references computed
// here: every pair of Cast's A2 dtypes through CANN's Cast rules
// (tests/ops/dtype_reference.hpp), views with strides and offsets on both
// sides, broadcasting, bitwise copies of dtypes acl-cpu cannot cast, inputs
// overlapping the output, permutations with negative dims, and every error
// path with its code (math/cast, conversion/view_copy, conversion/transpose
// op_api code in hicann/ops-math).
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"
#include "layout_test_support.hpp"

namespace {

using namespace layouttest;

const std::vector<aclDataType> kCastDtypes = {ACL_FLOAT16, ACL_FLOAT,  ACL_DOUBLE, ACL_INT8,      ACL_UINT8,
                                              ACL_INT16,   ACL_INT32,  ACL_INT64,  ACL_UINT16,    ACL_UINT32,
                                              ACL_UINT64,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

bool is_unsigned(aclDataType t) { return t == ACL_UINT16 || t == ACL_UINT32 || t == ACL_UINT64; }

/// Inputs of dtype t: sample()'s values, with the wide unsigned dtypes kept
/// non-negative and inside what every integer target holds once wrapped.
std::vector<Complex> inputs_of(aclDataType t, size_t n, uint32_t seed) {
    if (is_unsigned(t)) {
        std::vector<Complex> values = sample(ACL_UINT8, n, seed);
        for (Complex& v : values) v = representable(Complex(v.real() * 3), t);
        return values;
    }
    return sample(t, n, seed, -300, 300);
}

/// Expected elements of `to` after CANN's Cast of values held in `from`.
std::vector<Complex> cast_all(const std::vector<Complex>& values, aclDataType from, aclDataType to) {
    std::vector<Complex> out;
    for (const Complex& v : values) out.push_back(in_dtype(cast(v, from, to), to));
    return out;
}

class Layout : public AclTest {
protected:
    aclnnStatus cast_to(const DeviceTensor& self, aclDataType dtype, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnCastGetWorkspaceSize, aclnnCast, self.get(), dtype, out.get());
    }
    aclnnStatus copy_into(aclTensor* selfRef, const aclTensor* src) {
        return run_aclnn(stream_, aclnnInplaceCopyGetWorkspaceSize, aclnnInplaceCopy, selfRef, src);
    }
    aclnnStatus copy_into(DeviceTensor& selfRef, const DeviceTensor& src) { return copy_into(selfRef.get(), src.get()); }
    aclnnStatus permute(const DeviceTensor& self, const IntArray& dims, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnPermuteGetWorkspaceSize, aclnnPermute, self.get(), dims.get(), out.get());
    }

    /// Casts values laid out as selfSpec into outSpec and checks every element.
    void check_cast(const TensorSpec& selfSpec, const TensorSpec& outSpec, const std::vector<Complex>& values) {
        SCOPED_TRACE(name(selfSpec.dtype) + " -> " + name(outSpec.dtype));
        DeviceTensor self(selfSpec);
        self.write_complex(values);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(cast_to(self, outSpec.dtype, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        expect_close(out->read_complex(), cast_all(values, selfSpec.dtype, outSpec.dtype),
                     tolerance_of(outSpec.dtype, outSpec.dtype));
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

// ---- Cast -------------------------------------------------------------------

TEST_F(Layout, CastBetweenEveryPairOfListedDtypes) {
    for (aclDataType from : kCastDtypes) {
        const std::vector<Complex> values = inputs_of(from, 111, 3);
        for (aclDataType to : kCastDtypes) check_cast(TensorSpec({3, 37}, from), TensorSpec({3, 37}, to), values);
    }
}

TEST_F(Layout, CastRoundsSaturatesAndWrapsAsCannsCast) {
    // Floating -> integer truncates toward zero and saturates (NaN -> 0);
    // integer -> narrower integer wraps; anything -> BOOL is != 0.
    const std::vector<Complex> floats = {2.7, -2.7, 1e10, -1e10, std::nan(""), 0.5, -0.0, 65520.0};
    for (aclDataType to : {ACL_INT8, ACL_INT32, ACL_UINT8, ACL_INT64, ACL_BOOL, ACL_FLOAT16, ACL_BF16}) {
        check_cast(TensorSpec({8}, ACL_FLOAT), TensorSpec({8}, to), representable(floats, ACL_FLOAT));
    }
    check_cast(TensorSpec({4}, ACL_INT32), TensorSpec({4}, ACL_INT8), {300, -129, 127, 256});
    check_cast(TensorSpec({3}, ACL_INT64), TensorSpec({3}, ACL_FLOAT), {16777217, -16777219, 9007199254740993.0});
}

TEST_F(Layout, CastReadsAndWritesStridedOffsetViews) {
    // A transposed self with an offset, into an out with gaps between rows.
    for (aclDataType from : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_COMPLEX64}) {
        for (aclDataType to : {ACL_FLOAT, ACL_BF16, ACL_INT64, ACL_DOUBLE}) {
            check_cast(TensorSpec({40, 24}, from, {1, 41}, 3, {41 * 24 + 3}),
                       TensorSpec({40, 24}, to, {30, 1}, 5, {30 * 40 + 5}), inputs_of(from, 960, 5));
        }
    }
    // Same dtype, large: a dense copy, and a strided one across every block.
    check_cast(TensorSpec({1 << 18}, ACL_FLOAT), TensorSpec({1 << 18}, ACL_FLOAT), inputs_of(ACL_FLOAT, 1 << 18, 9));
    check_cast(TensorSpec({512, 512}, ACL_FLOAT16, {1, 512}), TensorSpec({512, 512}, ACL_FLOAT16),
               inputs_of(ACL_FLOAT16, 512 * 512, 9));
}

TEST_F(Layout, CastErrors) {
    const RawTensor f32({{2, 3}}), f16({{2, 3}, ACL_FLOAT16});
    expect_each_null_is_161001(aclnnCastGetWorkspaceSize, f32.get(), ACL_FLOAT16, f16.get());
    struct Case {
        const char* why;
        Described self;
        aclDataType dtype;
        Described out;
    };
    const Described fp8{{2, 3}, ACL_FLOAT8_E4M3FN};
    expect_each_refused(
        std::vector<Case>{
            {"self outside the list", fp8, ACL_FLOAT16, {{2, 3}, ACL_FLOAT16}},
            {"dtype outside it", {{2, 3}}, ACL_FLOAT8_E4M3FN, fp8},
            {"rank 9", {Shape(9, 1)}, ACL_FLOAT16, {Shape(9, 1), ACL_FLOAT16}},
            {"shapes differ", {{2, 3}}, ACL_FLOAT16, {{3, 2}, ACL_FLOAT16}},
            {"out not dtype", {{2, 3}}, ACL_FLOAT16, {{2, 3}}},
        },
        [](const Case& c) {
            return phase1_of(aclnnCastGetWorkspaceSize, RawTensor(c.self).get(), c.dtype, RawTensor(c.out).get());
        });
}

TEST_F(Layout, CastOfAnEmptyTensorDoesNothing) {
    DeviceTensor self(TensorSpec({0, 5}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({0, 5}, ACL_INT32));
    EXPECT_EQ(cast_to(self, ACL_INT32, *out), ACLNN_SUCCESS);
}

// ---- InplaceCopy ------------------------------------------------------------

TEST_F(Layout, InplaceCopyBroadcastsAndCasts) {
    const std::vector<Complex> column = inputs_of(ACL_INT32, 3, 1);
    DeviceTensor src(TensorSpec({3, 1}, ACL_INT32));
    src.write_complex(column);
    for (aclDataType to : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_COMPLEX128}) {
        // selfRef: a [3, 4] view with row gaps and an offset.
        auto selfRef = DeviceTensor::output(TensorSpec({3, 4}, to, {6, 1}, 2, {20}));
        ASSERT_EQ(copy_into(*selfRef, src), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        std::vector<Complex> expected;
        for (int i = 0; i < 12; ++i) expected.push_back(in_dtype(cast(column[i / 4], ACL_INT32, to), to));
        expect_close(selfRef->read_complex(), expected, tolerance_of(to, to));
        EXPECT_EQ(selfRef->bytes_changed_outside_view(), 0u);
    }
}

TEST_F(Layout, InplaceCopyMovesBytesOfDtypesItCannotCast) {
    // Two FLOAT8_E4M3FN tensors: a copy within the dtype moves every byte,
    // through a transposed view.
    const int64_t shape[] = {4, 8};
    const int64_t rowMajor[] = {8, 1};
    const int64_t transposed[] = {1, 4};
    DeviceBuffer from(32);
    DeviceBuffer to(32);
    std::vector<uint8_t> bytes(32);
    std::iota(bytes.begin(), bytes.end(), 200);
    from.upload(bytes);
    aclTensor* src = aclCreateTensor(shape, 2, ACL_FLOAT8_E4M3FN, transposed, 0, ACL_FORMAT_ND, shape, 2, from.get());
    aclTensor* selfRef = aclCreateTensor(shape, 2, ACL_FLOAT8_E4M3FN, rowMajor, 0, ACL_FORMAT_ND, shape, 2, to.get());
    ASSERT_EQ(copy_into(selfRef, src), ACLNN_SUCCESS);
    const std::vector<uint8_t> copied = to.download();
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 8; ++j) EXPECT_EQ(copied[i * 8 + j], bytes[i + j * 4]) << i << "," << j;
    }
    // Between FLOAT8 and FLOAT the copy would need a cast: refused.
    DeviceTensor f32(TensorSpec({4, 8}, ACL_FLOAT));
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    expect_error(aclnnInplaceCopyGetWorkspaceSize(f32.get(), src, &workspace, &executor), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(src);
    aclDestroyTensor(selfRef);
}

TEST_F(Layout, InplaceCopyFromAnOverlappingViewReadsTheOldValues) {
    // src is selfRef shifted by one element in the same buffer: CANN copies
    // src to a contiguous tensor first, so every element gets its old
    // neighbour's value, whatever order the blocks run in.
    constexpr int64_t n = 100000;
    DeviceTensor whole(TensorSpec({n + 1}, ACL_FLOAT));
    std::vector<double> values(n + 1);
    std::iota(values.begin(), values.end(), 0.0);
    whole.write(values);
    const int64_t shape[] = {n};
    const int64_t stride[] = {1};
    const int64_t storage[] = {n + 1};
    void* data = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(whole.get(), &data), ACL_SUCCESS);
    aclTensor* selfRef = aclCreateTensor(shape, 1, ACL_FLOAT, stride, 1, ACL_FORMAT_ND, storage, 1, data);
    aclTensor* src = aclCreateTensor(shape, 1, ACL_FLOAT, stride, 0, ACL_FORMAT_ND, storage, 1, data);
    ASSERT_EQ(copy_into(selfRef, src), ACLNN_SUCCESS);
    const std::vector<double> after = whole.read();
    EXPECT_EQ(after[0], 0.0);
    for (int64_t i = 1; i <= n; ++i) ASSERT_EQ(after[i], static_cast<double>(i - 1)) << i;
    aclDestroyTensor(selfRef);
    aclDestroyTensor(src);
}

TEST_F(Layout, InplaceCopyErrors) {
    const RawTensor self({{1, 4}}), wide({{3, 4}});
    expect_each_null_is_161001(aclnnInplaceCopyGetWorkspaceSize, self.get(), wide.get());
    expect_each_pair_refused(
        [](aclTensor* selfRef, const aclTensor* src) { return phase1_of(aclnnInplaceCopyGetWorkspaceSize, selfRef, src); },
        {{"the broadcast of [1,4] and [3,4] is [3,4], not self's shape", {{1, 4}}, {{3, 4}}},
         {"not broadcastable", {{3, 4}}, {{3, 5}}},
         {"COMPLEX32 not listed", {{1, 4}}, {{1, 4}, ACL_COMPLEX32}}});
}

// ---- Permute ----------------------------------------------------------------

/// The row-major values of self (shape) permuted by perm.
std::vector<Complex> permuted(const std::vector<Complex>& values, const Shape& shape, const std::vector<int64_t>& perm) {
    const Shape strides = contiguous_strides(shape);
    Shape outShape;
    for (int64_t d : perm) outShape.push_back(shape[static_cast<size_t>(d)]);
    std::vector<Complex> out;
    for (int64_t i = 0; i < numel(outShape); ++i) {
        int64_t rest = i;
        int64_t position = 0;
        for (size_t d = outShape.size(); d-- > 0;) {
            position += rest % outShape[d] * strides[static_cast<size_t>(perm[d])];
            rest /= outShape[d];
        }
        out.push_back(values[static_cast<size_t>(position)]);
    }
    return out;
}

TEST_F(Layout, PermuteReordersDimensions) {
    const Shape shape = {2, 3, 4, 5};
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16, ACL_INT64, ACL_BOOL, ACL_COMPLEX128}) {
        for (const std::vector<int64_t>& dims :
             {std::vector<int64_t>{0, 1, 2, 3}, {3, 2, 1, 0}, {0, 2, 1, 3}, {-1, 0, -2, 1}}) {
            std::vector<int64_t> perm;
            for (int64_t d : dims) perm.push_back(d < 0 ? d + 4 : d);
            const std::vector<Complex> values = inputs_of(dtype, 120, 21);
            DeviceTensor self(TensorSpec(shape, dtype));
            self.write_complex(values);
            Shape outShape;
            for (int64_t d : perm) outShape.push_back(shape[static_cast<size_t>(d)]);
            auto out = DeviceTensor::output(TensorSpec(outShape, dtype));
            ASSERT_EQ(permute(self, dims, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(out->read_complex(), permuted(values, shape, perm));
        }
    }
}

TEST_F(Layout, PermuteOfALargeStridedViewIntoAStridedOut) {
    // self: the transposed view of a [256, 384] buffer; out: rows with gaps.
    const std::vector<Complex> values = inputs_of(ACL_FLOAT16, 384 * 256, 4);
    DeviceTensor self(TensorSpec({384, 256}, ACL_FLOAT16, {1, 384}));
    self.write_complex(values);
    auto out = DeviceTensor::output(TensorSpec({256, 384}, ACL_FLOAT16, {400, 1}, 7, {400 * 256 + 7}));
    ASSERT_EQ(permute(self, {1, 0}, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read_complex(), permuted(values, {384, 256}, {1, 0}));
    EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
}

TEST_F(Layout, PermuteTransposesBatchesOfMatricesTileByTile) {
    // out's rows read self's columns: the engine copies such steps in tiles
    // of rows (layout.hpp, JointLayout::transposes), which must give every
    // element, also across the batch's planes and the blocks' cuts mid-row.
    for (const Shape& shape : {Shape{3, 40, 70}, Shape{2, 300, 257}}) {
        for (aclDataType dtype : {ACL_FLOAT, ACL_INT16, ACL_BF16, ACL_COMPLEX64}) {
            SCOPED_TRACE(name(dtype) + " [" + std::to_string(shape[1]) + ", " + std::to_string(shape[2]) + "]");
            const auto count = static_cast<size_t>(shape[0] * shape[1] * shape[2]);
            const std::vector<Complex> values = inputs_of(dtype, count, 31);
            DeviceTensor self(TensorSpec(shape, dtype));
            self.write_complex(values);
            auto out = DeviceTensor::output(TensorSpec({shape[0], shape[2], shape[1]}, dtype));
            ASSERT_EQ(permute(self, {0, 2, 1}, *out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(out->read_complex(), permuted(values, shape, {0, 2, 1}));
        }
    }
}

TEST_F(Layout, InplaceCopyCastsATransposedViewTileByTile) {
    // src: the transposed view of a [40, 70] FLOAT16 buffer, copied into a
    // FLOAT [70, 40]: tiles of rows converted on the way.
    const std::vector<Complex> values = inputs_of(ACL_FLOAT16, 40 * 70, 8);
    DeviceTensor src(TensorSpec({70, 40}, ACL_FLOAT16, {1, 70}));
    src.write_complex(values);
    auto selfRef = DeviceTensor::output(TensorSpec({70, 40}, ACL_FLOAT));
    ASSERT_EQ(copy_into(*selfRef, src), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(selfRef->read_complex(), values);
}

TEST_F(Layout, InplaceCopyOfAMatrixIntoItsOwnTransposeReadsTheOldValues) {
    // selfRef = selfRef^T in place: src is the transposed view of selfRef's
    // own storage, so every block reads what others overwrite; CANN's graph
    // copies src to a contiguous tensor first.
    constexpr int64_t n = 96;
    DeviceTensor matrix(TensorSpec({n, n}, ACL_FLOAT));
    std::vector<double> values(n * n);
    std::iota(values.begin(), values.end(), 0.0);
    matrix.write(values);
    void* data = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(matrix.get(), &data), ACL_SUCCESS);
    const int64_t shape[] = {n, n};
    const int64_t transposed[] = {1, n};
    aclTensor* src = aclCreateTensor(shape, 2, ACL_FLOAT, transposed, 0, ACL_FORMAT_ND, shape, 2, data);
    ASSERT_EQ(copy_into(matrix.get(), src), ACLNN_SUCCESS);
    const std::vector<double> after = matrix.read();
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) ASSERT_EQ(after[i * n + j], values[j * n + i]) << i << "," << j;
    }
    aclDestroyTensor(src);
}

TEST_F(Layout, PermuteErrors) {
    const Described self{{2, 3, 4}}, out{{4, 3, 2}};
    expect_array_entry_errors(aclnnPermuteGetWorkspaceSize, {"valid", self, {2, 1, 0}, out},
                              {{"dtypes differ", self, {2, 1, 0}, {{4, 3, 2}, ACL_FLOAT16}},
                               {"ranks differ", self, {0}, {{24}}},
                               {"too few dims", self, {2, 1}, out},
                               {"repeated", self, {2, 2, 0}, out},
                               {"-1 is 2", self, {2, -1, 0}, out},
                               {"out of range", self, {3, 1, 0}, out},
                               {"out's shape", self, {2, 1, 0}, {{4, 2, 3}}}});
    const auto phase1 = [](const aclTensor* s, const IntArray& dims, aclTensor* o) {
        return phase1_of(aclnnPermuteGetWorkspaceSize, s, dims.get(), o);
    };
    // An empty self needs an empty out (ProcessEmptyTensor): 561103 otherwise.
    const RawTensor empty({{0, 3, 4}}), emptyOut({{4, 3, 0}}), fullOut(out);
    EXPECT_EQ(phase1(empty.get(), {2, 1, 0}, emptyOut.get()), ACLNN_SUCCESS);
    expect_error(phase1(empty.get(), {2, 1, 0}, fullOut.get()), ACLNN_ERR_INNER_NULLPTR);
}

TEST_F(Layout, ANullDataAddressFaultsInPhase2) {
    NullAddressTensor self({4, 4});
    auto out = DeviceTensor::output(TensorSpec({4, 4}, ACL_FLOAT16));
    expect_phase2_faults(
        [&](uint64_t* size, aclOpExecutor** executor) {
            return aclnnCastGetWorkspaceSize(self.get(), ACL_FLOAT16, out->get(), size, executor);
        },
        aclnnCast, stream_, {out.get()});
}

}  // namespace
