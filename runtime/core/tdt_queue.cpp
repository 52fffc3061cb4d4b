// acl-cpu runtime: shared queues and their routes (acl_tdt_queue.h).
#include "core/tdt_queue.hpp"

#include <algorithm>
#include <cstring>

#include "acl/acl_tdt_queue.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/errors.hpp"
#include "core/tdt_wait.hpp"

namespace aclcpu::detail {
namespace {

/// A reference copy of buf and of its chain: the same data areas, for one
/// more destination of a one-to-many route.  Called with the state lock held.
std::shared_ptr<Mbuf> share_locked(const Mbuf& buf) {
    std::shared_ptr<Mbuf> copy = buf.copy_reference();
    for (const std::shared_ptr<Mbuf>& member : buf.chain) {
        std::shared_ptr<Mbuf> memberCopy = member->copy_reference();
        memberCopy->chainHead = copy.get();
        copy->chain.push_back(std::move(memberCopy));
    }
    return copy;
}

aclError unknown_queue(uint32_t qid, const char* api) {
    return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: queue %u does not exist (never created or destroyed)", api,
                       qid);
}

}  // namespace

TdtQueues& TdtQueues::instance() {
    static TdtQueues queues;
    return queues;
}

std::shared_ptr<TdtQueues::Queue> TdtQueues::find(uint32_t qid) const {
    auto it = queues_.find(qid);
    return it == queues_.end() ? nullptr : it->second;
}

aclError TdtQueues::create(const std::string& name, uint32_t depth, uint32_t& qid, const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool nameTaken =
        std::any_of(queues_.begin(), queues_.end(), [&name](const auto& entry) { return entry.second->name == name; });
    if (!name.empty() && nameTaken) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: a queue named \"%s\" exists already", api, name.c_str());
    }
    auto queue = std::make_shared<Queue>();
    queue->name = name.empty() ? "aclcpu_queue_" + std::to_string(nextQid_) : name;
    queue->depth = depth;
    qid = nextQid_++;
    queues_.emplace(qid, std::move(queue));
    return ACL_SUCCESS;
}

aclError TdtQueues::destroy(uint32_t qid, const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::shared_ptr<Queue> queue = find(qid);
    if (!queue) return unknown_queue(qid, api);
    const bool routed = std::any_of(routes_.begin(), routes_.end(),
                                    [qid](const TdtRoute& route) { return route.srcId == qid || route.dstId == qid; });
    if (routed) {
        return runtime_error(ACL_ERROR_FAILURE, "%s: queue %u has bound routes; unbind them first", api, qid);
    }
    queue->destroyed = true;
    queue->notEmpty.notify_all();
    queue->notFull.notify_all();
    queues_.erase(qid);
    return ACL_SUCCESS;
}

void TdtQueues::push(Queue& queue, std::shared_ptr<Mbuf> buf) {
    queue.buffers.push_back(std::move(buf));
    queue.notEmpty.notify_all();
}

std::shared_ptr<Mbuf> TdtQueues::pop(Queue& queue) {
    std::shared_ptr<Mbuf> buf = std::move(queue.buffers.front());
    queue.buffers.pop_front();
    queue.notFull.notify_all();
    return buf;
}

aclError TdtQueues::enqueue(uint32_t qid, std::shared_ptr<Mbuf> buf, int32_t timeoutMs, const char* api) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::shared_ptr<Queue> queue = find(qid);
    if (!queue) return unknown_queue(qid, api);
    const bool hasRoom =
        wait_with_timeout(lock, queue->notFull, timeoutMs, [&queue] { return queue->destroyed || !queue->full(); });
    if (queue->destroyed) return runtime_error(ACL_ERROR_FAILURE, "%s: queue %u was destroyed meanwhile", api, qid);
    if (!hasRoom) {
        return runtime_error(ACL_ERROR_RT_QUEUE_FULL, "%s: queue %u is full (depth %u) after %d ms", api, qid,
                             queue->depth, timeoutMs);
    }
    push(*queue, std::move(buf));
    forward_all();
    return ACL_SUCCESS;
}

aclError TdtQueues::dequeue(uint32_t qid, int32_t timeoutMs, size_t maxBytes, std::shared_ptr<Mbuf>& buf, size_t& bytes,
                            const char* api) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::shared_ptr<Queue> queue = find(qid);
    if (!queue) return unknown_queue(qid, api);
    const bool hasBuffer = wait_with_timeout(lock, queue->notEmpty, timeoutMs,
                                             [&queue] { return queue->destroyed || !queue->buffers.empty(); });
    if (queue->destroyed) return runtime_error(ACL_ERROR_FAILURE, "%s: queue %u was destroyed meanwhile", api, qid);
    if (!hasBuffer)
        return runtime_error(ACL_ERROR_RT_QUEUE_EMPTY, "%s: queue %u is empty after %d ms", api, qid, timeoutMs);
    bytes = valid_bytes(*queue->buffers.front());
    if (bytes > maxBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the front buffer of queue %u holds %zu bytes, more than %zu",
                           api, qid, bytes, maxBytes);
    }
    buf = pop(*queue);
    forward_all();
    return ACL_SUCCESS;
}

