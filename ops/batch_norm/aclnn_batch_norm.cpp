// acl-cpu: aclnnBatchNorm (ops-nn norm/batch_norm_v3/op_host/op_api/
// aclnn_batch_norm.cpp), checks in its order, for Atlas A2.
//
// Channels are dim 1 of an input of rank 2 to 8.  Training: the per-channel
// mean of the input and the mean of its squared deviations from it (the
// biased variance) are reductions over every other dim on the reduction
// engine (deterministic: the order depends on the shapes only), the
// deviations staged in the workspace in fp32; then, per channel,
// invstd = 1 / sqrt(var + eps), saveMean/saveInvstd written, and the running
// stats (when given) updated: r = (1 - momentum) r + momentum * stat, the
// variance unbiased by n / (n - 1) (BNTrainingUpdate).  Inference normalises
// with the running stats instead and writes neither save output.  Both end
// in one elementwise pass, y = x * scale[c] + shift[c] in fp32, with
// scale = weight * invstd and shift = bias - mean * scale.  A null weight,
// bias, runningMean or runningVar is CANN's FillScalar of 1, 0, 0, 1.
// An empty input skips every check but the null ones: saveMean is filled
// with 0 and saveInvstd with NaN (ProcessEmptyTensorWithValue).
#include "aclnnop/aclnn_batch_norm.h"

#include <cmath>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "batch_norm/batch_norm_kernel.hpp"
#include "common/dtype.hpp"
#include "common/elementwise.hpp"
#include "common/layout.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/reduction.hpp"
#include "loss/mse_loss_kernel.hpp"

namespace aclcpu::ops {
namespace {

constexpr DtypeList kBatchNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr size_t kChannelDim = 1;

/// A per-channel vector read or written at launch, element i at
/// layout.position_of(i) (any view: the empty input's save outputs are not
/// checked to be 1-D): absent (slot < 0: its FillScalar value), or
/// args.inputs/outputs[slot].
struct ChannelOperand {
    int slot = -1;
    bool output = false;  // the running stats of training are read and written
    StridedLayout layout;
    float fill = 0.0f;

    float load(const LaunchArgs& args, int64_t c) const noexcept {
        if (slot < 0) return fill;
        const int64_t at = layout.position_of(c);
        const void* data = output ? args.outputs[slot] : args.inputs[slot];
        return visit_loadable(
            layout.dtype(), [&](auto tag) { return cast_to_float(static_cast<const decltype(tag)*>(data)[at]); },
            [] { return 0.0f; });
    }
    void store(const LaunchArgs& args, int64_t c, float value) const noexcept {
        if (slot < 0) return;
        const int64_t at = layout.position_of(c);
        visit_storable(
            layout.dtype(),
            [&](auto tag) {
                using T = decltype(tag);
                static_cast<T*>(args.outputs[slot])[at] = cast_from_float<T>(value);
            },
            [] {});
    }
};

/// The executor's tensors in declaration order, and where each per-channel
/// operand sits among them.
struct Operands {
    std::vector<const aclTensor*> inputs;
    std::vector<const aclTensor*> outputs;

    ChannelOperand add(const aclTensor* tensor, bool output, float fill) {
        ChannelOperand operand;
        operand.fill = fill;
        if (tensor == nullptr) return operand;
        auto& list = output ? outputs : inputs;
        operand.slot = static_cast<int>(list.size());
        operand.output = output;
        list.push_back(tensor);
        operand.layout = StridedLayout::of(view_of(tensor));
        return operand;
    }
};

/// The per-channel operands of one BatchNorm.
struct Channels {
    ChannelOperand weight, bias, runningMean, runningVar, saveMean, saveInvstd;
};

/// The fp32 per-channel arrays at the start of the workspace.
enum ChannelArray : int64_t { kMean, kVar, kScale, kShift, kChannelArrays };

/// The view of one per-channel array, broadcast along dim 1 of shape.
TensorView channel_view(const Dims& shape, ChannelArray array, int64_t channels) {
    TensorView view;
    view.shape = shape;
    view.strides.resize(shape.size());
    view.strides[kChannelDim] = 1;
    view.offset = array * channels;
    view.dtype = ACL_FLOAT;
    return view;
}

TensorView flat_channels(ChannelArray array, int64_t channels) {
    TensorView view;
    view.shape = {channels};
    view.strides = {1};
    view.offset = array * channels;
    view.dtype = ACL_FLOAT;
    return view;
}

/// The statistics of training: mean and biased variance per channel, into
/// the workspace's kMean and kVar arrays.  Immutable.
struct TrainingStatistics {
    using Deviations = ElementwiseKernel<2, NoParams, SquaredDifferenceOp::vector.tensors>;

