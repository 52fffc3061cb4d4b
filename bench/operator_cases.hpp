// The operators as benchmark cases: operands of n elements in one dtype,
// filled with data that exercises every branch of the kernel, and one launch
// (phase 1 + phase 2) on a stream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_logit_grad.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "bench_support.hpp"

namespace aclcpu::bench {

/// Rows of this many elements: the last axis of every benchmark shape (and
/// S2 of the softmax), so that every size in operator_sizes() divides evenly.
inline constexpr int64_t kRowLength = 1024;
/// Channels of PreluBackward (axis 1 of self, and the weight's length).
inline constexpr int64_t kPreluChannels = 64;

/// An operator with its operands on the device.
///
/// The bytes model: an operator moves each operand once, inputs read and
/// outputs written, so bytes_moved() is the sum of the operands' sizes.
/// That is the least traffic any implementation needs (staging, caches and
/// write-allocate reads are not counted), the same convention as STREAM's.
class OperatorCase {
public:
    virtual ~OperatorCase() = default;
    /// Enqueues one launch on stream; the status of phase 1, else of phase 2.
    virtual aclnnStatus launch(Workspace& workspace, aclrtStream stream) = 0;

    int64_t bytes_moved() const {
        int64_t bytes = 0;
        for (const auto& operand : operands_) bytes += static_cast<int64_t>(operand->view_bytes());
        return bytes;
    }

protected:
    /// A new operand, counted in bytes_moved().
    DeviceTensor& operand(std::vector<int64_t> shape, aclDataType type) {
        operands_.push_back(std::make_unique<DeviceTensor>(testkit::TensorSpec(std::move(shape), type)));
        return *operands_.back();
    }
    /// A new operand filled with values spread over [low, high).
    const DeviceTensor& input(std::vector<int64_t> shape, aclDataType type, float low, float high) {
        DeviceTensor& tensor = operand(std::move(shape), type);
        tensor.fill_pattern(low, high);
        return tensor;
    }

private:
    std::vector<std::unique_ptr<DeviceTensor>> operands_;
};

/// gradInput = gradOutput * sigmoid(beta * self), or gradOutput above the threshold.
class SoftplusBackwardCase final : public OperatorCase {
public:
    static constexpr const char* kName = "SoftplusBackward";
    SoftplusBackwardCase(int64_t elements, aclDataType type)
        : gradOutput_(input({elements / kRowLength, kRowLength}, type, -1.0f, 1.0f)),
          // beta * self crosses the threshold for the top fifth of the values.
          self_(input({elements / kRowLength, kRowLength}, type, -10.0f, 15.0f)),
          gradInput_(operand({elements / kRowLength, kRowLength}, type)) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnSoftplusBackwardGetWorkspaceSize(gradOutput_.get(), self_.get(), beta_.get(),
                                                             threshold_.get(), gradInput_.get(), size, executor);
            },
            aclnnSoftplusBackward, workspace, stream);
    }

private:
    const DeviceTensor& gradOutput_;
    const DeviceTensor& self_;
    DeviceTensor& gradInput_;
    Scalar beta_{1.0f};
    Scalar threshold_{10.0f};
};

/// gradInput = |self| <= lambd ? 0 : gradOutput.
class HardshrinkBackwardCase final : public OperatorCase {
public:
    static constexpr const char* kName = "HardshrinkBackward";
    HardshrinkBackwardCase(int64_t elements, aclDataType type)
        : gradOutput_(input({elements / kRowLength, kRowLength}, type, -1.0f, 1.0f)),
          self_(input({elements / kRowLength, kRowLength}, type, -1.0f, 1.0f)),
          gradInput_(operand({elements / kRowLength, kRowLength}, type)) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnHardshrinkBackwardGetWorkspaceSize(gradOutput_.get(), self_.get(), lambd_.get(),
                                                               gradInput_.get(), size, executor);
            },
            aclnnHardshrinkBackward, workspace, stream);
    }

private:
    const DeviceTensor& gradOutput_;
    const DeviceTensor& self_;
    DeviceTensor& gradInput_;
    Scalar lambd_{0.5f};
};

