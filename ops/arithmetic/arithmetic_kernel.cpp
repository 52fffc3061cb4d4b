// acl-cpu: the arithmetic family's typed kernel, and the choice between it
// and the vector kernel.
#include "arithmetic/arithmetic_kernel.hpp"

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>

#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/typed_lanes.hpp"

namespace aclcpu::ops {
namespace {

/// The arithmetic of one compute dtype on lanes of type V: float for FLOAT,
/// FLOAT16 and BF16 (rounded to the dtype after every step), double,
/// int64_t for the integers and BOOL (wrapped to the dtype after every
/// step, so a narrow type's overflow wraps as on the device), and the two
/// complex types.
template <class V>
class LaneArithmetic {
public:
    LaneArithmetic(const ArithmeticPlan& plan) : plan_(plan), dtype_(plan.computeDtype) {}  // NOLINT

    /// A loaded or computed value as the compute dtype holds it.
    V round(V v) const { return round_lane(dtype_, v); }

    V value(const ComputeValue& value) const { return lane_value<V>(value); }

    V apply(V a, V b) const {
        switch (plan_.op) {
            case ArithmeticOp::add: return round(add(a, scaled(b)));
            case ArithmeticOp::sub: return plan_.alphaStep == AlphaStep::fused ? round(add(a, scaled(b)))
                                                                               : round(subtract(a, scaled(b)));
            case ArithmeticOp::mul: return round(multiply(a, b));
            case ArithmeticOp::div: return round(divide(a, b));
        }
        return a;
    }

private:
    bool is_bool() const { return dtype_ == ACL_BOOL; }

    /// alpha * b as the plan's alpha step computes it (the fused step's
    /// product is in fp32, with alpha already negated for sub).
    V scaled(V b) const {
        switch (plan_.alphaStep) {
            case AlphaStep::none: return b;
            case AlphaStep::fused:
                if constexpr (std::is_same_v<V, float>) return plan_.alphaFloat * b;
                else return multiply(value(plan_.alpha), b);
            case AlphaStep::separate: return round(multiply(value(plan_.alpha), b));
        }
        return b;
    }

    V add(V a, V b) const {
        if constexpr (std::is_same_v<V, int64_t>) {
            if (is_bool()) return a | b;
            return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
        } else {
            return a + b;
        }
    }
    V subtract(V a, V b) const {
        if constexpr (std::is_same_v<V, int64_t>) {
            if (is_bool()) return a ^ b;
            return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
        } else {
            return a - b;
        }
    }
    V multiply(V a, V b) const {
        if constexpr (std::is_same_v<V, int64_t>) {
            if (is_bool()) return a & b;
            return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
        } else {
            return a * b;
        }
    }
    V divide(V a, V b) const {
        if constexpr (std::is_same_v<V, int64_t>) {
            return divide_integers(a, b);
        } else if constexpr (is_complex_v<V>) {
            return a / b;
        } else {
            const V quotient = a / b;
            if (plan_.rounding == DivRounding::trunc) return std::trunc(quotient);
            if (plan_.rounding == DivRounding::floor) return std::floor(quotient);
            return quotient;
        }
    }

    /// Integer division rounded toward zero or down.  By zero, the result is
    /// what the floating-point quotient (+-inf, or NaN for 0/0) becomes when
    /// cast to the dtype: its max, its min, or 0.
    int64_t divide_integers(int64_t a, int64_t b) const {
        if (b == 0) {
            if (a == 0) return 0;
            return visit_element(dtype_, [&](auto tag) -> int64_t {
                using T = decltype(tag);
                if constexpr (std::is_integral_v<T>) {
                    // (T is a compute dtype: never an unsigned type wider than UINT8.)
                    return a > 0 ? static_cast<int64_t>(std::numeric_limits<T>::max())
                                 : static_cast<int64_t>(std::numeric_limits<T>::lowest());
                } else {
                    return a > 0;
                }
            });
        }
        // -2^63 / -1 overflows: wrap as the narrower dtypes do.
        if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
        int64_t quotient = a / b;
        const bool inexact = a % b != 0;
        if (plan_.rounding == DivRounding::floor && inexact && ((a < 0) != (b < 0))) --quotient;
        return quotient;
    }

