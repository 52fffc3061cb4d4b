// acl-cpu runtime: shared queues, their routes and buffers (acl_tdt_queue.h;
// api_ref 17-02_shared_queue_management.md, 17-03_shared_buffer_management.md
// and 25-03_Operation_APIs.md, acltdtQueueAttr / acltdtQueueRoute /
// acltdtQueueRouteList / acltdtQueueRouteQueryInfo).  Queues hold aclrtMbuf
// buffers inside the process; a bound route moves what reaches its source
// queue into its destination queue.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/acl_tdt_queue.h"
#include "aclcpu/dtype.hpp"
#include "api/tdt_arguments.hpp"
#include "api/unsupported.hpp"
#include "core/errors.hpp"
#include "core/tdt_queue.hpp"

using aclcpu::api::check_tdt_timeout;
using aclcpu::api::destroy_live;
using aclcpu::api::find_live;
using aclcpu::api::not_supported;
using aclcpu::detail::HandleRegistry;
using aclcpu::detail::Mbuf;
using aclcpu::detail::MbufData;
using aclcpu::detail::param_error;
using aclcpu::detail::TdtQueues;
using aclcpu::detail::TdtRoute;

namespace {

/// A queue attribute set (acltdtQueueAttr); an empty name lets
/// acltdtCreateQueue generate one.  The depth defaults to 8 (api_ref
/// 17-02_shared_queue_management.md, acltdtCreateQueue).
struct TdtQueueAttr {
    std::string name;
    uint32_t depth = 8;
};

/// A list of routes (acltdtQueueRouteList), held by value.
struct TdtRouteList {
    std::vector<TdtRoute> routes;
};

/// The conditions of acltdtQueryQueueRoutes (acltdtQueueRouteQueryInfo).
struct TdtRouteQuery {
    int32_t mode = 0;
    uint32_t srcId = 0;
    uint32_t dstId = 0;
    bool modeSet = false;
    bool srcSet = false;
    bool dstSet = false;
};

/// The live attribute sets, routes, route lists and queries, by handle
/// (process-wide, like the queues).
HandleRegistry<TdtQueueAttr>& queue_attrs() {
    static HandleRegistry<TdtQueueAttr> registry;
    return registry;
}

HandleRegistry<TdtRoute>& routes() {
    static HandleRegistry<TdtRoute> registry;
    return registry;
}

HandleRegistry<TdtRouteList>& route_lists() {
    static HandleRegistry<TdtRouteList> registry;
    return registry;
}

HandleRegistry<TdtRouteQuery>& route_queries() {
    static HandleRegistry<TdtRouteQuery> registry;
    return registry;
}

/// Reads a parameter of exactly sizeof(T) bytes (the documented len).
template <typename T>
aclError read_param(const void* param, size_t len, T& value, const char* api) {
    if (param == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the parameter value is null", api);
    if (len != sizeof(T)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: len %zu is not the parameter's %zu bytes", api, len,
                           sizeof(T));
    }
    std::memcpy(&value, param, sizeof(T));
    return ACL_SUCCESS;
}

/// Writes a parameter into a caller buffer of len bytes, at least sizeof(T).
template <typename T>
aclError write_param(const T& value, size_t len, size_t* paramRetSize, void* param, const char* api) {
    if (param == nullptr || paramRetSize == nullptr) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: param or paramRetSize is null", api);
    }
    if (len < sizeof(T)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: len %zu is below the parameter's %zu bytes", api, len,
                           sizeof(T));
    }
    std::memcpy(param, &value, sizeof(T));
    *paramRetSize = sizeof(T);
    return ACL_SUCCESS;
}

/// `code` is the type argument read with code_of: a C caller may pass any integer.
aclError unknown_type(int64_t code, const char* api) {
    return param_error(ACL_ERROR_INVALID_PARAM, "%s: type %lld is not one of the documented values", api,
                       static_cast<long long>(code));
}

