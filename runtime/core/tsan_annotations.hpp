// acl-cpu runtime: synchronisation ThreadSanitizer cannot see, told to it.
//
// A device word is polled the way the hardware polls it: by a function TSan
// does not instrument (a plain host write may race with it by design), so
// TSan misses the acquire that pairs with aclrtValueWrite's release, and
// with it the order of everything the writing stream did before.  These
// annotations restore that edge in TSan builds and compile to nothing
// otherwise.
#pragma once

#include "core/internal.hpp"

#if defined(__SANITIZE_THREAD__)
#define ACLCPU_TSAN_ANNOTATIONS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ACLCPU_TSAN_ANNOTATIONS 1
#endif
#endif

#if defined(ACLCPU_TSAN_ANNOTATIONS)
#include <sanitizer/tsan_interface.h>
#endif

namespace aclcpu::detail {

/// A release on `address`, to be paired with annotate_acquire(address).
inline void annotate_release(const void* address) noexcept {
#if defined(ACLCPU_TSAN_ANNOTATIONS)
    __tsan_release(const_cast<void*>(address));
#else
    static_cast<void>(address);
#endif
}

/// An acquire of every annotate_release(address) made before.
inline void annotate_acquire(const void* address) noexcept {
#if defined(ACLCPU_TSAN_ANNOTATIONS)
    __tsan_acquire(const_cast<void*>(address));
#else
    static_cast<void>(address);
#endif
}

}  // namespace aclcpu::detail
