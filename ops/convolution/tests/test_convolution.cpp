// Convolution against references computed here in double from the direct
// formulas -- forward: y[n, co, o] = b[co] + sum over the group's ci and the
// taps k of x[n, ci, o * s - p + k * d] * w[co, ci, k]; transposed: each
// x[n, ci, i] * w[ci, co, k] added into y[n, co, i * s - p + k * d] -- over
// 1-D, 2-D and 3-D, transposed with outputPadding, groups and depthwise, stride,
// padding (symmetric and per side), dilation, bias or none, strided and
// offset views, odd sizes, an empty batch, every A2 dtype and cubeMathType,
// bitwise equality for 1, 2 and 8 workers, and every error path with its code
// and message (conv/convolution_forward/op_host/op_api/aclnn_convolution.cpp
// in hicann/ops-nn).
//
// A sum's error is bounded against the sum of its terms' magnitudes: the
// kernel accumulates in fp32 (rtol 1e-5 of that magnitude) and rounds its
// result once to FLOAT16 or BF16 (plus their half ulp of the result).
#include <cmath>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

/// A convolution's parameters, 1-D or 2-D (one value per spatial axis;
/// pads as (before, after) per axis).
struct Conv {
    bool transposed = false;
    std::vector<int64_t> stride, dilation, outputPadding;
    std::vector<std::pair<int64_t, int64_t>> pads;
    int64_t groups = 1;
};

struct Reference {
    Shape shape;
    std::vector<double> y;
    std::vector<double> magnitude;  ///< sum of |term| per element
};

/// The reference of x [N, C, spatial...] and w, with bias b (empty: none).
/// 1-D and 2-D run as 3-D with leading unit axes.
Reference convolve(const std::vector<double>& x, const Shape& xs, const std::vector<double>& w, const Shape& ws,
                   const std::vector<double>& b, const Conv& c) {
    const size_t spatial = xs.size() - 2, lead = 3 - spatial;
    int64_t in[3], k[3], s[3], d[3], pb[3], pa[3], op[3], out[3];
    for (size_t a = 0; a < 3; ++a) {
        const bool unit = a < lead;
        const size_t i = a - lead;
        in[a] = unit ? 1 : xs[2 + i];
        k[a] = unit ? 1 : ws[2 + i];
        s[a] = unit ? 1 : c.stride[i];
        d[a] = unit ? 1 : c.dilation[i];
        pb[a] = unit ? 0 : c.pads[i].first;
        pa[a] = unit ? 0 : c.pads[i].second;
        op[a] = unit || !c.transposed ? 0 : c.outputPadding[i];
        out[a] = c.transposed ? (in[a] - 1) * s[a] - pb[a] - pa[a] + d[a] * (k[a] - 1) + op[a] + 1
                              : (in[a] + pb[a] + pa[a] - d[a] * (k[a] - 1) - 1) / s[a] + 1;
    }
    const int64_t n = xs[0], cin = xs[1], cout = c.transposed ? ws[1] * c.groups : ws[0];
    const int64_t cig = cin / c.groups, cog = cout / c.groups;
    Reference ref;
    ref.shape = {n, cout};
    for (size_t a = lead; a < 3; ++a) ref.shape.push_back(out[a]);
    const int64_t outSize = out[0] * out[1] * out[2], inSize = in[0] * in[1] * in[2], taps = k[0] * k[1] * k[2];
    ref.y.assign(static_cast<size_t>(n * cout * outSize), 0.0);
    ref.magnitude.assign(ref.y.size(), 0.0);
    // Each (input position, tap) pair meets one output position: forward at
    // o * s - p + k * d = i, transposed at o = i * s - p + k * d.
    for (int64_t b0 = 0; b0 < n; ++b0)
        for (int64_t ci = 0; ci < cin; ++ci)
            for (int64_t co = 0; co < cog; ++co)
                for (int64_t ip = 0; ip < inSize; ++ip)
                    for (int64_t t = 0; t < taps; ++t) {
                        const int64_t i3[3] = {ip / (in[1] * in[2]), ip / in[2] % in[1], ip % in[2]};
                        const int64_t k3[3] = {t / (k[1] * k[2]), t / k[2] % k[1], t % k[2]};
                        int64_t o3[3];
                        bool hit = true;
                        for (int a = 0; a < 3; ++a) {
                            if (c.transposed) {
                                o3[a] = i3[a] * s[a] - pb[a] + k3[a] * d[a];
                            } else {
                                const int64_t num = i3[a] + pb[a] - k3[a] * d[a];
                                o3[a] = num >= 0 && num % s[a] == 0 ? num / s[a] : -1;
                            }
                            hit = hit && o3[a] >= 0 && o3[a] < out[a];
                        }
                        if (!hit) continue;
                        const int64_t g = ci / cig, channel = g * cog + co;
                        const double wv = c.transposed ? w[size_t((ci * cog + co) * taps + t)]
                                                       : w[size_t((channel * cig + ci % cig) * taps + t)];
                        const double term = x[size_t((b0 * cin + ci) * inSize + ip)] * wv;
                        const size_t at = size_t((b0 * cout + channel) * outSize + (o3[0] * out[1] + o3[1]) * out[2] + o3[2]);
                        ref.y[at] += term;
                        ref.magnitude[at] += std::fabs(term);
                    }
    if (!b.empty()) {
        for (size_t e = 0; e < ref.y.size(); ++e) {
            const double v = b[e / static_cast<size_t>(outSize) % static_cast<size_t>(cout)];
            ref.y[e] += v;
            ref.magnitude[e] += std::fabs(v);
        }
    }
    return ref;
}

