// acl-cpu runtime: virtual memory management -- reserved address ranges,
// physical memory handles and the mappings between them (acl_rt.h).
#include "acl/acl_rt.h"
#include "aclcpu/dtype.hpp"
#include "aclcpu/instrumentation.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/virtual_memory.hpp"

using aclcpu::api::not_supported;
using aclcpu::detail::param_error;
using aclcpu::detail::VirtualMemory;
using aclcpu::instrument::ApiScope;

namespace {

constexpr char kNoSharing[] =
    "shareable handles pass physical memory to another process; acl-cpu's physical memory is not yet exported "
    "across processes, and CANN refuses an import in the exporting process itself";
constexpr char kNoLinks[] = "there are no SIO or HCCS links between emulated devices: all of them share host memory";
constexpr char kNoUcMemory[] =
    "the uncached (UC) memory that this reservation excludes does not exist on the host: use aclrtReserveMemAddress";

/// The memory attributes CANN's acl layer maps to page and memory types
/// (src/acl/aclrt_impl/memory.cpp, memAttrHandlers): ACL_DDR_MEM, ACL_HBM_MEM
/// and the ACL_HBM_MEM_P2P_* attributes are not among them.
bool is_known_attribute(int64_t attr) {
    switch (attr) {
        case ACL_HBM_MEM_HUGE:
        case ACL_HBM_MEM_NORMAL:
        case ACL_HBM_MEM_HUGE1G:
        case ACL_DDR_MEM_HUGE:
        case ACL_DDR_MEM_NORMAL:
        case ACL_DDR_MEM_P2P_HUGE:
        case ACL_DDR_MEM_P2P_NORMAL:
        case ACL_MEM_NORMAL:
        case ACL_MEM_HUGE:
        case ACL_MEM_HUGE1G:
        case ACL_MEM_P2P_NORMAL:
        case ACL_MEM_P2P_HUGE:
        case ACL_MEM_P2P_HUGE1G: return true;
        default: return false;
    }
}

bool is_ddr_attribute(int64_t attr) {
    return attr == ACL_DDR_MEM_HUGE || attr == ACL_DDR_MEM_NORMAL || attr == ACL_DDR_MEM_P2P_HUGE ||
           attr == ACL_DDR_MEM_P2P_NORMAL;
}

/// The checks aclrtMallocPhysicalImpl and aclrtMemGetAllocationGranularityImpl
/// share: the ACL_DDR_MEM_* attributes are host memory only, and the
/// attribute must be one CANN maps.
aclError check_attribute(const aclrtPhysicalMemProp& prop, const char* api) {
    const int64_t attr = aclcpu::code_of(prop.memAttr);
    if (is_ddr_attribute(attr) && aclcpu::code_of(prop.location.type) == ACL_MEM_LOCATION_TYPE_DEVICE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: memAttr %lld is for host locations only", api,
                           static_cast<long long>(attr));
    }
    if (!is_known_attribute(attr)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: unsupported memAttr %lld", api, static_cast<long long>(attr));
    }
    return ACL_SUCCESS;
}

/// aclrtMallocPhysicalImpl's checks of the description: only
/// ACL_MEM_HANDLE_TYPE_NONE (aclrtPhysicalMemProp's documentation) and
/// pinned memory, on a host or device location, with a supported attribute.
aclError check_physical_properties(const aclrtPhysicalMemProp& prop, const char* api) {
    if (aclcpu::code_of(prop.handleType) != ACL_MEM_HANDLE_TYPE_NONE) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: handleType %lld is not ACL_MEM_HANDLE_TYPE_NONE", api,
                           static_cast<long long>(aclcpu::code_of(prop.handleType)));
    }
    if (aclcpu::code_of(prop.allocationType) != ACL_MEM_ALLOCATION_TYPE_PINNED) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED", api);
    }
    const int64_t location = aclcpu::code_of(prop.location.type);
    if (location != ACL_MEM_LOCATION_TYPE_DEVICE && location != ACL_MEM_LOCATION_TYPE_HOST &&
        location != ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: location type %lld is neither device nor host", api,
                           static_cast<long long>(location));
    }
    return check_attribute(prop, api);
}

aclError check_reserved_flags(uint64_t flags, const char* api) {
    if (flags == 0) return ACL_SUCCESS;
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: flags 0x%llx must be 0", api,
                       static_cast<unsigned long long>(flags));
}

aclError map(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags, bool accessible,
             const char* api) {
    const ApiScope scope(api);
    if (virPtr == nullptr || handle == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: virPtr or handle is null", api);
    }
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "%s: size is 0", api);
    if (aclError status = check_reserved_flags(flags, api); status != ACL_SUCCESS) return status;
    return VirtualMemory::instance().map(virPtr, size, offset, handle, accessible, api);
}

}  // namespace

