// acl-cpu runtime: shared buffers (aclrtMbuf).
#include "core/mbuf.hpp"

#include <cstdlib>

namespace aclcpu::detail {
namespace {

/// The data area's alignment: a cache line, as for device blocks.
constexpr size_t kDataAlignment = 64;

}  // namespace

MbufData::MbufData(size_t requested)
    : bytes(std::aligned_alloc(kDataAlignment, (requested + kDataAlignment - 1) / kDataAlignment * kDataAlignment)),
      size(requested) {}

MbufData::~MbufData() { std::free(bytes); }

std::mutex& Mbuf::state_mutex() {
    static std::mutex mutex;
    return mutex;
}

std::shared_ptr<Mbuf> Mbuf::copy_reference() const {
    auto copy = std::make_shared<Mbuf>(data_);
    copy->dataLen = dataLen;
    copy->userData = userData;
    return copy;
}

HandleRegistry<Mbuf>& mbufs() {
    static HandleRegistry<Mbuf> registry;
    return registry;
}

}  // namespace aclcpu::detail