/// got within fp32 accumulation error of the reference (relative to the
/// terms' magnitude), plus half an ulp of resultDtype of the result.
void expect_convolved(const std::vector<double>& got, const Reference& ref, aclDataType resultDtype) {
    ASSERT_EQ(got.size(), ref.y.size());
    // BF16: half a BF16 ulp, and half a FLOAT16 one for a FLOAT16 result cast into it (USE_FP16).
    const double ulp = resultDtype == ACL_FLOAT16 ? 0x1p-11 : resultDtype == ACL_BF16 ? 0x1p-8 + 0x1p-11 : 0x1p-24;
    int reported = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const double bound = 1e-5 * ref.magnitude[i] + ulp * std::fabs(ref.y[i]) + 1e-6;
        if (std::fabs(got[i] - ref.y[i]) <= bound) continue;
        ADD_FAILURE() << "element " << i << ": got " << got[i] << ", expected " << ref.y[i] << " (bound " << bound
                      << ")";
        if (++reported == 10) return;
    }
}

aclFormat format_for(size_t rank) {
    return rank == 3 ? ACL_FORMAT_NCL : rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCDHW;
}

TensorSpec spec(Shape shape, aclDataType dtype, Shape strides = {}, int64_t offset = 0, Shape storage = {}) {
    TensorSpec s(std::move(shape), dtype, std::move(strides), offset, std::move(storage));
    s.format = format_for(s.shape.size());
    return s;
}

/// The padding list as given to aclnnConvolution: one value per axis when
/// symmetric, else (before, after) per axis.
std::vector<int64_t> pad_list(const Conv& c) {
    bool symmetric = true;
    for (const auto& p : c.pads) symmetric = symmetric && p.first == p.second;
    std::vector<int64_t> list;
    for (const auto& p : c.pads) {
        list.push_back(p.first);
        if (!symmetric) list.push_back(p.second);
    }
    return list;
}

class Convolutions : public AclTest {
protected:
    aclnnStatus convolution(const DeviceTensor& x, const DeviceTensor& w, const DeviceTensor* b, const Conv& c,
                            DeviceTensor& y, int8_t cubeMathType) {
        IntArray stride(c.stride), padding(pad_list(c)), dilation(c.dilation),
            outputPadding(c.outputPadding.empty() ? std::vector<int64_t>(c.stride.size(), 0) : c.outputPadding);
        return run_aclnn(stream_, aclnnConvolutionGetWorkspaceSize, aclnnConvolution,
                         static_cast<const aclTensor*>(x.get()), static_cast<const aclTensor*>(w.get()),
                         static_cast<const aclTensor*>(b != nullptr ? b->get() : nullptr),
                         static_cast<const aclIntArray*>(stride.get()), static_cast<const aclIntArray*>(padding.get()),
                         static_cast<const aclIntArray*>(dilation.get()), c.transposed,
                         static_cast<const aclIntArray*>(outputPadding.get()), c.groups, y.get(), cubeMathType);
    }

