// Fuzzes phase 1 (and, for small tensors, phase 2) of the reduction engine
// through every entry point of the reduce family, Norm (ops/lp_norm) and
// Argsort (ops/sort), the losses of ops/loss (MseLoss, NLLLoss and their
// gradients, CrossEntropyLoss and its gradient) and BatchNorm
// (ops/batch_norm); the first byte picks the entry point (b % 28):
//   0 ReduceSum:  tensor self, ints dims, bit keepDims, dtype, tensor out
//   1 Mean:       tensor self, ints dim, bit keepDim, dtype, tensor out
//   2 MeanV2:     tensor self, ints dim, bit keepDim, bit noopWithEmptyAxes, tensor out
//   3 Amax, 4 Amin: tensor self, ints dim, bit keepDim, tensor out
//   5 ArgMax:     tensor self, int dim, bit keepdim, tensor out
//   6 Cumsum:     tensor self, int dim, dtype, tensor out
//   7 CumsumV2:   tensor self, int dim, bit exclusive, bit reverse, tensor out
//   8 Prod:       tensor self, dtype, tensor out
//   9 ProdDim:    tensor self, int dim, bit keepDim, dtype, tensor out
//   10 Max, 11 Min: tensor self, tensor out
//   12 MaxDim, 13 MinDim: tensor self, int dim, bit keepdim, tensor out, tensor indices
//   14 Any, 15 All: tensor self, ints dim, bit keepdim, tensor out
//   16 Norm:      tensor self, scalar p, ints dim, bit keepdim, tensor out
//   17 Argsort:   tensor self, int dim, bit descending, tensor out
//   18 MseLoss:   tensor self, tensor target, int reduction, tensor out
//   19 MseLossBackward: tensor gradOutput (the "self" read first), tensor self,
//                 tensor target, int reduction, tensor out
//   20 NLLLoss, 21 NLLLoss2d: tensor self, classes target, tensor weight,
//                 int reduction, int ignoreIndex, tensor out, tensor totalWeightOut
//   22 NLLLossBackward, 23 NLLLoss2dBackward: tensor gradOutput (the "self"
//                 read first), tensor self, classes target, tensor weight,
//                 int reduction, int ignoreIndex, tensor totalWeight, tensor out
//   24 CrossEntropyLoss: tensor input, classes target, tensor weightOptional,
//                 reduction, int ignoreIndex, real labelSmoothing, tensor lossOut,
//                 tensor logProbOut, tensor zlossOut, tensor lseForZlossOut
//   25 CrossEntropyLossGrad: tensor gradLoss (the "self" read first), tensor
//                 logProb, classes target, tensor weightOptional, reduction,
//                 int ignoreIndex, real labelSmoothing, tensor out
//   26 BatchNorm: tensor input, tensor weight, tensor bias, tensor runningMean,
//                 tensor runningVar, bit training, real momentum, real eps,
//                 tensor output, tensor saveMean, tensor saveInvstd
//   27 MseLossOut: as MseLoss
// where reduction is a byte picking "none", "mean", "sum", "max" or null (%5),
// classes is a tensor, a count byte (%8) and that many ints its
// INT32/INT64 storage cycles through (OperatorCall::input), int is
// fuzz_support.hpp's int_of, and ints a count byte (%10) and
// that many ints, then rare(): a null array (its Ints).
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "fuzz_support.hpp"

namespace {

/// The entries taking one int dim: ArgMax, Cumsum, CumsumV2.
void fuzz_one_dim(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry,
                  const aclTensor* self) {
    const int64_t dim = aclcpu::fuzz::int_of(in);
    if (entry == 5) {
        const bool keepdim = in.bit();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnArgMax), in, self, dim, keepdim, out);
    } else if (entry == 6) {
        const aclDataType dtype = in.dtype();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnCumsum), in, self, dim, dtype, out);
    } else {
        const bool exclusive = in.bit();
        const bool reverse = in.bit();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnCumsumV2), in, self, dim, exclusive, reverse, out);
    }
}