aclError set_queue_name(TdtQueueAttr& attr, size_t len, const void* param, const char* api) {
    const char* name = nullptr;
    if (aclError status = read_param(param, len, name, api); status != ACL_SUCCESS) return status;
    if (name == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: the queue name is null", api);
    const size_t length = strnlen(name, aclcpu::api::kMaxTdtNameBytes);
    if (length + 1 > aclcpu::api::kMaxTdtNameBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the queue name is longer than 127 characters", api);
    }
    attr.name.assign(name, length);
    return ACL_SUCCESS;
}

/// Why a query cannot run, or nullptr: its mode must be set, with the ids it names.
const char* query_refusal(const TdtRouteQuery& query) {
    if (!query.modeSet) return "its mode is not set (ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM)";
    switch (query.mode) {
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
            return query.srcSet ? nullptr : "mode SRC needs the source id";
        case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
            return query.dstSet ? nullptr : "mode DST needs the destination id";
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
            return query.srcSet && query.dstSet ? nullptr : "mode SRC_AND_DST needs both ids";
        case ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL:
            return nullptr;
        default:
            return "its mode is not an acltdtQueueRouteQueryMode value";
    }
}

/// Whether a bound route answers the query.  No in-process route is ever
/// abnormal: its queues cannot be destroyed while it is bound.
bool matches(const TdtRouteQuery& query, const TdtRoute& route) {
    const bool srcMatches = route.srcId == query.srcId;
    const bool dstMatches = route.dstId == query.dstId;
    switch (query.mode) {
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC:
            return srcMatches;
        case ACL_TDT_QUEUE_ROUTE_QUERY_DST:
            return dstMatches;
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST:
            return srcMatches && dstMatches;
        default:
            return false;
    }
}

/// A fresh buffer holding a copy of data and of the private data, for acltdtEnqueueData.
std::shared_ptr<Mbuf> buffer_of(const void* data, size_t dataSize, const void* userData, size_t userDataSize) {
    auto area = std::make_shared<MbufData>(dataSize);
    if (area->bytes == nullptr) return nullptr;
    std::memcpy(area->bytes, data, dataSize);
    auto buf = std::make_shared<Mbuf>(std::move(area));
    buf->dataLen = dataSize;
    if (userDataSize > 0) std::memcpy(buf->userData.data(), userData, userDataSize);
    return buf;
}

/// The private-data arguments of acltdtEnqueueData / acltdtDequeueData.
aclError check_user_data(const void* userData, size_t userDataSize, const char* api) {
    if (userDataSize > Mbuf::kUserDataBytes) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: userDataSize %zu is above 96 bytes", api, userDataSize);
    }
    if (userData == nullptr && userDataSize != 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: userData is null but userDataSize is %zu", api, userDataSize);
    }
    return ACL_SUCCESS;
}

aclError check_data(const void* data, size_t dataSize, const char* api) {
    if (data == nullptr || dataSize == 0) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: data is null or dataSize is 0", api);
    }
    return ACL_SUCCESS;
}

constexpr char kOtherProcesses[] =
    "granting and attaching share a queue between processes; acl-cpu's queues live inside one process";

}  // namespace

extern "C" {

// ---- queue attributes ----------------------------------------------------

acltdtQueueAttr* acltdtCreateQueueAttr() {
    return static_cast<acltdtQueueAttr*>(queue_attrs().add(std::make_shared<TdtQueueAttr>()));
}

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr) {
    return destroy_live(queue_attrs(), attr, "acltdtDestroyQueueAttr", "attr");
}

/// ACL_TDT_QUEUE_NAME_PTR: param points to a const char* (len: a pointer's
/// size); the name is copied.  ACL_TDT_QUEUE_DEPTH_UINT32: a uint32_t.
aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, const void* param) {
    constexpr const char* api = "acltdtSetQueueAttr";
    const std::shared_ptr<TdtQueueAttr> target = find_live(queue_attrs(), attr, api, "attr");
    if (!target) return ACL_ERROR_INVALID_PARAM;
    switch (const int64_t code = aclcpu::code_of(type)) {
        case ACL_TDT_QUEUE_NAME_PTR:
            return set_queue_name(*target, len, param, api);
        case ACL_TDT_QUEUE_DEPTH_UINT32:
            return read_param(param, len, target->depth, api);
        default:
            return unknown_type(code, api);
    }
}

