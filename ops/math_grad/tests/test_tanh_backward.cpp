// aclnnTanhBackward against the derivative of tanh written from its output
// y, dy * (1 - y^2), in double: every A2 dtype (ops-math math/tanh_grad/
// op_api/aclnn_tanh_backward.cpp: FLOAT, FLOAT16, DOUBLE, BF16), broadcast,
// strided and offset views, 0-d and empty tensors, special values, every
// error path with its code and message, and central differences of our own
// aclnnTanh.
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "ops/gradient_test_support.hpp"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

/// The reference in `dtype`: the product in double, rounded once (DOUBLE
/// is computed in double on AICPU; the others in fp32: tolerance_for).
double tanh_grad(double dy, double y) { return dy * (1 - y * y); }

class TanhBackward : public AclTest {
protected:
    BinaryLaunch launch() const { return binary_launch(stream_, aclnnTanhBackwardGetWorkspaceSize, aclnnTanhBackward); }
};

Tolerance tolerance_of(aclDataType dtype) {
    return dtype == ACL_DOUBLE ? Tolerance{1e-14, 1e-300} : Tolerance{tolerance_for(dtype).rtol, 1e-6};
}

TEST_F(TanhBackward, EveryDtype) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        const auto ref = [dtype](double dy, double y) { return representable(tanh_grad(dy, y), dtype); };
        check_binary(launch(), {{{5, 13}, dtype}, uniform(65, -3, 3, 1)}, {{{5, 13}, dtype}, uniform(65, -1, 1, 2)},
                     {{5, 13}, dtype}, ref, tolerance_of(dtype));
        // Broadcast, y a strided column with an offset.
        check_binary(launch(), {{{2, 1, 6}, dtype}, uniform(12, -3, 3, 3)},
                     {{{4, 1}, dtype, {3, 1}, 2, {12}}, uniform(4, -1, 1, 4)}, {{2, 4, 6}, dtype}, ref,
                     tolerance_of(dtype));
    }
}

TEST_F(TanhBackward, ViewsZeroDimEmptyAndSpecialValues) {
    const auto ref = [](double dy, double y) { return representable(tanh_grad(dy, y), ACL_FLOAT); };
    const Tolerance tol = tolerance_of(ACL_FLOAT);
    check_binary(launch(), {{{3, 4}, ACL_FLOAT, {1, 3}, 1, {13}}, uniform(12, -3, 3, 5)},
                 {{{3, 4}, ACL_FLOAT}, uniform(12, -1, 1, 6)}, {{3, 4}, ACL_FLOAT, {8, 2}, 1, {24}}, ref, tol);
    check_binary(launch(), {{{}, ACL_FLOAT}, {2}}, {{{}, ACL_FLOAT}, {0.5}}, {{}, ACL_FLOAT}, ref, tol);
    check_binary(launch(), {{{0, 4}, ACL_FLOAT}, {}}, {{{0, 4}, ACL_FLOAT}, {}}, {{0, 4}, ACL_FLOAT},
                 [](double, double) { return 0.0; }, {0, 0});
    // y = +-1 (tanh saturated): 0; inf: -inf; NaN: NaN.
    check_binary(launch(), {{{5}, ACL_FLOAT}, {3, 3, 3, 3, kInf}}, {{{5}, ACL_FLOAT}, {1, -1, kInf, kNaN, 0}},
                 {{5}, ACL_FLOAT}, ref, {0, 0});
}

// TanhBackward(1, aclnnTanh(x)) against central differences of aclnnTanh
// (ops/gradient_test_support.hpp).
TEST_F(TanhBackward, MatchesCentralDifferencesOfTanh) {
    const auto tanh = [this](const DeviceTensor& in, DeviceTensor& out) {
        return run_aclnn(stream_, aclnnTanhGetWorkspaceSize, aclnnTanh, in.get(), out.get());
    };
    const std::vector<double> x = central_difference_points();
    const Shape shape = {static_cast<int64_t>(x.size())};
    const DeviceTensor dy({shape, ACL_FLOAT}, std::vector<double>(x.size(), 1.0));
    const DeviceTensor y({shape, ACL_FLOAT}, forward_at(tanh, x, 0));
    auto grad = DeviceTensor::output({shape, ACL_FLOAT});
    ASSERT_EQ(run_aclnn(stream_, aclnnTanhBackwardGetWorkspaceSize, aclnnTanhBackward, dy.get(), y.get(), grad->get()),
              ACLNN_SUCCESS);
    expect_close(grad->read(), central_differences(tanh, x), kCentralDifferenceTolerance);
}

TEST_F(TanhBackward, Errors) {
    const DeviceTensor f32({{2, 3}, ACL_FLOAT}, uniform(6, -1, 1, 1));
    auto out = DeviceTensor::output({{2, 3}, ACL_FLOAT});
    expect_each_null_is_161001_naming(aclnnTanhBackwardGetWorkspaceSize, {"gradOutput", "output", "gradInput"},
                                      f32.get(), f32.get(), out->get());
    const DeviceTensor i32({{2, 3}, ACL_INT32}, {1, 2, 3, 4, 5, 6});
    const DeviceTensor f16({{2, 3}, ACL_FLOAT16}, uniform(6, -1, 1, 1));
    expect_error_naming(phase1_of(aclnnTanhBackwardGetWorkspaceSize, i32.get(), i32.get(), out->get()),
                        ACLNN_ERR_PARAM_INVALID, "DT_INT32");
    // One dtype for all three on A2.
    expect_error(phase1_of(aclnnTanhBackwardGetWorkspaceSize, f16.get(), f32.get(), out->get()),
                 ACLNN_ERR_PARAM_INVALID);
    auto out16 = DeviceTensor::output({{2, 3}, ACL_FLOAT16});
    expect_error(phase1_of(aclnnTanhBackwardGetWorkspaceSize, f32.get(), f32.get(), out16->get()),
                 ACLNN_ERR_PARAM_INVALID);
    const auto phase1 = [](const aclTensor* a, const aclTensor* b, aclTensor* o) {
        return phase1_of(aclnnTanhBackwardGetWorkspaceSize, a, b, o);
    };
    expect_each_triple_refused(phase1, broadcast_refusals());
}

}  // namespace
