// acl-cpu: aclnnConvolution (ops-nn conv/convolution_forward) for Atlas A2:
// 1-D (NCL), 2-D (NCHW) and 3-D (NCDHW) convolution, plain and transposed,
// grouped and depthwise, with stride, padding, dilation, outputPadding and
// an optional bias.
//
// Checks in CANN's order (op_host/op_api/aclnn_convolution.cpp,
// CheckConvParams: NullptrChecker, DtypeChecker, DimChecker, FormatChecker,
// ValueChecker, ConvXdChecker, HardwareLimitChecker), with its messages
// (the EZ00xx wordings of OP_LOGE_FOR_INVALID_*), then acl-cpu's refusals:
// the NDHWC format and a FRACTAL_Z weight, which CANN's checks accept and
// acl-cpu does not read, negative padding, views outside their storage,
// and windows past int32.
//
// The kernel (ConvolutionKernel) is a column GEMM per (batch, group, tile
// of output positions): a block gathers the tile's columns with the window
// engine's ColumnGather into its UB staging, stages the group's weight as a
// float matrix, and multiplies them with gemm_f32.  A transposed convolution
// is the convolution of the zero-inserted input (ColumnGather's
// inputDilation = stride) with the flipped, channel-swapped weight: every
// output element is one dot product computed by one block, so the result
// does not depend on the worker count.
//
// Precision as GetConvolutionOpDtype computes the dtypes: the cube dtype is
// FLOAT when input or weight is FLOAT (or they differ), else their common
// 16-bit dtype, FLOAT16 for cubeMathType USE_FP16; inputs are rounded to it,
// products accumulate in fp32, the bias (rounded to its dtype, BF16 read as
// FLOAT) is added in fp32 and the result rounded once to the kernel's output
// dtype (the cube dtype; for a transposed convolution FLOAT when output is
// FLOAT; FLOAT16 for USE_FP16) before the Cast into output.  HFLOAT32 (cubeMathType 1 and 3 on a
// FLOAT input) is computed in full fp32.
#include "aclnnop/aclnn_convolution.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "aclcpu/soc_profile.hpp"
#include "common/block_launch.hpp"
#include "common/dtype.hpp"
#include "common/float_runs.hpp"
#include "common/gemm.hpp"
#include "common/op_checks.hpp"
#include "common/phase1.hpp"
#include "common/phase2.hpp"
#include "common/window.hpp"