/// gradInput = self > 0 ? gradOutput : weight[c] * gradOutput, and
/// gradWeight[c] = sum of self * gradOutput over the non-positive self of channel c.
class PreluBackwardCase final : public OperatorCase {
public:
    static constexpr const char* kName = "PreluBackward";
    PreluBackwardCase(int64_t elements, aclDataType type)
        : gradOutput_(input(shape(elements), type, -1.0f, 1.0f)),
          self_(input(shape(elements), type, -1.0f, 1.0f)),
          weight_(input({kPreluChannels}, type, 0.1f, 0.3f)),
          gradInput_(operand(shape(elements), type)),
          gradWeight_(operand({kPreluChannels}, type)) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnPreluBackwardGetWorkspaceSize(gradOutput_.get(), self_.get(), weight_.get(),
                                                          gradInput_.get(), gradWeight_.get(), size, executor);
            },
            aclnnPreluBackward, workspace, stream);
    }

private:
    /// [N, C, 64]: N samples of kPreluChannels channels of 64 values.
    static std::vector<int64_t> shape(int64_t elements) {
        constexpr int64_t kSpatial = 64;
        return {elements / (kPreluChannels * kSpatial), kPreluChannels, kSpatial};
    }

    const DeviceTensor& gradOutput_;
    const DeviceTensor& self_;
    const DeviceTensor& weight_;
    DeviceTensor& gradInput_;
    DeviceTensor& gradWeight_;
};

/// out = dy / (x (1 - x)) inside [eps, 1 - eps], 0 outside.
class LogitGradCase final : public OperatorCase {
public:
    static constexpr const char* kName = "LogitGrad";
    LogitGradCase(int64_t elements, aclDataType type)
        : x_(input({elements / kRowLength, kRowLength}, type, 0.0f, 1.0f)),
          dy_(input({elements / kRowLength, kRowLength}, type, -1.0f, 1.0f)),
          out_(operand({elements / kRowLength, kRowLength}, type)) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnLogitGradGetWorkspaceSize(x_.get(), dy_.get(), kEps, out_.get(), size, executor);
            },
            aclnnLogitGrad, workspace, stream);
    }

    /// Clamps a tenth of x on each side, so both branches run.
    static constexpr double kEps = 0.1;

private:
    const DeviceTensor& x_;
    const DeviceTensor& dy_;
    DeviceTensor& out_;
};

/// Per row: out = scale * (gradOutput * y - sum(gradOutput * y) * y), 0 where mask.
class ScaledMaskedSoftmaxBackwardCase final : public OperatorCase {
public:
    static constexpr const char* kName = "ScaledMaskedSoftmaxBackward";
    ScaledMaskedSoftmaxBackwardCase(int64_t elements, aclDataType type)
        : gradOutput_(input(shape(elements), type, -1.0f, 1.0f)),
          y_(input(shape(elements), type, 0.0f, 2.0f / kRowLength)),
          mask_(operand(shape(elements), ACL_BOOL)),
          out_(operand(shape(elements), type)) {
        mask_.fill_pattern(0.0, 1.0, 0.1);
    }

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(gradOutput_.get(), y_.get(), mask_.get(),
                                                                        kScale, false, out_.get(), size, executor);
            },
            aclnnScaledMaskedSoftmaxBackward, workspace, stream);
    }

    /// A scale of 1 would skip the multiply.
    static constexpr double kScale = 0.125;

private:
    /// [B, N, S1, S2] = [1, 1, rows, kRowLength]: the kernel splits rows
    /// across blocks whatever B and N are.
    static std::vector<int64_t> shape(int64_t elements) { return {1, 1, elements / kRowLength, kRowLength}; }

    const DeviceTensor& gradOutput_;
    const DeviceTensor& y_;
    DeviceTensor& mask_;
    DeviceTensor& out_;
};