    std::shared_ptr<const OpKernel> mean;
    std::unique_ptr<Deviations> deviations;
    std::shared_ptr<const OpKernel> variance;
    int64_t deviationsAt = 0;  // bytes from the workspace's start
    int64_t partialsAt = 0;

    aclError launch(const LaunchArgs& args, float* stats) const noexcept {
        std::byte* workspace = static_cast<std::byte*>(args.workspace);
        const uint64_t partialsBytes = args.workspaceSize - static_cast<uint64_t>(partialsAt);
        const void* meanIn[1] = {args.inputs[0]};
        void* statsOut[1] = {stats};
        if (aclError s = mean->launch({meanIn, statsOut, workspace + partialsAt, partialsBytes}); s != ACL_SUCCESS) {
            return s;
        }
        const void* deviationIn[2] = {args.inputs[0], stats};
        void* deviationOut[1] = {workspace + deviationsAt};
        if (aclError s = deviations->launch({deviationIn, deviationOut, nullptr, 0}); s != ACL_SUCCESS) return s;
        const void* varianceIn[1] = {workspace + deviationsAt};
        return variance->launch({varianceIn, statsOut, workspace + partialsAt, partialsBytes});
    }
};

/// The launch of a non-empty BatchNorm: the statistics (training), the
/// per-channel step, the normalising pass.  Immutable; launch() may run
/// concurrently.
class BatchNormKernel final : public TiledKernel {
public:
    using Affine = ElementwiseKernel<3, NoParams, batch_norm_affine_block>;

    BatchNormKernel(const char* name, ElementwiseTiling tiling, const ElementwiseOperands<3>& operands,
                    std::unique_ptr<TrainingStatistics> training, const Channels& channels, int64_t channelCount,
                    int64_t perChannel, float momentum, float eps) noexcept
        : TiledKernel(name, tiling), affine_(name, tiling, operands, NoParams{}), training_(std::move(training)),
          channels_(channels), channelCount_(channelCount), perChannel_(perChannel), momentum_(momentum), eps_(eps) {}

    aclError launch(const LaunchArgs& args) const noexcept override {
        float* stats = static_cast<float*>(args.workspace);
        if (training_ != nullptr) {
            if (aclError s = training_->launch(args, stats); s != ACL_SUCCESS) return s;
        }
        for (int64_t c = 0; c < channelCount_; ++c) per_channel(args, stats, c);
        const void* inputs[3] = {args.inputs[0], stats, stats};
        return affine_.launch({inputs, args.outputs, nullptr, 0});
    }

private:
    /// One channel's scale and shift (and, training, its save outputs and
    /// running stats), in fp32 as the kernels compute them.
    void per_channel(const LaunchArgs& args, float* stats, int64_t c) const noexcept {
        const Channels& ch = channels_;
        float mean = ch.runningMean.load(args, c);
        float var = ch.runningVar.load(args, c);
        if (training_ != nullptr) {
            mean = stats[kMean * channelCount_ + c];
            var = stats[kVar * channelCount_ + c];
        }
        const float invstd = 1.0f / std::sqrt(var + eps_);
        const float scale = ch.weight.load(args, c) * invstd;
        stats[kScale * channelCount_ + c] = scale;
        stats[kShift * channelCount_ + c] = ch.bias.load(args, c) - mean * scale;
        if (training_ == nullptr) return;
        ch.saveMean.store(args, c, mean);
        ch.saveInvstd.store(args, c, invstd);
        // BNTrainingUpdate's unbiased factor n / (n - 1); one element per
        // channel keeps the biased variance (acl-cpu's choice: no division by 0).
        const float n = static_cast<float>(perChannel_);
        const float unbiased = perChannel_ > 1 ? var * (n / (n - 1.0f)) : var;
        ch.runningMean.store(args, c, (1.0f - momentum_) * ch.runningMean.load(args, c) + momentum_ * mean);
        ch.runningVar.store(args, c, (1.0f - momentum_) * ch.runningVar.load(args, c) + momentum_ * unbiased);
    }

