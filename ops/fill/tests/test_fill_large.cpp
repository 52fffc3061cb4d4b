// Fills of 32 MiB and more are written with streaming stores
// (ops/common/streaming_stores.hpp), from a vector boundary on: outputs that
// start off any boundary, of 2-, 4- and 16-byte elements, keep every element
// and nothing outside the view.
#include <vector>

#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

class FillLarge : public AclTest {
protected:
    /// Every element of self equals expected; nothing outside its view changed.
    static void expect_all(const DeviceTensor& self, const Complex& expected) {
        const std::vector<Complex> got = self.read_complex();
        size_t wrong = 0;
        for (const Complex& element : got) wrong += element != expected;
        EXPECT_EQ(wrong, 0u);
        EXPECT_EQ(self.bytes_changed_outside_view(), 0u);
    }
};

TEST_F(FillLarge, FillScalarOfALargeViewOffAnyBoundary) {
    // 8.4 Mi fp32 (33.6 MB) one element into the allocation, and fp16 three.
    for (const TensorSpec& spec : {TensorSpec({8195, 1027}, ACL_FLOAT, {}, 1, {8195 * 1027 + 1}),
                                   TensorSpec({4099, 4099}, ACL_FLOAT16, {}, 3, {4099 * 4099 + 3})}) {
        SCOPED_TRACE(name(spec.dtype));
        DeviceTensor self(spec);
        const Scalar value(2.5, ACL_FLOAT);
        ASSERT_EQ(
            run_aclnn(stream_, aclnnInplaceFillScalarGetWorkspaceSize, aclnnInplaceFillScalar, self.get(), value.get()),
            ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        expect_all(self, Complex(2.5, 0));
    }
}

TEST_F(FillLarge, ZeroOfALargeComplexView) {
    // 2 Mi COMPLEX128 elements (33.6 MB): each a 16-byte pattern.
    auto self = DeviceTensor::output(TensorSpec({2049, 1025}, ACL_COMPLEX128), 5);
    ASSERT_EQ(run_aclnn(stream_, aclnnInplaceZeroGetWorkspaceSize, aclnnInplaceZero, self->get()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    expect_all(*self, Complex(0, 0));
}

}  // namespace
