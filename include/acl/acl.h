/*
 * acl-cpu: AscendCL on the CPU.
 *
 * acl/acl.h -- the umbrella header host programs include: initialisation
 * and the runtime API.
 */
#ifndef ACL_CPU_ACL_H_
#define ACL_CPU_ACL_H_

#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Initialises AscendCL.  configPath is nullptr or a JSON file; its
 * "acl_cpu" object configures the emulator (see the README).  Calls are
 * reference counted: only the first one reads a configuration, and as many
 * aclFinalize calls end it.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);

/** Drops one aclInit reference; the last one drains all devices and frees every resource. */
ACL_FUNC_VISIBILITY aclError aclFinalize();

/** Same as aclFinalize, named for CANN's strictly reference-counted variant. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t* refCount);

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion);

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACL_H_ */
