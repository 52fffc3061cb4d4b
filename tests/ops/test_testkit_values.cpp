// The test kit's element encoding, which every operator reference reads its
// inputs through: values as each dtype holds them.
#include <cstdint>
#include <vector>

#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

TEST(TestkitValues, RealValuesOfComplexDtypesAreTheirElementsRealPart) {
    // A COMPLEX128 element is 16 bytes: the whole element is encoded and read.
    EXPECT_EQ(representable(1.1, ACL_COMPLEX128), 1.1);
    EXPECT_EQ(representable(1.1, ACL_COMPLEX64), static_cast<double>(1.1f));
    EXPECT_EQ(representable(std::vector<double>{-2.5, 1e300}, ACL_COMPLEX128), (std::vector<double>{-2.5, 1e300}));
}

TEST(TestkitValues, RealDtypesRoundAndWrapAsTheDeviceStores) {
    EXPECT_EQ(representable(-7.0, ACL_UINT8), 249.0);
    EXPECT_EQ(representable(70000.0, ACL_INT16), 70000.0 - 65536.0);
    // Ties to even: fp16's ulp at 1 is 2^-10, bf16's 2^-7.
    EXPECT_EQ(representable(1.0 + 1.0 / 2048, ACL_FLOAT16), 1.0);
    EXPECT_EQ(representable(1.0 + 3.0 / 2048, ACL_FLOAT16), 1.0 + 1.0 / 512);
    EXPECT_EQ(representable(1.0 + 1.0 / 256, ACL_BF16), 1.0);
    EXPECT_EQ(representable(0.1, ACL_FLOAT), static_cast<double>(0.1f));
    EXPECT_EQ(representable(3.0, ACL_BOOL), 1.0);
}

}  // namespace
