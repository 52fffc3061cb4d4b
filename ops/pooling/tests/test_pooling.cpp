// AvgPool2d and MaxPool against references computed here in double by the
// pooling definitions (PyTorch's avg_pool2d divisor: the window clipped to
// the padded input, or to the input without countIncludePad, or
// divisorOverride): every A2 dtype, 3-D and 4-D self, each list length,
// ceilMode, asymmetric pads, strided and offset views, empty tensors, the
// cubeMathType rules of CANN's A2 graph, and every error path with its code
// and message (pooling/avg_pool3_d/op_api/aclnn_avgpool2d.cpp and
// pooling/max_pool_v3/op_api/aclnn_max_pool.cpp in hicann/ops-nn).
#include <cmath>
#include <limits>
#include <vector>

#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

/// One pooled axis: input size, kernel, stride, pads, output size.
struct Axis {
    int64_t in, kernel, stride, padBefore, padAfter, out;
};

enum class Pool { kAvg, kMax };

struct PoolCase {
    Pool pool;
    Axis h, w;
    bool countIncludePad = true;
    int64_t divisor = 0;
};

/// The reference pooling of x ([planes, H, W] row-major) in double.
std::vector<double> pooled(const std::vector<double>& x, int64_t planes, const PoolCase& c) {
    std::vector<double> out;
    for (int64_t p = 0; p < planes; ++p) {
        for (int64_t oh = 0; oh < c.h.out; ++oh) {
            for (int64_t ow = 0; ow < c.w.out; ++ow) {
                const int64_t h0 = oh * c.h.stride - c.h.padBefore, w0 = ow * c.w.stride - c.w.padBefore;
                const int64_t h1 = std::min(h0 + c.h.kernel, c.h.in + c.h.padAfter);
                const int64_t w1 = std::min(w0 + c.w.kernel, c.w.in + c.w.padAfter);
                const double padded = double((h1 - h0) * (w1 - w0));
                double sum = 0, best = -std::numeric_limits<double>::infinity();
                int64_t count = 0;
                for (int64_t h = std::max<int64_t>(h0, 0); h < std::min(h0 + c.h.kernel, c.h.in); ++h) {
                    for (int64_t w = std::max<int64_t>(w0, 0); w < std::min(w0 + c.w.kernel, c.w.in); ++w) {
                        const double v = x[size_t((p * c.h.in + h) * c.w.in + w)];
                        sum += v;
                        best = std::max(best, v);
                        ++count;
                    }
                }
                const double divisor = c.divisor != 0 ? double(c.divisor) : c.countIncludePad ? padded : double(count);
                out.push_back(c.pool == Pool::kMax ? best : sum / divisor);
            }
        }
    }
    return out;
}

TensorSpec spec_of(Shape shape, aclDataType dtype, aclFormat format, Shape strides = {}, int64_t offset = 0) {
    TensorSpec spec(std::move(shape), dtype, std::move(strides), offset);
    spec.format = format;
    return spec;
}

class PoolingOps : public AclTest {
protected:
    aclnnStatus avg_pool(const DeviceTensor& self, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
                         const std::vector<int64_t>& p, bool ceil, bool countIncludePad, int64_t divisor,
                         int8_t cubeMathType, DeviceTensor& out) {
        IntArray kernel(k), stride(s), padding(p);
        return run_aclnn(stream_, aclnnAvgPool2dGetWorkspaceSize, aclnnAvgPool2d, self.get(), kernel.get(),
                         stride.get(), padding.get(), ceil, countIncludePad, divisor, cubeMathType, out.get());
    }
    aclnnStatus max_pool(const DeviceTensor& self, const std::vector<int64_t>& k, const std::vector<int64_t>& s,
                         const std::vector<int64_t>& p, int64_t ceil, DeviceTensor& out,
                         const std::vector<int64_t>& d = {1, 1}, int64_t autoPad = 0) {
        IntArray kernel(k), stride(s), pads(p), dilations(d);
        return run_aclnn(stream_, aclnnMaxPoolGetWorkspaceSize, aclnnMaxPool, self.get(), kernel.get(),
                         stride.get(), autoPad, pads.get(), dilations.get(), ceil, out.get());
    }