namespace aclcpu::ops {
namespace {

constexpr const char* kEntity = "aclnnConvolutionGetWorkspaceSize";
constexpr DtypeList kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int8_t kUseFp16 = 2;
constexpr int8_t kLastCubeMathType = 4;  // USE_FP32_ADD
/// GetPadBinaryValidFlag: the transposed kernels' backprop padding limit.
constexpr int64_t kPadBinaryLimit = 255;

/// The arguments are the caller's, unchecked: shape and window arithmetic
/// runs in 128 bits (CANN's int64 and size_t products wrap) and saturates.
using Wide = __int128;

int64_t saturated(Wide value) {
    return static_cast<int64_t>(value > INT64_MAX ? INT64_MAX : value < INT64_MIN ? INT64_MIN : value);
}

struct ConvArgs {
    const aclTensor* input;
    const aclTensor* weight;
    const aclTensor* bias;
    const aclIntArray* stride;
    const aclIntArray* padding;
    const aclIntArray* dilation;
    bool transposed;
    const aclIntArray* outputPadding;
    int64_t groups;
    const aclTensor* output;
    int8_t cubeMathType;
};

/// op::FVectorToString: "[1, 2, 3]".
std::string list_text(const std::vector<int64_t>& values) {
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
}

std::string shape_text(const aclTensor* tensor) {
    const Dims& shape = view_of(tensor).shape;
    return list_text(std::vector<int64_t>(shape.begin(), shape.end()));
}

const std::vector<int64_t>& ints(const aclIntArray* array) { return values_of(array); }
const Dims& shape_of(const aclTensor* tensor) { return view_of(tensor).shape; }

/// OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON and its siblings: "Parameter(s)
/// <names> of aclnnConvolutionGetWorkspaceSize has/have incorrect <what>
/// <actual>. Reason: <reason>." -> 161002.
aclnnStatus invalid_with_reason(const char* names, const char* what, const std::string& actual,
                                const std::string& reason) {
    const bool several = std::strchr(names, ',') != nullptr;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Parameter%s %s of %s %s incorrect %s%s %s. Reason: %s.",
                       several ? "s" : "", names, kEntity, several ? "have" : "has", what, several ? "s" : "",
                       actual.c_str(), reason.c_str());
}

/// OP_LOGE_FOR_INVALID_<what>(entity, name, actual, expected) -> 161002.
aclnnStatus invalid_expected(const char* name, const char* what, const std::string& actual,
                             const std::string& expected) {
    return param_error(ACLNN_ERR_PARAM_INVALID, "Parameter %s of %s has %s %s. It should be %s.", name, kEntity, what,
                       actual.c_str(), expected.c_str());
}

/// NullptrChecker (CHECK_PARAM_NULLPTR) -> 161001.
aclnnStatus check_nulls(const ConvArgs& a, const uint64_t* workspaceSize, aclOpExecutor** executor) {
    const struct {
        const void* pointer;
        const char* name;
    } required[] = {{a.input, "x"},     {a.weight, "filter"},           {a.stride, "strides"},
                    {a.padding, "pads"}, {a.dilation, "dilations"},      {a.output, "y"},
                    {workspaceSize, "workspaceSize"}, {executor, "executor"},
                    {a.transposed ? static_cast<const void*>(a.outputPadding) : &a, "outputPadding"}};
    for (const auto& argument : required) {
        if (argument.pointer == nullptr) {
            return param_error(ACLNN_ERR_PARAM_NULLPTR,
                               "Parameter %s of %s has incorrect value nullptr. It should be not nullptr.",
                               argument.name, kEntity);
        }
    }
    return ACLNN_SUCCESS;
}

/// CheckConvParamsDtype: "one of [DT_FLOAT, DT_FLOAT16, DT_BF16]".
aclnnStatus check_dtype(const aclTensor* tensor, const char* name) {
    const aclDataType dtype = view_of(tensor).dtype;
    if (std::find(kDtypes.begin(), kDtypes.end(), dtype) != kDtypes.end()) return ACLNN_SUCCESS;
    return invalid_expected(name, "incorrect dtype", dtype_name(dtype), "one of [DT_FLOAT, DT_FLOAT16, DT_BF16]");
}

/// DtypeChecker: bias, then x, filter, y.
aclnnStatus check_dtypes(const ConvArgs& a) {
    if (a.bias != nullptr) ACLCPU_RETURN_IF_ERROR(check_dtype(a.bias, "bias"));
    ACLCPU_RETURN_IF_ERROR(check_dtype(a.input, "x"));
    ACLCPU_RETURN_IF_ERROR(check_dtype(a.weight, "filter"));
    return check_dtype(a.output, "y");
}

/// DimChecker::CheckTensorDimensions.
aclnnStatus check_tensor_dims(const ConvArgs& a) {
    const struct {
        const aclTensor* tensor;
        const char* name;
    } tensors[] = {{a.input, "x"}, {a.weight, "filter"}, {a.output, "y"}};
    for (const auto& t : tensors) {
        const size_t rank = shape_of(t.tensor).size();
        if (rank < 3 || rank > 5) {
            return invalid_expected(t.name, "incorrect shape dim", std::to_string(rank), "one of {3, 4, 5}");
        }
    }
    const size_t rank = shape_of(a.input).size();
    const struct {
        const aclTensor* tensor;
        const char* names;
        const char* reason;
    } pairs[] = {{a.weight, "x, filter", "the shape dims of x and filter must be the same"},
                 {a.output, "x, y", "the shape dims of x and y must be the same"}};
    for (const auto& pair : pairs) {
        const size_t other = shape_of(pair.tensor).size();
        if (other != rank) {
            return invalid_with_reason(pair.names, "shape dim", std::to_string(rank) + ", " + std::to_string(other),
                                       pair.reason);
        }
    }
    return ACLNN_SUCCESS;
}

/// DimChecker::CheckBiasDimensions.
aclnnStatus check_bias_dims(const ConvArgs& a) {
    if (a.bias == nullptr) return ACLNN_SUCCESS;
    const Dims& bias = shape_of(a.bias);
    if (bias.size() != 1) return invalid_expected("bias", "incorrect shape dim", std::to_string(bias.size()), "1");
    const Dims& weight = shape_of(a.weight);
    const std::string shapes = shape_text(a.bias) + ", " + shape_text(a.weight);
    if (a.transposed && bias[0] != Wide(weight[1]) * a.groups) {
        return invalid_with_reason("bias, filter", "shape", shapes,
                                   "When transposed is true, shape[0] of bias must be equal to shape[1] of filter "
                                   "multiplied by attribute groups(" + std::to_string(a.groups) + ")");
    }
    if (!a.transposed && bias[0] != weight[0]) {
        return invalid_with_reason("bias, filter", "shape", shapes,
                                   "When transposed is false, shape[0] of bias must be equal to shape[0] of filter");
    }
    return ACLNN_SUCCESS;
}

/// DimChecker::CheckParameterSizes: stride and dilation of rank - 2
/// values; padding of rank - 2 values, or twice that for 1-D and 2-D
/// (2-D transposed too, not 1-D transposed); outputPadding of rank - 2.
aclnnStatus check_list_sizes(const ConvArgs& a) {
    const size_t spatial = shape_of(a.input).size() - 2;
    const auto list_error = [](const char* name, size_t size, const std::string& expected) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Parameter %s of %s has invalid list size %zu. It should be %s.",
                           name, kEntity, size, expected.c_str());
    };
    if (ints(a.stride).size() != spatial) return list_error("strides", ints(a.stride).size(), std::to_string(spatial));
    if (ints(a.dilation).size() != spatial) {
        return list_error("dilations", ints(a.dilation).size(), std::to_string(spatial));
    }
    const size_t pads = ints(a.padding).size();
    const bool eitherSize = (spatial <= 2 && !a.transposed) || (spatial == 2 && a.transposed);
    if (eitherSize && pads != spatial && pads != 2 * spatial) {
        return list_error("pads", pads, std::to_string(spatial) + " or " + std::to_string(2 * spatial));
    }
    if (!eitherSize && pads != spatial) return list_error("pads", pads, std::to_string(spatial));
    if (a.transposed && ints(a.outputPadding).size() != spatial) {
        return list_error("outputPadding", ints(a.outputPadding).size(), std::to_string(spatial));
    }
    return ACLNN_SUCCESS;
}

