/*
 * acl-cpu: AscendCL on the CPU.
 *
 * acl/acl.h -- the umbrella header host programs include.  As CANN's, it
 * pulls in the runtime API (acl_rt.h) and the two compatibility headers of
 * the operator and model APIs (acl_op.h, acl_mdl.h), which are empty.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