    /// Runs a pool on random values of selfSpec into outSpec and compares
    /// with the reference; `launch` runs the operator.
    template <class Launch>
    void check(const TensorSpec& selfSpec, const TensorSpec& outSpec, const PoolCase& c, const Launch& launch,
               bool roundThroughHalf = false) {
        const int64_t planes = numel(selfSpec.shape) / (c.h.in * c.w.in);
        std::vector<double> x = representable(uniform(size_t(numel(selfSpec.shape)), -4, 4, 7), selfSpec.dtype);
        const DeviceTensor self(selfSpec, x);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(launch(self, *out), ACLNN_SUCCESS);
        if (roundThroughHalf) x = representable(x, ACL_FLOAT16);
        std::vector<double> expected = pooled(x, planes, c);
        Tolerance tol = tolerance_for(roundThroughHalf ? ACL_FLOAT16 : outSpec.dtype);
        // A window's fp32 sum of values in [-4, 4] may cancel to near 0: its
        // rounding error is relative to the terms, not to the result.
        tol.atol = std::max(tol.atol, 1e-5);
        expect_close(out->read(), expected, tol);
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

constexpr aclDataType kAvgDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr aclDataType kMaxDtypes[] = {ACL_FLOAT, ACL_FLOAT16};

TEST_F(PoolingOps, AvgPool2dParameterClassesInEveryDtype) {
    struct Avg {
        const char* why;
        std::vector<int64_t> k, s, p;
        bool ceil, include;
        int64_t divisor;
        Axis h, w;
    };
    const std::vector<Avg> cases = {
        {"2x2 stride 2", {2, 2}, {2, 2}, {0, 0}, false, true, 0, {6, 2, 2, 0, 0, 3}, {8, 2, 2, 0, 0, 4}},
        {"one-value lists, padding counted", {3}, {2}, {1}, false, true, 0, {7, 3, 2, 1, 1, 4}, {5, 3, 2, 1, 1, 3}},
        {"padding not counted", {3, 3}, {2, 1}, {1, 1}, false, false, 0, {7, 3, 2, 1, 1, 4}, {5, 3, 1, 1, 1, 5}},
        {"empty stride = kernel", {2, 3}, {}, {0, 1}, false, true, 0, {6, 2, 2, 0, 0, 3}, {7, 3, 3, 1, 1, 3}},
        {"ceilMode", {3, 3}, {2, 2}, {0, 1}, true, true, 0, {6, 3, 2, 0, 0, 3}, {6, 3, 2, 1, 1, 4}},
        {"ceilMode without padding counted", {3, 2}, {2, 2}, {1, 1}, true, false, 0, {6, 3, 2, 1, 1, 4}, {5, 2, 2, 1, 1, 3}},
        {"divisorOverride", {3, 3}, {1, 1}, {1, 1}, false, false, 5, {4, 3, 1, 1, 1, 4}, {4, 3, 1, 1, 1, 4}},
        {"negative divisorOverride", {2, 2}, {1, 1}, {0, 0}, false, true, -3, {3, 2, 1, 0, 0, 2}, {3, 2, 1, 0, 0, 2}},
        {"global pool", {5, 4}, {1, 1}, {0, 0}, false, true, 0, {5, 5, 1, 0, 0, 1}, {4, 4, 1, 0, 0, 1}},
        {"long strip (AvgPool3D graph)", {1, 3}, {1, 2}, {0, 1}, false, true, 0, {2, 1, 1, 0, 0, 2}, {9, 3, 2, 1, 1, 5}},
    };
    for (aclDataType dtype : kAvgDtypes) {
        for (const Avg& a : cases) {
            SCOPED_TRACE(name(dtype) + " " + a.why);
            const PoolCase c{Pool::kAvg, a.h, a.w, a.include, a.divisor};
            check(spec_of({2, 3, a.h.in, a.w.in}, dtype, ACL_FORMAT_NCHW),
                  spec_of({2, 3, a.h.out, a.w.out}, dtype, ACL_FORMAT_NCHW), c,
                  [&](const DeviceTensor& self, DeviceTensor& out) {
                      return avg_pool(self, a.k, a.s, a.p, a.ceil, a.include, a.divisor, 0, out);
                  });
        }
    }
}

TEST_F(PoolingOps, AvgPool2dNclSelfStridedViewsAndEmpty) {
    const PoolCase c{Pool::kAvg, {5, 2, 1, 1, 1, 6}, {6, 3, 2, 1, 1, 3}, false, 0};
    const auto launch = [&](const DeviceTensor& self, DeviceTensor& out) {
        return avg_pool(self, {2, 3}, {1, 2}, {1, 1}, false, false, 0, 0, out);
    };
    check(spec_of({4, 5, 6}, ACL_FLOAT, ACL_FORMAT_NCL), spec_of({4, 6, 3}, ACL_FLOAT, ACL_FORMAT_NCL), c, launch);
    // self a transposed view (W and H swapped in storage), offset; out strided.
    check(spec_of({1, 4, 5, 6}, ACL_FLOAT16, ACL_FORMAT_NCHW, {200, 1, 24, 4}, 3),
          spec_of({1, 4, 6, 3}, ACL_FLOAT16, ACL_FORMAT_NCHW, {100, 25, 4, 1}, 2), c, launch);
    auto out = DeviceTensor::output(spec_of({0, 4, 6, 3}, ACL_FLOAT, ACL_FORMAT_NCHW));
    const DeviceTensor empty(spec_of({0, 4, 5, 6}, ACL_FLOAT, ACL_FORMAT_NCHW));
    EXPECT_EQ(launch(empty, *out), ACLNN_SUCCESS);
}

TEST_F(PoolingOps, ManyBlocks) {
    // 4 x 16 x 64 rows: the rows split over every block.
    const PoolCase avg{Pool::kAvg, {128, 3, 2, 1, 1, 64}, {96, 3, 2, 1, 1, 48}, false, 0};
    check(spec_of({4, 16, 128, 96}, ACL_FLOAT, ACL_FORMAT_NCHW), spec_of({4, 16, 64, 48}, ACL_FLOAT, ACL_FORMAT_NCHW),
          avg, [&](const DeviceTensor& self, DeviceTensor& out) {
              return avg_pool(self, {3, 3}, {2, 2}, {1, 1}, false, false, 0, 0, out);
          });
    const PoolCase max{Pool::kMax, avg.h, avg.w};
    check(spec_of({4, 16, 128, 96}, ACL_FLOAT16, ACL_FORMAT_NCHW),
          spec_of({4, 16, 64, 48}, ACL_FLOAT16, ACL_FORMAT_NCHW), max,
          [&](const DeviceTensor& self, DeviceTensor& out) { return max_pool(self, {3, 3}, {2, 2}, {1, 1}, 0, out); });
}

TEST_F(PoolingOps, AvgPool2dCubeMathTypeFollowsCannsA2Graph) {
    const PoolCase c{Pool::kAvg, {4, 2, 2, 0, 0, 2}, {4, 2, 2, 0, 0, 2}, true, 0};
    const auto selfSpec = spec_of({1, 2, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCHW);
    const auto outSpec = spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_NCHW);
    // The Cube graph rounds a FLOAT self through FLOAT16 with USE_FP16 ...
    check(selfSpec, outSpec, c, [&](const DeviceTensor& self, DeviceTensor& out) {
        return avg_pool(self, {2, 2}, {2, 2}, {0, 0}, false, true, 0, 2, out);
    }, true);
    // ... and refuses ALLOW_FP32_DOWN_PRECISION, USE_HF32 and USE_FP32_ADD.
    const DeviceTensor self(selfSpec, std::vector<double>(32, 1.0));
    auto out = DeviceTensor::output(outSpec);
    for (int8_t type : {1, 3, 4}) {
        expect_error_naming(avg_pool(self, {2, 2}, {2, 2}, {0, 0}, false, true, 0, type, *out),
                            ACLNN_ERR_PARAM_INVALID, "cubeMathType cannot support hf32 in this platform.");
    }
    // The AvgPool3D graph (ceilMode) ignores it; FLOAT16 never converts.
    EXPECT_EQ(avg_pool(self, {2, 2}, {2, 2}, {0, 0}, true, true, 0, 1, *out), ACLNN_SUCCESS);
    const DeviceTensor half(spec_of({1, 2, 4, 4}, ACL_FLOAT16, ACL_FORMAT_NCHW), std::vector<double>(32, 1.0));
    auto halfOut = DeviceTensor::output(spec_of({1, 2, 2, 2}, ACL_FLOAT16, ACL_FORMAT_NCHW));
    EXPECT_EQ(avg_pool(half, {2, 2}, {2, 2}, {0, 0}, false, true, 0, 3, *halfOut), ACLNN_SUCCESS);
    expect_error_naming(avg_pool(half, {2, 2}, {2, 2}, {0, 0}, false, true, 0, 5, *halfOut), ACLNN_ERR_PARAM_INVALID,
                        "but got 5");
}

TEST_F(PoolingOps, AvgPool2dErrorPaths) {
    const DeviceTensor self(spec_of({1, 2, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCHW), std::vector<double>(32, 1.0));
    auto out = DeviceTensor::output(spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_NCHW));
    IntArray k({2, 2}), s({2, 2}), p({0, 0});
    expect_each_null_is_161001_naming(aclnnAvgPool2dGetWorkspaceSize, {"self", "kernel", "stride", "padding", "out"},
                                      static_cast<const aclTensor*>(self.get()), static_cast<const aclIntArray*>(k.get()),
                                      static_cast<const aclIntArray*>(s.get()), static_cast<const aclIntArray*>(p.get()),
                                      false, true, int64_t{0}, int8_t{0}, out->get());
    const auto refused = [&](const TensorSpec& selfSpec, const TensorSpec& outSpec, std::vector<int64_t> kv,
                             std::vector<int64_t> sv, std::vector<int64_t> pv, const std::string& words) {
        SCOPED_TRACE(words);
        const DeviceTensor x(selfSpec);
        auto y = DeviceTensor::output(outSpec);
        IntArray kernel(kv), stride(sv), padding(pv);
        expect_error_naming(phase1_of(aclnnAvgPool2dGetWorkspaceSize, static_cast<const aclTensor*>(x.get()),
                                      static_cast<const aclIntArray*>(kernel.get()),
                                      static_cast<const aclIntArray*>(stride.get()),
                                      static_cast<const aclIntArray*>(padding.get()), false, true, int64_t{0},
                                      int8_t{0}, y->get()),
                            ACLNN_ERR_PARAM_INVALID, words);
    };
    const auto nchw = [](Shape shape, aclDataType dtype = ACL_FLOAT) { return spec_of(shape, dtype, ACL_FORMAT_NCHW); };
    refused(nchw({1, 2, 4, 4}, ACL_DOUBLE), nchw({1, 2, 2, 2}, ACL_DOUBLE), {2, 2}, {2, 2}, {0, 0}, "DT_DOUBLE");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}, ACL_FLOAT16), {2, 2}, {2, 2}, {0, 0}, "DT_FLOAT16");
    refused(spec_of({1, 2, 4, 4}, ACL_FLOAT, ACL_FORMAT_ND), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0, 0},
            "self format should be NCHW or NCL. Actual: self is [ND].");
    refused(nchw({1, 2, 4, 4}), spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_NHWC), {2, 2}, {2, 2}, {0, 0},
            "out format should be NCHW or NCL. Actual: out is [NHWC].");
    refused(spec_of({1, 2, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCL), spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_NCL), {2, 2},
            {2, 2}, {0, 0}, "self and out should all be NCHW when 4D. Actual: self [NCL], out [NCL].");
    refused(nchw({2, 4, 4}), nchw({2, 2, 2}), {2, 2}, {2, 2}, {0, 0},
            "self and out should all be NCL when 3D. Actual: self [NCHW], out [NCHW].");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 0}, {2, 2}, {0, 0}, "Dim value of kernel is less than or equal to 0.");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {-1}, {0, 0}, "Dim value of stride is less than or equal to 0.");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0, -1}, "Dim value of padding is negtive.");
    refused(nchw({1, 2, 4, 4, 1}), nchw({1, 2, 2, 2, 1}), {2, 2}, {2, 2}, {0, 0},
            "self and out must maintain same format, support 3D or 4D.");
    refused(nchw({1, 0, 4, 4}), nchw({1, 0, 2, 2}), {2, 2}, {2, 2}, {0, 0},
            "Expected tensor with optional 0 dim batch size for input, but got: [1,0,4,4].");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {}, {2, 2}, {0, 0}, "Length of kernel is less than 1.");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0, 0, 0}, "Expected length of padding is 1 or 2, but got 3.");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2, 2}, {0, 0},
            "Expected length of stride is 0 or 1 or 2, but got: 3.");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {2, 0},
            "value of paddingH should be at most half of kernelH. Actual: paddingH is [2],kernelH is [2].");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 3}, {2, 2}, {1, 2},
            "value of paddingW should be at most half of kernelW. Actual: paddingW is [2],kernelW is [3].");
    // Twice a wild padding overflowed int64 (UBSan; found by fuzz_window).
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {int64_t{8043068294669795083}, 0},
            "paddingH is [8043068294669795083]");
    refused(nchw({1, 2, 1, 4}), nchw({1, 2, 1, 2}), {3, 2}, {2, 2}, {0, 0}, "Given input size 2x1x4, calc out size 2x0x2");
    refused(nchw({1, 2, 4, 4}), nchw({1, 2, 3, 2}), {2, 2}, {2, 2}, {0, 0}, "[1,2,3,2]");
}