/// FormatChecker: x and y of one format, bias ND/NCL/NCHW/NCDHW, and per
/// rank NCL; NCHW (a forward filter also FRACTAL_Z); NCDHW or NDHWC.
aclnnStatus check_formats(const ConvArgs& a) {
    const aclFormat x = format_of(a.input), w = format_of(a.weight), y = format_of(a.output);
    if (x != y) {
        return invalid_with_reason("x, y", "format", std::string(format_name(x)) + ", " + format_name(y),
                                   "the formats of these parameters must be the same");
    }
    if (a.bias != nullptr) {
        const aclFormat b = format_of(a.bias);
        if (b != ACL_FORMAT_NCL && b != ACL_FORMAT_NCHW && b != ACL_FORMAT_NCDHW && b != ACL_FORMAT_ND) {
            return invalid_expected("bias", "incorrect format", format_name(b), "one of {NCL, NCHW, NCDHW, ND}");
        }
    }
    switch (shape_of(a.input).size()) {
        case 3:
            if (x != ACL_FORMAT_NCL || w != ACL_FORMAT_NCL || y != ACL_FORMAT_NCL) {
                return invalid_with_reason(
                    "x, filter, y", "format",
                    std::string(format_name(x)) + ", " + format_name(w) + ", " + format_name(y),
                    "formats of x, filter and y should all be NCL");
            }
            return ACLNN_SUCCESS;
        case 4: {
            const bool fractalZ = !a.transposed && w == ACL_FORMAT_FRACTAL_Z;
            if (w != ACL_FORMAT_NCHW && !fractalZ && !a.transposed) {
                return invalid_expected("filter", "incorrect format", format_name(w), "NCHW or FRACTAL_Z");
            }
            if (a.transposed && x != ACL_FORMAT_NCHW) return invalid_expected("x", "incorrect format", format_name(x), "NCHW");
            if (a.transposed && w != ACL_FORMAT_NCHW) {
                return invalid_expected("filter", "incorrect format", format_name(w), "NCHW");
            }
            if (x != ACL_FORMAT_NCHW) return invalid_expected("x", "incorrect format", format_name(x), "NCHW");
            if (y != ACL_FORMAT_NCHW) return invalid_expected("y", "incorrect format", format_name(y), "NCHW");
            return ACLNN_SUCCESS;
        }
        default: {
            const char* names[] = {"x", "filter", "y"};
            const aclFormat formats[] = {x, w, y};
            for (int i = 0; i < 3; ++i) {
                if (formats[i] != ACL_FORMAT_NCDHW && formats[i] != ACL_FORMAT_NDHWC) {
                    return invalid_expected(names[i], "incorrect format", format_name(formats[i]), "NCDHW or NDHWC");
                }
            }
            return ACLNN_SUCCESS;
        }
    }
}

/// The padding of each spatial axis as (before, after): ConstructPad and
/// the ViewConv*Pad*As4d views ([p] -> (p, p); 1-D [l, r]; 2-D [h, w] ->
/// (h, h), (w, w); 2-D [top, bottom, left, right]).
std::vector<std::pair<int64_t, int64_t>> paddings(const ConvArgs& a) {
    const std::vector<int64_t>& pads = ints(a.padding);
    const size_t spatial = shape_of(a.input).size() - 2;
    std::vector<std::pair<int64_t, int64_t>> result;
    for (size_t i = 0; i < spatial; ++i) {
        result.push_back(pads.size() == spatial ? std::pair{pads[i], pads[i]} : std::pair{pads[2 * i], pads[2 * i + 1]});
    }
    return result;
}

