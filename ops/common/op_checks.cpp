// acl-cpu ops/common: phase-1 argument checks with CANN's codes and texts.
#include "common/op_checks.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "aclcpu/memcheck.hpp"

namespace aclcpu::ops {

aclnnStatus param_error(aclnnStatus code, const char* format, ...) {
    char message[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof message, format, args);
    va_end(args);
    report_error(code, kAclnnParamTag, "%s", message);
    return code;
}

std::string shape_string(const Dims& shape) {
    std::string text = "[";
    for (size_t d = 0; d < shape.size(); ++d) {
        if (d != 0) text += ',';
        text += std::to_string(shape[d]);
    }
    return text + "]";
}

const char* format_name(aclFormat format) noexcept {
    switch (format) {
        case ACL_FORMAT_NCHW: return "NCHW";
        case ACL_FORMAT_NHWC: return "NHWC";
        case ACL_FORMAT_ND: return "ND";
        case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
        case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
        case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
        case ACL_FORMAT_NCDHW: return "NCDHW";
        case ACL_FORMAT_HWCN: return "HWCN";
        case ACL_FORMAT_NCL: return "NCL";
        case ACL_FORMAT_NDHWC: return "NDHWC";
        default: return "UNDEFINED";
    }
}

bool is_empty(const aclTensor* tensor) noexcept { return view_of(tensor).numel() == 0; }

aclnnStatus check_comm_input(const uint64_t* workspaceSize, aclOpExecutor* const* executor) {
    if (workspaceSize != nullptr && executor != nullptr) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "The workspaceSize or executor is nullptr.");
}

aclnnStatus check_not_null(const aclTensor* tensor, const char* name) {
    if (tensor != nullptr) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper Tensor but got null for argument %s.", name);
}

aclnnStatus check_not_null(const aclScalar* scalar, const char* name) {
    if (scalar != nullptr) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a value of type number for argument %s but instead found type null.", name);
}

aclnnStatus check_not_null(const aclIntArray* array, const char* name) {
    if (array != nullptr) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_NULLPTR, "Expected a proper IntArray but got null for argument %s.", name);
}

aclnnStatus check_dtype_supported(const aclTensor* tensor, const char* name, DtypeList supported) {
    const aclDataType dtype = view_of(tensor).dtype;
    if (contains(supported, dtype)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Tensor %s not implemented for %s, should be in dtype support list %s.", name,
                         dtype_name(dtype), dtype_list_string(supported).c_str());
}

aclnnStatus check_same_dtype(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName) {
    const aclDataType aType = view_of(a).dtype;
    const aclDataType bType = view_of(b).dtype;
    if (aType == bType) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected both tensors to have same dtype, but found %s for %s and %s for %s.",
                         dtype_name(aType), aName, dtype_name(bType), bName);
}

aclnnStatus check_dtype_is(const aclTensor* tensor, const char* name, aclDataType expected) {
    const aclDataType dtype = view_of(tensor).dtype;
    if (dtype == expected) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Tensor %s expected dtype is %s but found %s.", name,
                       dtype_name(expected), dtype_name(dtype));
}

aclnnStatus check_public_formats(const aclTensor* self, const aclTensor* out) {
    const aclFormat format = format_of(self);
    if (format != format_of(out)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "Format of input and output should be equal, self [%s], out [%s].",
                           format_name(format), format_name(format_of(out)));
    }
    switch (format) {
        case ACL_FORMAT_ND: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_HWCN:
        case ACL_FORMAT_NDHWC: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NCL:
            return ACLNN_SUCCESS;
        default:
            return param_error(ACLNN_ERR_PARAM_INVALID,
                               "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW, not support [%s].",
                               format_name(format));
    }
}

aclnnStatus check_can_cast(aclDataType from, aclDataType to) {
    if (can_cast(from, to)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Result type %s can't be cast to the desired output type %s.", dtype_name(from),
                         dtype_name(to));
}

