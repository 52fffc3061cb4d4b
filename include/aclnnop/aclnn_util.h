/*
 * acl-cpu: AscendCL on the CPU.
 *
 * aclnnop/aclnn_util.h -- the export macro of the operator headers.
 */
#ifndef ACL_CPU_ACLNN_UTIL_H_
#define ACL_CPU_ACLNN_UTIL_H_

#define ACLNN_API __attribute__((visibility("default")))

#endif /* ACL_CPU_ACLNN_UTIL_H_ */