/// ValueChecker::CheckShape: the filter's spatial dims above 0 (x's are
/// never negative in a view).
aclnnStatus check_filter_spatial(const ConvArgs& a) {
    const Dims& weight = shape_of(a.weight);
    for (size_t i = 2; i < weight.size(); ++i) {
        if (weight[i] <= 0) {
            return invalid_with_reason("filter", "shape", shape_text(a.weight),
                                       "shape[" + std::to_string(i) + "] of filter must be greater than 0");
        }
    }
    return ACLNN_SUCCESS;
}

/// ValueChecker::CheckVectorValueGt0.
aclnnStatus check_positive(const aclIntArray* array, const char* name) {
    const std::vector<int64_t>& values = ints(array);
    for (size_t i = 0; i < values.size(); ++i) {
        if (values[i] <= 0) {
            return invalid_with_reason(name, "shape", list_text(values),
                                       "shape[" + std::to_string(i) + "] of this parameter must be greater than 0");
        }
    }
    return ACLNN_SUCCESS;
}

/// ValueChecker::CheckPad: a forward convolution of a non-empty x whose
/// padded input is shorter than the dilated kernel.
aclnnStatus check_pad(const ConvArgs& a) {
    if (a.transposed || is_empty(a.input)) return ACLNN_SUCCESS;
    const Dims& x = shape_of(a.input);
    const Dims& w = shape_of(a.weight);
    const auto pads = paddings(a);
    for (size_t i = 0; i + 2 < x.size(); ++i) {
        const Wide padSum = x.size() == 5 ? 2 * Wide(ints(a.padding)[i]) : Wide(pads[i].first) + pads[i].second;
        if (x[i + 2] + padSum - Wide(ints(a.dilation)[i]) * (w[i + 2] - 1) - 1 < 0) {
            const std::string index = std::to_string(i + 2), axis = std::to_string(i);
            return invalid_with_reason("x", "shape", shape_text(a.input),
                                       "These parameters must meet the following condition: x[" + index + "] + pads[" +
                                           axis + (x.size() == 5 ? "] * 2" : "]") + " - dilations[" + axis +
                                           "] * (filter[" + index + "] - 1) - 1 >= 0");
        }
    }
    return ACLNN_SUCCESS;
}

/// ValueChecker::CheckChannelAndGroups (its CheckConvBias repeats
/// DimChecker's bias check and never fails after it).
aclnnStatus check_channels(const ConvArgs& a) {
    const Dims& x = shape_of(a.input);
    const Dims& w = shape_of(a.weight);
    const std::string shapes = shape_text(a.input) + ", " + shape_text(a.weight);
    if (a.transposed) {
        if (w[0] != x[1]) {
            return invalid_with_reason("x, filter", "shape", shapes,
                                       "When transposed is true, shape[0] of filter must be equal to shape[1] of x");
        }
        const std::vector<int64_t>& outputPadding = ints(a.outputPadding);
        for (size_t i = 0; i < outputPadding.size(); ++i) {
            const std::string at = std::to_string(i);
            if (outputPadding[i] >= ints(a.stride)[i] && outputPadding[i] >= ints(a.dilation)[i]) {
                return param_error(ACLNN_ERR_PARAM_INVALID,
                                   "Parameters outputPadding, strides, dilations of %s have incorrect values %s, %s, "
                                   "%s. Reason: outputPadding[%zu] must be less than both stride[%zu] and "
                                   "dilation[%zu].",
                                   kEntity, list_text(outputPadding).c_str(), list_text(ints(a.stride)).c_str(),
                                   list_text(ints(a.dilation)).c_str(), i, i, i);
            }
            if (outputPadding[i] < 0) {
                return param_error(ACLNN_ERR_PARAM_INVALID,
                                   "Parameter outputPadding of %s has incorrect value %ld. Reason: outputPadding[%zu] "
                                   "must be greater than or equal to 0.",
                                   kEntity, static_cast<long>(outputPadding[i]), i);
            }
        }
    } else if (Wide(w[1]) * a.groups != x[1]) {
        return invalid_with_reason("x, filter", "shape", shapes,
                                   "shape[1] of x must be equal to shape[1] of filter multiplied by attribute groups(" +
                                       std::to_string(a.groups) + ")");
    }
    if (w[0] % a.groups != 0) {
        return invalid_with_reason("filter", "shape", shape_text(a.weight),
                                   "shape[0] of filter must be exactly divided by attribute groups(" +
                                       std::to_string(a.groups) + ")");
    }
    return ACLNN_SUCCESS;
}

