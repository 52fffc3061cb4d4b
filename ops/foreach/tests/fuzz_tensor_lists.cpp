// Fuzzes the tensor-list engine's operators -- the foreach family and
// ApplyAdamWV2 -- phase 1 and, for small tensors, phase 2.  The first byte
// picks the entry point (0 MulScalarV2, 1 AddcmulScalarV2, 2
// AddcdivScalarV2, 3 Sqrt, 4 LerpScalar, 5 ApplyAdamWV2, 6 MulScalar, 7
// AddcmulScalar, 8 AddcdivScalar, 9 NonFiniteCheckAndUnscale, 10 Norm).
// After it, in this
// order (tests/fuzz/make_seeds.py's tensor_list_seeds() encodes the same):
//   foreach:  count%6 (tensors per list), in-place bit, then per input list
//             a rare (null list) and count tensors -- the first list's as
//             outputs when in place --, then the out list: a rare (null)
//             and count tensors unless in place (out is the first list);
//             then the scalar (MulScalar, Addcmul, Addcdiv, Lerp): an
//             aclScalar, a tensor for the non-V2 forms (6-8).
//   Unscale:  count%6, a rare (null list), count tensors (written in
//             place), foundInf, invScale.
//   Norm:     count%6, a rare (null x) and count tensors, a rare (null
//             out) and count tensors, the order scalar.
//   AdamW:    varRef, mRef, vRef, maxGradNorm-present bit and the tensor,
//             grad, step; lr, beta1, beta2, weightDecay, eps (8-byte
//             doubles, as floats); amsgrad and maximize bits.
#include <memory>
#include <vector>

#include "aclcpu_testkit/tensor_copy.hpp"
#include "aclnnop/aclnn_apply_adam_w_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "fuzz_support.hpp"

