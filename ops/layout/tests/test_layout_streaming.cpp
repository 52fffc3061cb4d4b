// The layout engine writes outputs of 32 MiB and more with streaming stores
// (ops/common/streaming_stores.hpp): dense copies and fills of a value, from
// a vector boundary on, with ordinary stores before it and after the last
// whole vector.  These outputs start off any boundary and end mid-vector,
// so that every part of that path writes exactly the view's elements.
#include <vector>

#include "aclnnop/aclnn_copy.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

class LayoutStreaming : public AclTest {
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
        ASSERT_EQ(run_two_phases(
                      [&](uint64_t* size, aclOpExecutor** executor) {
                          return aclnnInplaceCopyGetWorkspaceSize(selfRef.get(), src.get(), size, executor);
                      },
                      aclnnInplaceCopy, stream_, nullptr),
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
};

TEST_F(LayoutStreaming, ARowBroadcastOverALargeOutputIsCopiedExactly) {
    // 8,195 rows of 1,027 fp32 (33.7 MB) one element past the allocation's
    // start: each row is a dense copy starting off a vector boundary.
    check_broadcast_copy(TensorSpec({1027}, ACL_FLOAT), TensorSpec({8195, 1027}, ACL_FLOAT, {}, 1, {8195 * 1027 + 1}));
}

TEST_F(LayoutStreaming, OneValueBroadcastOverALargeOutputIsFilledExactly) {
    // fp16 (2-byte pattern) three elements into the allocation, and COMPLEX128
    // (one element a 16-byte pattern): fills of 32 MiB and more, cast first.
    check_broadcast_copy(TensorSpec({1}, ACL_FLOAT),
                         TensorSpec({4099, 4099}, ACL_FLOAT16, {}, 3, {4099 * 4099 + 3}));
    check_broadcast_copy(TensorSpec({1}, ACL_INT32), TensorSpec({2049, 1025}, ACL_COMPLEX128));
}

TEST_F(LayoutStreaming, AStridedLargeOutputKeepsTheGapsBetweenItsRows) {
    // Rows of 1,500 fp32 four elements apart: the gaps stay untouched.
    check_broadcast_copy(TensorSpec({1500}, ACL_FLOAT), TensorSpec({6000, 1500}, ACL_FLOAT, {1504, 1}, 2,
                                                                    {6000 * 1504 + 2}));
}

}  // namespace