/// The binary arithmetic operators: phase 1 of each over (self, other,
/// alpha, out); Mul and Div take no alpha.
struct AddOp {
    static constexpr const char* kName = "Add";
    static constexpr const char* kRowName = "AddRow";
    static constexpr auto phase2 = aclnnAdd;
    static aclnnStatus phase1(const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out,
                              uint64_t* size, aclOpExecutor** executor) {
        return aclnnAddGetWorkspaceSize(self, other, alpha, out, size, executor);
    }
};
struct SubOp {
    static constexpr const char* kName = "Sub";
    static constexpr auto phase2 = aclnnSub;
    static aclnnStatus phase1(const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out,
                              uint64_t* size, aclOpExecutor** executor) {
        return aclnnSubGetWorkspaceSize(self, other, alpha, out, size, executor);
    }
};
struct MulOp {
    static constexpr const char* kName = "Mul";
    static constexpr const char* kRowName = "MulRow";
    static constexpr auto phase2 = aclnnMul;
    static aclnnStatus phase1(const aclTensor* self, const aclTensor* other, const aclScalar*, aclTensor* out,
                              uint64_t* size, aclOpExecutor** executor) {
        return aclnnMulGetWorkspaceSize(self, other, out, size, executor);
    }
};
struct DivOp {
    static constexpr const char* kName = "Div";
    static constexpr auto phase2 = aclnnDiv;
    static aclnnStatus phase1(const aclTensor* self, const aclTensor* other, const aclScalar*, aclTensor* out,
                              uint64_t* size, aclOpExecutor** executor) {
        return aclnnDivGetWorkspaceSize(self, other, out, size, executor);
    }
};

/// out = self (Op) other on [rows, kRowLength] operands, alpha 1; with
/// kRowOperand, other is one [kRowLength] row broadcast over the rows (a
/// bias add), named Op::kRowName.
template <class Op, bool kRowOperand = false>
class ArithmeticCase final : public OperatorCase {
    static constexpr const char* name() {
        if constexpr (kRowOperand) {
            return Op::kRowName;
        } else {
            return Op::kName;
        }
    }

public:
    // A constant, not a string built at start-up: the cases register during
    // static initialisation, in no order relative to such a string.
    static constexpr const char* kName = name();
    ArithmeticCase(int64_t elements, aclDataType type)
        : self_(input({elements / kRowLength, kRowLength}, type, -1.0f, 1.0f)),
          other_(input(kRowOperand ? std::vector<int64_t>{kRowLength} : std::vector<int64_t>{elements / kRowLength,
                                                                                             kRowLength},
                       type, 0.5f, 2.0f)),
          out_(operand({elements / kRowLength, kRowLength}, type)) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) {
                return Op::phase1(self_.get(), other_.get(), alpha_.get(), out_.get(), size, executor);
            },
            Op::phase2, workspace, stream);
    }

private:
    const DeviceTensor& self_;
    const DeviceTensor& other_;
    DeviceTensor& out_;
    Scalar alpha_{1.0};
};

/// The unary engine's operators, out = Op(self), each with the range its
/// inputs are spread over (where its arithmetic has branches or saturates).
#define ACLCPU_BENCH_UNARY_OP(op, low, high)                 \
    struct op##Op {                                          \
        static constexpr const char* kName = #op;            \
        static constexpr float kLow = low;                   \
        static constexpr float kHigh = high;                 \
        static constexpr auto phase1 = aclnn##op##GetWorkspaceSize; \
        static constexpr auto phase2 = aclnn##op;            \
    };
ACLCPU_BENCH_UNARY_OP(Abs, -1.0f, 1.0f)
ACLCPU_BENCH_UNARY_OP(Exp, -10.0f, 10.0f)
ACLCPU_BENCH_UNARY_OP(Relu, -1.0f, 1.0f)
ACLCPU_BENCH_UNARY_OP(Silu, -10.0f, 10.0f)
ACLCPU_BENCH_UNARY_OP(Gelu, -5.0f, 5.0f)
ACLCPU_BENCH_UNARY_OP(Sqrt, 0.0f, 100.0f)
ACLCPU_BENCH_UNARY_OP(Log, 0.01f, 100.0f)
ACLCPU_BENCH_UNARY_OP(Sin, -10.0f, 10.0f)
ACLCPU_BENCH_UNARY_OP(Cos, -10.0f, 10.0f)
ACLCPU_BENCH_UNARY_OP(Tanh, -5.0f, 5.0f)
ACLCPU_BENCH_UNARY_OP(Sigmoid, -10.0f, 10.0f)
ACLCPU_BENCH_UNARY_OP(Hardswish, -5.0f, 5.0f)
#undef ACLCPU_BENCH_UNARY_OP