TEST_F(PoolingOps, AvgPool2dTruncatesTheOutputSizeAsCannDoes) {
    // PoolingOutShape divides with C++ truncation: (2 - 4) / 4 + 1 = 1 where
    // floor division gives 0 -- one window, past the input's end, accepted.
    const DeviceTensor self(spec_of({1, 1, 2, 2}, ACL_FLOAT, ACL_FORMAT_NCHW), std::vector<double>(4, 1.0));
    auto out = DeviceTensor::output(spec_of({1, 1, 1, 1}, ACL_FLOAT, ACL_FORMAT_NCHW));
    EXPECT_EQ(avg_pool(self, {4, 4}, {4, 4}, {0, 0}, false, false, 0, 0, *out), ACLNN_SUCCESS);
    EXPECT_EQ(out->read(), std::vector<double>{1.0});
}

TEST_F(PoolingOps, MaxPoolParameterClassesInEveryDtype) {
    struct Max {
        const char* why;
        std::vector<int64_t> k, s, p;
        int64_t ceil;
        Axis h, w;
        std::vector<int64_t> d = {1, 1};
    };
    const std::vector<Max> cases = {
        {"2x2 stride 2", {2, 2}, {2, 2}, {0, 0}, 0, {6, 2, 2, 0, 0, 3}, {8, 2, 2, 0, 0, 4}},
        {"one-value lists", {3}, {2}, {1}, 0, {7, 3, 2, 1, 1, 4}, {5, 3, 2, 1, 1, 3}, {1}},
        {"empty strides = 1, empty pads, empty dilations", {2, 3}, {}, {}, 0, {4, 2, 1, 0, 0, 3}, {5, 3, 1, 0, 0, 3}, {}},
        {"four pads [top, left, bottom, right]", {3, 3}, {2, 2}, {1, 0, 2, 1}, 0, {6, 3, 2, 1, 2, 4}, {6, 3, 2, 0, 1, 3},
         {1, 1, 1, 1}},
        {"ceilMode", {3, 3}, {2, 2}, {0, 1}, 1, {6, 3, 2, 0, 0, 3}, {6, 3, 2, 1, 1, 4}},
        {"negative pads", {3, 3}, {1, 1}, {-1, 0}, 0, {6, 3, 1, -1, -1, 2}, {4, 3, 1, 0, 0, 2}},
    };
    for (aclDataType dtype : kMaxDtypes) {
        for (const Max& m : cases) {
            SCOPED_TRACE(name(dtype) + " " + m.why);
            const PoolCase c{Pool::kMax, m.h, m.w};
            check(spec_of({2, 3, m.h.in, m.w.in}, dtype, ACL_FORMAT_NCHW),
                  spec_of({2, 3, m.h.out, m.w.out}, dtype, ACL_FORMAT_NCHW), c,
                  [&](const DeviceTensor& self, DeviceTensor& out) { return max_pool(self, m.k, m.s, m.p, m.ceil, out, m.d); });
        }
    }
}