/// ACL_TDT_QUEUE_NAME_PTR yields a const char* valid while the attribute
/// set lives and its name is not set again.
aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, size_t* paramRetSize,
                            void* param) {
    constexpr const char* api = "acltdtGetQueueAttr";
    const std::shared_ptr<TdtQueueAttr> source = find_live(queue_attrs(), attr, api, "attr");
    if (!source) return ACL_ERROR_INVALID_PARAM;
    switch (const int64_t code = aclcpu::code_of(type)) {
        case ACL_TDT_QUEUE_NAME_PTR:
            return write_param(source->name.c_str(), len, paramRetSize, param, api);
        case ACL_TDT_QUEUE_DEPTH_UINT32:
            return write_param(source->depth, len, paramRetSize, param, api);
        default:
            return unknown_type(code, api);
    }
}

// ---- queues --------------------------------------------------------------

/// attr null: a generated name and depth 8.  Depths below 2 are refused as
/// CANN's runtime refuses them (ACL_ERROR_RT_PARAM_INVALID), and so are depths
/// above 8192, the largest channel capacity.
aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid) {
    constexpr const char* api = "acltdtCreateQueue";
    if (qid == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: qid is null", api);
    TdtQueueAttr settings;
    if (attr != nullptr) {
        const std::shared_ptr<TdtQueueAttr> source = find_live(queue_attrs(), attr, api, "attr");
        if (!source) return ACL_ERROR_INVALID_PARAM;
        settings = *source;
    }
    if (settings.depth < aclcpu::api::kMinTdtDepth || settings.depth > aclcpu::api::kMaxTdtDepth) {
        return param_error(ACL_ERROR_RT_PARAM_INVALID, "%s: depth %u is not in [2, 8192]", api, settings.depth);
    }
    return TdtQueues::instance().create(settings.name, settings.depth, *qid, api);
}

aclError acltdtDestroyQueue(uint32_t qid) { return TdtQueues::instance().destroy(qid, "acltdtDestroyQueue"); }

/// The queue takes buf (a chain head, with its chain): buf is not live until
/// acltdtDequeue hands it out again.  On failure the caller keeps it.
aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
    constexpr const char* api = "acltdtEnqueue";
    if (aclError status = check_tdt_timeout(timeout, api); status != ACL_SUCCESS) return status;
    std::shared_ptr<Mbuf> claimed = aclcpu::detail::claim_buffer(buf, api);
    if (!claimed) return ACL_ERROR_INVALID_PARAM;
    const aclError status = TdtQueues::instance().enqueue(qid, claimed, timeout, api);
    if (status != ACL_SUCCESS) aclcpu::detail::release_buffer(std::move(claimed));
    return status;
}

/// The caller owns *buf afterwards and frees it with acltdtFreeBuf.
aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout) {
    constexpr const char* api = "acltdtDequeue";
    if (buf == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: buf is null", api);
    if (aclError status = check_tdt_timeout(timeout, api); status != ACL_SUCCESS) return status;
    std::shared_ptr<Mbuf> dequeued;
    size_t bytes = 0;
    const aclError status = TdtQueues::instance().dequeue(qid, timeout, SIZE_MAX, dequeued, bytes, api);
    if (status != ACL_SUCCESS) return status;
    *buf = aclcpu::detail::release_buffer(std::move(dequeued));
    return ACL_SUCCESS;
}

/// Enqueues a buffer holding a copy of data (its valid length dataSize) and
/// of userData at the start of its private area.  rsv is reserved.
aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData, size_t userDataSize,
                           int32_t timeout, uint32_t /*rsv*/) {
    constexpr const char* api = "acltdtEnqueueData";
    if (aclError status = check_data(data, dataSize, api); status != ACL_SUCCESS) return status;
    if (aclError status = check_user_data(userData, userDataSize, api); status != ACL_SUCCESS) return status;
    if (aclError status = check_tdt_timeout(timeout, api); status != ACL_SUCCESS) return status;
    std::shared_ptr<Mbuf> buf = buffer_of(data, dataSize, userData, userDataSize);
    if (!buf) return aclcpu::detail::runtime_error(ACL_ERROR_BAD_ALLOC, "%s: cannot allocate %zu bytes", api, dataSize);
    return TdtQueues::instance().enqueue(qid, std::move(buf), timeout, api);
}