bool TdtQueues::is_bound(uint32_t srcId, uint32_t dstId) const {
    return std::any_of(routes_.begin(), routes_.end(),
                       [=](const TdtRoute& route) { return route.srcId == srcId && route.dstId == dstId; });
}

/// Whether the bound routes lead from fromId to toId (depth-first; the route
/// graph is acyclic, bind keeps it so).
bool TdtQueues::reaches(uint32_t fromId, uint32_t toId) const {
    if (fromId == toId) return true;
    return std::any_of(routes_.begin(), routes_.end(),
                       [=](const TdtRoute& route) { return route.srcId == fromId && reaches(route.dstId, toId); });
}

const char* TdtQueues::bind_refusal(const TdtRoute& route) const {
    if (!find(route.srcId)) return "its source queue does not exist";
    if (!find(route.dstId)) return "its destination queue does not exist";
    if (is_bound(route.srcId, route.dstId)) return "it is bound already";
    if (reaches(route.dstId, route.srcId)) return "it would close a cycle of routes";
    return nullptr;
}

aclError TdtQueues::bind(std::vector<TdtRoute>& routes, const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t refused = 0;
    for (TdtRoute& route : routes) {
        if (const char* refusal = bind_refusal(route)) {
            route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
            runtime_error(ACL_ERROR_FAILURE, "%s: route %u -> %u is not bound: %s", api, route.srcId, route.dstId,
                          refusal);
            ++refused;
            continue;
        }
        route.status = ACL_TDT_QUEUE_ROUTE_BIND;
        routes_.push_back(route);
    }
    forward_all();
    return refused == 0 ? ACL_SUCCESS : ACL_ERROR_FAILURE;
}

aclError TdtQueues::unbind(std::vector<TdtRoute>& routes, const char* api) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t refused = 0;
    for (TdtRoute& route : routes) {
        auto bound = std::find_if(routes_.begin(), routes_.end(), [&route](const TdtRoute& candidate) {
            return candidate.srcId == route.srcId && candidate.dstId == route.dstId;
        });
        if (bound == routes_.end()) {
            runtime_error(ACL_ERROR_FAILURE, "%s: route %u -> %u is not bound", api, route.srcId, route.dstId);
            ++refused;
            continue;
        }
        routes_.erase(bound);
        route.status = ACL_TDT_QUEUE_ROUTE_UNBIND;
    }
    return refused == 0 ? ACL_SUCCESS : ACL_ERROR_FAILURE;
}

std::vector<TdtRoute> TdtQueues::bound_routes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return routes_;
}

bool TdtQueues::forward_one(uint32_t srcId) {
    Queue& source = *queues_.at(srcId);
    if (source.buffers.empty()) return false;
    std::vector<Queue*> destinations;
    for (const TdtRoute& route : routes_) {
        if (route.srcId == srcId) destinations.push_back(queues_.at(route.dstId).get());
    }
    const bool allHaveRoom =
        std::none_of(destinations.begin(), destinations.end(), [](const Queue* queue) { return queue->full(); });
    if (destinations.empty() || !allHaveRoom) return false;
    std::shared_ptr<Mbuf> buf = pop(source);
    {
        std::lock_guard<std::mutex> stateLock(Mbuf::state_mutex());
        for (size_t i = 1; i < destinations.size(); ++i) push(*destinations[i], share_locked(*buf));
    }
    push(*destinations.front(), std::move(buf));
    return true;
}

void TdtQueues::forward_all() {
    for (bool moved = true; moved;) {
        moved = false;
        for (const auto& entry : queues_) {
            while (forward_one(entry.first)) moved = true;
        }
    }
}

std::shared_ptr<Mbuf> claim_buffer(void* handle, const char* api) {
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    std::shared_ptr<Mbuf> buf = handle == nullptr ? nullptr : mbufs().find(handle);
    if (!buf) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: buf %p is not a live acltdtAllocBuf or acltdtCopyBufRef buffer", api,
                    handle);
        return nullptr;
    }
    if (buf->chainHead != nullptr) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: buf %p belongs to a chain; enqueue the chain's head", api, handle);
        return nullptr;
    }
    for (const std::shared_ptr<Mbuf>& member : buf->chain) mbufs().remove(member.get());
    mbufs().remove(handle);
    return buf;
}

void* release_buffer(std::shared_ptr<Mbuf> buf) {
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    for (const std::shared_ptr<Mbuf>& member : buf->chain) mbufs().add(member);
    return mbufs().add(std::move(buf));
}

size_t valid_bytes(const Mbuf& buf) {
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    size_t bytes = buf.dataLen;
    for (const std::shared_ptr<Mbuf>& member : buf.chain) bytes += member->dataLen;
    return bytes;
}

void copy_valid_bytes(const Mbuf& buf, void* destination) {
    std::lock_guard<std::mutex> lock(Mbuf::state_mutex());
    auto* out = static_cast<uint8_t*>(destination);
    std::memcpy(out, buf.data().bytes, buf.dataLen);
    out += buf.dataLen;
    for (const std::shared_ptr<Mbuf>& member : buf.chain) {
        std::memcpy(out, member->data().bytes, member->dataLen);
        out += member->dataLen;
    }
}

}  // namespace aclcpu::detail
