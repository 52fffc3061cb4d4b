/* Runtime calls with enumeration codes C allows and C++ does not (see
 * c_enum_codes.c).  Each returns the call's aclError. */
#ifndef ACLCPU_TESTS_C_ENUM_CODES_H
#define ACLCPU_TESTS_C_ENUM_CODES_H

#include <stddef.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

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
int c_enum_malloc_with_cfg(void** ptr, size_t bytes, int policy);
/* A 2-D copy of one row of `bytes` bytes; with a null stream the synchronous aclrtMemcpy2d. */
int c_enum_memcpy_2d(void* dst, const void* src, size_t bytes, int kind, aclrtStream stream);
/* acltdtCreateDataItem of a 1-element tensor: 1 when it returned an item (destroyed again), 0 when null. */
int c_enum_tdt_data_item(int tensorType, int dataType);
/* acltdtSetQueueAttr with an attribute type code on a fresh attribute set. */
int c_enum_tdt_set_queue_attr(int type);
/* aclrtSetStreamAttribute / aclrtGetStreamAttribute with an attribute code; value may be null. */
int c_enum_set_stream_attribute(aclrtStream stream, int attr, aclrtStreamAttrValue* value);
int c_enum_get_stream_attribute(aclrtStream stream, int attr, aclrtStreamAttrValue* value);

#ifdef __cplusplus
}
#endif

#endif