extern "C" {

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
    const ApiScope scope("aclrtReserveMemAddress");
    if (virPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: virPtr is null");
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: size is 0");
    // CANN reserves alignment for later use (0); a power of two is honoured rather than refused.
    if (alignment != 0 && (alignment & (alignment - 1)) != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReserveMemAddress: alignment %zu is not a power of two",
                           alignment);
    }
    // CANN's aclrtReserveMemAddressImpl also takes 1, kept for the early interface's callers.
    if (flags != 1) {
        if (aclError status = check_reserved_flags(flags, "aclrtReserveMemAddress"); status != ACL_SUCCESS) {
            return status;
        }
    }
    return VirtualMemory::instance().reserve(size, alignment, expectPtr, virPtr);
}

aclError aclrtReserveMemAddressNoUCMemory(void**, size_t, size_t, void*, uint64_t) {
    return not_supported(__func__, kNoUcMemory);
}

aclError aclrtReleaseMemAddress(void* virPtr) {
    const ApiScope scope("aclrtReleaseMemAddress");
    if (virPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtReleaseMemAddress: virPtr is null");
    return VirtualMemory::instance().release(virPtr);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop, uint64_t flags) {
    const ApiScope scope("aclrtMallocPhysical");
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: handle is null");
    if (prop == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: prop is null");
    if (size == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMallocPhysical: size is 0");
    if (aclError status = check_reserved_flags(flags, "aclrtMallocPhysical"); status != ACL_SUCCESS) return status;
    if (aclError status = check_physical_properties(*prop, "aclrtMallocPhysical"); status != ACL_SUCCESS) {
        return status;
    }
    return VirtualMemory::instance().allocate_physical(size, *prop, handle);
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
    const ApiScope scope("aclrtFreePhysical");
    if (handle == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtFreePhysical: handle is null");
    return VirtualMemory::instance().free_physical(handle);
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
    return map(virPtr, size, offset, handle, flags, true, "aclrtMapMem");
}

aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
    return map(virPtr, size, offset, handle, flags, false, "aclrtMemMapNoAccess");
}

aclError aclrtUnmapMem(void* virPtr) {
    const ApiScope scope("aclrtUnmapMem");
    if (virPtr == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtUnmapMem: virPtr is null");
    return VirtualMemory::instance().unmap(virPtr);
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                                          size_t* granularity) {
    // Only the attribute is checked (aclrtMemGetAllocationGranularityImpl): handle, allocation and location types
    // do not change the granularity.
    if (prop == nullptr || granularity == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity: prop or granularity is null");
    }
    if (aclError status = check_attribute(*prop, "aclrtMemGetAllocationGranularity"); status != ACL_SUCCESS) {
        return status;
    }
    const int64_t which = aclcpu::code_of(option);
    if (which != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && which != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAllocationGranularity: unknown option %lld",
                           static_cast<long long>(which));
    }
    // The host maps whole pages of the attribute's size: minimum and recommendation agree.
    *granularity = aclcpu::detail::mapping_granularity(aclcpu::code_of(prop->memAttr));
    return ACL_SUCCESS;
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
    const ApiScope scope("aclrtMemSetAccess");
    if (virPtr == nullptr || desc == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemSetAccess: virPtr or desc is null");
    }
    if (size == 0 || count == 0) return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemSetAccess: size or count is 0");
    return VirtualMemory::instance().set_access(virPtr, size, desc, count);
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
    if (virPtr == nullptr || location == nullptr || flag == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemGetAccess: virPtr, location or flag is null");
    }
    return VirtualMemory::instance().get_access(virPtr, *location, flag);
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
    if (virPtr == nullptr || handle == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtMemRetainAllocationHandle: virPtr or handle is null");
    }
    return VirtualMemory::instance().retain(virPtr, handle);
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) {
    if (handle == nullptr || prop == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM,
                           "aclrtMemGetAllocationPropertiesFromHandle: handle or prop is null");
    }
    return VirtualMemory::instance().properties(handle, prop);
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle, aclrtMemHandleType, uint64_t, uint64_t*) {
    return not_supported(__func__, kNoSharing);
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle, uint64_t, aclrtMemSharedHandleType, void*) {
    return not_supported(__func__, kNoSharing);
}

aclError aclrtMemImportFromShareableHandle(uint64_t, int32_t, aclrtDrvMemHandle*) {
    return not_supported(__func__, kNoSharing);
}

aclError aclrtMemImportFromShareableHandleV2(void*, aclrtMemSharedHandleType, uint64_t, aclrtDrvMemHandle*) {
    return not_supported(__func__, kNoSharing);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t, int32_t*, size_t) { return not_supported(__func__, kNoSharing); }

aclError aclrtMemSetPidToShareableHandleV2(void*, aclrtMemSharedHandleType, int32_t*, size_t) {
    return not_supported(__func__, kNoSharing);
}

aclError aclrtMemMapSetLink(aclrtDrvMemHandle, aclrtMemLinkType) { return not_supported(__func__, kNoLinks); }

aclError aclrtMemMapSelectedLink(void*, size_t, void*, uint32_t) { return not_supported(__func__, kNoLinks); }

}  // extern "C"