aclnnStatus check_promote_dtype(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName,
                                DtypeList supported, aclDataType* promoted) {
    const aclDataType aType = view_of(a).dtype;
    const aclDataType bType = view_of(b).dtype;
    *promoted = promote_types(aType, bType);
    if (*promoted == ACL_DT_UNDEFINED) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "%s dtype %s and %s dtype %s can not promote dtype.", aName, dtype_name(aType), bName,
                             dtype_name(bType));
    }
    if (contains(supported, *promoted)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Promoted dtype %s of %s and %s should be in dtype support list %s.", dtype_name(*promoted),
                         aName, bName, dtype_list_string(supported).c_str());
}

aclnnStatus check_max_dim(const aclTensor* tensor, const char* name, size_t maxDims) {
    if (view_of(tensor).shape.size() <= maxDims) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "The %s tensor cannot be larger than %zu dimensions.", name, maxDims);
}

aclnnStatus check_min_dim(const aclTensor* tensor, const char* name, size_t minDims) {
    if (view_of(tensor).shape.size() >= minDims) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "The %s tensor must have at least %zu dimensions.", name, minDims);
}

aclnnStatus check_dim_count(const aclTensor* tensor, const char* name, size_t expected) {
    const Dims& shape = view_of(tensor).shape;
    if (shape.size() == expected) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected %zu dimension input, but got %s with sizes %s.", expected,
                       name, shape_string(shape).c_str());
}

aclnnStatus check_same_shape(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName) {
    const Dims& aShape = view_of(a).shape;
    const Dims& bShape = view_of(b).shape;
    if (aShape == bShape) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected tensor for %s to have same size as tensor for %s, but %s does not equal %s.", aName,
                         bName, shape_string(aShape).c_str(), shape_string(bShape).c_str());
}

aclnnStatus check_shape_is(const aclTensor* tensor, const char* name, const Dims& expected) {
    const Dims& shape = view_of(tensor).shape;
    if (shape == expected) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected tensor for %s to have size %s, but got %s.", name, shape_string(expected).c_str(),
                         shape_string(shape).c_str());
}

bool broadcast_shapes(const Dims& a, const Dims& b, Dims* result) {
    const size_t rank = std::max(a.size(), b.size());
    result->resize(rank);
    for (size_t d = 0; d < rank; ++d) {
        // Trailing-aligned; a missing leading dim acts as 1.
        const int64_t x = d < rank - a.size() ? 1 : a[d - (rank - a.size())];
        const int64_t y = d < rank - b.size() ? 1 : b[d - (rank - b.size())];
        if (x != y && x != 1 && y != 1) return false;
        (*result)[d] = x == 1 ? y : x;
    }
    return true;
}

aclnnStatus check_broadcast(const aclTensor* a, const char* aName, const aclTensor* b, const char* bName,
                            Dims* result) {
    const Dims& aShape = view_of(a).shape;
    const Dims& bShape = view_of(b).shape;
    if (broadcast_shapes(aShape, bShape, result)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "The size of tensor %s %s must match the size of tensor %s %s.", aName,
                         shape_string(aShape).c_str(), bName, shape_string(bShape).c_str());
}

aclnnStatus check_scalar_dtype_supported(const aclScalar* scalar, const char* name, DtypeList supported) {
    const aclDataType dtype = dtype_of(scalar);
    if (contains(supported, dtype)) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Tensor %s not implemented for %s, should be in dtype support list %s.",
                       name, dtype_name(dtype), dtype_list_string(supported).c_str());
}

aclnnStatus check_broadcast_into(const aclTensor* self, const aclTensor* other, const aclTensor* out,
                                 const char* outName) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim({{self, "self"}, {other, "other"}}));
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(self, "self", other, "other", &shape));
    if (view_of(out).shape == shape) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, "Expected tensor for %s to have same size as %s, but got %s.", outName,
                       shape_string(shape).c_str(), shape_string(view_of(out).shape).c_str());
}