/// ValueChecker::padBinaryValid: a non-empty transposed convolution's
/// (kernel - 1) * dilation - padding at most 255 (1-D: L; 2-D: W with
/// pads[1], then H with pads[0]; 3-D: W and H, and at least 0).
aclnnStatus check_pad_binary(const ConvArgs& a) {
    if (!a.transposed || is_empty(a.input) || is_empty(a.weight) || is_empty(a.output)) return ACLNN_SUCCESS;
    const Dims& w = shape_of(a.weight);
    const std::vector<int64_t>&d = ints(a.dilation), &p = ints(a.padding);
    const auto span = [&](size_t axis, size_t at) { return Wide(w[axis] - 1) * d[at] - p[at]; };
    std::string condition;
    bool valid = true;
    if (w.size() == 3) {
        valid = span(2, 0) <= kPadBinaryLimit;
        condition = "(filter[2] - 1) * dilations[0] - pads[0] <= 255";
    } else if (w.size() == 4) {
        valid = span(3, 1) <= kPadBinaryLimit && span(2, 0) <= kPadBinaryLimit;
        condition = "(filter[3] - 1) * dilations[1] - pads[1] <= 255 and (filter[2] - 1) * dilations[0] - pads[0] <= 255";
    } else {
        // 3-D: both bounds, on W (dilations[2], pads[2]) and H (dilations[1], pads[1]).
        const Wide widthSpan = span(4, 2), heightSpan = span(3, 1);
        valid = widthSpan >= 0 && widthSpan <= kPadBinaryLimit && heightSpan >= 0 && heightSpan <= kPadBinaryLimit;
        condition = "0 <= (filter[4] - 1) * dilations[2] - pads[2] <= 255 and 0 <= (filter[3] - 1) * dilations[1] - "
                    "pads[1] <= 255";
    }
    if (valid) return ACLNN_SUCCESS;
    return invalid_with_reason("filter, dilations, pads", "shape",
                               shape_text(a.weight) + ", " + list_text(d) + ", " + list_text(p),
                               "These parameters must meet the following condition: " + condition);
}

/// ValueChecker, in its order.
aclnnStatus check_values(const ConvArgs& a) {
    ACLCPU_RETURN_IF_ERROR(check_filter_spatial(a));
    ACLCPU_RETURN_IF_ERROR(check_positive(a.stride, "strides"));
    ACLCPU_RETURN_IF_ERROR(check_positive(a.dilation, "dilations"));
    ACLCPU_RETURN_IF_ERROR(check_pad(a));
    if (a.groups <= 0) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "Parameter groups of %s has incorrect value %ld. Reason: the value should be greater than 0.",
                           kEntity, static_cast<long>(a.groups));
    }
    ACLCPU_RETURN_IF_ERROR(check_channels(a));
    if (a.transposed && shape_of(a.input)[1] == 0) {
        return invalid_with_reason("x", "shape", shape_text(a.input),
                                   "When transposed is true, shape[1] of this parameter must be greater than 0");
    }
    return check_pad_binary(a);
}

/// ConvEngine::InferShape (C++ division, as CANN's).
Dims inferred_output(const ConvArgs& a) {
    const Dims& x = shape_of(a.input);
    const Dims& w = shape_of(a.weight);
    const auto pads = paddings(a);
    Dims out = {x[0], a.transposed ? saturated(Wide(w[1]) * a.groups) : w[0]};
    for (size_t i = 0; i + 2 < x.size(); ++i) {
        const Wide padSum = Wide(pads[i].first) + pads[i].second;
        const Wide k = Wide(ints(a.dilation)[i]) * (w[i + 2] - 1), s = ints(a.stride)[i];
        out.push_back(saturated(a.transposed ? (x[i + 2] - 1) * s - padSum + k + ints(a.outputPadding)[i] + 1
                                             : (x[i + 2] + padSum - k - 1) / s + 1));
    }
    return out;
}

/// ConvXdChecker: y of the inferred shape; empty x or filter, empty y.
aclnnStatus check_output(const ConvArgs& a) {
    const Dims expected = inferred_output(a);
    const Dims& y = shape_of(a.output);
    for (size_t i = 0; i < expected.size(); ++i) {
        if (expected[i] != y[i]) {
            return invalid_with_reason("y", "shape", shape_text(a.output),
                                       "shape[" + std::to_string(i) + "] of y must be equal to its inferred value(" +
                                           std::to_string(expected[i]) + ")");
        }
    }
    if ((is_empty(a.input) || is_empty(a.weight)) && !is_empty(a.output)) {
        return invalid_with_reason("x, filter, y", "shape",
                                   shape_text(a.input) + ", " + shape_text(a.weight) + ", " + shape_text(a.output),
                                   "if x or filter is an empty tensor, output must be an empty tensor. Empty tensor "
                                   "definition: A dimension in the shape is 0. ");
    }
    return ACLNN_SUCCESS;
}

/// HardwareLimitChecker (CheckCubeMathType, matmul/common/op_host/op_api/
/// cube_util.cpp): on A2 every dtype passes, only an unknown value fails.
aclnnStatus check_cube_math_type(int8_t cubeMathType) {
    if (cubeMathType >= 0 && cubeMathType <= kLastCubeMathType) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID,
                       "The value of cubeMathType only support {0: KEEP_DTYPE, 1: ALLOW_FP32_DOWN_PRECISION, 2: "
                       "USE_FP16, 3: USE_HF32, 4: USE_FP32_ADD}, but got %d",
                       cubeMathType);
}

