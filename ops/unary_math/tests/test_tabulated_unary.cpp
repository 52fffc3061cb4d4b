// Unary launches of 1 Mi elements and more on FLOAT16 and BF16 look their
// results up in a table of the operator's result for every 16-bit pattern
// (ops/common/tabulated_unary.hpp).  Each must write, bit for bit, what a
// launch below that size computes, for every pattern -- NaNs with their
// payloads, infinities, subnormals, -0 -- dense, in place and from an input
// whose rows lie apart; references against the formulas are the other
// tests' (test_unary_math.cpp, test_activation.cpp), on small launches.
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr int64_t kPatterns = 65536;
/// Above the table's threshold (1 Mi), and not a whole number of tables.
constexpr int64_t kLargeRows = 16;
constexpr int64_t kLargeTail = 4099;

/// A unary operator's out-of-place launch.
using UnaryLaunch = std::function<aclnnStatus(aclrtStream, const aclTensor* self, aclTensor* out)>;

struct UnaryOperator {
    const char* name;
    UnaryLaunch launch;
};

/// The launch of phase1/phase2 with the scalars `extra` between self and out.
template <class Phase1, class Phase2, class... Extra>
UnaryLaunch launch_of(Phase1 phase1, Phase2 phase2, Extra... extra) {
    return [=](aclrtStream stream, const aclTensor* self, aclTensor* out) {
        return run_aclnn(stream, phase1, phase2, self, extra..., out);
    };
}

const std::vector<UnaryOperator>& operators() {
    static const Scalar slope(0.01), beta(2.0), threshold(5.0);
    static const std::vector<UnaryOperator> all = {
        {"Abs", launch_of(aclnnAbsGetWorkspaceSize, aclnnAbs)},
        {"Exp", launch_of(aclnnExpGetWorkspaceSize, aclnnExp)},
        {"Log", launch_of(aclnnLogGetWorkspaceSize, aclnnLog)},
        {"Sqrt", launch_of(aclnnSqrtGetWorkspaceSize, aclnnSqrt)},
        {"Sin", launch_of(aclnnSinGetWorkspaceSize, aclnnSin)},
        {"Tanh", launch_of(aclnnTanhGetWorkspaceSize, aclnnTanh)},
        {"Sigmoid", launch_of(aclnnSigmoidGetWorkspaceSize, aclnnSigmoid)},
        {"Silu", launch_of(aclnnSiluGetWorkspaceSize, aclnnSilu)},
        {"Gelu", launch_of(aclnnGeluGetWorkspaceSize, aclnnGelu)},
        {"LeakyRelu", launch_of(aclnnLeakyReluGetWorkspaceSize, aclnnLeakyRelu, slope.get())},
        {"Softplus", launch_of(aclnnSoftplusGetWorkspaceSize, aclnnSoftplus, beta.get(), threshold.get())},
    };
    return all;
}

/// The 16-bit elements of t's storage.
std::vector<uint16_t> storage_bits(const DeviceTensor& t) {
    const std::vector<uint8_t> bytes = t.bytes();
    std::vector<uint16_t> bits(bytes.size() / 2);
    std::memcpy(bits.data(), bytes.data(), bits.size() * 2);
    return bits;
}

/// Writes bits over the start of t's storage.
void write_storage_bits(const DeviceTensor& t, const std::vector<uint16_t>& bits) {
    void* data = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(t.get(), &data), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(data, bits.size() * 2, bits.data(), bits.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

/// Every pattern, in order, then again from the start: `count` elements.
std::vector<uint16_t> patterns(int64_t count) {
    std::vector<uint16_t> bits(static_cast<size_t>(count));
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<uint16_t>(i);
    return bits;
}

class TabulatedUnary : public AclTest {
protected:
    /// op's result for every pattern, from a launch below the table's size.
    std::vector<uint16_t> computed(const UnaryOperator& op, aclDataType dtype) {
        DeviceTensor self(TensorSpec({kPatterns}, dtype));
        write_storage_bits(self, patterns(kPatterns));
        DeviceTensor out(TensorSpec({kPatterns}, dtype));
        EXPECT_EQ(op.launch(stream_, self.get(), out.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        return storage_bits(out);
    }
};

TEST_F(TabulatedUnary, LargeLaunchesWriteWhatSmallOnesCompute) {
    const int64_t n = kLargeRows * kPatterns + kLargeTail;
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
        for (const UnaryOperator& op : operators()) {
            SCOPED_TRACE(std::string(op.name) + " " + name(dtype));
            const std::vector<uint16_t> expected = computed(op, dtype);
            DeviceTensor self(TensorSpec({n}, dtype));
            write_storage_bits(self, patterns(n));
            DeviceTensor out(TensorSpec({n}, dtype));
            ASSERT_EQ(op.launch(stream_, self.get(), out.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::vector<uint16_t> got = storage_bits(out);
            size_t wrong = 0;
            for (int64_t i = 0; i < n; ++i) wrong += got[i] != expected[i % kPatterns];
            EXPECT_EQ(wrong, 0u);
            // In place: self's storage holds the results afterwards.
            ASSERT_EQ(op.launch(stream_, self.get(), self.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(storage_bits(self), got);
        }
    }
}

TEST_F(TabulatedUnary, InputRowsLyingApartAreReadRunByRun) {
    // self [16, 65536] with rows 65,552 elements apart (the 16 between them
    // hold NaN patterns no row has there), out dense: each row one run of
    // lookups.
    const int64_t rowStride = kPatterns + 16;
    for (const UnaryOperator& op : operators()) {
        SCOPED_TRACE(op.name);
        const std::vector<uint16_t> expected = computed(op, ACL_FLOAT16);
        DeviceTensor self(TensorSpec({kLargeRows, kPatterns}, ACL_FLOAT16, {rowStride, 1}, 0, {kLargeRows * rowStride}));
        std::vector<uint16_t> bits(static_cast<size_t>(kLargeRows * rowStride), 0x7E5A);
        for (int64_t r = 0; r < kLargeRows; ++r) {
            for (int64_t c = 0; c < kPatterns; ++c) bits[r * rowStride + c] = static_cast<uint16_t>(c);
        }
        write_storage_bits(self, bits);
        DeviceTensor out(TensorSpec({kLargeRows, kPatterns}, ACL_FLOAT16));
        ASSERT_EQ(op.launch(stream_, self.get(), out.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const std::vector<uint16_t> got = storage_bits(out);
        size_t wrong = 0;
        for (int64_t i = 0; i < kLargeRows * kPatterns; ++i) wrong += got[i] != expected[i % kPatterns];
        EXPECT_EQ(wrong, 0u);
    }
}

}  // namespace
