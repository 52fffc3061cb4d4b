/* Runtime calls with enumeration codes C allows and C++ does not (see
 * c_enum_codes.c).  Each returns the call's aclError. */
#ifndef ACLCPU_TESTS_C_ENUM_CODES_H
#define ACLCPU_TESTS_C_ENUM_CODES_H

#include <stddef.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

int c_enum_memcpy(void* dst, const void* src, size_t bytes, int kind);
int c_enum_memcpy_async(void* dst, const void* src, size_t bytes, int kind, aclrtStream stream);
int c_enum_malloc(void** ptr, size_t bytes, int policy);
int c_enum_get_mem_info(int attr);
int c_enum_device_capability(int info);
int c_enum_set_sys_param(int option);
int c_enum_get_sys_param(int option);
int c_enum_get_last_error(int level);
int c_enum_peek_last_error(int level);
int c_enum_launch_callback(int blockType, aclrtStream stream);
void c_enum_app_log(int level);

#ifdef __cplusplus
}
#endif

#endif