aclnnStatus check_broadcasts_onto(const aclTensor* selfRef, const aclTensor* other, const char* otherName,
                                  const char* message) {
    Dims shape;
    ACLCPU_RETURN_IF_ERROR(check_broadcast(selfRef, "selfRef", other, otherName, &shape));
    if (view_of(selfRef).shape == shape) return ACLNN_SUCCESS;
    return param_error(ACLNN_ERR_PARAM_INVALID, message, shape_string(shape).c_str(),
                       shape_string(view_of(selfRef).shape).c_str());
}

aclnnStatus check_inplace_broadcast(const aclTensor* selfRef, const aclTensor* other) {
    ACLCPU_RETURN_IF_ERROR(check_not_null({{selfRef, "selfRef"}, {other, "other"}}));
    return check_broadcasts_onto(selfRef, other, "other", "Expected shape of selfRef should be %s, but got %s.");
}

namespace {

/// No memory a device pointer can address is larger (x86-64 and AArch64 user
/// space). Bounding storage by it is what lets every kernel step an index up
/// to a dim's size times its stride, one past the view's end included,
/// without overflowing int64: a dim of n >= 2 elements spans (n - 1) * stride
/// < 2^48 elements, so n * stride < 2^49.
constexpr int64_t kAddressableBytes = int64_t{1} << 48;

/// The product of dims times elementBytes, or false on int64 overflow.
bool byte_size(const Dims& dims, int64_t elementBytes, int64_t* bytes) {
    int64_t product = elementBytes;
    for (int64_t dim : dims) {
        if (__builtin_mul_overflow(product, dim, &product)) return false;
    }
    *bytes = product;
    return true;
}

/// Whether bytes [0, endByte) from tensor's data pointer may be touched.
/// CANN checks no view; acl-cpu does, so that a kernel never strays: the
/// view must stay inside its declared storage or inside the usable bytes of
/// the live aclrtMalloc block its data lies in, and, in such a block, never
/// past the block's reservation, whatever the storage declares.  Each bound
/// is there because a program runs so on Atlas A2: ggml's CANN backend
/// declares the storage of a view with an offset without the offset
/// (ggml_cann_create_tensor, acl_tensor.h); CANN's
/// SoftmaxCrossEntropyWithLogits example allocates its outputs at half
/// their declared size (the device's 512-byte granule holds the rest); and
/// ggml's fused ADD + RMS_NORM declares an rstd of uninitialised size,
/// which the block's reservation refuses.  INT4 counts bytes of two
/// elements; any other dtype without an element size is counted one byte
/// per element; its real size is unknown, so only its declared storage
/// bounds it.
bool reach_allowed(const aclTensor* tensor, int64_t endByte, int64_t storageBytes) {
    const void* data = data_of(tensor);
    const aclDataType dtype = view_of(tensor).dtype;
    if (data == nullptr || (element_size(dtype) <= 0 && dtype != ACL_INT4)) return endByte <= storageBytes;
    switch (device_reach(data, static_cast<uint64_t>(endByte))) {
        case DeviceReach::kInBlock: return true;
        case DeviceReach::kPastReservation: return false;
        default: return endByte <= storageBytes;
    }
}

}  // namespace

