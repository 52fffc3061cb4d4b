/* Calls made as a C program makes them: C lets any int stand where CANN's
 * API takes an enum, so these pass codes that are no enumerator.  Compiled
 * as C on purpose -- C++ cannot even form such an enum value without
 * undefined behaviour. */
#include "c_caller.h"

#include "aclnn/acl_meta.h"

int c_caller_tensor_round_trip(int dtypeCode, int formatCode, int* dtypeOut, int* formatOut) {
    float storage[4] = {0};
    aclDataType dtype;
    aclFormat format;
    aclTensor* tensor = c_caller_create_tensor(dtypeCode, formatCode, storage);
    if (tensor == NULL) return -1;
    if (aclGetDataType(tensor, &dtype) != ACLNN_SUCCESS || aclGetFormat(tensor, &format) != ACLNN_SUCCESS) {
        aclDestroyTensor(tensor);
        return -2;
    }
    *dtypeOut = (int)dtype;
    *formatOut = (int)format;
    return aclDestroyTensor(tensor);
}

aclTensor* c_caller_create_tensor(int dtypeCode, int formatCode, float* storage) {
    const int64_t shape[1] = {4};
    return aclCreateTensor(shape, 1, dtypeCode, NULL, 0, formatCode, shape, 1, storage);
}

int c_caller_create_scalar(int dtypeCode) {
    double value = 1.0;
    aclScalar* scalar = aclCreateScalar(&value, dtypeCode);
    if (scalar == NULL) return 0;
    aclDestroyScalar(scalar);
    return 1;
}

size_t c_caller_dtype_size(int dtypeCode) { return aclDataTypeSize(dtypeCode); }