    /// Runs the convolution of random x and w (and b when withBias) of
    /// the specs' dtypes and checks it against the reference.  Returns the
    /// result.
    std::vector<double> check(const TensorSpec& xSpec, const TensorSpec& wSpec, bool withBias, const Conv& c,
                              aclDataType outDtype, int8_t cubeMathType, aclDataType resultDtype,
                              const TensorSpec* ySpec = nullptr) {
        // Values representable in the cube dtype: the kernel's input rounding is then exact.
        const aclDataType cube = cubeMathType == 2 ? ACL_FLOAT16 : xSpec.dtype == wSpec.dtype ? xSpec.dtype : ACL_FLOAT;
        const auto values = [&](const Shape& s, uint32_t seed, aclDataType dtype) {
            return representable(representable(uniform(size_t(numel(s)), -2, 2, seed), dtype), cube);
        };
        const std::vector<double> x = values(xSpec.shape, 1, xSpec.dtype), w = values(wSpec.shape, 2, wSpec.dtype);
        const int64_t channels = c.transposed ? wSpec.shape[1] * c.groups : wSpec.shape[0];
        const std::vector<double> b =
            withBias ? representable(representable(uniform(size_t(channels), -1, 1, 3), xSpec.dtype), cube)
                     : std::vector<double>{};
        const Reference ref = convolve(x, xSpec.shape, w, wSpec.shape, b, c);
        const DeviceTensor xt(xSpec, x), wt(wSpec, w);
        TensorSpec biasSpec({channels}, xSpec.dtype);
        const DeviceTensor bt(biasSpec, b.empty() ? std::vector<double>(size_t(channels), 0.0) : b);
        auto y = DeviceTensor::output(ySpec != nullptr ? *ySpec : spec(ref.shape, outDtype));
        EXPECT_EQ(convolution(xt, wt, withBias ? &bt : nullptr, c, *y, cubeMathType), ACLNN_SUCCESS);
        const std::vector<double> got = y->read();
        expect_convolved(got, ref, resultDtype);
        EXPECT_EQ(y->bytes_changed_outside_view(), 0u);
        return got;
    }
};

Conv forward(std::vector<int64_t> stride, std::vector<std::pair<int64_t, int64_t>> pads, std::vector<int64_t> dilation,
             int64_t groups = 1) {
    Conv c;
    c.stride = std::move(stride);
    c.pads = std::move(pads);
    c.dilation = std::move(dilation);
    c.groups = groups;
    return c;
}

Conv transposed(std::vector<int64_t> stride, std::vector<std::pair<int64_t, int64_t>> pads,
                std::vector<int64_t> dilation, std::vector<int64_t> outputPadding, int64_t groups = 1) {
    Conv c = forward(std::move(stride), std::move(pads), std::move(dilation), groups);
    c.transposed = true;
    c.outputPadding = std::move(outputPadding);
    return c;
}

TEST_F(Convolutions, Forward1dAnd2dInEveryDtype) {
    struct Case {
        Shape x, w;
        Conv c;
    };
    const std::vector<Case> cases = {
        {{2, 3, 11}, {4, 3, 3}, forward({1}, {{0, 0}}, {1})},
        {{1, 4, 13}, {6, 4, 4}, forward({3}, {{2, 1}}, {2})},
        {{2, 3, 7, 9}, {5, 3, 3, 3}, forward({1, 1}, {{1, 1}, {1, 1}}, {1, 1})},
        {{1, 2, 9, 8}, {3, 2, 2, 3}, forward({2, 3}, {{0, 2}, {1, 0}}, {2, 1})},
        {{3, 5, 6, 5}, {2, 5, 1, 1}, forward({1, 1}, {{0, 0}, {0, 0}}, {1, 1})},
    };
    struct Dtypes {
        aclDataType dtype;
        int8_t cubeMathType;
        aclDataType result;
    };
    for (const Dtypes d : {Dtypes{ACL_FLOAT, 1, ACL_FLOAT}, Dtypes{ACL_FLOAT, 0, ACL_FLOAT},
                           Dtypes{ACL_FLOAT, 3, ACL_FLOAT}, Dtypes{ACL_FLOAT16, 0, ACL_FLOAT16},
                           Dtypes{ACL_BF16, 0, ACL_BF16}, Dtypes{ACL_FLOAT, 2, ACL_FLOAT16},
                           // USE_FP16 on BF16: computed in FLOAT16, then cast into the BF16 y.
                           Dtypes{ACL_BF16, 2, ACL_BF16}}) {
        for (const Case& k : cases) {
            for (const bool bias : {false, true}) {
                SCOPED_TRACE(name(d.dtype) + " cubeMathType " + std::to_string(d.cubeMathType) + " x " +
                             std::to_string(k.x.size()) + "-D bias " + std::to_string(bias));
                check(spec(k.x, d.dtype), spec(k.w, d.dtype), bias, k.c, d.dtype, d.cubeMathType, d.result);
            }
        }
    }
}

