// Fuzzes aclCreateScalar with every dtype code and any value, then hands the
// scalar to the operators that read one (SoftplusBackward's beta and
// threshold, HardshrinkBackward's lambd) over small valid tensors, phase 2
// included.  Beyond the shared invariant it checks CANN's contract: a null
// value is refused, and every dtype CANN's aclScalar converts is accepted.
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "fuzz_support.hpp"

using namespace aclcpu::fuzz;

namespace {

/// The dtypes CANN's aclCreateScalar copies and converts.
bool is_convertible(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT: case ACL_FLOAT16: case ACL_BF16: case ACL_DOUBLE: case ACL_BOOL: case ACL_INT8:
        case ACL_INT16: case ACL_INT32: case ACL_INT64: case ACL_UINT8: case ACL_UINT16: case ACL_UINT32:
        case ACL_UINT64: case ACL_COMPLEX64: case ACL_COMPLEX128:
            return true;
        default:
            return false;
    }
}

constexpr aclDataType kTensorDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Decoder in(data, size);
    const ScalarSpec spec = in.scalar();
    const Scalar scalar(spec);
    if (spec.kind == ScalarSpec::Kind::nullValue && scalar.get() != nullptr) fail("aclCreateScalar took a null value");
    if (spec.kind == ScalarSpec::Kind::value && is_convertible(spec.dtype) && scalar.get() == nullptr) {
        fail("aclCreateScalar refused dtype %d", spec.dtype);
    }

    const bool softplus = in.bit();
    const aclDataType dtype = kTensorDtypes[in.byte() % 3];
    const TensorSpec tensor = TensorSpec::contiguous({2, 3}, dtype);
    OperatorCall call(in);
    const aclTensor* gradOutput = call.input(tensor);
    const aclTensor* self = call.input(tensor);
    aclTensor* gradInput = call.output(tensor);
    if (softplus) {
        const Scalar threshold(in.scalar());
        call.run("aclnnSoftplusBackwardGetWorkspaceSize", in,
                 [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                     return aclnnSoftplusBackwardGetWorkspaceSize(gradOutput, self, scalar.get(), threshold.get(),
                                                                  gradInput, workspaceSize, executor);
                 },
                 aclnnSoftplusBackward);
    } else {
        call.run("aclnnHardshrinkBackwardGetWorkspaceSize", in,
                 [&](uint64_t* workspaceSize, aclOpExecutor** executor) {
                     return aclnnHardshrinkBackwardGetWorkspaceSize(gradOutput, self, scalar.get(), gradInput,
                                                                    workspaceSize, executor);
                 },
                 aclnnHardshrinkBackward);
    }
    return 0;
}
