// Im2col against a reference computed here in double from the unfold
// definition (out[n, (c * kH + i) * kW + j, oh * oW + ow] = x[n, c, oh * sH
// - pH + i * dH, ow * sW - pW + j * dW], 0 in the padding): every A2 dtype,
// 3-D and 4-D self, padding, dilation and stride, strided and offset views,
// a cast into a wider out, an empty batch, and every error path with its
// code and message (conversion/im2col/op_api/aclnn_im2col.cpp in
// hicann/ops-math).
#include <vector>

#include "aclnnop/aclnn_im2col.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

struct Unfold {
    int64_t kh, kw, dh, dw, ph, pw, sh, sw;
};

int64_t out_size(int64_t in, int64_t k, int64_t d, int64_t p, int64_t s) { return (in + 2 * p - d * (k - 1) - 1) / s + 1; }

/// The reference columns of x ([N, C, H, W] row-major).
std::vector<double> unfolded(const std::vector<double>& x, int64_t n, int64_t c, int64_t h, int64_t w, const Unfold& u) {
    const int64_t oh = out_size(h, u.kh, u.dh, u.ph, u.sh), ow = out_size(w, u.kw, u.dw, u.pw, u.sw);
    std::vector<double> out;
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t i = 0; i < u.kh; ++i)
                for (int64_t j = 0; j < u.kw; ++j)
                    for (int64_t y = 0; y < oh; ++y)
                        for (int64_t z = 0; z < ow; ++z) {
                            const int64_t hy = y * u.sh - u.ph + i * u.dh, wz = z * u.sw - u.pw + j * u.dw;
                            const bool inside = hy >= 0 && hy < h && wz >= 0 && wz < w;
                            out.push_back(inside ? x[size_t(((b * c + ch) * h + hy) * w + wz)] : 0.0);
                        }
    return out;
}

