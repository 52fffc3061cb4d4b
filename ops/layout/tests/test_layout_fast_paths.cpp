// The layout engine's fast paths, each exactly as the plain one.
// - Outputs of 32 MiB and more are written with streaming stores
//   (ops/common/streaming_stores.hpp): dense copies and fills of a value, from
//   a vector boundary on, with ordinary stores before it and after the last
//   whole vector.  These outputs start off any boundary and end mid-vector.
// - Transposes go in stripes of up to 1,024 rows of the output, column by
//   column (JointLayout::kStripeRows); blocks of the launch may begin and
//   end mid-column.  Elements moved bitwise go through registers in blocks of
//   one cache line square (squares of up to 16 lanes,
//   ops/common/transpose_tiles.hpp), the edges in squares of 128-bit vectors,
//   then element by element; into outputs of 32 MiB and more, with streaming
//   stores of whole lines where the output's rows are aligned to 64 bytes,
//   of 16 bytes where they are aligned to that.
#include <string>
#include <vector>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "layout_test_support.hpp"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace layouttest;

class LayoutFastPaths : public AclTest {
protected:
    /// InplaceCopy of src into selfRef; then every element of selfRef's
    /// [rows, columns] view holds src's row (broadcast) cast to its dtype,
    /// and nothing outside the view changed.
    void check_broadcast_copy(const TensorSpec& srcSpec, const TensorSpec& selfSpec) {
        SCOPED_TRACE(name(srcSpec.dtype) + " -> " + name(selfSpec.dtype));
        const int64_t columns = selfSpec.shape[1];
        const int64_t width = srcSpec.shape.back();
        const std::vector<Complex> row = sample(srcSpec.dtype, static_cast<size_t>(width), 7, -100, 100);
        DeviceTensor src(srcSpec);
        src.write_complex(row);
        DeviceTensor selfRef(selfSpec);
        ASSERT_EQ(run_aclnn(stream_, aclnnInplaceCopyGetWorkspaceSize, aclnnInplaceCopy, selfRef.get(), src.get()),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<Complex> out = selfRef.read_complex();
        size_t wrong = 0;
        for (size_t i = 0; i < out.size(); ++i) {
            const Complex& value = row[width == 1 ? 0 : i % static_cast<size_t>(columns)];
            wrong += out[i] != in_dtype(cast(value, srcSpec.dtype, selfSpec.dtype), selfSpec.dtype);
        }
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(selfRef.bytes_changed_outside_view(), 0u);
    }

    /// Permute of self ([rows, columns]) by (1, 0) into out ([columns, rows]):
    /// every element where the transpose puts it, nothing outside out's view
    /// changed.
    void check_transpose(const TensorSpec& selfSpec, const TensorSpec& outSpec) {
        SCOPED_TRACE(name(selfSpec.dtype) + " " + std::to_string(selfSpec.shape[0]) + " x " +
                     std::to_string(selfSpec.shape[1]) + (selfSpec.offset != 0 ? " offset view" : "") +
                     (outSpec.offset != 0 ? " offset out" : ""));
        const int64_t rows = selfSpec.shape[0], columns = selfSpec.shape[1];
        const std::vector<Complex> values = sample(selfSpec.dtype, static_cast<size_t>(rows * columns), 11, -100, 100);
        DeviceTensor self(selfSpec);
        self.write_complex(values);
        auto out = DeviceTensor::output(outSpec);
        const IntArray dims{1, 0};
        ASSERT_EQ(run_aclnn(stream_, aclnnPermuteGetWorkspaceSize, aclnnPermute, self.get(), dims.get(), out->get()),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<Complex> got = out->read_complex();
        size_t wrong = 0;
        for (int64_t c = 0; c < columns; ++c) {
            for (int64_t r = 0; r < rows; ++r) wrong += got[c * rows + r] != values[r * columns + c];
        }
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }

    /// Permute of self by dims into a contiguous out: out's element at index
    /// i is self's at the index whose dims[k]-th entry is i[k].
    void check_permute(const TensorSpec& selfSpec, const Shape& dims) {
        std::string order;
        for (int64_t d : dims) order += " " + std::to_string(d);
        SCOPED_TRACE(name(selfSpec.dtype) + " dims" + order + (selfSpec.offset != 0 ? " offset view" : ""));
        const std::vector<Complex> values =
            sample(selfSpec.dtype, static_cast<size_t>(numel(selfSpec.shape)), 13, -100, 100);
        DeviceTensor self(selfSpec);
        self.write_complex(values);
        Shape outShape;
        for (int64_t d : dims) outShape.push_back(selfSpec.shape[static_cast<size_t>(d)]);
        auto out = DeviceTensor::output(TensorSpec(outShape, selfSpec.dtype));
        const IntArray permutation(dims);
        ASSERT_EQ(run_aclnn(stream_, aclnnPermuteGetWorkspaceSize, aclnnPermute, self.get(), permutation.get(),
                            out->get()),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<Complex> got = out->read_complex();
        size_t wrong = 0;
        for (int64_t i = 0; i < numel(outShape); ++i) {
            const Shape outIndex = index_of(i, outShape);
            Shape selfIndex(selfSpec.shape.size());
            for (size_t k = 0; k < dims.size(); ++k) selfIndex[static_cast<size_t>(dims[k])] = outIndex[k];
            wrong += got[static_cast<size_t>(i)] != values[static_cast<size_t>(flat(selfIndex, selfSpec.shape))];
        }
        EXPECT_EQ(wrong, 0u);
    }
};

TEST_F(LayoutFastPaths, ARowBroadcastOverALargeOutputIsCopiedExactly) {
    // 8,195 rows of 1,027 fp32 (33.7 MB) one element past the allocation's
    // start: each row is a dense copy starting off a vector boundary.
    check_broadcast_copy(TensorSpec({1027}, ACL_FLOAT), TensorSpec({8195, 1027}, ACL_FLOAT, {}, 1, {8195 * 1027 + 1}));
}

TEST_F(LayoutFastPaths, OneValueBroadcastOverALargeOutputIsFilledExactly) {
    // fp16 (2-byte pattern) three elements into the allocation, and COMPLEX128
    // (one element a 16-byte pattern): fills of 32 MiB and more, cast first.
    check_broadcast_copy(TensorSpec({1}, ACL_FLOAT),
                         TensorSpec({4099, 4099}, ACL_FLOAT16, {}, 3, {4099 * 4099 + 3}));
    check_broadcast_copy(TensorSpec({1}, ACL_INT32), TensorSpec({2049, 1025}, ACL_COMPLEX128));
}

TEST_F(LayoutFastPaths, AStridedLargeOutputKeepsTheGapsBetweenItsRows) {
    // Rows of 1,500 fp32 four elements apart: the gaps stay untouched.
    check_broadcast_copy(TensorSpec({1500}, ACL_FLOAT), TensorSpec({6000, 1500}, ACL_FLOAT, {1504, 1}, 2,
                                                                    {6000 * 1504 + 2}));
}

TEST_F(LayoutFastPaths, TransposesOfEveryElementWidthInSquaresAndEdges) {
    // Widths 1, 2, 4 and 8 bytes: squares of 16, 8, 4 and 2 lanes; 67 x 131
    // leaves edges of every size, and the second pair is an offset view
    // whose rows lie 3 elements apart beyond the matrix.
    for (aclDataType dtype : {ACL_INT8, ACL_FLOAT16, ACL_INT32, ACL_INT64}) {
        const int64_t rows = 67, columns = 131;
        check_transpose(TensorSpec({rows, columns}, dtype), TensorSpec({columns, rows}, dtype));
        check_transpose(TensorSpec({rows, columns}, dtype, {columns + 3, 1}, 5, {rows * (columns + 3) + 5}),
                        TensorSpec({columns, rows}, dtype));
    }
}

TEST_F(LayoutFastPaths, LargeTransposesAreStoredExactly) {
    // Outputs of 32 MiB and more: squares stored with streaming stores where
    // the output's rows are aligned to 16 bytes (fp32 4 elements into the
    // allocation, rows of 2,052), with ordinary ones where they are not
    // (int64 one element in); the edges of odd sizes with both.
    check_transpose(TensorSpec({2051, 4099}, ACL_FLOAT),
                    TensorSpec({4099, 2051}, ACL_FLOAT, {2052, 1}, 4, {4099 * 2052 + 4}));
    check_transpose(TensorSpec({2051, 2049}, ACL_INT64),
                    TensorSpec({2049, 2051}, ACL_INT64, {}, 1, {2049 * 2051 + 1}));
}

TEST_F(LayoutFastPaths, TransposesInStripesOfEveryElementWidth) {
    // 2,100 output rows: stripes of 1,024, 1,024 and 52 rows; 67 columns: one
    // line block of int8 (64 x 64), more of the wider ones, and edges of every
    // size; the second pair reads an offset view with rows 3 elements apart.
    for (aclDataType dtype : {ACL_INT8, ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_INT64}) {
        const int64_t rows = 67, columns = 2100;
        check_transpose(TensorSpec({rows, columns}, dtype), TensorSpec({columns, rows}, dtype));
        check_transpose(TensorSpec({rows, columns}, dtype, {columns + 3, 1}, 5, {rows * (columns + 3) + 5}),
                        TensorSpec({columns, rows}, dtype));
    }
}

TEST_F(LayoutFastPaths, ThreeDimPermutesTransposeEachPlaneInStripes) {
    // Planes of [1500, 40] (two stripes each), [1500, 120] after merging the
    // outer dims, and [1500, 3] (columns no square fills); the last from an
    // offset view of a wider storage.
    for (aclDataType dtype : {ACL_INT8, ACL_FLOAT16, ACL_FLOAT, ACL_INT64}) {
        check_permute(TensorSpec({3, 40, 1500}, dtype), {0, 2, 1});
        check_permute(TensorSpec({3, 40, 1500}, dtype), {2, 0, 1});
        check_permute(TensorSpec({3, 40, 1500}, dtype, {64000, 1600, 1}, 7, {3 * 64000 + 7}), {1, 2, 0});
    }
}

TEST_F(LayoutFastPaths, LargeStripedTransposesOf16BitElementsStreamWholeLines) {
    // Rows of 4,096 fp16 (8 KiB, aligned to 64 bytes) in an output past
    // 32 MiB: whole lines streamed.  (LargeTransposesAreStoredExactly covers
    // outputs aligned to 16 bytes only, or not at all.)
    check_transpose(TensorSpec({4096, 4160}, ACL_FLOAT16), TensorSpec({4160, 4096}, ACL_FLOAT16));
}

TEST_F(LayoutFastPaths, BlocksEndingMidColumnOfAStripeCopyExactly) {
    // Cat of a row and a transposed view [1500, 3001] (a transposing step
    // starting 3,001 elements into the launch): the launch's blocks, cut at
    // multiples of whole stripe panels of the whole space, end mid-column of
    // the step's stripes of 1,024 and 476 rows.  Then InplaceCopy of an fp16
    // transposed view into fp32: converted through the buffer, stripe by
    // stripe.
    const int64_t rows = 1500, columns = 3001;
    const std::vector<Complex> first = sample(ACL_FLOAT, static_cast<size_t>(columns), 3, -100, 100);
    const std::vector<Complex> second = sample(ACL_FLOAT, static_cast<size_t>(rows * columns), 5, -100, 100);
    DeviceTensor row(TensorSpec({1, columns}, ACL_FLOAT));
    DeviceTensor transposed(TensorSpec({rows, columns}, ACL_FLOAT, {1, rows}, 0, {rows * columns}));
    row.write_complex(first);
    transposed.write_complex(second);
    auto out = DeviceTensor::output(TensorSpec({rows + 1, columns}, ACL_FLOAT));
    const TensorList inputs{aclcpu::testkit::copy_tensor(row.get()), aclcpu::testkit::copy_tensor(transposed.get())};
    ASSERT_EQ(run_aclnn(stream_, aclnnCatGetWorkspaceSize, aclnnCat, inputs.get(), int64_t{0}, out->get()),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<Complex> got = out->read_complex();
    size_t wrong = 0;
    for (int64_t i = 0; i < (rows + 1) * columns; ++i) {
        wrong += got[static_cast<size_t>(i)] !=
                 (i < columns ? first[static_cast<size_t>(i)] : second[static_cast<size_t>(i - columns)]);
    }
    EXPECT_EQ(wrong, 0u);

    const std::vector<Complex> halves = sample(ACL_FLOAT16, static_cast<size_t>(rows * columns), 9, -100, 100);
    DeviceTensor src(TensorSpec({rows, columns}, ACL_FLOAT16, {1, rows}, 0, {rows * columns}));
    src.write_complex(halves);
    DeviceTensor selfRef(TensorSpec({rows, columns}, ACL_FLOAT));
    ASSERT_EQ(run_aclnn(stream_, aclnnInplaceCopyGetWorkspaceSize, aclnnInplaceCopy, selfRef.get(), src.get()),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const std::vector<Complex> copied = selfRef.read_complex();
    wrong = 0;
    for (size_t i = 0; i < copied.size(); ++i) {
        wrong += copied[i] != in_dtype(cast(halves[i], ACL_FLOAT16, ACL_FLOAT), ACL_FLOAT);
    }
    EXPECT_EQ(wrong, 0u);
}

}  // namespace
