// UpsampleNearest2d against a reference computed here: out[n, c, y, x] =
// self[n, c, floor(y * inH / outH), floor(x * inW / outW)] in exact
// arithmetic (CANN's kernel computes it in fp32, floorf(y * float(inH) /
// outH); for the sizes below both agree), every A2 dtype, NCHW and NHWC,
// up- and down-sampling, strided and offset views, empty tensors, and every
// error path with its code and message (image/resize_nearest_neighbor_v2/
// op_api/aclnn_upsample_nearest_2d.cpp in hicann/ops-cv).
#include <vector>

#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "ops/dtype_reference.hpp"
#include "ops/op_test_support.hpp"

namespace {

using namespace optest;

TensorSpec spec_of(Shape shape, aclDataType dtype, aclFormat format, Shape strides = {}, int64_t offset = 0) {
    TensorSpec spec(std::move(shape), dtype, std::move(strides), offset);
    spec.format = format;
    return spec;
}

/// The reference of x ([N, C, H, W] row-major values of an NCHW view, or
/// [N, H, W, C] of an NHWC one) resized to oh x ow, in the same layout.
std::vector<double> resized(const std::vector<double>& x, const Shape& shape, bool nhwc, int64_t oh, int64_t ow) {
    const int64_t n = shape[0], c = shape[nhwc ? 3 : 1], h = shape[nhwc ? 1 : 2], w = shape[nhwc ? 2 : 3];
    const auto at = [&](int64_t b, int64_t ch, int64_t y, int64_t z, int64_t hh, int64_t ww) {
        return nhwc ? ((b * hh + y) * ww + z) * c + ch : ((b * c + ch) * hh + y) * ww + z;
    };
    std::vector<double> out(size_t(n * c * oh * ow));
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t z = 0; z < ow; ++z) {
                    const int64_t sy = y * h / oh, sz = z * w / ow;
                    out[size_t(at(b, ch, y, z, oh, ow))] = x[size_t(at(b, ch, sy, sz, h, w))];
                }
    return out;
}

class UpsampleOps : public AclTest {
protected:
    aclnnStatus upsample(const DeviceTensor& self, const std::vector<int64_t>& size, DeviceTensor& out) {
        IntArray outputSize(size);
        return run_aclnn(stream_, aclnnUpsampleNearest2dGetWorkspaceSize, aclnnUpsampleNearest2d, self.get(),
                         outputSize.get(), out.get());
    }
    void check(const TensorSpec& selfSpec, const TensorSpec& outSpec, int64_t oh, int64_t ow) {
        const bool nhwc = selfSpec.format == ACL_FORMAT_NHWC;
        const std::vector<double> x = representable(uniform(size_t(numel(selfSpec.shape)), 0, 200, 5), selfSpec.dtype);
        const DeviceTensor self(selfSpec, x);
        auto out = DeviceTensor::output(outSpec);
        ASSERT_EQ(upsample(self, {oh, ow}, *out), ACLNN_SUCCESS);
        expect_close(out->read(), resized(x, selfSpec.shape, nhwc, oh, ow), Tolerance{0, 0});
        EXPECT_EQ(out->bytes_changed_outside_view(), 0u);
    }
};

TEST_F(UpsampleOps, EveryDtypeBothFormatsUpAndDown) {
    const struct {
        int64_t h, w, oh, ow;
    } sizes[] = {{3, 4, 6, 8}, {4, 6, 9, 7}, {6, 8, 3, 5}, {5, 5, 5, 5}, {1, 3, 4, 1}};
    for (aclDataType dtype : {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_UINT8, ACL_BF16}) {
        for (const auto& s : sizes) {
            SCOPED_TRACE(name(dtype) + " " + std::to_string(s.h) + "x" + std::to_string(s.w) + " -> " +
                         std::to_string(s.oh) + "x" + std::to_string(s.ow));
            check(spec_of({2, 3, s.h, s.w}, dtype, ACL_FORMAT_NCHW), spec_of({2, 3, s.oh, s.ow}, dtype, ACL_FORMAT_NCHW),
                  s.oh, s.ow);
            check(spec_of({2, s.h, s.w, 3}, dtype, ACL_FORMAT_NHWC), spec_of({2, s.oh, s.ow, 3}, dtype, ACL_FORMAT_NHWC),
                  s.oh, s.ow);
        }
    }
}

