// acl-cpu: handover memory (aclcpu/nnopbase.hpp).
#include <new>

#include "aclcpu/nnopbase.hpp"

#if ACLCPU_SCALABLE_HANDOVER
#include <oneapi/tbb/scalable_allocator.h>
#endif

namespace aclcpu {

void* handover_allocate(size_t bytes) noexcept {
#if ACLCPU_SCALABLE_HANDOVER
    return scalable_malloc(bytes);
#else
    return ::operator new(bytes, std::nothrow);
#endif
}

void handover_free(void* memory) noexcept {
#if ACLCPU_SCALABLE_HANDOVER
    scalable_free(memory);
#else
    ::operator delete(memory);
#endif
}

}  // namespace aclcpu
