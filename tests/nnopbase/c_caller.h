/* Calls into the API made from C, with enumeration codes C allows and C++
 * does not (see c_caller.c). */
#ifndef ACLCPU_TESTS_C_CALLER_H
#define ACLCPU_TESTS_C_CALLER_H

#include <stddef.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a 4-element tensor with these codes and reads them back; 0 on success. */
int c_caller_tensor_round_trip(int dtypeCode, int formatCode, int* dtypeOut, int* formatOut);
/** A 4-element tensor over storage, made with these codes. */
aclTensor* c_caller_create_tensor(int dtypeCode, int formatCode, float* storage);
/** 1 when aclCreateScalar accepts dtypeCode, 0 when it refuses it. */
int c_caller_create_scalar(int dtypeCode);
size_t c_caller_dtype_size(int dtypeCode);

#ifdef __cplusplus
}
#endif

#endif