    Affine affine_;
    std::unique_ptr<TrainingStatistics> training_;
    Channels channels_;
    int64_t channelCount_;
    int64_t perChannel_;
    float momentum_;
    float eps_;
};

/// ProcessEmptyTensorWithValue on the save outputs of an empty input:
/// saveMean 0, saveInvstd NaN.  Immutable.
class BatchNormEmptyKernel final : public OpKernel {
public:
    BatchNormEmptyKernel(const char* name, const Channels& channels, int64_t saveMeanCount, int64_t saveInvstdCount)
        : name_(name), channels_(channels), saveMeanCount_(saveMeanCount), saveInvstdCount_(saveInvstdCount) {}
    const char* name() const noexcept override { return name_; }
    aclError launch(const LaunchArgs& args) const noexcept override {
        for (int64_t c = 0; c < saveMeanCount_; ++c) channels_.saveMean.store(args, c, 0.0f);
        for (int64_t c = 0; c < saveInvstdCount_; ++c) channels_.saveInvstd.store(args, c, NAN);
        return ACL_SUCCESS;
    }

private:
    const char* name_;
    Channels channels_;
    int64_t saveMeanCount_;
    int64_t saveInvstdCount_;
};

/// acl-cpu's guard: every given tensor's view inside its storage.
aclnnStatus check_views(std::initializer_list<std::pair<const aclTensor*, const char*>> tensors) {
    for (const auto& [tensor, name] : tensors) {
        if (tensor != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(tensor, name));
    }
    return ACLNN_SUCCESS;
}

/// CheckOtherShape: each given per-channel tensor 1-D of C elements.
aclnnStatus check_channel_shape(const aclTensor* tensor, const char* name, int64_t channels) {
    if (tensor == nullptr) return ACLNN_SUCCESS;
    const Dims& shape = view_of(tensor).shape;
    if (shape.size() == 1 && shape[0] == channels) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Dim of %s should be one and shape is channel num of input.", name);
}

aclnnStatus check_optional_dtype(const aclTensor* tensor, const char* name) {
    return tensor == nullptr ? ACLNN_SUCCESS : check_dtype_supported(tensor, name, kBatchNormDtypes);
}

/// CheckFormat (A2, not regbase): input and output of one format, NCDHW
/// when 5-D, not a private one.
aclnnStatus check_format(const aclTensor* input, const aclTensor* output) {
    const aclFormat format = format_of(input);
    if (format != format_of(output)) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Format of input and output should be equal, input [%s], output [%s].",
                           format_name(format), format_name(format_of(output)));
    }
    constexpr size_t kNcdhwRank = 5;
    if (view_of(input).shape.size() == kNcdhwRank && format != ACL_FORMAT_NCDHW) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of input should be NCDHW, when input dim is 5.");
    }
    if (view_of(output).shape.size() == kNcdhwRank && format != ACL_FORMAT_NCDHW) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of output should be NCDHW, when input dim is 5.");
    }
    if (is_private_format(format)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format only support ND、NCL、NCHW、NCDHW.");
    }
    return ACLNN_SUCCESS;
}

