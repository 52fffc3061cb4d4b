// Which unary launches are tabulated (common/tabulated_unary.hpp): FLOAT16
// or BF16 throughout, streamed, kTabulatedElements or more; and a table
// holds the block function's result for each pattern.
#include "common/tabulated_unary.hpp"
#include "common/tests/tiling_checks.hpp"

namespace {

using aclcpu::ops::ElementwiseOperands;
using aclcpu::ops::kTabulatedElements;
using aclcpu::ops::StridedLayout;

ElementwiseOperands<1> dense(int64_t n, aclDataType dtype, aclDataType computeDtype) {
    return {{StridedLayout::linear(n, dtype)}, StridedLayout::linear(n, dtype), computeDtype};
}

TEST(TabulatedUnary, OnlyLargeStreamedLaunchesOn16BitFloats) {
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
        EXPECT_TRUE(aclcpu::ops::tabulates(dense(kTabulatedElements, dtype, dtype)));
        EXPECT_FALSE(aclcpu::ops::tabulates(dense(kTabulatedElements - 1, dtype, dtype)));
        // Computed in fp32 (CANN's graph casts first): not one rounding, no table.
        EXPECT_FALSE(aclcpu::ops::tabulates(dense(kTabulatedElements, dtype, ACL_FLOAT)));
    }
    EXPECT_FALSE(aclcpu::ops::tabulates(dense(kTabulatedElements, ACL_FLOAT, ACL_FLOAT)));
    // An input of another dtype is not streamed.
    EXPECT_FALSE(aclcpu::ops::tabulates(
        {{StridedLayout::linear(kTabulatedElements, ACL_BF16)}, StridedLayout::linear(kTabulatedElements, ACL_FLOAT16),
         ACL_FLOAT16}));
}

TEST(TabulatedUnary, EveryPatternInOrder) {
    const uint16_t* patterns = aclcpu::ops::every_half_pattern();
    for (uint32_t i = 0; i < 65536; ++i) ASSERT_EQ(patterns[i], i);
}

}  // namespace
