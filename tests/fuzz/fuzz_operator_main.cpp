// The libFuzzer entry point of every operator's fuzz target: one input is
// one OperatorCall, whose arguments the operator's fuzz_operator() decodes.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    aclcpu::fuzz::Decoder in(data, size);
    aclcpu::fuzz::OperatorCall call(in);
    aclcpu::fuzz::fuzz_operator(in, call);
    return 0;
}