/// CheckParams, in its order.
aclnnStatus check_params(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                         const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* output,
                         const aclTensor* saveMean, const aclTensor* saveInvstd, bool training) {
    ACLCPU_RETURN_IF_ERROR(check_dtype_supported({{input, "input"}, {output, "output"}}, kBatchNormDtypes));
    if (training) {
        ACLCPU_RETURN_IF_ERROR(
            check_dtype_supported({{saveMean, "saveMean"}, {saveInvstd, "saveInvstd"}}, kBatchNormDtypes));
    }
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(weight, "weight"));
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(bias, "bias"));
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(runningMean, "runningMean"));
    ACLCPU_RETURN_IF_ERROR(check_optional_dtype(runningVar, "runningVar"));
    ACLCPU_RETURN_IF_ERROR(check_format(input, output));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(input, "input"));
    ACLCPU_RETURN_IF_ERROR(check_min_dim(input, "input", 2));
    ACLCPU_RETURN_IF_ERROR(check_max_dim(output, "output"));
    ACLCPU_RETURN_IF_ERROR(check_min_dim(output, "output", 2));
    ACLCPU_RETURN_IF_ERROR(check_same_shape(output, "output", input, "input"));
    const int64_t channels = view_of(input).shape[kChannelDim];
    ACLCPU_RETURN_IF_ERROR(check_channel_shape(weight, "weight", channels));
    ACLCPU_RETURN_IF_ERROR(check_channel_shape(bias, "bias", channels));
    ACLCPU_RETURN_IF_ERROR(check_channel_shape(runningMean, "runningMean", channels));
    ACLCPU_RETURN_IF_ERROR(check_channel_shape(runningVar, "runningVar", channels));
    if (!training) return ACLNN_SUCCESS;
    ACLCPU_RETURN_IF_ERROR(check_shape_is(saveMean, "saveMean", {channels}));
    return check_shape_is(saveInvstd, "saveInvstd", {channels});
}

/// The statistics' kernels over the non-empty input; nullptr when the host
/// is out of memory.  *bytes: the workspace past the channel arrays.
std::unique_ptr<TrainingStatistics> plan_statistics(const char* api, const TensorView& input, int64_t channels,
                                                    int64_t arraysBytes, uint64_t* bytes) {
    auto stats = std::make_unique<TrainingStatistics>();
    const uint32_t mask = static_cast<uint32_t>((uint64_t{1} << input.shape.size()) - 1) & ~(1u << kChannelDim);
    ReductionSpec spec;
    spec.mean = true;
    uint64_t meanBytes = 0, varianceBytes = 0;
    stats->mean = plan_reduction_kernel(api, spec, input, mask, flat_channels(kMean, channels), &meanBytes);
    const StridedLayout deviations = StridedLayout::linear(input.numel(), ACL_FLOAT);
    TensorView deviationsView;
    deviationsView.shape = input.shape;
    deviationsView.strides.resize(input.shape.size());
    int64_t stride = 1;
    for (size_t d = input.shape.size(); d-- > 0;) {
        deviationsView.strides[d] = stride;
        stride *= input.shape[d];
    }
    deviationsView.dtype = ACL_FLOAT;
    stats->variance =
        plan_reduction_kernel(api, spec, deviationsView, mask, flat_channels(kVar, channels), &varianceBytes);
    if (stats->mean == nullptr || stats->variance == nullptr) return nullptr;
    const ElementwiseOperands<2> operands{
        {StridedLayout::of(input), StridedLayout::broadcast_to(channel_view(input.shape, kMean, channels), input.shape)},
        deviations,
        ACL_FLOAT};
    stats->deviations = std::make_unique<TrainingStatistics::Deviations>(
        api, tile_binary(deviations.numel(), ACL_FLOAT, sizeof(float), soc_profile()), operands, NoParams{});
    stats->deviationsAt = arraysBytes;
    stats->partialsAt = arraysBytes + UbStaging::workspace_stride(deviations.numel() * int64_t{sizeof(float)});
    *bytes = static_cast<uint64_t>(stats->partialsAt - arraysBytes) + std::max(meanBytes, varianceBytes);
    return stats;
}

aclnnStatus hand_back_batch_norm(const char* api, const aclTensor* input, Operands& tensors,
                                 const Channels& channels, bool training, double momentum, double eps,
                                 const aclTensor* output, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const TensorView& in = view_of(input);
    const int64_t channelCount = in.shape[kChannelDim];
    const int64_t arraysBytes = UbStaging::workspace_stride(kChannelArrays * channelCount * int64_t{sizeof(float)});
    uint64_t statsBytes = 0;
    std::unique_ptr<TrainingStatistics> stats;
    if (training) {
        stats = plan_statistics(api, in, channelCount, arraysBytes, &statsBytes);
        if (stats == nullptr) {
            report_error(ACLNN_ERR_INNER_CREATE_EXECUTOR, kAclnnInnerTag, "Create executor failed: out of host memory.");
            return ACLNN_ERR_INNER_CREATE_EXECUTOR;
        }
    }
    const StridedLayout outLayout = StridedLayout::of(view_of(output));
    const ElementwiseOperands<3> operands{{StridedLayout::of(in),
                                           StridedLayout::broadcast_to(channel_view(in.shape, kScale, channelCount), in.shape),
                                           StridedLayout::broadcast_to(channel_view(in.shape, kShift, channelCount), in.shape)},
                                          outLayout,
                                          ACL_FLOAT};
    const ElementwiseTiling tiling = tile_elementwise(outLayout.numel(), 4, ACL_FLOAT, sizeof(float), soc_profile());
    return hand_back_kernel<BatchNormKernel>(tensors.inputs, tensors.outputs, arraysBytes + statsBytes, workspaceSize,
                                             executor, api, tiling, operands, std::move(stats), channels,
                                             channelCount, in.numel() / channelCount, static_cast<float>(momentum),
                                             static_cast<float>(eps));
}