    const ArithmeticPlan& plan_;
    aclDataType dtype_;
};

/// Lanes of an operand for output elements [begin, begin + count): a
/// tensor's elements cast to V (and rounded to the compute dtype unless the
/// plan computes on the operands as they are), or the scalar repeated.
template <class V>
void load_operand(const LaneArithmetic<V>& arithmetic, bool roundOperands, const ArithmeticOperand& operand,
                  const LaunchArgs& args, int64_t begin, int64_t count, V* lanes) {
    if (operand.isScalar) {
        std::fill(lanes, lanes + count, arithmetic.value(operand.value));
        return;
    }
    load_lanes(operand.layout, args.inputs[operand.input], begin, count, lanes,
               [&](V lane) { return roundOperands ? arithmetic.round(lane) : lane; });
}

/// The typed kernel: a plan run through lanes of its compute dtype's lane
/// type, per UB chunk.  Immutable; launch() may run concurrently.
class TypedArithmeticKernel final : public OpKernel {
public:
    TypedArithmeticKernel(const char* name, const ArithmeticPlan& plan, const ElementwiseTiling& tiling)
        : name_(name), plan_(plan), tiling_(tiling) {}

    const char* name() const noexcept override { return name_; }

    aclError launch(const LaunchArgs& args) const noexcept override {
        const auto inputs = static_cast<size_t>(plan_.tensor_inputs());
        if (aclError status = check_tensor_addresses(name_, args, inputs, 1); status != ACL_SUCCESS) return status;
        return visit_lane_type(plan_.computeDtype, [&](auto tag) { return launch_as<decltype(tag)>(args); });
    }

    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", tiling_.blocks.count());
    }

private:
    template <class V>
    aclError launch_as(const LaunchArgs& args) const noexcept {
        const int64_t chunk = tiling_.chunkElements;
        const int64_t slot = UbStaging::workspace_stride(chunk * int64_t{sizeof(V)});
        const UbStaging staging = UbStaging::per_worker(3 * slot);
        int64_t bytesPerElement = element_size(plan_.out.dtype());
        for (const ArithmeticOperand& operand : plan_.operands) {
            if (!operand.isScalar) bytesPerElement += element_size(operand.layout.dtype());
        }
        return launch_block_slices(name_, tiling_.blocks, bytesPerElement, chunk, [&](const BlockSlice& slice) {
            std::byte* ub = staging.for_block(slice.block);
            run_slice(args, slice.units, reinterpret_cast<V*>(ub), reinterpret_cast<V*>(ub + slot),
                      reinterpret_cast<V*>(ub + 2 * slot));
        });
    }

    template <class V>
    void run_slice(const LaunchArgs& args, Range units, V* a, V* b, V* result) const {
        const LaneArithmetic<V> arithmetic(plan_);
        for (int64_t begin = units.begin; begin < units.end; begin += tiling_.chunkElements) {
            const int64_t n = std::min(tiling_.chunkElements, units.end - begin);
            load_operand(arithmetic, plan_.roundOperands, plan_.operands[0], args, begin, n, a);
            load_operand(arithmetic, plan_.roundOperands, plan_.operands[1], args, begin, n, b);
            for (int64_t i = 0; i < n; ++i) result[i] = arithmetic.apply(a[i], b[i]);
            store_lanes(result, plan_.out, args.outputs[0], begin, n);
        }
    }