/// Prod, ProdDim, Max, Min, MaxDim, MinDim and Argsort (entries 8..13, 17).
void fuzz_more(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry, const aclTensor* self) {
    using aclcpu::fuzz::int_of;
    if (entry == 8) {
        const aclDataType dtype = in.dtype();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnProd), in, self, dtype, out);
    } else if (entry == 9) {
        const int64_t dim = int_of(in);
        const bool keepDim = in.bit();
        const aclDataType dtype = in.dtype();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnProdDim), in, self, dim, keepDim, dtype, out);
    } else if (entry == 10 || entry == 11) {
        aclTensor* out = call.output(in.tensor());
        if (entry == 10) call.run(ACLCPU_FUZZ_API(aclnnMax), in, self, out);
        else call.run(ACLCPU_FUZZ_API(aclnnMin), in, self, out);
    } else if (entry == 12 || entry == 13) {
        const int64_t dim = int_of(in);
        const bool keepdim = in.bit();
        aclTensor* out = call.output(in.tensor());
        aclTensor* indices = call.output(in.tensor());
        if (entry == 12) call.run(ACLCPU_FUZZ_API(aclnnMaxDim), in, self, dim, keepdim, out, indices);
        else call.run(ACLCPU_FUZZ_API(aclnnMinDim), in, self, dim, keepdim, out, indices);
    } else {
        const int64_t dim = int_of(in);
        const bool descending = in.bit();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnArgsort), in, self, dim, descending, out);
    }
}

/// Any, All and Norm (entries 14..16): a dim list.
void fuzz_dim_list(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry,
                   const aclTensor* self) {
    if (entry == 16) {
        const aclcpu::fuzz::Scalar p(in.scalar());
        const aclcpu::fuzz::Ints dims(in);
        const bool keepdim = in.bit();
        aclTensor* out = call.output(in.tensor());
        call.run(ACLCPU_FUZZ_API(aclnnNorm), in, self, p.get(), dims.get(), keepdim, out);
        return;
    }
    const aclcpu::fuzz::Ints dims(in);
    const bool keepdim = in.bit();
    aclTensor* out = call.output(in.tensor());
    if (entry == 14) call.run(ACLCPU_FUZZ_API(aclnnAny), in, self, dims.get(), keepdim, out);
    else call.run(ACLCPU_FUZZ_API(aclnnAll), in, self, dims.get(), keepdim, out);
}

/// MseLoss, MseLossBackward and MseLossOut (entries 18, 19, 27); `first` is
/// self or gradOutput.
void fuzz_mse(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry, const aclTensor* first) {
    const aclTensor* second = call.input(in.tensor());
    if (entry == 18 || entry == 27) {
        const int64_t reduction = aclcpu::fuzz::int_of(in);
        aclTensor* out = call.output(in.tensor());
        if (entry == 18) {
            call.run(ACLCPU_FUZZ_API(aclnnMseLoss), in, first, second, reduction, out);
        } else {
            call.run(ACLCPU_FUZZ_API(aclnnMseLossOut), in, first, second, reduction, out);
        }
        return;
    }
    const aclTensor* target = call.input(in.tensor());
    const int64_t reduction = aclcpu::fuzz::int_of(in);
    aclTensor* out = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnMseLossBackward), in, first, second, target, reduction, out);
}

/// A target of classes the input chooses (see "classes" above).
const aclTensor* classes_of(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call) {
    const aclcpu::fuzz::TensorSpec spec = in.tensor();
    std::vector<int64_t> values(in.byte() % 8);
    for (int64_t& value : values) value = aclcpu::fuzz::int_of(in);
    return call.input(spec, values);
}

/// NLLLoss, NLLLoss2d and their gradients (entries 20-23); `first` is self
/// or gradOutput.
void fuzz_nll(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry, const aclTensor* first) {
    const aclTensor* self = entry >= 22 ? call.input(in.tensor()) : first;
    const aclTensor* target = classes_of(in, call);
    const aclTensor* weight = call.input(in.tensor());
    const int64_t reduction = aclcpu::fuzz::int_of(in);
    const int64_t ignoreIndex = aclcpu::fuzz::int_of(in);
    aclTensor* second = call.output(in.tensor());  // out, or the gradients' totalWeight
    aclTensor* third = call.output(in.tensor());   // totalWeightOut, or the gradients' out
    if (entry == 20) {
        call.run(ACLCPU_FUZZ_API(aclnnNLLLoss), in, self, target, weight, reduction, ignoreIndex, second, third);
    } else if (entry == 21) {
        call.run(ACLCPU_FUZZ_API(aclnnNLLLoss2d), in, self, target, weight, reduction, ignoreIndex, second, third);
    } else if (entry == 22) {
        call.run(ACLCPU_FUZZ_API(aclnnNLLLossBackward), in, first, self, target, weight, reduction, ignoreIndex,
                 second, third);
    } else {
        call.run(ACLCPU_FUZZ_API(aclnnNLLLoss2dBackward), in, first, self, target, weight, reduction, ignoreIndex,
                 second, third);
    }
}