TEST_F(Convolutions, TransposedWithOutputPadding) {
    struct Case {
        Shape x, w;
        Conv c;
    };
    const std::vector<Case> cases = {
        {{2, 3, 5}, {3, 4, 3}, transposed({2}, {{0, 0}}, {1}, {1})},
        {{1, 4, 7}, {4, 2, 4}, transposed({3}, {{2, 2}}, {2}, {2})},
        {{1, 2, 10}, {2, 3, 5}, transposed({1}, {{5, 5}}, {1}, {0})},  // padding beyond the kernel span: cropped
        {{2, 3, 4, 5}, {3, 2, 3, 3}, transposed({2, 2}, {{1, 1}, {1, 1}}, {1, 1}, {1, 0})},
        {{1, 2, 5, 3}, {2, 3, 2, 4}, transposed({1, 3}, {{0, 1}, {2, 0}}, {2, 1}, {1, 2})},
    };
    struct Dtypes {
        aclDataType dtype, out;
        int8_t cubeMathType;
        aclDataType result;
    };
    for (const Dtypes d : {Dtypes{ACL_FLOAT, ACL_FLOAT, 1, ACL_FLOAT}, Dtypes{ACL_FLOAT16, ACL_FLOAT16, 0, ACL_FLOAT16},
                           Dtypes{ACL_BF16, ACL_BF16, 0, ACL_BF16}, Dtypes{ACL_FLOAT, ACL_FLOAT, 2, ACL_FLOAT16},
                           // A transposed convolution into a FLOAT output keeps its fp32 result.
                           Dtypes{ACL_FLOAT16, ACL_FLOAT, 0, ACL_FLOAT}}) {
        for (const Case& k : cases) {
            for (const bool bias : {false, true}) {
                SCOPED_TRACE(name(d.dtype) + " -> " + name(d.out) + " cubeMathType " +
                             std::to_string(d.cubeMathType) + " x " + std::to_string(k.x.size()) + "-D bias " +
                             std::to_string(bias));
                check(spec(k.x, d.dtype), spec(k.w, d.dtype), bias, k.c, d.out, d.cubeMathType, d.result);
            }
        }
    }
}

TEST_F(Convolutions, ThreeD) {
    for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        SCOPED_TRACE(name(dtype));
        check(spec({2, 3, 5, 6, 4}, dtype), spec({4, 3, 2, 3, 2}, dtype), true,
              forward({1, 2, 1}, {{1, 1}, {0, 0}, {1, 1}}, {2, 1, 1}), dtype, dtype == ACL_FLOAT ? 1 : 0, dtype);
        check(spec({1, 4, 3, 4, 2}, dtype), spec({4, 3, 2, 2, 3}, dtype), true,
              transposed({2, 1, 2}, {{0, 0}, {1, 1}, {1, 1}}, {1, 1, 1}, {1, 0, 1}, 2), dtype,
              dtype == ACL_FLOAT ? 1 : 0, dtype);
    }
}

TEST_F(Convolutions, GroupedAndDepthwise) {
    // groups 2 and 3; depthwise (groups = channels, a channel multiplier of 2).
    check(spec({2, 6, 9}, ACL_FLOAT), spec({4, 3, 3}, ACL_FLOAT), true, forward({1}, {{1, 1}}, {1}, 2), ACL_FLOAT, 1,
          ACL_FLOAT);
    check(spec({1, 6, 7, 8}, ACL_FLOAT16), spec({9, 2, 3, 2}, ACL_FLOAT16), true,
          forward({2, 1}, {{1, 1}, {0, 0}}, {1, 2}, 3), ACL_FLOAT16, 0, ACL_FLOAT16);
    check(spec({2, 4, 10}, ACL_FLOAT), spec({8, 1, 4}, ACL_FLOAT), false, forward({1}, {{3, 0}}, {1}, 4), ACL_FLOAT, 1,
          ACL_FLOAT);
    check(spec({1, 3, 6, 6}, ACL_BF16), spec({3, 1, 3, 3}, ACL_BF16), true, forward({1, 1}, {{1, 1}, {1, 1}}, {1, 1}, 3),
          ACL_BF16, 0, ACL_BF16);
    // Transposed: the filter [Cin, Cout / groups, k...].
    check(spec({2, 4, 5}, ACL_FLOAT), spec({4, 3, 3}, ACL_FLOAT), true, transposed({2}, {{1, 1}}, {1}, {1}, 2),
          ACL_FLOAT, 1, ACL_FLOAT);
    check(spec({1, 3, 4, 4}, ACL_FLOAT), spec({3, 1, 3, 3}, ACL_FLOAT), false,
          transposed({2, 2}, {{0, 0}, {0, 0}}, {1, 1}, {0, 0}, 3), ACL_FLOAT, 1, ACL_FLOAT);
}

TEST_F(Convolutions, MixedDtypes) {
    // FLOAT16 x with a FLOAT filter computes in FLOAT.
    check(spec({1, 3, 8}, ACL_FLOAT16), spec({2, 3, 3}, ACL_FLOAT), true, forward({1}, {{1, 1}}, {1}), ACL_FLOAT, 1,
          ACL_FLOAT);
    // A forward FLOAT16 convolution into a FLOAT y: rounded to FLOAT16 first (UpdateOutputDtype).
    const std::vector<double> got = check(spec({1, 3, 8}, ACL_FLOAT16), spec({2, 3, 3}, ACL_FLOAT16), false,
                                          forward({1}, {{1, 1}}, {1}), ACL_FLOAT, 0, ACL_FLOAT16);
    for (const double v : got) EXPECT_EQ(v, representable(v, ACL_FLOAT16));
}

