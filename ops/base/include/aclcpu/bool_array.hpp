// acl-cpu libnnopbase: the values of an aclBoolArray, for the operators that
// take one (LayerNormBackward's outputMask); kept out of nnopbase.hpp, which
// every operator includes, so that only its users see it.
#pragma once

#include <vector>

#include "aclcpu/export.hpp"
#include "aclnn/acl_meta.h"

namespace aclcpu {

/// The values of an aclBoolArray as given to aclCreateBoolArray.
ACLCPU_EXPORT const std::vector<bool>& values_of(const aclBoolArray* array) noexcept;

}  // namespace aclcpu