TEST_F(UpsampleOps, StridedViewsAndEmpty) {
    // self with H and W swapped in storage at an offset; out strided.
    check(spec_of({1, 2, 3, 4}, ACL_FLOAT, ACL_FORMAT_NCHW, {40, 20, 1, 4}, 2),
          spec_of({1, 2, 6, 8}, ACL_FLOAT, ACL_FORMAT_NCHW, {200, 100, 10, 1}, 1), 6, 8);
    const DeviceTensor empty(spec_of({0, 2, 3, 4}, ACL_FLOAT, ACL_FORMAT_NCHW));
    auto out = DeviceTensor::output(spec_of({0, 2, 6, 8}, ACL_FLOAT, ACL_FORMAT_NCHW));
    EXPECT_EQ(upsample(empty, {6, 8}, *out), ACLNN_SUCCESS);
}

TEST_F(UpsampleOps, ErrorPaths) {
    const DeviceTensor self(spec_of({1, 2, 3, 4}, ACL_FLOAT, ACL_FORMAT_NCHW), std::vector<double>(24, 1.0));
    auto out = DeviceTensor::output(spec_of({1, 2, 6, 8}, ACL_FLOAT, ACL_FORMAT_NCHW));
    IntArray size({6, 8});
    expect_each_null_is_161001_naming(aclnnUpsampleNearest2dGetWorkspaceSize, {"self", "outputSize", "out"},
                                      static_cast<const aclTensor*>(self.get()),
                                      static_cast<const aclIntArray*>(size.get()), out->get());
    struct Refused {
        TensorSpec self, out;
        std::vector<int64_t> size;
        std::string words;
    };
    const auto nchw = [](Shape shape, aclDataType dtype = ACL_FLOAT) { return spec_of(shape, dtype, ACL_FORMAT_NCHW); };
    const std::vector<Refused> cases = {
        {nchw({1, 2, 3, 4}, ACL_INT32), nchw({1, 2, 6, 8}, ACL_INT32), {6, 8}, "DT_INT32"},
        {nchw({1, 2, 3, 4}), nchw({1, 2, 6, 8}, ACL_FLOAT16), {6, 8}, "DT_FLOAT16"},
        {nchw({1, 2, 3, 4}), nchw({1, 2, 6, 8}), {6, 8, 1}, "It is expected output size equals to 2, but got size 3."},
        {nchw({2, 3, 4}), nchw({1, 2, 6, 8}), {6, 8}, "It is expected input size equals to 4, but got size 3."},
        {nchw({1, 2, 3, 4}), nchw({1, 2, 6, 8}), {0, 8},
         "Input and output sizes should be greater than 0, but got input (H: 3, W: 4) output (H: 0, W: 8)."},
        {nchw({1, 0, 3, 4}), nchw({1, 0, 6, 8}), {6, 8},
         "Non-empty 4D data tensor expected but got a tensor with size [1,0,3,4]."},
        {spec_of({1, 2, 3, 4}, ACL_FLOAT, ACL_FORMAT_ND), spec_of({1, 2, 6, 8}, ACL_FLOAT, ACL_FORMAT_ND), {6, 8},
         "Do not support this format [ND] of input."},
        {nchw({1, 2, 3, 4}), spec_of({1, 6, 8, 2}, ACL_FLOAT, ACL_FORMAT_NHWC), {6, 8},
         "Format of input and output should be equal, self [NCHW], out [NHWC]."},
        {nchw({1, 2, 3, 4}), nchw({1, 3, 6, 8}), {6, 8}, "The selfDimN[1]/outDimN[1] or selfDimC[2]/outDimC[3] not equal ."},
        {nchw({1, 2, 3, 4}), nchw({1, 2, 6, 7}), {6, 8},
         "Expected output size (H: 6, W: 8), but got output tensor size (H: 6, W: 7)."},
    };
    expect_each_refused_naming(cases, [](const Refused& c) {
        const DeviceTensor x(c.self);
        auto y = DeviceTensor::output(c.out);
        return phase1_of(aclnnUpsampleNearest2dGetWorkspaceSize, x.get(), IntArray(c.size).get(), y->get());
    });
}

}  // namespace