TEST_F(Convolutions, StridedAndOffsetViews) {
    // x [2, 3, 5, 6] stored as [H, W, N, C] at offset 7; w [4, 3, 2, 2] stored transposed; y strided.
    const TensorSpec x = spec({2, 3, 5, 6}, ACL_FLOAT, {3, 1, 36, 6}, 7, {7 + 5 * 36});
    const TensorSpec w = spec({4, 3, 2, 2}, ACL_FLOAT, {1, 16, 8, 4}, 0, {48});
    const TensorSpec y = spec({2, 4, 4, 5}, ACL_FLOAT, {200, 50, 10, 2}, 3, {3 + 400});
    check(x, w, true, forward({1, 1}, {{0, 0}, {0, 0}}, {1, 1}), ACL_FLOAT, 1, ACL_FLOAT, &y);
    const TensorSpec x1 = spec({2, 2, 7}, ACL_FLOAT16, {1, 2, 4}, 5, {5 + 28});
    const TensorSpec w1 = spec({2, 3, 3}, ACL_FLOAT16, {3, 1, 6}, 0, {18});
    check(x1, w1, true, transposed({2}, {{1, 1}}, {1}, {1}), ACL_FLOAT16, 0, ACL_FLOAT16);
}

TEST_F(Convolutions, OddAndLargerSizes) {
    // Many GEMM tiles and blocks, odd sizes everywhere.
    check(spec({3, 7, 31, 29}, ACL_FLOAT), spec({5, 7, 3, 5}, ACL_FLOAT), true,
          forward({1, 2}, {{1, 2}, {2, 1}}, {2, 1}), ACL_FLOAT, 1, ACL_FLOAT);
    check(spec({2, 5, 97}, ACL_FLOAT), spec({5, 3, 7}, ACL_FLOAT), true, transposed({3}, {{2, 2}}, {1}, {2}), ACL_FLOAT,
          1, ACL_FLOAT);
}

TEST_F(Convolutions, EmptyBatch) {
    const DeviceTensor x(spec({0, 3, 8}, ACL_FLOAT)), w(spec({2, 3, 3}, ACL_FLOAT));
    auto y = DeviceTensor::output(spec({0, 2, 6}, ACL_FLOAT));
    EXPECT_EQ(convolution(x, w, nullptr, forward({1}, {{0, 0}}, {1}), *y, 1), ACLNN_SUCCESS);
    const DeviceTensor xt(spec({0, 3, 4, 4}, ACL_FLOAT)), wt(spec({3, 2, 2, 2}, ACL_FLOAT));
    auto yt = DeviceTensor::output(spec({0, 2, 8, 8}, ACL_FLOAT));
    EXPECT_EQ(convolution(xt, wt, nullptr, transposed({2, 2}, {{0, 0}, {0, 0}}, {1, 1}, {0, 0}), *yt, 1),
              ACLNN_SUCCESS);
}

// Every output element is one block's dot product: the results are bitwise
// the same for 1, 2 and 8 workers.
TEST_F(Convolutions, BitwiseEqualForAnyWorkerCount) {
    std::vector<std::vector<double>> results;
    for (int threads : {1, 2, 8}) {
        restart_with_worker_threads(threads);
        results.push_back(check(spec({4, 8, 40, 40}, ACL_FLOAT), spec({16, 8, 3, 3}, ACL_FLOAT), true,
                                forward({1, 1}, {{1, 1}, {1, 1}}, {1, 1}), ACL_FLOAT, 1, ACL_FLOAT));
        results.push_back(check(spec({4, 8, 600}, ACL_FLOAT), spec({8, 6, 5}, ACL_FLOAT), true,
                                transposed({2}, {{1, 1}}, {1}, {1}), ACL_FLOAT, 1, ACL_FLOAT));
    }
    for (size_t r = 2; r < results.size(); ++r) {
        ASSERT_EQ(results[r].size(), results[r % 2].size());
        EXPECT_EQ(0, std::memcmp(results[r].data(), results[r % 2].data(), results[r].size() * sizeof(double)));
    }
}

// --- error paths ---------------------------------------------------------------

struct Args {
    TensorSpec x = spec({1, 2, 6}, ACL_FLOAT);
    TensorSpec w = spec({4, 2, 3}, ACL_FLOAT);
    TensorSpec y = spec({1, 4, 4}, ACL_FLOAT);
    bool hasBias = false;
    TensorSpec b = TensorSpec({4}, ACL_FLOAT);
    std::vector<int64_t> stride = {1}, padding = {0}, dilation = {1}, outputPadding = {0};
    bool transposed = false;
    int64_t groups = 1;
    int8_t cubeMathType = 1;
};

