/* Memory calls made from C with any integer as their enumeration argument,
 * as a C program may (C converts the int to the enum type without complaint). */
#include "runtime/c_enum_codes_memory.h"

#include "acl/acl_rt.h"

int c_enum_malloc_with_cfg(void** ptr, size_t bytes, int policy) {
    return aclrtMallocWithCfg(ptr, bytes, policy, NULL);
}

int c_enum_memcpy_2d(void* dst, const void* src, size_t bytes, int kind, aclrtStream stream) {
    if (stream == NULL) return aclrtMemcpy2d(dst, bytes, src, bytes, bytes, 1, kind);
    return aclrtMemcpy2dAsync(dst, bytes, src, bytes, bytes, 1, kind, stream);
}