/// Copies the front buffer's valid bytes (its chain's, in order) into data
/// and the first userDataSize bytes of its private area into userData.  When
/// dataSize is too small the buffer stays queued and *retDataSize tells the
/// size needed.
aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize, void* userData,
                           size_t userDataSize, int32_t timeout) {
    constexpr const char* api = "acltdtDequeueData";
    if (aclError status = check_data(data, dataSize, api); status != ACL_SUCCESS) return status;
    if (retDataSize == nullptr) return param_error(ACL_ERROR_INVALID_PARAM, "%s: retDataSize is null", api);
    if (aclError status = check_user_data(userData, userDataSize, api); status != ACL_SUCCESS) return status;
    if (aclError status = check_tdt_timeout(timeout, api); status != ACL_SUCCESS) return status;
    std::shared_ptr<Mbuf> buf;
    size_t bytes = 0;
    const aclError status = TdtQueues::instance().dequeue(qid, timeout, dataSize, buf, bytes, api);
    if (bytes > dataSize) *retDataSize = bytes;
    if (status != ACL_SUCCESS) return status;
    aclcpu::detail::copy_valid_bytes(*buf, data);
    if (userDataSize > 0) std::memcpy(userData, buf->userData.data(), userDataSize);
    *retDataSize = bytes;
    return ACL_SUCCESS;
}

aclError acltdtGrantQueue(uint32_t, int32_t, uint32_t, int32_t) { return not_supported(__func__, kOtherProcesses); }

aclError acltdtAttachQueue(uint32_t, int32_t, uint32_t*) { return not_supported(__func__, kOtherProcesses); }

// ---- routes --------------------------------------------------------------

acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId) {
    return static_cast<acltdtQueueRoute*>(routes().add(std::make_shared<TdtRoute>(TdtRoute{srcId, dstId, 0})));
}

aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route) {
    return destroy_live(routes(), route, "acltdtDestroyQueueRoute", "route");
}

aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
                                  size_t* paramRetSize, void* param) {
    constexpr const char* api = "acltdtGetQueueRouteParam";
    const std::shared_ptr<TdtRoute> source = find_live(routes(), route, api, "route");
    if (!source) return ACL_ERROR_INVALID_PARAM;
    switch (const int64_t code = aclcpu::code_of(type)) {
        case ACL_TDT_QUEUE_ROUTE_SRC_UINT32:
            return write_param(source->srcId, len, paramRetSize, param, api);
        case ACL_TDT_QUEUE_ROUTE_DST_UINT32:
            return write_param(source->dstId, len, paramRetSize, param, api);
        case ACL_TDT_QUEUE_ROUTE_STATUS_INT32:
            return write_param(source->status, len, paramRetSize, param, api);
        default:
            return unknown_type(code, api);
    }
}

acltdtQueueRouteList* acltdtCreateQueueRouteList() {
    return static_cast<acltdtQueueRouteList*>(route_lists().add(std::make_shared<TdtRouteList>()));
}

aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList) {
    return destroy_live(route_lists(), routeList, "acltdtDestroyQueueRouteList", "routeList");
}

/// The list keeps a copy of the route: destroying the route later is fine.
aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route) {
    constexpr const char* api = "acltdtAddQueueRoute";
    const std::shared_ptr<TdtRouteList> list = find_live(route_lists(), routeList, api, "routeList");
    if (!list) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<TdtRoute> source = find_live(routes(), route, api, "route");
    if (!source) return ACL_ERROR_INVALID_PARAM;
    list->routes.push_back(*source);
    return ACL_SUCCESS;
}

/// Copies the index-th route of the list (with its status) into route.
aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index, acltdtQueueRoute* route) {
    constexpr const char* api = "acltdtGetQueueRoute";
    const std::shared_ptr<TdtRouteList> list = find_live(route_lists(), routeList, api, "routeList");
    if (!list) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<TdtRoute> target = find_live(routes(), route, api, "route");
    if (!target) return ACL_ERROR_INVALID_PARAM;
    if (index >= list->routes.size()) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: index %zu is not below the list's %zu routes", api, index,
                           list->routes.size());
    }
    *target = list->routes[index];
    return ACL_SUCCESS;
}

size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList) {
    const std::shared_ptr<TdtRouteList> list =
        find_live(route_lists(), routeList, "acltdtGetQueueRouteNum", "routeList");
    return list ? list->routes.size() : 0;
}

acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo() {
    return static_cast<acltdtQueueRouteQueryInfo*>(route_queries().add(std::make_shared<TdtRouteQuery>()));
}

aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info) {
    return destroy_live(route_queries(), info, "acltdtDestroyQueueRouteQueryInfo", "info");
}

aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param, acltdtQueueRouteQueryInfoParamType type,
                                      size_t len, const void* value) {
    constexpr const char* api = "acltdtSetQueueRouteQueryInfo";
    const std::shared_ptr<TdtRouteQuery> query = find_live(route_queries(), param, api, "param");
    if (!query) return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    switch (const int64_t code = aclcpu::code_of(type)) {
        case ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM:
            status = read_param(value, len, query->mode, api);
            query->modeSet = query->modeSet || status == ACL_SUCCESS;
            return status;
        case ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32:
            status = read_param(value, len, query->srcId, api);
            query->srcSet = query->srcSet || status == ACL_SUCCESS;
            return status;
        case ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32:
            status = read_param(value, len, query->dstId, api);
            query->dstSet = query->dstSet || status == ACL_SUCCESS;
            return status;
        default:
            return unknown_type(code, api);
    }
}

/// Writes each route's status back into the list (api_ref
/// 17-02_shared_queue_management.md: read them with acltdtGetQueueRoute and
/// acltdtGetQueueRouteParam when the call fails).
aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList) {
    constexpr const char* api = "acltdtBindQueueRoutes";
    const std::shared_ptr<TdtRouteList> list = find_live(route_lists(), qRouteList, api, "qRouteList");
    if (!list) return ACL_ERROR_INVALID_PARAM;
    return TdtQueues::instance().bind(list->routes, api);
}

aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList) {
    constexpr const char* api = "acltdtUnbindQueueRoutes";
    const std::shared_ptr<TdtRouteList> list = find_live(route_lists(), qRouteList, api, "qRouteList");
    if (!list) return ACL_ERROR_INVALID_PARAM;
    return TdtQueues::instance().unbind(list->routes, api);
}

/// Replaces the list's routes with the bound routes the query selects.
aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo, acltdtQueueRouteList* qRouteList) {
    constexpr const char* api = "acltdtQueryQueueRoutes";
    const std::shared_ptr<TdtRouteQuery> query = find_live(route_queries(), queryInfo, api, "queryInfo");
    if (!query) return ACL_ERROR_INVALID_PARAM;
    const std::shared_ptr<TdtRouteList> list = find_live(route_lists(), qRouteList, api, "qRouteList");
    if (!list) return ACL_ERROR_INVALID_PARAM;
    if (const char* refusal = query_refusal(*query)) {
        return param_error(ACL_ERROR_INVALID_PARAM, "%s: the query cannot run: %s", api, refusal);
    }
    list->routes.clear();
    for (const TdtRoute& route : TdtQueues::instance().bound_routes()) {
        if (matches(*query, route)) list->routes.push_back(route);
    }
    return ACL_SUCCESS;
}

// ---- buffers: the acltdt names of the aclrtMbuf calls (shared_buffer.cpp) ----

/// ACL_TDT_DVPP_MEM is host memory too: every emulated device reads host memory.
aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf) {
    if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM) {
        return param_error(ACL_ERROR_INVALID_PARAM, "acltdtAllocBuf: type %u is not an acltdtAllocBufType value", type);
    }
    return aclrtAllocBuf(buf, size);
}

aclError acltdtFreeBuf(acltdtBuf buf) { return aclrtFreeBuf(buf); }

aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size) {
    return aclrtGetBufData(buf, dataPtr, size);
}

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) { return aclrtSetBufDataLen(buf, len); }

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len) { return aclrtGetBufDataLen(buf, len); }

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) { return aclrtAppendBufChain(headBuf, buf); }

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num) { return aclrtGetBufChainNum(headBuf, num); }

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf) {
    return aclrtGetBufFromChain(headBuf, index, buf);
}

aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset) {
    return aclrtGetBufUserData(buf, dataPtr, size, offset);
}

aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset) {
    return aclrtSetBufUserData(buf, dataPtr, size, offset);
}

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf) { return aclrtCopyBufRef(buf, newBuf); }

}  // extern "C"
