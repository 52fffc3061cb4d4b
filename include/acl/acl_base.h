/*
 * acl-cpu: AscendCL on the CPU.
 *
 * acl/acl_base.h -- as CANN's: the basic types and functions (acl_base_rt.h),
 * the model API's basic types (acl_base_mdl.h, empty here), and the runtime
 * and graph engine status codes.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_H_
#define INC_EXTERNAL_ACL_ACL_BASE_H_

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* INC_EXTERNAL_ACL_ACL_BASE_H_ */
