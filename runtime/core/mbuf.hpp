// acl-cpu runtime: shared buffers (aclrtMbuf): a data area, its valid
// length, a 96-byte private area, and chains of buffers.  CANN allocates
// them from memory host and device share; on the CPU that is host memory.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "acl/acl_base.h"
#include "core/handle_registry.hpp"
#include "core/internal.hpp"

namespace aclcpu::detail {

/// A data area shared by a buffer and its reference copies (aclrtCopyBufRef):
/// freed with the last of them.
struct MbufData {
    explicit MbufData(size_t bytes);
    ~MbufData();
    MbufData(const MbufData&) = delete;
    MbufData& operator=(const MbufData&) = delete;

    void* bytes;  ///< nullptr when the allocation failed.
    size_t size;
};

/// One aclrtMbuf: a management structure over a (possibly shared) data area.
class Mbuf {
public:
    static constexpr size_t kUserDataBytes = 96;
    static constexpr uint32_t kMaxChainLength = 128;  ///< Buffers in a chain, its head included.

    explicit Mbuf(std::shared_ptr<MbufData> data) : data_(std::move(data)) {}

    const MbufData& data() const noexcept { return *data_; }

    /// The state below is guarded by one lock shared by all buffers, since
    /// chain operations touch two buffers at once.
    static std::mutex& state_mutex();

    size_t dataLen = 0;                              ///< Valid bytes (aclrtSetBufDataLen).
    std::array<uint8_t, kUserDataBytes> userData{};  ///< The private area.
    std::vector<std::shared_ptr<Mbuf>> chain;        ///< Appended buffers, in order (heads only).
    const Mbuf* chainHead = nullptr;                 ///< Set once appended to another buffer's chain.

    /// A reference copy: same data area, a copy of the length and private area.
    std::shared_ptr<Mbuf> copy_reference() const;

private:
    std::shared_ptr<MbufData> data_;
};

/// The live buffers, by handle (process-wide, like host memory).
HandleRegistry<Mbuf>& mbufs();

}  // namespace aclcpu::detail
