// The layout engine's fast paths, each exactly as the plain one.
// - Outputs of 32 MiB and more are written with streaming stores
//   (ops/common/streaming_stores.hpp): dense copies and fills of a value, from
//   a vector boundary on, with ordinary stores before it and after the last
//   whole vector.  These outputs start off any boundary and end mid-vector.
// - Transposes of elements moved bitwise go through registers in squares of
//   one 128-bit vector's lanes (ops/common/transpose_tiles.hpp), with edges
//   that fill no square; into outputs of 32 MiB and more, with streaming
//   stores where the output's rows are aligned for them.
#include <string>
#include <vector>

#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_permute.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

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

}  // namespace
