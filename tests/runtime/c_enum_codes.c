/* Runtime calls made as a C program makes them: C lets any int stand where
 * CANN's API takes an enum, so each passes a code that is no enumerator.
 * Compiled as C on purpose (C++ cannot form such an enum value without
 * undefined behaviour); error_test.cpp checks the answers. */
#include "runtime/c_enum_codes.h"

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

static void noop_callback(void* userData) { (void)userData; }

int c_enum_memcpy(void* dst, const void* src, size_t bytes, int kind) {
    return aclrtMemcpy(dst, bytes, src, bytes, kind);
}

int c_enum_memcpy_async(void* dst, const void* src, size_t bytes, int kind, aclrtStream stream) {
    return aclrtMemcpyAsync(dst, bytes, src, bytes, kind, stream);
}

int c_enum_malloc(void** ptr, size_t bytes, int policy) { return aclrtMalloc(ptr, bytes, policy); }

int c_enum_get_mem_info(int attr) {
    size_t freeBytes = 0, totalBytes = 0;
    return aclrtGetMemInfo(attr, &freeBytes, &totalBytes);
}

int c_enum_device_capability(int info) {
    int64_t value = 0;
    return aclGetDeviceCapability(0, info, &value);
}

int c_enum_set_sys_param(int option) { return aclrtCtxSetSysParamOpt(option, 1); }

int c_enum_get_sys_param(int option) {
    int64_t value = 0;
    return aclrtCtxGetSysParamOpt(option, &value);
}

int c_enum_get_last_error(int level) { return aclrtGetLastError(level); }

int c_enum_peek_last_error(int level) { return aclrtPeekAtLastError(level); }

int c_enum_launch_callback(int blockType, aclrtStream stream) {
    return aclrtLaunchCallback(noop_callback, NULL, blockType, stream);
}

void c_enum_app_log(int level) { aclAppLog(level, "c_enum_app_log", __FILE__, __LINE__, "level %d", level); }

int c_enum_malloc_with_cfg(void** ptr, size_t bytes, int policy) {
    return aclrtMallocWithCfg(ptr, bytes, policy, NULL);
}

int c_enum_memcpy_2d(void* dst, const void* src, size_t bytes, int kind, aclrtStream stream) {
    if (stream == NULL) return aclrtMemcpy2d(dst, bytes, src, bytes, bytes, 1, kind);
    return aclrtMemcpy2dAsync(dst, bytes, src, bytes, bytes, 1, kind, stream);
}

int c_enum_tdt_data_item(int tensorType, int dataType) {
    int64_t dims[1] = {1};
    float value = 1.0f;
    acltdtDataItem* item = acltdtCreateDataItem(tensorType, dims, 1, dataType, &value, sizeof value);
    if (item == NULL) return 0;
    acltdtDestroyDataItem(item);
    return 1;
}

int c_enum_tdt_set_queue_attr(int type) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    uint32_t depth = 4;
    const int status = acltdtSetQueueAttr(attr, type, sizeof depth, &depth);
    acltdtDestroyQueueAttr(attr);
    return status;
}

int c_enum_set_stream_attribute(aclrtStream stream, int attr, aclrtStreamAttrValue* value) {
    return aclrtSetStreamAttribute(stream, attr, value);
}

int c_enum_get_stream_attribute(aclrtStream stream, int attr, aclrtStreamAttrValue* value) {
    return aclrtGetStreamAttribute(stream, attr, value);
}
