/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnn/aclnn_base.h -- aclnn initialisation, on top of the object model.
 */
#ifndef ACL_CPU_ACLNN_BASE_H_
#define ACL_CPU_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A lighter aclInit covering aclnn only; may be combined with aclInit. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize();

#ifdef __cplusplus
}
#endif

#endif /* ACL_CPU_ACLNN_BASE_H_ */
