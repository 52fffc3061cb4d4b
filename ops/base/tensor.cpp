// acl-cpu: aclTensor, a view (shape, strides, offset, dtype) over device
// memory the tensor does not own.
#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

#include "aclcpu/nnopbase.hpp"
#include "arguments.hpp"

struct aclTensor {
    aclcpu::TensorView view;
    aclcpu::Dims storageShape;
    /// The codes the caller passed, which need not be enumerators (a C caller
    /// may pass any integer): aclGetDataType and aclGetFormat hand them back,
    /// while view.dtype and format_of() read an unknown code as UNDEFINED.
    int32_t dtypeCode = ACL_DT_UNDEFINED;
    int32_t formatCode = ACL_FORMAT_UNDEFINED;
    void* data = nullptr;
};
static_assert(sizeof(aclDataType) == sizeof(int32_t) && sizeof(aclFormat) == sizeof(int32_t),
              "codes are handed back through the caller's enum variables");

namespace aclcpu {

int64_t TensorView::numel() const noexcept {
    // aclCreateTensor lets any non-negative dims through, so the product may
    // not fit: it saturates, which no operator's storage check lets pass,
    // rather than wrap to a small count (an "empty" tensor) or to garbage.
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
    int64_t count = 1;
    for (int64_t dim : shape) {
        if (__builtin_mul_overflow(count, dim, &count)) return std::numeric_limits<int64_t>::max();
    }
    return count;
}

bool TensorView::is_contiguous() const noexcept {
    // A dim of size 1 is never stepped over, so its stride does not matter;
    // an empty tensor has no element to misplace.
    if (numel() == 0) return true;
    int64_t expected = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        if (shape[i] != 1 && strides[i] != expected) return false;
        // A view of more than INT64_MAX elements fits no memory, so it is not dense.
        if (__builtin_mul_overflow(expected, shape[i], &expected)) return false;
    }
    return true;
}

const TensorView& view_of(const aclTensor* tensor) noexcept { return tensor->view; }
aclFormat format_of(const aclTensor* tensor) noexcept {
    switch (tensor->formatCode) {
        case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND: case ACL_FORMAT_NC1HWC0:
        case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_HWCN: case ACL_FORMAT_NDHWC:
        case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NDC1HWC0: case ACL_FRACTAL_Z_3D:
        case ACL_FORMAT_NC: case ACL_FORMAT_NCL: case ACL_FORMAT_FRACTAL_NZ_C0_16: case ACL_FORMAT_FRACTAL_NZ_C0_32:
        case ACL_FORMAT_FRACTAL_NZ_C0_2: case ACL_FORMAT_FRACTAL_NZ_C0_4: case ACL_FORMAT_FRACTAL_NZ_C0_8:
            return static_cast<aclFormat>(tensor->formatCode);
        default:
            return ACL_FORMAT_UNDEFINED;
    }
}
void* data_of(const aclTensor* tensor) noexcept { return tensor->data; }
const Dims& storage_shape_of(const aclTensor* tensor) noexcept { return tensor->storageShape; }

void set_storage_layout(aclTensor* tensor, aclFormat format, Dims storageShape) {
    tensor->formatCode = format;
    tensor->storageShape = std::move(storageShape);
}

}  // namespace aclcpu

namespace {

using aclcpu::null_argument;
using aclcpu::report_error;

bool any_negative(const int64_t* values, uint64_t count) {
    return values != nullptr && std::any_of(values, values + count, [](int64_t v) { return v < 0; });
}

/// CANN's ToContiguousStrides: the plain suffix products of the shape.  A
/// product past INT64_MAX wraps as CANN's int64 arithmetic does on its host
/// (computed unsigned, so it is defined here); such a view's size overflows
/// int64 and every operator refuses it.
aclcpu::Dims row_major_strides(const aclcpu::Dims& shape) {
    aclcpu::Dims strides;
    strides.resize(shape.size());
    uint64_t step = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        strides[i] = static_cast<int64_t>(step);
        step *= static_cast<uint64_t>(shape[i]);
    }
    return strides;
}