aclnnStatus batch_norm(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                       const aclTensor* runningMean, const aclTensor* runningVar, bool training, double momentum,
                       double eps, const aclTensor* output, const aclTensor* saveMean, const aclTensor* saveInvstd,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{input, "input"}, {output, "output"}}));
    if (training) ACLCPU_RETURN_IF_ERROR(check_not_null({{saveMean, "saveMean"}, {saveInvstd, "saveInvstd"}}));
    const char* api = "aclnnBatchNorm";
    Operands tensors;
    tensors.inputs.push_back(input);
    tensors.outputs.push_back(output);
    Channels channels;
    if (is_empty(input)) {
        // acl-cpu's guards: the filled views in their storage, of at most 8
        // dims (CANN checks neither; its Fill kernel takes at most 8).
        for (const auto& [tensor, name] : {std::pair{saveMean, "saveMean"}, std::pair{saveInvstd, "saveInvstd"}}) {
            if (tensor != nullptr) ACLCPU_RETURN_IF_ERROR(check_max_dim(tensor, name));
        }
        ACLCPU_RETURN_IF_ERROR(check_views({{saveMean, "saveMean"}, {saveInvstd, "saveInvstd"}}));
        channels.saveMean = tensors.add(saveMean, true, 0.0f);
        channels.saveInvstd = tensors.add(saveInvstd, true, 0.0f);
        const auto count = [](const aclTensor* t) { return t == nullptr ? int64_t{0} : view_of(t).numel(); };
        return hand_back_kernel<BatchNormEmptyKernel>(tensors.inputs, tensors.outputs, 0, workspaceSize, executor, api,
                                                      channels, count(saveMean), count(saveInvstd));
    }
    ACLCPU_RETURN_IF_ERROR(
        check_params(input, weight, bias, runningMean, runningVar, output, saveMean, saveInvstd, training));
    ACLCPU_RETURN_IF_ERROR(check_views({{input, "input"}, {weight, "weight"}, {bias, "bias"},
                                        {runningMean, "runningMean"}, {runningVar, "runningVar"}, {output, "output"},
                                        {saveMean, "saveMean"}, {saveInvstd, "saveInvstd"}}));
    channels.weight = tensors.add(weight, false, 1.0f);
    channels.bias = tensors.add(bias, false, 0.0f);
    // Training updates the running stats in place: outputs, read and written.
    channels.runningMean = tensors.add(runningMean, training, 0.0f);
    channels.runningVar = tensors.add(runningVar, training, 1.0f);
    if (training) {
        channels.saveMean = tensors.add(saveMean, true, 0.0f);
        channels.saveInvstd = tensors.add(saveInvstd, true, 0.0f);
    }
    return hand_back_batch_norm(api, input, tensors, channels, training, momentum, eps, output, workspaceSize,
                                executor);
}

}  // namespace
}  // namespace aclcpu::ops

extern "C" aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                      const aclTensor* bias, aclTensor* runningMean,
                                                      aclTensor* runningVar, bool training, double momentum,
                                                      double eps, aclTensor* output, aclTensor* saveMean,
                                                      aclTensor* saveInvstd, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    return aclcpu::ops::batch_norm(input, weight, bias, runningMean, runningVar, training, momentum, eps, output,
                                   saveMean, saveInvstd, workspaceSize, executor);
}
ACLCPU_DEFINE_PHASE2(aclnnBatchNorm)
