/* Memory calls with enumeration codes C allows and C++ does not (see
 * c_enum_codes_memory.c).  Each returns the call's aclError. */
#ifndef ACLCPU_TESTS_C_ENUM_CODES_MEMORY_H
#define ACLCPU_TESTS_C_ENUM_CODES_MEMORY_H

#include <stddef.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

int c_enum_malloc_with_cfg(void** ptr, size_t bytes, int policy);
/* A 2-D copy of one row of `bytes` bytes; with a null stream the synchronous aclrtMemcpy2d. */
int c_enum_memcpy_2d(void* dst, const void* src, size_t bytes, int kind, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