aclnnStatus check_view_in_storage(const aclTensor* tensor, const char* name) {
    const TensorView& view = view_of(tensor);
    const int64_t elementBytes = std::max<int64_t>(element_size(view.dtype), 1);
    int64_t viewBytes = 0;
    int64_t storageBytes = 0;
    if (!byte_size(view.shape, elementBytes, &viewBytes) ||
        !byte_size(storage_shape_of(tensor), elementBytes, &storageBytes)) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The size in bytes of tensor %s (view %s, storage %s) overflows int64.", name,
                             shape_string(view.shape).c_str(), shape_string(storage_shape_of(tensor)).c_str());
    }
    if (storageBytes > kAddressableBytes) {
        return param_error(ACLNN_ERR_PARAM_INVALID, "The storage of tensor %s (%s, %lld bytes) is larger than a 48-bit address space "
                             "can hold.", name, shape_string(storage_shape_of(tensor)).c_str(),
                             static_cast<long long>(storageBytes));
    }
    if (viewBytes == 0) return ACLNN_SUCCESS;
    int64_t last = view.offset;
    bool overflow = false;
    for (size_t d = 0; d < view.shape.size(); ++d) {
        int64_t span = 0;
        overflow |= __builtin_mul_overflow(view.shape[d] - 1, view.strides[d], &span);
        overflow |= __builtin_add_overflow(last, span, &last);
    }
    int64_t endByte = 0;
    overflow |= __builtin_mul_overflow(last, elementBytes, &endByte);
    overflow |= __builtin_add_overflow(endByte, elementBytes, &endByte);
    // INT4: offsets, strides and storage count nibbles, two a byte (ggml's
    // Q4_0 weights).
    const bool nibbles = view.dtype == ACL_INT4;
    if (!overflow && reach_allowed(tensor, nibbles ? last / 2 + 1 : endByte, nibbles ? (storageBytes + 1) / 2 : storageBytes)) {
        return ACLNN_SUCCESS;
    }
    return param_error(ACLNN_ERR_PARAM_INVALID, "The view of tensor %s (shape %s, strides %s, offset %lld) reaches outside its storage of %lld "
                         "elements or outside the device memory block its data points into.", name,
                         shape_string(view.shape).c_str(), shape_string(view.strides).c_str(),
                         static_cast<long long>(view.offset), static_cast<long long>(storageBytes / elementBytes));
}

namespace {

/// The first failure of check over args, in their order.
template <class Check>
aclnnStatus first_failure(NamedArgs args, const Check& check) {
    for (const NamedArg& arg : args) ACLCPU_RETURN_IF_ERROR(check(arg));
    return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus check_not_null(NamedArgs args) {
    return first_failure(args, [](const NamedArg& arg) {
        if (arg.isScalar) return check_not_null(arg.scalar, arg.name);
        if (arg.isIntArray) return check_not_null(arg.intArray, arg.name);
        return check_not_null(arg.tensor, arg.name);
    });
}

aclnnStatus check_dtype_supported(NamedArgs tensors, DtypeList supported) {
    return first_failure(tensors, [supported](const NamedArg& arg) {
        return check_dtype_supported(arg.tensor, arg.name, supported);
    });
}

aclnnStatus check_max_dim(NamedArgs tensors) {
    return first_failure(tensors, [](const NamedArg& arg) { return check_max_dim(arg.tensor, arg.name); });
}

aclnnStatus check_view_in_storage(NamedArgs tensors) {
    return first_failure(tensors, [](const NamedArg& arg) { return check_view_in_storage(arg.tensor, arg.name); });
}

aclnnStatus check_given_views_in_storage(NamedArgs tensors) {
    return first_failure(tensors, [](const NamedArg& arg) {
        return arg.tensor == nullptr ? ACLNN_SUCCESS : check_view_in_storage(arg.tensor, arg.name);
    });
}

aclnnStatus check_operands_not_null(const uint64_t* workspaceSize, aclOpExecutor* const* executor,
                                    const aclTensor* self, const aclTensor* out, const char* outName) {
    ACLCPU_RETURN_IF_ERROR(check_comm_input(workspaceSize, executor));
    return check_not_null({{self, "self"}, {out, outName}});
}

aclnnStatus check_same_shape_then_rank(const aclTensor* self, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_same_shape(self, "self", out, "out"));
    return check_max_dim(self, "self");
}

aclnnStatus check_rank_then_same_shape(const aclTensor* self, const aclTensor* out) {
    ACLCPU_RETURN_IF_ERROR(check_max_dim(self, "self"));
    return check_same_shape(self, "self", out, "out");
}

}  // namespace aclcpu::ops
