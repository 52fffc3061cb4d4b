// Fuzzes phase 1 (and, for small tensors, phase 2) of the binary engine
// through every entry point on it: the pow family's and the comparison
// family's.  The first byte picks the entry point (kEntries' order, which
// tests/fuzz/make_seeds.py's BINARY_ENTRIES follows); the tensors follow
// tests/fuzz/fuzz_elementwise.hpp's grammar (pair + out, in-place pair, one +
// out, in-place one), then the scalar operand (in.scalar()), then
// OperatorCall::run's flags.
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "fuzz_elementwise.hpp"

namespace {

using namespace aclcpu::fuzz;
using namespace aclcpu::fuzz::elementwise;


void run_entry(int entry, Decoder& in, OperatorCall& call) {
    switch (entry) {
        case 0: {
            const Tensors t = one_and_out(in, call);
            const Scalar exponent(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnPowTensorScalar), in, t.self, exponent.get(), t.out);
            break;
        }
        case 1: {
            aclTensor* self = inplace_one(in, call);
            const Scalar exponent(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnInplacePowTensorScalar), in, self, exponent.get());
            break;
        }
        case 2: {
            // PowScalarTensor's tensor is its exponent: one_and_out's self role.
            const Tensors t = one_and_out(in, call);
            const Scalar self(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnPowScalarTensor), in, self.get(), t.self, t.out);
            break;
        }
        case 3: {
            const Tensors t = pair_and_out(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnPowTensorTensor), in, t.self, t.other, t.out);
            break;
        }
        case 4: {
            const InplaceTensors t = inplace_pair(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnInplacePowTensorTensor), in, t.selfRef, t.other);
            break;
        }
        case 5: {
            const Tensors t = pair_and_out(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnEqTensor), in, t.self, t.other, t.out);
            break;
        }
        case 6: {
            const InplaceTensors t = inplace_pair(in, call);
            call.run(ACLCPU_FUZZ_API(aclnnInplaceEqTensor), in, t.selfRef, t.other);
            break;
        }
        case 7: {
            const Tensors t = one_and_out(in, call);
            const Scalar other(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnGtScalar), in, t.self, other.get(), t.out);
            break;
        }
        default: {
            aclTensor* selfRef = inplace_one(in, call);
            const Scalar other(in.scalar());
            call.run(ACLCPU_FUZZ_API(aclnnInplaceGtScalar), in, selfRef, other.get());
            break;
        }
    }
}

/// The number of entry points run_entry knows.
constexpr int kEntries = 9;

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) { run_entry(in.byte() % kEntries, in, call); }