/// CrossEntropyLoss and CrossEntropyLossGrad (entries 24, 25); `first` is
/// input or gradLoss.
void fuzz_cross_entropy(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, uint8_t entry,
                        const aclTensor* first) {
    const aclTensor* logProb = entry == 25 ? call.input(in.tensor()) : first;
    const aclTensor* target = classes_of(in, call);
    const aclTensor* weight = call.input(in.tensor());
    static char reductions[4][5] = {"none", "mean", "sum", "max"};
    const uint8_t pick = in.byte() % 5;
    char* reduction = pick < 4 ? reductions[pick] : nullptr;
    const int64_t ignoreIndex = aclcpu::fuzz::int_of(in);
    const double smoothing = in.real();
    const aclTensor* out = call.output(in.tensor());
    if (entry == 25) {
        call.run(ACLCPU_FUZZ_API(aclnnCrossEntropyLossGrad), in, first, logProb, target, weight,
                 static_cast<const aclTensor*>(nullptr), static_cast<const aclTensor*>(nullptr), reduction,
                 ignoreIndex, smoothing, 0.0, out);
        return;
    }
    const aclTensor* logProbOut = call.output(in.tensor());
    const aclTensor* zloss = call.output(in.tensor());
    const aclTensor* lse = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnCrossEntropyLoss), in, first, target, weight, reduction, ignoreIndex, smoothing,
             0.0, false, out, logProbOut, zloss, lse);
}

/// BatchNorm (entry 26): the running stats are written in training, so
/// they are outputs.
void fuzz_batch_norm(aclcpu::fuzz::Decoder& in, aclcpu::fuzz::OperatorCall& call, const aclTensor* input) {
    const aclTensor* weight = call.input(in.tensor());
    const aclTensor* bias = call.input(in.tensor());
    aclTensor* runningMean = call.output(in.tensor());
    aclTensor* runningVar = call.output(in.tensor());
    const bool training = in.bit();
    const double momentum = in.real();
    const double eps = in.real();
    aclTensor* output = call.output(in.tensor());
    aclTensor* saveMean = call.output(in.tensor());
    aclTensor* saveInvstd = call.output(in.tensor());
    call.run(ACLCPU_FUZZ_API(aclnnBatchNorm), in, input, weight, bias, runningMean, runningVar, training, momentum,
             eps, output, saveMean, saveInvstd);
}

}  // namespace

void aclcpu::fuzz::fuzz_operator(Decoder& in, OperatorCall& call) {
    const uint8_t entry = in.byte() % 28;
    const aclTensor* self = call.input(in.tensor());
    if (entry == 26) {
        fuzz_batch_norm(in, call, self);
        return;
    }
    if (entry == 27) {
        fuzz_mse(in, call, entry, self);
        return;
    }
    if (entry >= 24) {
        fuzz_cross_entropy(in, call, entry, self);
        return;
    }
    if (entry >= 20) {
        fuzz_nll(in, call, entry, self);
        return;
    }
    if (entry >= 18) {
        fuzz_mse(in, call, entry, self);
        return;
    }
    if (entry >= 14 && entry <= 16) {
        fuzz_dim_list(in, call, entry, self);
        return;
    }
    if (entry >= 8) {
        fuzz_more(in, call, entry, self);
        return;
    }
    if (entry >= 5) {
        fuzz_one_dim(in, call, entry, self);
        return;
    }
    const Ints dims(in);
    const bool keepDim = in.bit();
    switch (entry) {
        case 0:
        case 1: {
            const aclDataType dtype = in.dtype();
            aclTensor* out = call.output(in.tensor());
            if (entry == 0) call.run(ACLCPU_FUZZ_API(aclnnReduceSum), in, self, dims.get(), keepDim, dtype, out);
            else call.run(ACLCPU_FUZZ_API(aclnnMean), in, self, dims.get(), keepDim, dtype, out);
            break;
        }
        case 2: {
            const bool noop = in.bit();
            aclTensor* out = call.output(in.tensor());
            call.run(ACLCPU_FUZZ_API(aclnnMeanV2), in, self, dims.get(), keepDim, noop, out);
            break;
        }
        default: {
            aclTensor* out = call.output(in.tensor());
            if (entry == 3) call.run(ACLCPU_FUZZ_API(aclnnAmax), in, self, dims.get(), keepDim, out);
            else call.run(ACLCPU_FUZZ_API(aclnnAmin), in, self, dims.get(), keepDim, out);
            break;
        }
    }
}