/// A transposed 1-d call: x [1, 4, 6] through filter [4, 2, 3] (in 4, out 2)
/// into y [1, 2, length].
Args transposed_1d(int64_t length) {
    Args a;
    a.transposed = true, a.x = spec({1, 4, 6}, ACL_FLOAT), a.y = spec({1, 2, length}, ACL_FLOAT);
    return a;
}

aclnnStatus phase1(const Args& a) {
    const DeviceTensor x(a.x), w(a.w), b(a.b);
    auto y = DeviceTensor::output(a.y);
    IntArray stride(a.stride), padding(a.padding), dilation(a.dilation), outputPadding(a.outputPadding);
    return phase1_of(aclnnConvolutionGetWorkspaceSize, static_cast<const aclTensor*>(x.get()),
                     static_cast<const aclTensor*>(w.get()),
                     static_cast<const aclTensor*>(a.hasBias ? b.get() : nullptr),
                     static_cast<const aclIntArray*>(stride.get()), static_cast<const aclIntArray*>(padding.get()),
                     static_cast<const aclIntArray*>(dilation.get()), a.transposed,
                     static_cast<const aclIntArray*>(outputPadding.get()), a.groups, y->get(), a.cubeMathType);
}

TEST_F(Convolutions, NullArguments) {
    const DeviceTensor x(spec({1, 2, 6}, ACL_FLOAT)), w(spec({4, 2, 3}, ACL_FLOAT));
    auto y = DeviceTensor::output(spec({1, 4, 4}, ACL_FLOAT));
    IntArray one({1}), zero({0});
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const auto expect_null = [](aclnnStatus status, const std::string& name) {
        expect_error_naming(status, ACLNN_ERR_PARAM_NULLPTR,
                            "Parameter " + name +
                                " of aclnnConvolutionGetWorkspaceSize has incorrect value nullptr. It should be not "
                                "nullptr.");
    };
    const auto call = [&](const aclTensor* xp, const aclTensor* wp, const aclIntArray* s, const aclIntArray* p,
                          const aclIntArray* d, bool transposed, aclTensor* yp, uint64_t* sizep,
                          aclOpExecutor** exec) {
        return aclnnConvolutionGetWorkspaceSize(xp, wp, nullptr, s, p, d, transposed, nullptr, 1, yp, 1, sizep, exec);
    };
    expect_null(call(nullptr, w.get(), one.get(), zero.get(), one.get(), false, y->get(), &size, &executor), "x");
    expect_null(call(x.get(), nullptr, one.get(), zero.get(), one.get(), false, y->get(), &size, &executor), "filter");
    expect_null(call(x.get(), w.get(), nullptr, zero.get(), one.get(), false, y->get(), &size, &executor), "strides");
    expect_null(call(x.get(), w.get(), one.get(), nullptr, one.get(), false, y->get(), &size, &executor), "pads");
    expect_null(call(x.get(), w.get(), one.get(), zero.get(), nullptr, false, y->get(), &size, &executor),
                "dilations");
    expect_null(call(x.get(), w.get(), one.get(), zero.get(), one.get(), false, nullptr, &size, &executor), "y");
    expect_null(call(x.get(), w.get(), one.get(), zero.get(), one.get(), false, y->get(), nullptr, &executor),
                "workspaceSize");
    expect_null(call(x.get(), w.get(), one.get(), zero.get(), one.get(), false, y->get(), &size, nullptr),
                "executor");
    // outputPadding is read (and required) only when transposed: a null one is fine otherwise.
    expect_null(call(x.get(), w.get(), one.get(), zero.get(), one.get(), true, y->get(), &size, &executor),
                "outputPadding");
    EXPECT_EQ(phase1_only([&](uint64_t* sizep, aclOpExecutor** exec) {
                  return call(x.get(), w.get(), one.get(), zero.get(), one.get(), false, y->get(), sizep, exec);
              }),
              ACLNN_SUCCESS);
}