    const char* name_;
    ArithmeticPlan plan_;
    ElementwiseTiling tiling_;
};

/// True when dtype converts into the vector kernel's fp32 lanes exactly as
/// CANN's Cast to computeDtype would (or, when the plan does not round its
/// operands, is one of the 16- and 32-bit floats the fp32 lanes hold as they are).
bool vector_loads_exactly(aclDataType dtype, aclDataType computeDtype, bool roundOperands) {
    if (dtype == computeDtype || dtype == ACL_BOOL || dtype == ACL_INT8 || dtype == ACL_UINT8) return true;
    if (!roundOperands) return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
    // One rounding to fp32 is CANN's Cast to FLOAT.
    return computeDtype == ACL_FLOAT && dtype != ACL_COMPLEX64 && dtype != ACL_COMPLEX128;
}

bool vector_kernel_fits(const ArithmeticPlan& plan) {
    const aclDataType compute = plan.computeDtype;
    if (compute != ACL_FLOAT && compute != ACL_FLOAT16 && compute != ACL_BF16) return false;
    const aclDataType out = plan.out.dtype();
    if (out != ACL_FLOAT && out != ACL_FLOAT16 && out != ACL_BF16 && out != ACL_DOUBLE) return false;
    for (const ArithmeticOperand& operand : plan.operands) {
        if (!operand.isScalar && !vector_loads_exactly(operand.layout.dtype(), compute, plan.roundOperands)) {
            return false;
        }
    }
    return true;
}

VectorArithmeticParams vector_params(const ArithmeticPlan& plan) {
    VectorArithmeticParams params;
    params.computeDtype = plan.computeDtype;
    params.rounding = plan.rounding;
    params.swapOperands = plan.operands[0].isScalar || plan.operands[0].input == 1;
    const ArithmeticOperand& scalar = plan.operands[0].isScalar ? plan.operands[0] : plan.operands[1];
    params.scalar = static_cast<float>(scalar.value.real);
    switch (plan.alphaStep) {
        case AlphaStep::none: params.alpha = 1; break;
        case AlphaStep::fused: params.alpha = plan.alphaFloat; break;
        case AlphaStep::separate:
            params.alpha = static_cast<float>(plan.alpha.real);
            params.roundProduct = plan.computeDtype != ACL_FLOAT;
            break;
    }
    // The fused step carries sub's sign in alpha already.
    if (plan.op == ArithmeticOp::sub && plan.alphaStep != AlphaStep::fused) params.alpha = -params.alpha;
    return params;
}

template <size_t N>
using VectorBlock = void (*)(const ElementwiseJob<N>&, const BlockSlice&, const VectorArithmeticParams&);

template <size_t N, VectorBlock<N> Block>
std::shared_ptr<const OpKernel> make_vector_kernel(const char* apiName, const ArithmeticPlan& plan,
                                                   const ElementwiseTiling& tiling) {
    ElementwiseOperands<N> operands;
    operands.output = plan.out;
    operands.computeDtype = plan.computeDtype;
    size_t k = 0;
    // Launch inputs in declaration order; the params say whether they swap.
    for (int input = 0; input < 2; ++input) {
        for (const ArithmeticOperand& operand : plan.operands) {
            if (!operand.isScalar && operand.input == input) operands.inputs[k++] = operand.layout;
        }
    }
    return std::make_shared<const ElementwiseKernel<N, VectorArithmeticParams, Block>>(apiName, tiling, operands,
                                                                                       vector_params(plan));
}

}  // namespace

std::shared_ptr<const OpKernel> make_typed_arithmetic_kernel(const char* apiName, const ArithmeticPlan& plan,
                                                             const ElementwiseTiling& tiling) {
    return std::make_shared<const TypedArithmeticKernel>(apiName, plan, tiling);
}

std::shared_ptr<const OpKernel> make_arithmetic_kernel(const char* apiName, const ArithmeticPlan& plan,
                                                       const ElementwiseTiling& tiling) {
    if (!vector_kernel_fits(plan)) return make_typed_arithmetic_kernel(apiName, plan, tiling);
    const bool binary = plan.tensor_inputs() == 2;
    switch (plan.op) {
        case ArithmeticOp::add:
        case ArithmeticOp::sub:
            return binary ? make_vector_kernel<2, vector_axpy_block>(apiName, plan, tiling)
                          : make_vector_kernel<1, vector_axpy_scalar_block>(apiName, plan, tiling);
        case ArithmeticOp::mul:
            return binary ? make_vector_kernel<2, vector_mul_block>(apiName, plan, tiling)
                          : make_vector_kernel<1, vector_mul_scalar_block>(apiName, plan, tiling);
        case ArithmeticOp::div:
            return binary ? make_vector_kernel<2, vector_div_block>(apiName, plan, tiling)
                          : make_vector_kernel<1, vector_div_scalar_block>(apiName, plan, tiling);
    }
    return make_typed_arithmetic_kernel(apiName, plan, tiling);
}

int64_t arithmetic_lane_bytes(const ArithmeticPlan& plan) {
    return vector_kernel_fits(plan) ? int64_t{sizeof(float)} : lane_bytes(plan.computeDtype);
}

}  // namespace aclcpu::ops