TEST_F(PoolingOps, MaxPoolChwSelfStridedViewsAndEmpty) {
    const PoolCase c{Pool::kMax, {5, 2, 1, 1, 1, 6}, {6, 3, 2, 1, 1, 3}};
    const auto launch = [&](const DeviceTensor& self, DeviceTensor& out) { return max_pool(self, {2, 3}, {1, 2}, {1}, 0, out); };
    check(spec_of({4, 5, 6}, ACL_FLOAT, ACL_FORMAT_ND), spec_of({4, 6, 3}, ACL_FLOAT, ACL_FORMAT_ND), c, launch);
    check(spec_of({1, 4, 5, 6}, ACL_FLOAT16, ACL_FORMAT_NCHW, {200, 1, 24, 4}, 3),
          spec_of({1, 4, 6, 3}, ACL_FLOAT16, ACL_FORMAT_NCHW, {100, 25, 4, 1}, 2), c, launch);
    const DeviceTensor empty(spec_of({0, 4, 5, 6}, ACL_FLOAT, ACL_FORMAT_NCHW));
    auto out = DeviceTensor::output(spec_of({0, 4, 6, 3}, ACL_FLOAT, ACL_FORMAT_NCHW));
    EXPECT_EQ(launch(empty, *out), ACLNN_SUCCESS);
}