/// acl-cpu's refusals after CANN's checks.
aclnnStatus check_acl_cpu_limits(const ConvArgs& a) {
    for (const aclTensor* tensor : {a.input, a.weight, a.output}) {
        if (format_of(tensor) == ACL_FORMAT_NDHWC) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "acl-cpu reads a 3-D convolution's x, filter and y in format NCDHW only, not NDHWC.");
        }
    }
    if (format_of(a.weight) == ACL_FORMAT_FRACTAL_Z) {
        return param_error(ACLNN_ERR_PARAM_INVALID,
                           "acl-cpu reads filter in format NCHW only; FRACTAL_Z is the NPU's private layout.");
    }
    for (const int64_t p : ints(a.padding)) {
        if (p < 0) {
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Parameter pads of %s has incorrect value %s. It should be greater than or equal to 0.",
                               kEntity, list_text(ints(a.padding)).c_str());
        }
    }
    return ACLNN_SUCCESS;
}

// ---------------------------------------------------------------------------
// The kernel.

/// GetUpperFloatDataType, then USE_FP16.
aclDataType cube_dtype(aclDataType input, aclDataType weight, int8_t cubeMathType) {
    if (cubeMathType == kUseFp16) return ACL_FLOAT16;
    return input == weight ? input : ACL_FLOAT;
}

struct ConvPlan {
    bool transposed = false;
    int64_t groups = 1;
    int64_t inPerGroup = 1;   ///< input channels of a group
    int64_t outPerGroup = 1;  ///< output channels of a group
    WindowPlan gather;        ///< the input and its (forward-equivalent) axes
    TensorView weight;
    TensorView output;
    TensorView bias;  ///< dtype ACL_DT_UNDEFINED without bias
    bool hasBias = false;
    aclDataType cubeDtype = ACL_FLOAT;
    aclDataType resultDtype = ACL_FLOAT;  ///< the kernel's output dtype before the Cast
    aclDataType biasDtype = ACL_FLOAT;
};

/// Output positions per GEMM: the columns (rows x tile) and the result
/// (outPerGroup x tile) in about 256 KiB of staging.
int64_t tile_positions(int64_t rows, int64_t outPerGroup, int64_t positions) {
    constexpr int64_t kTileFloats = 64 * 1024;
    const int64_t tile = std::max<int64_t>(kTileFloats / (rows + outPerGroup), 16) / 16 * 16;
    return std::max<int64_t>(std::min(tile, positions), 1);
}

class ConvolutionKernel final : public OpKernel {
public:
    explicit ConvolutionKernel(const ConvPlan& plan)
        : plan_(plan),
          columns_(plan.gather),
          rows_(plan.inPerGroup * columns_.taps()),
          tile_(tile_positions(rows_, plan.outPerGroup, columns_.positions())),
          tiles_((columns_.positions() + tile_ - 1) / tile_) {
        const int64_t units = plan_.output.shape[0] * plan_.groups * tiles_;
        blocks_ = BlockSplit::front_loaded(units, soc_profile().aiCoreCount, tile_ * plan_.outPerGroup);
    }

    const char* name() const noexcept override { return "aclnnConvolution"; }

    aclError launch(const LaunchArgs& args) const noexcept override {
        if (aclError status = check_tensor_addresses(name(), args, plan_.hasBias ? 3 : 2, 1); status != ACL_SUCCESS) {
            return status;
        }
        const int64_t floats = plan_.outPerGroup * rows_ + rows_ * tile_ + plan_.outPerGroup * tile_;
        const UbStaging staging = UbStaging::per_worker(floats * static_cast<int64_t>(sizeof(float)));
        const __int128 flops = static_cast<__int128>(plan_.output.numel()) * rows_;
        const int64_t bytes = flops > INT64_MAX ? INT64_MAX : static_cast<int64_t>(flops);
        return launch_blocks(name(), blocks_.count(), bytes, [&](int64_t block) {
            run_block(args, blocks_.block(block), reinterpret_cast<float*>(staging.for_block(block)));
        });
    }

