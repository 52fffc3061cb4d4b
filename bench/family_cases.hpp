// The elementwise and layout families beyond operator_cases.hpp's
// representatives, one case each: the engines' other loops (scalar operands,
// predicates, gated halves, fills, concatenation, padding, rolls, slices,
// triangles), so that every family has a figure beside the triad.
//
// A case is a Spec: its name, its phase 2, a constructor that makes its
// operands through the case (so that bytes_moved() counts them) and its
// arguments, and phase1().  Shapes are [rows, kRowLength] unless a case
// needs other ones, with rows = elements / kRowLength.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_tril.h"
#include "aclcpu_testkit/tensor_copy.hpp"
#include "operator_cases.hpp"

namespace aclcpu::bench {

/// An operator described by Spec (see the file's comment).
template <class Spec>
class CallCase final : public OperatorCase {
public:
    static constexpr const char* kName = Spec::kName;
    CallCase(int64_t elements, aclDataType type) : spec_(*this, elements, type) {}

    aclnnStatus launch(Workspace& workspace, aclrtStream stream) override {
        return launch_two_phase([&](uint64_t* size, aclOpExecutor** executor) { return spec_.phase1(size, executor); },
                                Spec::phase2, workspace, stream);
    }

    /// For Spec's constructor: a written operand, and one read (filled with
    /// values spread over [low, high)).
    DeviceTensor& output(std::vector<int64_t> shape, aclDataType type) { return operand(std::move(shape), type); }
    const DeviceTensor& read(std::vector<int64_t> shape, aclDataType type, float low = -1.0f, float high = 1.0f) {
        return input(std::move(shape), type, low, high);
    }

private:
    Spec spec_;
};

/// [rows, columns] for a case of `elements` elements in rows of kRowLength.
inline std::vector<int64_t> rows_of(int64_t elements, int64_t columns = kRowLength) {
    return {elements / kRowLength, columns};
}

struct LeakyReluSpec {
    static constexpr const char* kName = "LeakyRelu";
    static constexpr auto phase2 = aclnnLeakyRelu;
    template <class Case>
    LeakyReluSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnLeakyReluGetWorkspaceSize(self.get(), slope.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    Scalar slope{0.01};
};

struct SoftplusSpec {
    static constexpr const char* kName = "Softplus";
    static constexpr auto phase2 = aclnnSoftplus;
    template <class Case>
    SoftplusSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t, -30.0f, 30.0f)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnSoftplusGetWorkspaceSize(self.get(), beta.get(), threshold.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    Scalar beta{1.0};
    Scalar threshold{20.0};
};

struct ClampSpec {
    static constexpr const char* kName = "Clamp";
    static constexpr auto phase2 = aclnnClamp;
    template <class Case>
    ClampSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnClampGetWorkspaceSize(self.get(), low.get(), high.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    Scalar low{-0.5};
    Scalar high{0.5};
};

/// ggml's SQR: x^2.
struct PowSpec {
    static constexpr const char* kName = "PowTensorScalar";
    static constexpr auto phase2 = aclnnPowTensorScalar;
    template <class Case>
    PowSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnPowTensorScalarGetWorkspaceSize(self.get(), exponent.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    Scalar exponent{2.0};
};

struct GtScalarSpec {
    static constexpr const char* kName = "GtScalar";
    static constexpr auto phase2 = aclnnGtScalar;
    template <class Case>
    GtScalarSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnGtScalarGetWorkspaceSize(self.get(), other.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    Scalar other{0.0};
};

struct EqTensorSpec {
    static constexpr const char* kName = "EqTensor";
    static constexpr auto phase2 = aclnnEqTensor;
    template <class Case>
    EqTensorSpec(Case& c, int64_t n, aclDataType t)
        : self(c.read(rows_of(n), t)), other(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnEqTensorGetWorkspaceSize(self.get(), other.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    const DeviceTensor& other;
    DeviceTensor& out;
};

/// An operator of (x, dim = -1, out) over rows of kRowLength (x Op::kInputColumns
/// wide): SwiGlu (halves of a row twice as wide) and the row engine's Softmax.
template <class Op>
struct LastDimSpec {
    static constexpr const char* kName = Op::kName;
    static constexpr auto phase2 = Op::phase2;
    template <class Case>
    LastDimSpec(Case& c, int64_t n, aclDataType t)
        : x(c.read(rows_of(n, Op::kInputColumns), t, -10.0f, 10.0f)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return Op::phase1(x.get(), -1, out.get(), size, executor);
    }
    const DeviceTensor& x;
    DeviceTensor& out;
};

struct SwiGluOp {
    static constexpr const char* kName = "SwiGlu";
    static constexpr auto phase1 = aclnnSwiGluGetWorkspaceSize;
    static constexpr auto phase2 = aclnnSwiGlu;
    static constexpr int64_t kInputColumns = 2 * kRowLength;
};
using SwiGluSpec = LastDimSpec<SwiGluOp>;

struct SoftmaxOp {
    static constexpr const char* kName = "Softmax";
    static constexpr auto phase1 = aclnnSoftmaxGetWorkspaceSize;
    static constexpr auto phase2 = aclnnSoftmax;
    static constexpr int64_t kInputColumns = kRowLength;
};
using SoftmaxSpec = LastDimSpec<SoftmaxOp>;

/// RmsNorm over rows of kRowLength, with its per-row FLOAT rstd.
struct RmsNormSpec {
    static constexpr const char* kName = "RmsNorm";
    static constexpr auto phase2 = aclnnRmsNorm;
    template <class Case>
    RmsNormSpec(Case& c, int64_t n, aclDataType t)
        : x(c.read(rows_of(n), t)), gamma(c.read({kRowLength}, t)), y(c.output(rows_of(n), t)),
          rstd(c.output(rows_of(n, 1), ACL_FLOAT)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnRmsNormGetWorkspaceSize(x.get(), gamma.get(), 1e-6, y.get(), rstd.get(), size, executor);
    }
    const DeviceTensor& x;
    const DeviceTensor& gamma;
    DeviceTensor& y;
    DeviceTensor& rstd;
};

/// LayerNorm over rows of kRowLength with weight and bias, and its per-row
/// FLOAT mean and rstd.
struct LayerNormSpec {
    static constexpr const char* kName = "LayerNorm";
    static constexpr auto phase2 = aclnnLayerNorm;
    template <class Case>
    LayerNormSpec(Case& c, int64_t n, aclDataType t)
        : x(c.read(rows_of(n), t)), weight(c.read({kRowLength}, t)), bias(c.read({kRowLength}, t)),
          y(c.output(rows_of(n), t)), mean(c.output(rows_of(n, 1), ACL_FLOAT)),
          rstd(c.output(rows_of(n, 1), ACL_FLOAT)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnLayerNormGetWorkspaceSize(x.get(), normalizedShape.get(), weight.get(), bias.get(), 1e-5, y.get(),
                                              mean.get(), rstd.get(), size, executor);
    }
    const DeviceTensor& x;
    const DeviceTensor& weight;
    const DeviceTensor& bias;
    DeviceTensor& y;
    DeviceTensor& mean;
    DeviceTensor& rstd;
    IntArray normalizedShape{kRowLength};
};

/// The reduction engine: ReduceSum over every dim into one element.
struct ReduceSumSpec {
    static constexpr const char* kName = "ReduceSum";
    static constexpr auto phase2 = aclnnReduceSum;
    template <class Case>
    ReduceSumSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output({}, t)), type(t) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnReduceSumGetWorkspaceSize(self.get(), dims.get(), false, type, out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    aclDataType type;
    IntArray dims{0, 1};
};

/// The fill family: a pure write.
struct FillSpec {
    static constexpr const char* kName = "InplaceFillScalar";
    static constexpr auto phase2 = aclnnInplaceFillScalar;
    template <class Case>
    FillSpec(Case& c, int64_t n, aclDataType t) : self(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnInplaceFillScalarGetWorkspaceSize(self.get(), value.get(), size, executor);
    }
    DeviceTensor& self;
    Scalar value{0.25};
};

struct ArangeSpec {
    static constexpr const char* kName = "Arange";
    static constexpr auto phase2 = aclnnArange;
    template <class Case>
    ArangeSpec(Case& c, int64_t n, aclDataType t) : out(c.output({n}, t)), end(static_cast<double>(n) / 1024) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnArangeGetWorkspaceSize(start.get(), end.get(), step.get(), out.get(), size, executor);
    }
    DeviceTensor& out;
    Scalar start{0.0};
    Scalar end;
    Scalar step{1.0 / 1024};
};

/// The layout engine: two halves of the rows concatenated (the list owns
/// copies of their descriptors: aclDestroyTensorList destroys its tensors).
struct CatSpec {
    static constexpr const char* kName = "Cat";
    static constexpr auto phase2 = aclnnCat;
    template <class Case>
    CatSpec(Case& c, int64_t n, aclDataType t)
        : top(c.read(rows_of(n / 2), t)), bottom(c.read(rows_of(n / 2), t)), out(c.output(rows_of(n), t)),
          tensors({testkit::copy_tensor(top.get()), testkit::copy_tensor(bottom.get())}) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnCatGetWorkspaceSize(tensors.get(), 0, out.get(), size, executor);
    }
    const DeviceTensor& top;
    const DeviceTensor& bottom;
    DeviceTensor& out;
    TensorList tensors;
};

/// A quarter of the rows repeated four times.
struct RepeatSpec {
    static constexpr const char* kName = "Repeat";
    static constexpr auto phase2 = aclnnRepeat;
    template <class Case>
    RepeatSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n / 4), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnRepeatGetWorkspaceSize(self.get(), repeats.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    IntArray repeats{4, 1};
};

/// Rows of kRowLength - 8 padded by 4 on each side, with a constant and by
/// reflection.
struct ConstantPadSpec {
    static constexpr const char* kName = "ConstantPadNd";
    static constexpr auto phase2 = aclnnConstantPadNd;
    template <class Case>
    ConstantPadSpec(Case& c, int64_t n, aclDataType t)
        : self(c.read(rows_of(n, kRowLength - 8), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnConstantPadNdGetWorkspaceSize(self.get(), pad.get(), value.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    IntArray pad{4, 4};
    Scalar value{0.0};
};

struct ReflectionPadSpec {
    static constexpr const char* kName = "ReflectionPad1d";
    static constexpr auto phase2 = aclnnReflectionPad1d;
    template <class Case>
    ReflectionPadSpec(Case& c, int64_t n, aclDataType t)
        : self(c.read(rows_of(n, kRowLength - 8), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnReflectionPad1dGetWorkspaceSize(self.get(), padding.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    IntArray padding{4, 4};
};

/// Each row rolled by one element.
struct RollSpec {
    static constexpr const char* kName = "Roll";
    static constexpr auto phase2 = aclnnRoll;
    template <class Case>
    RollSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnRollGetWorkspaceSize(self.get(), shifts.get(), dims.get(), out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
    IntArray shifts{1};
    IntArray dims{1};
};

/// Columns 4 to kRowLength + 4 of rows of kRowLength + 8.
struct SliceSpec {
    static constexpr const char* kName = "Slice";
    static constexpr auto phase2 = aclnnSlice;
    template <class Case>
    SliceSpec(Case& c, int64_t n, aclDataType t)
        : self(c.read(rows_of(n, kRowLength + 8), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnSliceGetWorkspaceSize(self.get(), 1, 4, kRowLength + 4, 1, out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
};

/// The lower triangle of a [rows, kRowLength] matrix (ggml's causal masks).
struct TrilSpec {
    static constexpr const char* kName = "Tril";
    static constexpr auto phase2 = aclnnTril;
    template <class Case>
    TrilSpec(Case& c, int64_t n, aclDataType t) : self(c.read(rows_of(n), t)), out(c.output(rows_of(n), t)) {}
    aclnnStatus phase1(uint64_t* size, aclOpExecutor** executor) const {
        return aclnnTrilGetWorkspaceSize(self.get(), 0, out.get(), size, executor);
    }
    const DeviceTensor& self;
    DeviceTensor& out;
};

}  // namespace aclcpu::bench