TEST_F(PoolingOps, MaxPoolErrorPaths) {
    const DeviceTensor self(spec_of({1, 2, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCHW), std::vector<double>(32, 1.0));
    auto out = DeviceTensor::output(spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_NCHW));
    IntArray k({2, 2}), s({2, 2}), p({0, 0}), d({1, 1});
    expect_each_null_is_161001_naming(
        aclnnMaxPoolGetWorkspaceSize, {"self", "kernelShape", "strides", "pads", "dilations", "out"},
        static_cast<const aclTensor*>(self.get()), static_cast<const aclIntArray*>(k.get()),
        static_cast<const aclIntArray*>(s.get()), int64_t{0}, static_cast<const aclIntArray*>(p.get()),
        static_cast<const aclIntArray*>(d.get()), int64_t{0}, out->get());
    struct Refused {
        TensorSpec self, out;
        std::vector<int64_t> k, s, p, d;
        int64_t autoPad;
        std::string words;
    };
    const auto nchw = [](Shape shape, aclDataType dtype = ACL_FLOAT) { return spec_of(shape, dtype, ACL_FORMAT_NCHW); };
    const std::vector<Refused> cases = {
        {nchw({1, 2, 4, 4}, ACL_BF16), nchw({1, 2, 2, 2}, ACL_BF16), {2, 2}, {2, 2}, {0}, {1}, 0, "DT_BF16"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}, ACL_FLOAT16), {2, 2}, {2, 2}, {0}, {1}, 0, "DT_FLOAT16"},
        {nchw({1, 2, 4, 4}), spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_ND), {2, 2}, {2, 2}, {0}, {1}, 0,
         "Format of input and output should be same, self [NCHW], out [ND]."},
        {spec_of({1, 2, 4, 4}, ACL_FLOAT, ACL_FORMAT_NC1HWC0), spec_of({1, 2, 2, 2}, ACL_FLOAT, ACL_FORMAT_NC1HWC0),
         {2, 2}, {2, 2}, {0}, {1}, 0, "Format only support NCHW or CHW"},
        {nchw({2, 4, 4, 1, 1}), nchw({2, 2, 2, 1, 1}), {2, 2}, {2, 2}, {0}, {1}, 0, "3D or 4D tensor expected for inputs"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2, 2}, {2, 2}, {0}, {1}, 0,
         "The size of kernelShape must be one or two, but got 3."},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2, 2}, {0}, {1}, 0,
         "The size of strides must be zero, one or two, but got 3."},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0, 0, 0}, {1}, 0,
         "The size of pads must be zero, one, two or four, but got 3."},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0}, {1, 1, 1}, 0,
         "The size of dilations must be zero, one, two or four, but got 3."},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0}, {1}, 1,
         "value of autoPad must be zero representing NOTSET, but got autoPad:1"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {0}, {1, 2}, 0,
         "dilation value along each spatial axis only support 1, but got 1, 2"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 0}, {2, 2}, {0}, {1}, 0,
         "The size of kernel should be greater than 0, but got kh:2, kw:0"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {0}, {0}, {1}, 0,
         "The size of strides should be greater than 0, but got dh:0, dw:0"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 2}), {2, 2}, {2, 2}, {2, 0, 1, 0}, {1}, 0,
         "but got kh:2, kw:2, padHL:2, padHR:1, padWL:0, padWR:0"},
        {nchw({1, 0, 4, 4}), nchw({1, 0, 2, 2}), {2, 2}, {2, 2}, {0}, {1}, 0, "but got nInputPlane:0, height:4, width:4"},
        {nchw({1, 2, 1, 4}), nchw({1, 2, 0, 2}), {2, 2}, {2, 2}, {0}, {1}, 0, "Given input size 2x1x4, calc out size 2x0x2"},
        {nchw({1, 2, 4, 4}), nchw({1, 2, 2, 3}), {2, 2}, {2, 2}, {0}, {1}, 0, "[1,2,2,3]"},
    };
    expect_each_refused_naming(cases, [](const Refused& c) {
        const DeviceTensor x(c.self);
        auto y = DeviceTensor::output(c.out);
        return phase1_of(aclnnMaxPoolGetWorkspaceSize, x.get(), IntArray(c.k).get(), IntArray(c.s).get(), c.autoPad,
                         IntArray(c.p).get(), IntArray(c.d).get(), int64_t{0}, y->get());
    });
}

}  // namespace