TEST_F(Convolutions, RefusedArguments) {
    struct Refused {
        Args args;
        std::string words;
    };
    std::vector<Refused> cases;
    const auto add = [&](const std::string& words, auto edit) {
        Args a;
        edit(a);
        cases.push_back({a, words});
    };
    const std::string entity = " of aclnnConvolutionGetWorkspaceSize ";
    add("Parameter bias" + entity + "has incorrect dtype DT_INT32. It should be one of [DT_FLOAT, DT_FLOAT16, DT_BF16].",
        [](Args& a) { a.hasBias = true, a.b = TensorSpec({4}, ACL_INT32); });
    add("Parameter x" + entity + "has incorrect dtype DT_DOUBLE.", [](Args& a) { a.x.dtype = ACL_DOUBLE; });
    add("Parameter filter" + entity + "has incorrect dtype DT_INT8.", [](Args& a) { a.w.dtype = ACL_INT8; });
    add("Parameter y" + entity + "has incorrect dtype DT_INT64.", [](Args& a) { a.y.dtype = ACL_INT64; });
    add("Parameter x" + entity + "has incorrect shape dim 2. It should be one of {3, 4, 5}.",
        [](Args& a) { a.x = spec({2, 6}, ACL_FLOAT); });
    add("Parameters x, filter" + entity +
            "have incorrect shape dims 3, 4. Reason: the shape dims of x and filter must be the same.",
        [](Args& a) { a.w = spec({4, 2, 3, 1}, ACL_FLOAT); });
    add("Parameters x, y" + entity + "have incorrect shape dims 3, 4. Reason: the shape dims of x and y must be the same.",
        [](Args& a) { a.y = spec({1, 4, 4, 1}, ACL_FLOAT); });
    add("Parameter bias" + entity + "has incorrect shape dim 2. It should be 1.",
        [](Args& a) { a.hasBias = true, a.b = TensorSpec({4, 1}, ACL_FLOAT); });
    add("Parameters bias, filter" + entity +
            "have incorrect shapes [3], [4, 2, 3]. Reason: When transposed is false, shape[0] of bias must be equal to "
            "shape[0] of filter.",
        [](Args& a) { a.hasBias = true, a.b = TensorSpec({3}, ACL_FLOAT); });
    add("When transposed is true, shape[0] of bias must be equal to shape[1] of filter multiplied by attribute "
        "groups(1)",
        [](Args& a) { a = transposed_1d(8), a.hasBias = true; });
    // groups * channels past int64 (fuzz_window found its overflow): never equal, and no wrap.
    add("multiplied by attribute groups(4611686018427387904)",
        [](Args& a) { a = transposed_1d(8), a.hasBias = true, a.groups = int64_t{1} << 62; });
    add("Parameter strides" + entity + "has invalid list size 2. It should be 1.", [](Args& a) { a.stride = {1, 1}; });
    add("Parameter dilations" + entity + "has invalid list size 0. It should be 1.", [](Args& a) { a.dilation = {}; });
    add("Parameter pads" + entity + "has invalid list size 3. It should be 1 or 2.", [](Args& a) { a.padding = {0, 0, 0}; });
    add("Parameter pads" + entity + "has invalid list size 2. It should be 1.",
        [](Args& a) { a = transposed_1d(8), a.padding = {0, 0}; });
    add("Parameter outputPadding" + entity + "has invalid list size 2. It should be 1.",
        [](Args& a) { a = transposed_1d(8), a.outputPadding = {0, 0}; });
    add("Parameters x, y" + entity + "have incorrect formats NCL, ND. Reason: the formats of these parameters must be the same.",
        [](Args& a) { a.y.format = ACL_FORMAT_ND; });
    add("Parameter bias" + entity + "has incorrect format NHWC. It should be one of {NCL, NCHW, NCDHW, ND}.",
        [](Args& a) { a.hasBias = true, a.b.format = ACL_FORMAT_NHWC; });
    add("Parameters x, filter, y" + entity +
            "have incorrect formats NCL, ND, NCL. Reason: formats of x, filter and y should all be NCL.",
        [](Args& a) { a.w.format = ACL_FORMAT_ND; });
    add("Parameter x" + entity + "has incorrect format NHWC. It should be NCHW.", [](Args& a) {
        a.x = spec({1, 2, 6, 6}, ACL_FLOAT), a.w = spec({4, 2, 3, 3}, ACL_FLOAT), a.y = spec({1, 4, 4, 4}, ACL_FLOAT);
        a.x.format = a.y.format = ACL_FORMAT_NHWC, a.stride = a.dilation = {1, 1}, a.padding = {0, 0};
    });
    add("Parameter filter" + entity + "has incorrect shape [4, 2, 0]. Reason: shape[2] of filter must be greater than 0.",
        [](Args& a) { a.w = spec({4, 2, 0}, ACL_FLOAT); });
    add("Parameter strides" + entity + "has incorrect shape [0]. Reason: shape[0] of this parameter must be greater than 0.",
        [](Args& a) { a.stride = {0}; });
    add("Parameter dilations" + entity + "has incorrect shape [-1].", [](Args& a) { a.dilation = {-1}; });
    add("Parameter x" + entity +
            "has incorrect shape [1, 2, 6]. Reason: These parameters must meet the following condition: x[2] + pads[0] "
            "- dilations[0] * (filter[2] - 1) - 1 >= 0.",
        [](Args& a) { a.dilation = {4}; });
    add("Parameter groups" + entity + "has incorrect value 0. Reason: the value should be greater than 0.",
        [](Args& a) { a.groups = 0; });
    add("Parameters x, filter" + entity +
            "have incorrect shapes [1, 2, 6], [4, 2, 3]. Reason: shape[1] of x must be equal to shape[1] of filter "
            "multiplied by attribute groups(2).",
        [](Args& a) { a.groups = 2; });
    add("shape[0] of filter must be exactly divided by attribute groups(2)", [](Args& a) {
        a.groups = 2, a.x = spec({1, 4, 6}, ACL_FLOAT), a.w = spec({3, 2, 3}, ACL_FLOAT), a.y = spec({1, 3, 4}, ACL_FLOAT);
    });
    add("When transposed is true, shape[0] of filter must be equal to shape[1] of x",
        [](Args& a) { a = transposed_1d(8), a.x = spec({1, 3, 6}, ACL_FLOAT); });
    add("Parameters outputPadding, strides, dilations" + entity +
            "have incorrect values [2], [2], [1]. Reason: outputPadding[0] must be less than both stride[0] and "
            "dilation[0].",
        [](Args& a) { a = transposed_1d(15), a.stride = {2}, a.outputPadding = {2}; });
    add("Parameter outputPadding" + entity +
            "has incorrect value -1. Reason: outputPadding[0] must be greater than or equal to 0.",
        [](Args& a) { a = transposed_1d(7), a.outputPadding = {-1}; });
    add("Parameters filter, dilations, pads" + entity +
            "have incorrect shapes [4, 2, 3], [200], [0]. Reason: These parameters must meet the following condition: "
            "(filter[2] - 1) * dilations[0] - pads[0] <= 255.",
        [](Args& a) { a = transposed_1d(406), a.dilation = {200}, a.outputPadding = {0}; });
    add("Parameter y" + entity + "has incorrect shape [1, 4, 5]. Reason: shape[2] of y must be equal to its inferred "
            "value(4).",
        [](Args& a) { a.y = spec({1, 4, 5}, ACL_FLOAT); });
    add("if x or filter is an empty tensor, output must be an empty tensor.", [](Args& a) {
        a.x = spec({1, 0, 6}, ACL_FLOAT), a.w = spec({4, 0, 3}, ACL_FLOAT);
    });
    add("The value of cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: USE_FP16, 3: "
        "USE_HF32, 4: USE_FP32_ADD}, but got 5",
        [](Args& a) { a.cubeMathType = 5; });
    add("acl-cpu reads a 3-D convolution's x, filter and y in format NCDHW only, not NDHWC.", [](Args& a) {
        a.x = spec({1, 2, 4, 4, 4}, ACL_FLOAT), a.w = spec({4, 2, 1, 1, 1}, ACL_FLOAT);
        a.y = spec({1, 4, 4, 4, 4}, ACL_FLOAT);
        a.x.format = a.y.format = ACL_FORMAT_NDHWC, a.stride = a.dilation = {1, 1, 1}, a.padding = {0, 0, 0};
    });
    add("Parameters filter, dilations, pads" + entity +
            "have incorrect shapes [2, 2, 2, 2, 2], [1, 1, 1], [0, 0, 2]. Reason: These parameters must meet the "
            "following condition: 0 <= (filter[4] - 1) * dilations[2] - pads[2] <= 255 and 0 <= (filter[3] - 1) * "
            "dilations[1] - pads[1] <= 255.",
        [](Args& a) {
            a.transposed = true, a.x = spec({1, 2, 4, 4, 4}, ACL_FLOAT), a.w = spec({2, 2, 2, 2, 2}, ACL_FLOAT);
            a.y = spec({1, 2, 5, 5, 1}, ACL_FLOAT), a.stride = a.dilation = {1, 1, 1}, a.padding = {0, 0, 2};
            a.outputPadding = {0, 0, 0};
        });
    add("acl-cpu reads filter in format NCHW only; FRACTAL_Z is the NPU's private layout.", [](Args& a) {
        a.x = spec({1, 2, 6, 6}, ACL_FLOAT), a.w = spec({4, 2, 3, 3}, ACL_FLOAT), a.y = spec({1, 4, 4, 4}, ACL_FLOAT);
        a.w.format = ACL_FORMAT_FRACTAL_Z, a.stride = a.dilation = {1, 1}, a.padding = {0, 0};
    });
    add("Parameter pads" + entity + "has incorrect value [-1]. It should be greater than or equal to 0.",
        [](Args& a) { a.padding = {-1}, a.y = spec({1, 4, 2}, ACL_FLOAT); });
    expect_each_refused_naming(cases, [](const Refused& c) { return phase1(c.args); });
}

TEST_F(Convolutions, EmptyOutputsAreAccepted) {
    Args a;
    a.x = spec({0, 2, 6}, ACL_FLOAT), a.y = spec({0, 4, 4}, ACL_FLOAT);
    EXPECT_EQ(phase1(a), ACLNN_SUCCESS);
}

}  // namespace
