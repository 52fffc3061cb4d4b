// acl-cpu: the comparison family's vector blocks, compiled for every SIMD
// target Highway dispatches to at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "comparison/comparison_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstdint>

#include "common/binary-inl.h"
#include "common/elementwise-inl.h"
#include "common/hwy_target.hpp"
#include "comparison/comparison_kernel.hpp"

ACLCPU_BEGIN_TARGET_NAMESPACE();
namespace {

enum class Relation : uint8_t { equal, greater };

/// 1 where a and b are in the relation, 0 elsewhere: CANN's BOOL result as
/// its Cast to a float out gives it.
template <Relation kRelation>
struct RelationVector : VectorFunction<NoParams> {
    V operator()(D d, V a, V b) const {
        const auto holds = kRelation == Relation::equal ? hn::Eq(a, b) : hn::Gt(a, b);
        return hn::IfThenElseZero(holds, hn::Set(d, 1.0f));
    }
};
using EqualVector = RelationVector<Relation::equal>;
using GreaterVector = RelationVector<Relation::greater>;

}  // namespace

ACLCPU_COMPARISON_BLOCKS(ACLCPU_BINARY_TARGET_BLOCKS)

ACLCPU_END_TARGET_NAMESPACE();

#if HWY_ONCE
ACLCPU_COMPARISON_BLOCKS(ACLCPU_BINARY_DISPATCH)
#endif