/// out = Op(self) on [rows, kRowLength] operands of one dtype.
template <class Op>
class UnaryCase final : public OperatorCase {
public:
    static constexpr const char* kName = Op::kName;
    UnaryCase(int64_t elements, aclDataType type)
        : self_(input({elements / kRowLength, kRowLength}, type, Op::kLow, Op::kHigh)),
          out_(operand({elements / kRowLength, kRowLength}, type)) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase(
            [&](uint64_t* size, aclOpExecutor** executor) { return Op::phase1(self_.get(), out_.get(), size, executor); },
            Op::phase2, workspace, stream);
    }

private:
    const DeviceTensor& self_;
    DeviceTensor& out_;
};

/// The layout engine's operators on [rows, kRowLength] operands: Cast to
/// the other width (fp32 -> fp16, fp16/bf16 -> fp32), Permute's transpose
/// into [kRowLength, rows], and InplaceCopy of one row broadcast over the rows.
enum class LayoutKind { cast, transpose, broadcastCopy };

template <LayoutKind kKind>
class LayoutCase final : public OperatorCase {
    static constexpr const char* name() {
        switch (kKind) {
            case LayoutKind::cast: return "Cast";
            case LayoutKind::transpose: return "Permute";
            default: return "InplaceCopyRow";
        }
    }
    static aclDataType out_dtype(aclDataType type) { return type == ACL_FLOAT ? ACL_FLOAT16 : ACL_FLOAT; }
    static std::vector<int64_t> source_shape(int64_t elements) {
        if (kKind == LayoutKind::broadcastCopy) return {kRowLength};
        return {elements / kRowLength, kRowLength};
    }
    static std::vector<int64_t> out_shape(int64_t elements) {
        if (kKind == LayoutKind::transpose) return {kRowLength, elements / kRowLength};
        return {elements / kRowLength, kRowLength};
    }

public:
    static constexpr const char* kName = name();
    LayoutCase(int64_t elements, aclDataType type)
        : self_(input(source_shape(elements), type, -1.0f, 1.0f)),
          out_(operand(out_shape(elements), kKind == LayoutKind::cast ? out_dtype(type) : type)),
          dims_(aclCreateIntArray(kTransposed, 2)),
          type_(type) {}
    ~LayoutCase() override { aclDestroyIntArray(dims_); }

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        switch (kKind) {
            case LayoutKind::cast:
                return launch_two_phase(
                    [&](uint64_t* size, aclOpExecutor** executor) {
                        return aclnnCastGetWorkspaceSize(self_.get(), out_dtype(type_), out_.get(), size, executor);
                    },
                    aclnnCast, workspace, stream);
            case LayoutKind::transpose:
                return launch_two_phase(
                    [&](uint64_t* size, aclOpExecutor** executor) {
                        return aclnnPermuteGetWorkspaceSize(self_.get(), dims_, out_.get(), size, executor);
                    },
                    aclnnPermute, workspace, stream);
            default:
                return launch_two_phase(
                    [&](uint64_t* size, aclOpExecutor** executor) {
                        return aclnnInplaceCopyGetWorkspaceSize(out_.get(), self_.get(), size, executor);
                    },
                    aclnnInplaceCopy, workspace, stream);
        }
    }

private:
    static constexpr int64_t kTransposed[2] = {1, 0};
    const DeviceTensor& self_;
    DeviceTensor& out_;
    aclIntArray* dims_;
    aclDataType type_;
};

/// Times one launch of `op` on `stream` plus the aclrtSynchronizeStream that
/// makes its result visible, per iteration (time_each_iteration).  One
/// untimed launch first touches the output and workspace pages; before()
/// runs untimed ahead of each iteration.
template <typename Before>
void measure_round_trip(benchmark::State& state, OperatorCase& op, aclrtStream stream, Before before) {
    Workspace workspace;
    if (!succeeded(state, op.launch(workspace, stream)) || !succeeded(state, aclrtSynchronizeStream(stream))) return;
    time_each_iteration(
        state,
        [&] {
            const aclnnStatus launched = op.launch(workspace, stream);
            const aclError synchronized = aclrtSynchronizeStream(stream);
            return succeeded(state, launched != 0 ? launched : synchronized);
        },
        before);
}

inline void measure_round_trip(benchmark::State& state, OperatorCase& op, aclrtStream stream) {
    measure_round_trip(state, op, stream, [] {});
}

}  // namespace aclcpu::bench