    void describe(std::string& details) const override {
        append_trace_arg(details, "blockDim", blocks_.count());
        append_trace_arg(details, "tile", tile_);
    }

private:
    void run_block(const LaunchArgs& args, Range units, float* staging) const {
        float* weight = staging;
        float* columns = weight + plan_.outPerGroup * rows_;
        float* result = columns + rows_ * tile_;
        int64_t stagedGroup = -1;
        for (int64_t unit = units.begin; unit < units.end; ++unit) {
            const int64_t n = unit / (plan_.groups * tiles_);
            const int64_t g = unit / tiles_ % plan_.groups;
            const int64_t begin = unit % tiles_ * tile_;
            const int64_t end = std::min(begin + tile_, columns_.positions());
            const int64_t width = end - begin;
            if (g != stagedGroup) {
                stage_weight(args.inputs[1], g, weight);
                stagedGroup = g;
            }
            columns_.gather(args.inputs[0], n, g * plan_.inPerGroup, plan_.inPerGroup, begin, end, plan_.cubeDtype,
                            columns);
            gemm_f32({weight, plan_.outPerGroup, rows_, rows_, 1}, {columns, rows_, width, width, 1}, 0.0f,
                     {result, plan_.outPerGroup, width, width, 1});
            store(plan_.hasBias ? args.inputs[2] : nullptr, args.outputs[0], n, g, begin, width, result);
        }
    }

    /// Group g's weight as the outPerGroup x rows float matrix of a forward
    /// convolution: transposed, the filter [Cin, Cout / groups, k...] with
    /// its in and out channels swapped and each spatial axis flipped.
    void stage_weight(const void* data, int64_t g, float* to) const {
        visit_storable(
            plan_.weight.dtype,
            [&](auto tag) {
                using T = decltype(tag);
                const T* w = static_cast<const T*>(data);
                const TensorView& view = plan_.weight;
                const size_t spatial = view.shape.size() - 2;
                for (int64_t co = 0; co < plan_.outPerGroup; ++co) {
                    float* row = to + co * rows_;
                    for (int64_t ci = 0; ci < plan_.inPerGroup; ++ci) {
                        const int64_t base =
                            view.offset + (plan_.transposed ? (g * plan_.inPerGroup + ci) * view.strides[0] +
                                                                  co * view.strides[1]
                                                            : (g * plan_.outPerGroup + co) * view.strides[0] +
                                                                  ci * view.strides[1]);
                        int64_t k[kMaxWindowDims] = {};
                        for (int64_t tap = 0; tap < columns_.taps(); ++tap) {
                            int64_t at = base;
                            for (size_t a = 0; a < spatial; ++a) {
                                const int64_t size = view.shape[2 + a];
                                at += (plan_.transposed ? size - 1 - k[a] : k[a]) * view.strides[2 + a];
                            }
                            *row++ = cast_to_float(w[at]);
                            for (int64_t a = static_cast<int64_t>(spatial) - 1;
                                 a >= 0 && ++k[a] == view.shape[2 + static_cast<size_t>(a)]; --a) {
                                k[a] = 0;
                            }
                        }
                    }
                    round_through(plan_.cubeDtype, to + co * rows_, rows_);
                }
            },
            [] {});
    }

    /// Adds the bias, rounds once to the kernel's output dtype and casts
    /// into output: positions [begin, begin + width) of (n, group g).
    void store(const void* bias, void* out, int64_t n, int64_t g, int64_t begin, int64_t width,
               float* result) const {
        const TensorView& view = plan_.output;
        const size_t spatial = view.shape.size() - 2;
        for (int64_t co = 0; co < plan_.outPerGroup; ++co) {
            float* row = result + co * width;
            const int64_t channel = g * plan_.outPerGroup + co;
            if (bias != nullptr) {
                float b = 0.0f;
                visit_storable(
                    plan_.bias.dtype,
                    [&](auto tag) {
                        using T = decltype(tag);
                        b = cast_to_float(static_cast<const T*>(bias)[plan_.bias.offset + channel * plan_.bias.strides[0]]);
                    },
                    [] {});
                round_through(plan_.biasDtype, &b, 1);
                for (int64_t j = 0; j < width; ++j) row[j] += b;
            }
            round_through(plan_.resultDtype, row, width);
            int64_t o[kMaxWindowDims] = {};
            for (int64_t a = static_cast<int64_t>(spatial) - 1, rest = begin; a >= 0; --a) {
                o[a] = rest % view.shape[2 + a];
                rest /= view.shape[2 + a];
            }
            const int64_t base = view.offset + n * view.strides[0] + channel * view.strides[1];
            visit_storable(
                view.dtype,
                [&](auto tag) {
                    using T = decltype(tag);
                    T* y = static_cast<T*>(out);
                    for (int64_t j = 0; j < width; ++j) {
                        int64_t at = base;
                        for (size_t a = 0; a < spatial; ++a) at += o[a] * view.strides[2 + a];
                        y[at] = cast_from_float<T>(row[j]);
                        for (int64_t a = static_cast<int64_t>(spatial) - 1;
                             a >= 0 && ++o[a] == view.shape[2 + a]; --a) {
                            o[a] = 0;
                        }
                    }
                },
                [] {});
        }
    }

    ConvPlan plan_;
    ColumnGather columns_;
    int64_t rows_;
    int64_t tile_;
    int64_t tiles_;
    BlockSplit blocks_;
};