class Im2colOps : public AclTest {
protected:
    aclnnStatus im2col(const DeviceTensor& self, const Unfold& u, DeviceTensor& out) {
        IntArray k({u.kh, u.kw}), d({u.dh, u.dw}), p({u.ph, u.pw}), s({u.sh, u.sw});
        return run_aclnn(stream_, aclnnIm2colGetWorkspaceSize, aclnnIm2col, self.get(), k.get(), d.get(), p.get(),
                         s.get(), out.get());
    }
    void check(const TensorSpec& selfSpec, const TensorSpec& outSpec, const Unfold& u) {
        const Shape& shape = selfSpec.shape;
        const bool batched = shape.size() == 4;
        const int64_t n = batched ? shape[0] : 1, c = shape[batched ? 1 : 0];
        const int64_t h = shape[batched ? 2 : 1], w = shape[batched ? 3 : 2];
        const std::vector<double> x = representable(uniform(size_t(numel(shape)), -3, 3, 11), selfSpec.dtype);
        const DeviceTensor self(selfSpec, x);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(im2col(self, u, *out), ACLNN_SUCCESS);
        expect_close(out->read(), unfolded(x, n, c, h, w, u), Tolerance{0, 0});
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

TEST_F(Im2colOps, ParameterClassesInEveryDtype) {
    const std::vector<Unfold> cases = {
        {2, 2, 1, 1, 0, 0, 1, 1}, {3, 3, 1, 1, 1, 1, 1, 1}, {3, 2, 2, 1, 1, 0, 2, 1}, {1, 3, 1, 2, 0, 2, 1, 3},
    };
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (const Unfold& u : cases) {
            SCOPED_TRACE(name(dtype) + " kernel " + std::to_string(u.kh) + "x" + std::to_string(u.kw));
            const int64_t l = out_size(6, u.kh, u.dh, u.ph, u.sh) * out_size(7, u.kw, u.dw, u.pw, u.sw);
            check(TensorSpec({2, 3, 6, 7}, dtype), TensorSpec({2, 3 * u.kh * u.kw, l}, dtype), u);
            check(TensorSpec({3, 6, 7}, dtype), TensorSpec({3 * u.kh * u.kw, l}, dtype), u);
        }
    }
}

TEST_F(Im2colOps, StridedViewsAndCastIntoOut) {
    const Unfold u{2, 3, 1, 1, 1, 0, 2, 1};  // out 4 x 3 positions of a 6 x 5 image
    // self transposed (H and W swapped in storage) at an offset; out strided.
    check(TensorSpec({1, 2, 6, 5}, ACL_FLOAT, {64, 1, 2, 12}, 5), TensorSpec({1, 12, 12}, ACL_FLOAT, {300, 20, 1}, 3),
          u);
    check(TensorSpec({2, 6, 5}, ACL_FLOAT16), TensorSpec({12, 12}, ACL_FLOAT), u);
}

TEST_F(Im2colOps, ManyBlocks) {
    // 2 x 8 x 9 x 62 rows of 62 columns: the rows split over every block.
    const Unfold u{3, 3, 1, 1, 0, 0, 1, 1};
    check(TensorSpec({2, 8, 64, 64}, ACL_FLOAT), TensorSpec({2, 72, 62 * 62}, ACL_FLOAT), u);
}

TEST_F(Im2colOps, EmptyBatch) {
    const DeviceTensor self(TensorSpec({0, 2, 6, 5}, ACL_FLOAT));
    auto out = DeviceTensor::output(TensorSpec({0, 8, 20}, ACL_FLOAT));
    EXPECT_EQ(im2col(self, {2, 2, 1, 1, 0, 0, 1, 1}, *out), ACLNN_SUCCESS);
}

TEST_F(Im2colOps, ErrorPaths) {
    const DeviceTensor self(TensorSpec({1, 2, 4, 4}, ACL_FLOAT), std::vector<double>(32, 1.0));
    auto out = DeviceTensor::output(TensorSpec({1, 8, 9}, ACL_FLOAT));
    IntArray k({2, 2}), d({1, 1}), p({0, 0}), s({1, 1});
    expect_each_null_is_161001_naming(aclnnIm2colGetWorkspaceSize,
                                      {"self", "kernelSize", "dilation", "padding", "stride", "out"},
                                      static_cast<const aclTensor*>(self.get()), static_cast<const aclIntArray*>(k.get()),
                                      static_cast<const aclIntArray*>(d.get()), static_cast<const aclIntArray*>(p.get()),
                                      static_cast<const aclIntArray*>(s.get()), static_cast<const aclTensor*>(out->get()));
    struct Refused {
        TensorSpec self, out;
        std::vector<int64_t> k, d, p, s;
        std::string words;
    };
    const std::vector<Refused> cases = {
        {TensorSpec({1, 2, 4, 4}, ACL_DOUBLE), TensorSpec({1, 8, 9}, ACL_DOUBLE), {2, 2}, {1, 1}, {0, 0}, {1, 1}, "DT_DOUBLE"},
        {TensorSpec({2, 4, 4, 1, 1}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2, 2}, {1, 1}, {0, 0}, {1, 1},
         "Expected self dim [5] to be 3 or 4 but check failed."},
        {TensorSpec({1, 0, 4, 4}, ACL_FLOAT), TensorSpec({1, 0, 9}, ACL_FLOAT), {2, 2}, {1, 1}, {0, 0}, {1, 1},
         "self'dims is invalid, self No.[2] dim is [0]."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2}, {1, 1}, {0, 0}, {1, 1},
         "It is expected kernelSize equals to 2, but got size 1."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2, 2}, {1, 1}, {0, 0}, {1, 1, 1},
         "It is expected stride equals to 2, but got size 3."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2, 0}, {1, 1}, {0, 0}, {1, 1},
         "It is expected kernelSize be greater than zero, but kernelSize No.[2] dim is [0]."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2, 2}, {1, 1}, {0, 0}, {0, 1},
         "It is expected stride be greater than zero, but stride No.[1] dim is [0]."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2, 2}, {1, -1}, {0, 0}, {1, 1},
         "It is expected dilation be greater than zero, but dilation No.[2] dim is [-1]."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {2, 2}, {1, 1}, {-1, 0}, {1, 1},
         "It is expected padding be greater than or equal to zero, but padding No.[1] dim is [-1]."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 9}, ACL_FLOAT), {5, 2}, {1, 1}, {0, 0}, {1, 1},
         "The shape (0, 3) of the array calculated by other parameters must be at least one."},
        {TensorSpec({1, 2, 4, 4}, ACL_FLOAT), TensorSpec({1, 8, 8}, ACL_FLOAT), {2, 2}, {1, 1}, {0, 0}, {1, 1},
         "Expect out shape [[1,8,9]], but got: [[1,8,8]]."},
    };
    expect_each_refused_naming(cases, [](const Refused& c) {
        const DeviceTensor x(c.self);
        auto y = DeviceTensor::output(c.out);
        return phase1_of(aclnnIm2colGetWorkspaceSize, x.get(), IntArray(c.k).get(), IntArray(c.d).get(),
                         IntArray(c.p).get(), IntArray(c.s).get(), y->get());
    });
}

}  // namespace
