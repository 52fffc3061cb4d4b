// acl-cpu: aclnnInit / aclnnFinalize, the aclnn-only initialisation.
#include "aclcpu/init.hpp"
#include "aclcpu/nnopbase.hpp"
#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

extern "C" {

aclnnStatus aclnnInit(const char* configPath) { return aclcpu::ensure_initialised(configPath); }

// aclnnInit takes a reference on the runtime shared with aclInit; this
// returns it.
aclnnStatus aclnnFinalize() { return aclFinalize(); }

}  // extern "C"