/// Validates the arguments of aclCreateTensor / aclInitTensor and, when they
/// are valid, describes tensor with them.  tensor is left untouched on failure.
/// dtypeCode and formatCode are the caller's enumeration arguments, read with
/// code_of: they are kept as given, whatever their value.
aclnnStatus describe(const char* api, aclTensor& tensor, const int64_t* viewDims, uint64_t viewDimsNum,
                     int64_t dtypeCode, const int64_t* stride, int64_t offset, int64_t formatCode,
                     const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
    if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0)) {
        report_error(ACLNN_ERR_PARAM_NULLPTR, aclcpu::kAclnnParamTag,
                     "%s: viewDims or storageDims is nullptr while its count is not zero.", api);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    // Storage dims are kept as given, negative ones too: CANN's aclTensor
    // constructor (opbase common_types.cpp) stores them unchecked, and ggml's
    // CANN backend passes 1 - stride for the storage of an empty view
    // (ggml_cann_create_tensor, SET_ROWS of no rows).  An operator bounds a
    // non-empty view by its storage (check_view_in_storage), which a
    // negative storage cannot hold.  View dims, strides and offset stay
    // refused as opbase's aclCreateTensor doc asks: every kernel indexes with
    // them.
    if (any_negative(viewDims, viewDimsNum) || any_negative(stride, viewDimsNum) || offset < 0) {
        report_error(ACLNN_ERR_PARAM_INVALID, aclcpu::kAclnnParamTag,
                     "%s: view dims, strides and offset must be non-negative.", api);
        return ACLNN_ERR_PARAM_INVALID;
    }
    try {
        aclcpu::TensorView view;
        view.shape.assign(viewDims, viewDimsNum);
        view.strides = stride != nullptr ? aclcpu::Dims(stride, viewDimsNum) : row_major_strides(view.shape);
        view.offset = offset;
        view.dtype = aclcpu::dtype_from_code(dtypeCode);
        aclcpu::Dims storageShape(storageDims, storageDimsNum);
        tensor.view = view;
        tensor.storageShape = storageShape;
    } catch (const std::bad_alloc&) {
        report_error(ACLNN_ERR_INNER, aclcpu::kAclnnInnerTag, "%s error: out of host memory.", api);
        return ACLNN_ERR_INNER;
    }
    tensor.dtypeCode = static_cast<int32_t>(dtypeCode);
    tensor.formatCode = static_cast<int32_t>(formatCode);
    tensor.data = tensorData;
    return ACLNN_SUCCESS;
}

/// Hands a copy of dims to the caller, allocated with new[] as CANN documents.
aclnnStatus copy_out(const char* api, const aclcpu::Dims& dims, int64_t** values, uint64_t* count) {
    auto* copy = new (std::nothrow) int64_t[dims.size()];
    if (copy == nullptr) {
        report_error(ACLNN_ERR_INNER_NULLPTR, aclcpu::kAclnnInnerTag, "%s: out of host memory.", api);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    std::copy(dims.begin(), dims.end(), copy);
    *values = copy;
    *count = dims.size();
    return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
    auto* tensor = new (std::nothrow) aclTensor;
    if (tensor == nullptr) {
        report_error(ACLNN_ERR_INNER, aclcpu::kAclnnInnerTag, "aclCreateTensor error: out of host memory.");
        return nullptr;
    }
    if (describe("aclCreateTensor", *tensor, viewDims, viewDimsNum, aclcpu::code_of(dataType), stride, offset,
                 aclcpu::code_of(format), storageDims, storageDimsNum, tensorData) != ACLNN_SUCCESS) {
        delete tensor;
        return nullptr;
    }
    return tensor;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                          uint64_t storageDimsNum, void* tensorData) {
    if (null_argument("aclInitTensor", tensor == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    return describe("aclInitTensor", *tensor, viewDims, viewDimsNum, aclcpu::code_of(dataType), stride, offset,
                    aclcpu::code_of(format), storageDims, storageDimsNum, tensorData);
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    delete tensor;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
    if (null_argument("aclGetViewShape", tensor == nullptr || viewDims == nullptr || viewDimsNum == nullptr)) {
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    return copy_out("aclGetViewShape", tensor->view.shape, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
    if (null_argument("aclGetStorageShape", tensor == nullptr || storageDims == nullptr || storageDimsNum == nullptr)) {
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    return copy_out("aclGetStorageShape", tensor->storageShape, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
    if (null_argument("aclGetViewStrides", tensor == nullptr || stridesValue == nullptr || stridesNum == nullptr)) {
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    return copy_out("aclGetViewStrides", tensor->view.strides, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
    if (null_argument("aclGetViewOffset", tensor == nullptr || offset == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    *offset = tensor->view.offset;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
    if (null_argument("aclGetFormat", tensor == nullptr || format == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    std::memcpy(format, &tensor->formatCode, sizeof tensor->formatCode);
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
    if (null_argument("aclGetDataType", tensor == nullptr || dataType == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    std::memcpy(dataType, &tensor->dtypeCode, sizeof tensor->dtypeCode);
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
    if (null_argument("aclSetRawTensorAddr", tensor == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    tensor->data = addr;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
    if (null_argument("aclGetRawTensorAddr", tensor == nullptr || addr == nullptr)) return ACLNN_ERR_PARAM_NULLPTR;
    *addr = tensor->data;
    return ACLNN_SUCCESS;
}

}  // extern "C"