namespace {

using aclcpu::fuzz::Decoder;
using aclcpu::fuzz::OperatorCall;

/// An aclTensorList over copies of the call's tensors (a list destroys its
/// tensors), or null; destroys what it made.
class List {
public:
    List(const std::vector<const aclTensor*>& tensors, bool null) {
        for (const aclTensor* tensor : tensors) {
            copies_.push_back(tensor != nullptr ? aclcpu::testkit::copy_tensor(tensor) : nullptr);
        }
        if (!null) list_ = aclCreateTensorList(copies_.data(), copies_.size());
    }
    ~List() {
        if (list_ != nullptr) {
            aclDestroyTensorList(list_);
            return;
        }
        for (const aclTensor* copy : copies_) {
            if (copy != nullptr) aclDestroyTensor(copy);
        }
    }
    List(const List&) = delete;
    List& operator=(const List&) = delete;
    aclTensorList* get() const { return list_; }

private:
    std::vector<const aclTensor*> copies_;
    aclTensorList* list_ = nullptr;
};

void fuzz_foreach(Decoder& in, OperatorCall& call, int entry) {
    static constexpr int kInputLists[] = {1, 3, 3, 1, 2, 0, 1, 3, 3};
    const int count = in.byte() % 6;
    const bool inplace = in.bit();
    std::vector<std::unique_ptr<List>> lists;
    std::vector<const aclTensor*> first;
    for (int k = 0; k < kInputLists[entry]; ++k) {
        const bool null = in.rare();
        std::vector<const aclTensor*> tensors;
        for (int t = 0; t < count; ++t) {
            tensors.push_back(inplace && k == 0 ? call.output(in.tensor()) : call.input(in.tensor()));
        }
        if (k == 0) first = tensors;
        lists.push_back(std::make_unique<List>(tensors, null));
    }
    std::unique_ptr<List> out;
    if (inplace) {
        out = std::make_unique<List>(first, false);
    } else {
        const bool null = in.rare();
        std::vector<const aclTensor*> tensors;
        for (int t = 0; t < count; ++t) tensors.push_back(call.output(in.tensor()));
        out = std::make_unique<List>(tensors, null);
    }
    std::unique_ptr<aclcpu::fuzz::Scalar> scalar;
    const aclTensor* deviceScalar = nullptr;
    if (entry >= 6) {
        deviceScalar = call.input(in.tensor());
    } else if (entry != 3) {
        scalar = std::make_unique<aclcpu::fuzz::Scalar>(in.scalar());
    }
    const auto x = [&](int k) { return static_cast<const aclTensorList*>(lists[k]->get()); };
    switch (entry) {
        case 0: return call.run(ACLCPU_FUZZ_API(aclnnForeachMulScalarV2), in, x(0), scalar->get(), out->get());
        case 1:
            return call.run(ACLCPU_FUZZ_API(aclnnForeachAddcmulScalarV2), in, x(0), x(1), x(2), scalar->get(),
                            out->get());
        case 2:
            return call.run(ACLCPU_FUZZ_API(aclnnForeachAddcdivScalarV2), in, x(0), x(1), x(2), scalar->get(),
                            out->get());
        case 3: return call.run(ACLCPU_FUZZ_API(aclnnForeachSqrt), in, x(0), out->get());
        case 6:
            return call.run(ACLCPU_FUZZ_API(aclnnForeachMulScalar), in, x(0), deviceScalar,
                            static_cast<const aclTensorList*>(out->get()));
        case 7:
            return call.run(ACLCPU_FUZZ_API(aclnnForeachAddcmulScalar), in, x(0), x(1), x(2), deviceScalar,
                            static_cast<const aclTensorList*>(out->get()));
        case 8:
            return call.run(ACLCPU_FUZZ_API(aclnnForeachAddcdivScalar), in, x(0), x(1), x(2), deviceScalar,
                            out->get());
        default: return call.run(ACLCPU_FUZZ_API(aclnnForeachLerpScalar), in, x(0), x(1), scalar->get(), out->get());
    }
}

void fuzz_adam_w(Decoder& in, OperatorCall& call) {
    aclTensor* var = call.output(in.tensor());
    aclTensor* m = call.output(in.tensor());
    aclTensor* v = call.output(in.tensor());
    aclTensor* maxGradNorm = in.bit() ? call.output(in.tensor()) : nullptr;
    const aclTensor* grad = call.input(in.tensor());
    const aclTensor* step = call.input(in.tensor());
    float hyper[5];
    for (float& h : hyper) h = static_cast<float>(in.real());
    const bool amsgrad = in.bit();
    const bool maximize = in.bit();
    call.run(ACLCPU_FUZZ_API(aclnnApplyAdamWV2), in, var, m, v, maxGradNorm, grad, step, hyper[0], hyper[1], hyper[2],
             hyper[3], hyper[4], amsgrad, maximize);
}

void fuzz_unscale(Decoder& in, OperatorCall& call) {
    const int count = in.byte() % 6;
    const bool null = in.rare();
    std::vector<const aclTensor*> grads;
    for (int t = 0; t < count; ++t) grads.push_back(call.output(in.tensor()));
    const List list(grads, null);
    aclTensor* foundInf = call.output(in.tensor());
    const aclTensor* invScale = call.input(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnForeachNonFiniteCheckAndUnscale), in,
             static_cast<const aclTensorList*>(list.get()), static_cast<const aclTensor*>(foundInf), invScale);
}

void fuzz_norm(Decoder& in, OperatorCall& call) {
    const int count = in.byte() % 6;
    const bool nullX = in.rare();
    std::vector<const aclTensor*> x;
    for (int t = 0; t < count; ++t) x.push_back(call.input(in.tensor()));
    const bool nullOut = in.rare();
    std::vector<const aclTensor*> out;
    for (int t = 0; t < count; ++t) out.push_back(call.output(in.tensor()));
    const List xList(x, nullX);
    const List outList(out, nullOut);
    const aclcpu::fuzz::Scalar order(in.scalar());
    call.run(ACLCPU_FUZZ_API(aclnnForeachNorm), in, static_cast<const aclTensorList*>(xList.get()), order.get(),
             static_cast<const aclTensorList*>(outList.get()));
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const int entry = in.byte() % 11;
    if (entry == 5) {
        fuzz_adam_w(in, call);
    } else if (entry == 9) {
        fuzz_unscale(in, call);
    } else if (entry == 10) {
        fuzz_norm(in, call);
    } else {
        fuzz_foreach(in, call, entry);
    }
}