/// The forward-equivalent window axes: a transposed convolution gathers
/// from the input with stride - 1 zeros between elements, padded by
/// dilation * (kernel - 1) - padding (before) and that plus outputPadding
/// (after), at stride 1.
ConvPlan plan_convolution(const ConvArgs& a) {
    ConvPlan plan;
    const Dims& x = shape_of(a.input);
    const Dims& w = shape_of(a.weight);
    plan.transposed = a.transposed;
    plan.groups = a.groups;
    plan.inPerGroup = x[1] / a.groups;
    plan.outPerGroup = a.transposed ? w[1] : w[0] / a.groups;
    plan.gather.spatial = static_cast<int>(x.size()) - 2;
    plan.gather.input = view_of(a.input);
    const Dims& y = shape_of(a.output);
    const auto pads = paddings(a);
    for (int i = 0; i < plan.gather.spatial; ++i) {
        WindowAxis& axis = plan.gather.axes[i];
        axis.inSize = x[2 + i];
        axis.outSize = y[2 + i];
        axis.kernel = w[2 + i];
        axis.dilation = ints(a.dilation)[i];
        if (a.transposed) {
            // Saturated: check_window_axes refuses what is past int32.
            const Wide span = Wide(axis.dilation) * (axis.kernel - 1);
            axis.inputDilation = ints(a.stride)[i];
            axis.padBefore = saturated(span - pads[i].first);
            axis.padAfter = saturated(span - pads[i].second + ints(a.outputPadding)[i]);
        } else {
            axis.stride = ints(a.stride)[i];
            axis.padBefore = pads[i].first;
            axis.padAfter = pads[i].second;
        }
    }
    plan.weight = view_of(a.weight);
    plan.output = view_of(a.output);
    plan.cubeDtype = cube_dtype(view_of(a.input).dtype, plan.weight.dtype, a.cubeMathType);
    plan.resultDtype = plan.cubeDtype;
    if (a.transposed && plan.output.dtype == ACL_FLOAT && a.cubeMathType != kUseFp16) plan.resultDtype = ACL_FLOAT;
    if (a.bias != nullptr) {
        plan.hasBias = true;
        plan.bias = view_of(a.bias);
        const aclDataType b = plan.bias.dtype;
        plan.biasDtype = !a.transposed ? plan.cubeDtype : b == plan.resultDtype ? b : ACL_FLOAT;
        // Bias is cast to FLOAT where the kernels take no BF16 bias: all but the 3-D transposed one.
        if (plan.biasDtype == ACL_BF16 && !(a.transposed && plan.gather.spatial == 3)) plan.biasDtype = ACL_FLOAT;
    }
    return plan;
}

}  // namespace
}  // namespace aclcpu::ops

using namespace aclcpu;
using namespace aclcpu::ops;

extern "C" aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                        const aclTensor* bias, const aclIntArray* stride,
                                                        const aclIntArray* padding, const aclIntArray* dilation,
                                                        bool transposed, const aclIntArray* outputPadding,
                                                        const int64_t groups, aclTensor* output, int8_t cubeMathType,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    const ConvArgs a{input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups, output,
                     cubeMathType};
    ACLCPU_RETURN_IF_ERROR(check_nulls(a, workspaceSize, executor));
    ACLCPU_RETURN_IF_ERROR(check_dtypes(a));
    ACLCPU_RETURN_IF_ERROR(check_tensor_dims(a));
    ACLCPU_RETURN_IF_ERROR(check_bias_dims(a));
    ACLCPU_RETURN_IF_ERROR(check_list_sizes(a));
    ACLCPU_RETURN_IF_ERROR(check_formats(a));
    ACLCPU_RETURN_IF_ERROR(check_values(a));
    ACLCPU_RETURN_IF_ERROR(check_output(a));
    ACLCPU_RETURN_IF_ERROR(check_cube_math_type(cubeMathType));
    ACLCPU_RETURN_IF_ERROR(check_acl_cpu_limits(a));
    std::vector<const aclTensor*> inputs = {input, weight};
    if (bias != nullptr) inputs.push_back(bias);
    if (is_empty(input) || is_empty(weight) || is_empty(output)) {
        return hand_back_empty_executor(inputs, {output}, workspaceSize, executor);
    }
    ACLCPU_RETURN_IF_ERROR(check_view_in_storage({{input, "input"}, {weight, "weight"}, {output, "output"}}));
    if (bias != nullptr) ACLCPU_RETURN_IF_ERROR(check_view_in_storage(bias, "bias"));
    const ConvPlan plan = plan_convolution(a);
    ACLCPU_RETURN_IF_ERROR(check_window_axes(plan.gather.axes, plan.gather.spatial));
    return hand_back_kernel<ConvolutionKernel>(inputs, {output}, 0, workspaceSize, executor, plan);
}

ACLCPU_DEFINE_PHASE2(aclnnConvolution)
