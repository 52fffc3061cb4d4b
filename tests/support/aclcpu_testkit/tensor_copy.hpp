// acl-cpu test kit: copy_tensor, a second aclTensor over a tensor's view,
// and take_array, which reads the arrays a tensor's getters hand out.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

namespace aclcpu::testkit {

/// A new aclTensor with t's view, dtype, format, storage shape and data
/// pointer (nullptr for a null t): for an aclTensorList, which destroys
/// the tensors it holds, over tensors the caller keeps.
inline const aclTensor* copy_tensor(const aclTensor* t) {
    if (t == nullptr) return nullptr;
    int64_t* shape = nullptr;
    uint64_t rank = 0;
    int64_t* strides = nullptr;
    uint64_t strideCount = 0;
    int64_t* storage = nullptr;
    uint64_t storageRank = 0;
    int64_t offset = 0;
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_ND;
    void* data = nullptr;
    aclGetViewShape(t, &shape, &rank);
    aclGetViewStrides(t, &strides, &strideCount);
    aclGetStorageShape(t, &storage, &storageRank);
    aclGetViewOffset(t, &offset);
    aclGetDataType(t, &dtype);
    aclGetFormat(t, &format);
    aclGetRawTensorAddr(t, &data);
    const aclTensor* copy = aclCreateTensor(shape, rank, dtype, strides, offset, format, storage, storageRank, data);
    delete[] shape;
    delete[] strides;
    delete[] storage;
    return copy;
}

/// The array getter(tensor, &values, &count) hands out (aclGetViewShape,
/// aclGetStorageShape, ...), released with delete[] as CANN documents; empty
/// when the getter fails.
template <typename Getter>
std::vector<int64_t> take_array(Getter getter, const aclTensor* tensor) {
    int64_t* values = nullptr;
    uint64_t count = 0;
    if (getter(tensor, &values, &count) != 0) return {};
    std::vector<int64_t> copy(values, values + count);
    delete[] values;
    return copy;
}

}  // namespace aclcpu::testkit
