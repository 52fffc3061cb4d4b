// acl-cpu HCCL: a rank's share, moved in blocks (see share_runner.hpp).
#include "core/share_runner.hpp"

#include <type_traits>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "aclcpu/instrumentation.hpp"
#include "aclcpu/memcheck.hpp"
#include "core/reduction.hpp"

namespace aclcpu::hccl::detail {
namespace {

/// Elements [begin, begin + count) of a piece.
struct Block {
    const Piece* piece;
    uint64_t begin;
    uint64_t count;
};

std::vector<Block> cut(const std::vector<Piece>& pieces, size_t elementBytes) {
    const uint64_t perBlock = std::max<uint64_t>(1, kBlockBytes / elementBytes);
    std::vector<Block> blocks;
    for (const Piece& piece : pieces) {
        for (uint64_t begin = 0; begin < piece.count; begin += perBlock) {
            blocks.push_back(Block{&piece, begin, std::min(perBlock, piece.count - begin)});
        }
    }
    return blocks;
}

/// The pointers of `pointers`, each advanced by `offset` bytes.
template <typename Pointer>
std::vector<Pointer> advanced(const std::vector<Pointer>& pointers, uint64_t offset) {
    using Byte = std::conditional_t<std::is_const_v<std::remove_pointer_t<Pointer>>, const char, char>;
    std::vector<Pointer> out;
    out.reserve(pointers.size());
    for (Pointer pointer : pointers) out.push_back(static_cast<Byte*>(pointer) + offset);
    return out;
}

void move_block(const Share& share, const Block& block, size_t elementBytes) {
    const Piece& piece = *block.piece;
    const uint64_t offset = block.begin * elementBytes;
    const std::vector<void*> destinations = advanced(piece.destinations, offset);
    const std::vector<const void*> sources = advanced(piece.sources, offset);
    reduce(share.op, share.dtype, destinations.data(), destinations.size(), sources.data(), sources.size(),
           block.count);
}

void move_observed(const char* api, const Share& share, const std::vector<Block>& blocks, size_t index,
                   size_t elementBytes) {
    const auto blockDim = static_cast<int64_t>(blocks.size());
    const auto block = static_cast<int64_t>(index);
    instrument::notify([&](instrument::Observer& o) { o.on_block_begin(api, block, blockDim); });
    move_block(share, blocks[index], elementBytes);
    instrument::notify([&](instrument::Observer& o) { o.on_block_end(api, block, blockDim); });
}

/// Moves the share's pieces, their blocks in parallel.
void run_pieces(const char* api, const Share& share) {
    const size_t elementBytes = element_bytes(share.dtype);
    const std::vector<Block> blocks = cut(share.pieces, elementBytes);
    if (blocks.empty()) return;
    const bool observed = instrument::active();
    const auto move = [&](size_t index) {
        if (observed) {
            move_observed(api, share, blocks, index, elementBytes);
        } else {
            move_block(share, blocks[index], elementBytes);
        }
    };
    if (blocks.size() == 1) {
        move(0);
        return;
    }
    // Isolated: while it waits for its blocks, the worker takes no other
    // stream's item, whose own wait could then hold this share back.
    tbb::this_task_arena::isolate([&] { tbb::parallel_for(size_t{0}, blocks.size(), move); });
}

/// The device ranges share's pieces touch, for memcheck.
std::vector<DeviceAccess> accesses_of(const Share& share) {
    const size_t elementBytes = element_bytes(share.dtype);
    std::vector<DeviceAccess> accesses;
    for (const Piece& piece : share.pieces) {
        const uint64_t bytes = piece.count * elementBytes;
        for (void* target : piece.destinations) accesses.push_back(DeviceAccess{target, bytes, "output", -1});
        for (const void* source : piece.sources) accesses.push_back(DeviceAccess{source, bytes, "input", -1});
    }
    return accesses;
}

}  // namespace

aclError run_share(const char* api, const Share& share) {
    if (!memcheck_enabled()) {
        run_pieces(api, share);
        return ACL_SUCCESS;
    }
    const std::vector<DeviceAccess> accesses = accesses_of(share);
    if (aclError status = check_device_accesses(api, accesses.data(), accesses.size()); status != ACL_SUCCESS) {
        return status;
    }
    run_pieces(api, share);
    return check_device_guards(api, accesses.data(), accesses.size());
}

}  // namespace aclcpu::hccl::detail
