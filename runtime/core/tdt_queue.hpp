// acl-cpu runtime: shared queues and their routes (acl_tdt_queue.h).  On an
// Atlas A2 these are memory queues of shared buffers (mbufs) that the
// device's queue scheduler moves along bound routes; on the CPU they are
// in-process FIFOs of aclrtMbuf buffers, and the routes are followed at once,
// inside the call that made forwarding possible.
#pragma once

#include "core/internal.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/mbuf.hpp"

namespace aclcpu::detail {

/// A route between two queues (acltdtQueueRoute), with its
/// ACL_TDT_QUEUE_ROUTE_* status as bind, unbind and query report it.
struct TdtRoute {
    uint32_t srcId = 0;
    uint32_t dstId = 0;
    int32_t status = 0;
};

/// Every queue of the process, by id, and the bound routes between them.
///
/// Thread-safety: one mutex guards all queues and routes, so a forward
/// touches its source and destinations atomically and no lock order exists
/// to get wrong.  Blocking calls wait on their queue's condition variables,
/// on the calling host thread, at most their timeout.
///
/// Ordering: each queue is FIFO.  What is enqueued to the source of bound
/// routes moves, in order, to every destination as soon as all of them have
/// room (the first destination gets the buffer, the others reference copies
/// sharing its data area, as CANN's one-to-many routes share the buffer);
/// until then it waits in the source.
///
/// Ownership: a queue owns the buffers in it.  Enqueue takes the buffer out
/// of the live aclrtMbuf handles; dequeue hands it back under the same handle.
class TdtQueues {
public:
    static TdtQueues& instance();

    /// An empty name gets a generated one; names are unique among live queues.
    aclError create(const std::string& name, uint32_t depth, uint32_t& qid, const char* api);
    /// Refused while a bound route names the queue; wakes its blocked callers.
    aclError destroy(uint32_t qid, const char* api);

    /// ACL_ERROR_RT_QUEUE_FULL when the timeout passes on a full queue.
    aclError enqueue(uint32_t qid, std::shared_ptr<Mbuf> buf, int32_t timeoutMs, const char* api);
    /// ACL_ERROR_RT_QUEUE_EMPTY when the timeout passes on an empty queue.
    /// A buffer whose valid bytes exceed maxBytes stays at the front of the
    /// queue (ACL_ERROR_INVALID_PARAM); bytes tells its size either way.
    aclError dequeue(uint32_t qid, int32_t timeoutMs, size_t maxBytes, std::shared_ptr<Mbuf>& buf, size_t& bytes,
                     const char* api);

    /// Binds each route, setting its status to ACL_TDT_QUEUE_ROUTE_BIND, or
    /// leaves it unbound when a queue is missing, it is bound already, or it
    /// would close a cycle; ACL_ERROR_FAILURE when any route was refused.
    aclError bind(std::vector<TdtRoute>& routes, const char* api);
    /// Unbinds each route (status ACL_TDT_QUEUE_ROUTE_UNBIND); ACL_ERROR_FAILURE
    /// when any of them was not bound.
    aclError unbind(std::vector<TdtRoute>& routes, const char* api);
    /// The bound routes, in bind order.
    std::vector<TdtRoute> bound_routes() const;

private:
    struct Queue {
        std::string name;
        uint32_t depth = 0;
        std::deque<std::shared_ptr<Mbuf>> buffers;
        std::condition_variable notEmpty;
        std::condition_variable notFull;
        bool destroyed = false;

        bool full() const { return buffers.size() >= depth; }
    };

    std::shared_ptr<Queue> find(uint32_t qid) const;
    bool is_bound(uint32_t srcId, uint32_t dstId) const;
    bool reaches(uint32_t fromId, uint32_t toId) const;
    const char* bind_refusal(const TdtRoute& route) const;
    /// Moves buffers along the bound routes until no route can move one.
    void forward_all();
    /// Moves the front buffer of srcId to its destinations if all have room.
    bool forward_one(uint32_t srcId);
    void push(Queue& queue, std::shared_ptr<Mbuf> buf);
    std::shared_ptr<Mbuf> pop(Queue& queue);

    mutable std::mutex mutex_;
    std::map<uint32_t, std::shared_ptr<Queue>> queues_;
    std::vector<TdtRoute> routes_;
    uint32_t nextQid_ = 0;
};

/// Takes a live buffer (a chain head, with its chain) out of the aclrtMbuf
/// handles, for a queue to own; nullptr (reported) when it is not a live
/// head.
std::shared_ptr<Mbuf> claim_buffer(void* handle, const char* api);
/// Makes a claimed buffer and its chain live again; returns its handle.
void* release_buffer(std::shared_ptr<Mbuf> buf);
/// The valid bytes of a buffer and its chain, in chain order.
size_t valid_bytes(const Mbuf& buf);
/// Copies those bytes to destination, which holds valid_bytes(buf) bytes.
void copy_valid_bytes(const Mbuf& buf, void* destination);

}  // namespace aclcpu::detail
