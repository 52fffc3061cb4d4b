// acl-cpu ops/reduce: what the reduce family's op_apis share -- the
// empty-input FillScalar, CheckShapeAndScalarSame and the one-dim CheckDim
// (aclnn_reduce.cpp), and how a `dtype` argument is read.
#pragma once

#include "common/internal.hpp"

#include "aclcpu/nnopbase.hpp"
#include "common/dtype.hpp"
#include "common/strided_layout.hpp"

namespace aclcpu::ops {

/// FillScalar of the op_apis' empty-input branch: out's dtype in
/// emptyDtypes (else 161002), then value written over all of out.
aclnnStatus hand_back_filled_out(const char* api, const aclTensor* self, const aclTensor* out, DtypeList emptyDtypes,
                                 double value, uint64_t* workspaceSize, aclOpExecutor** executor);

/// CheckShapeAndScalarSame (common/inc/op_api/aclnn_check.h): the reduced
/// shape and out's are equal, or both hold one element -> else 161002.
aclnnStatus check_shape_or_scalar(const Dims& reduced, const aclTensor* out);

/// CheckDim of the op_apis reducing one dim (ArgMax, MaxDim, MinDim): dim
/// in [-rank, rank - 1] ([-1, 0] for a 0-d self) -> its one-bit mask in
/// *mask (0 for a 0-d self); else 161002 with the op_api's `message`, which
/// is given the range's ends then dim (as longs; it may print fewer).
aclnnStatus single_dim_mask(const aclTensor* self, int64_t dim, const char* message, uint32_t* mask);

/// ASCEND910B lists of aclnn_amax.cpp, aclnn_amin.cpp, aclnn_max.cpp and
/// aclnn_min.cpp (one set).
inline constexpr DtypeList kExtremumDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8, ACL_INT32, ACL_INT64,
                                              ACL_INT16, ACL_INT8,    ACL_DOUBLE, ACL_BOOL, ACL_BF16};

/// A `dtype` argument as a C caller passed it (any int, read as a code):
/// itself, or ACL_DT_UNDEFINED for a code that is no data type, which every
/// list refuses.
inline aclDataType dtype_argument(const aclDataType& dtype) noexcept { return dtype_from_code(code_of(dtype)); }

}  // namespace aclcpu::ops
