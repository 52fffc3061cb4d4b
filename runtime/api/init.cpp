// acl-cpu runtime API: initialisation (acl.h).
#include "acl/acl.h"
#include "aclcpu/init.hpp"
#include "core/errors.hpp"
#include "core/runtime_state.hpp"
#include "observe/observers.hpp"

using aclcpu::detail::param_error;
using aclcpu::detail::Runtime;

namespace aclcpu {

aclError ensure_initialised(const char* configPath) {
    return Runtime::instance().initialise(configPath, observe::attach_configured);
}

}  // namespace aclcpu

extern "C" {

aclError aclInit(const char* configPath) { return aclcpu::ensure_initialised(configPath); }

aclError aclFinalize() { return Runtime::instance().finalise(); }

aclError aclFinalizeReference(uint64_t* refCount) { return Runtime::instance().finalise(refCount); }

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: an output pointer is null");
    }
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

}  // extern "C"
