// acl-cpu runtime API: the MindStudio Tools Extension markers
// (mstx/ms_tools_ext.h) on the timeline trace.
//
// Marks and ranges go to Profiler::marking_trace(): the trace of a running
// aclprofStart collection, else the ACLCPU_TRACE file's.  With neither, a
// range still gets an id (so that start and end pair up the same way
// whether or not a trace is written) and nothing is recorded.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "api/stream_marks.hpp"
#include "core/errors.hpp"
#include "core/handle_registry.hpp"
#include "mstx/ms_tools_ext.h"
#include "observe/profiler.hpp"

using aclcpu::api::enqueue_mark;
using aclcpu::detail::param_error;
using aclcpu::detail::TraceWriter;
using aclcpu::observe::Profiler;

/// What an mstxDomainHandle_t points at.
struct mstxDomainRegistration_st {
    std::string name;
};

namespace {

/// The documented limits: a message of at most 255 bytes, a domain name of
/// 1..1023 bytes of letters, digits and '_'.
constexpr size_t kMaxMessageBytes = 255;
constexpr size_t kMaxDomainNameBytes = 1023;

using Domain = mstxDomainRegistration_st;

/// The text a mark or range carries: its message, behind its domain's name.
/// Empty (refused, with a message for aclGetRecentErrMsg) for a null or too
/// long message.
std::string label_of(const char* api, const Domain* domain, const char* message) {
    if (message == nullptr || strnlen(message, kMaxMessageBytes + 1) > kMaxMessageBytes) {
        param_error(ACL_ERROR_INVALID_PARAM, "%s: message is null or longer than %zu bytes; nothing recorded", api,
                    kMaxMessageBytes);
        return std::string();
    }
    return domain == nullptr ? std::string(message) : domain->name + "::" + message;
}

bool is_valid_domain_name(const char* name) {
    if (name == nullptr) return false;
    const size_t length = strnlen(name, kMaxDomainNameBytes + 1);
    return length >= 1 && length <= kMaxDomainNameBytes &&
           std::all_of(name, name + length, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// The live domains: mstxDomainCreateA of a live name returns its domain.
class Domains {
public:
    Domain* create(const char* name) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const std::shared_ptr<Domain>& domain : registry_.snapshot()) {
            if (domain->name == name) return domain.get();
        }
        return static_cast<Domain*>(registry_.add(std::make_shared<Domain>(Domain{name})));
    }
    bool destroy(const Domain* domain) { return registry_.remove(domain) != nullptr; }
    std::shared_ptr<Domain> find(const Domain* domain) const { return registry_.find(domain); }

private:
    std::mutex mutex_;  // makes find-or-add one step
    aclcpu::detail::HandleRegistry<Domain> registry_;
};

Domains& domains() {
    static Domains live;
    return live;
}

/// The live domain behind handle, or nullptr after reporting api's refusal.
std::shared_ptr<Domain> live_domain(const char* api, mstxDomainHandle_t handle) {
    std::shared_ptr<Domain> domain = handle == nullptr ? nullptr : domains().find(handle);
    if (!domain) param_error(ACL_ERROR_INVALID_PARAM, "%s: the domain is not live; nothing recorded", api);
    return domain;
}

void mark(const char* api, const Domain* domain, const char* message, aclrtStream stream) {
    const std::string label = label_of(api, domain, message);
    if (label.empty()) return;
    std::shared_ptr<TraceWriter> trace = Profiler::instance().marking_trace();
    if (!trace) return;
    trace->mark_instant(label);
    if (stream != nullptr) enqueue_mark(stream, label, std::string());
}

/// The open ranges, by id; ids count from 1 (MSTX_INVALID_ID is 0) and are
/// never reused within a process.
class Ranges {
public:
    mstxRangeId start(const char* api, const Domain* domain, const char* message, aclrtStream stream) {
        std::string label = label_of(api, domain, message);
        if (label.empty()) return MSTX_INVALID_ID;
        std::shared_ptr<TraceWriter> trace = Profiler::instance().marking_trace();
        OpenRange range{trace, std::move(label), trace ? trace->timestamp() : 0.0, stream, domain};
        if (trace && stream != nullptr) enqueue_mark(stream, range.label + " (start)", std::string());
        std::lock_guard<std::mutex> lock(mutex_);
        const mstxRangeId id = ++lastId_;
        open_.emplace(id, std::move(range));
        return id;
    }

    /// Ends id if it was opened in domain (nullptr: no domain).
    void end(const char* api, const Domain* domain, mstxRangeId id) {
        OpenRange range;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = open_.find(id);
            if (it == open_.end() || it->second.domain != domain) {
                param_error(ACL_ERROR_INVALID_PARAM, "%s: range %llu is not open%s", api,
                            static_cast<unsigned long long>(id), domain == nullptr ? "" : " in this domain");
                return;
            }
            range = std::move(it->second);
            open_.erase(it);
        }
        if (!range.trace) return;
        range.trace->mark_range(id, range.label, range.begin);
        if (range.stream != nullptr) enqueue_mark(range.stream, range.label + " (end)", std::string());
    }

private:
    struct OpenRange {
        std::shared_ptr<TraceWriter> trace;  ///< nullptr: nothing is recorded.
        std::string label;
        double begin = 0;
        aclrtStream stream = nullptr;
        const Domain* domain = nullptr;
    };

    std::mutex mutex_;
    mstxRangeId lastId_ = MSTX_INVALID_ID;
    std::unordered_map<mstxRangeId, OpenRange> open_;
};

Ranges& ranges() {
    static Ranges open;
    return open;
}

}  // namespace

extern "C" {

void mstxMarkA(const char* message, aclrtStream stream) { mark("mstxMarkA", nullptr, message, stream); }

mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream) {
    return ranges().start("mstxRangeStartA", nullptr, message, stream);
}

void mstxRangeEnd(mstxRangeId id) { ranges().end("mstxRangeEnd", nullptr, id); }

mstxDomainHandle_t mstxDomainCreateA(const char* name) {
    if (!is_valid_domain_name(name)) {
        param_error(ACL_ERROR_INVALID_PARAM,
                    "mstxDomainCreateA: the name must be 1 to %zu bytes of letters, digits and '_'",
                    kMaxDomainNameBytes);
        return nullptr;
    }
    return domains().create(name);
}

void mstxDomainDestroy(mstxDomainHandle_t handle) {
    if (handle == nullptr || !domains().destroy(handle)) {
        param_error(ACL_ERROR_INVALID_PARAM, "mstxDomainDestroy: the domain is not live");
    }
}

void mstxDomainMarkA(mstxDomainHandle_t handle, const char* message, aclrtStream stream) {
    if (std::shared_ptr<Domain> domain = live_domain("mstxDomainMarkA", handle)) {
        mark("mstxDomainMarkA", domain.get(), message, stream);
    }
}

mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t handle, const char* message, aclrtStream stream) {
    std::shared_ptr<Domain> domain = live_domain("mstxDomainRangeStartA", handle);
    return domain ? ranges().start("mstxDomainRangeStartA", domain.get(), message, stream) : MSTX_INVALID_ID;
}

void mstxDomainRangeEnd(mstxDomainHandle_t handle, mstxRangeId id) {
    ranges().end("mstxDomainRangeEnd", handle, id);
}

}  // extern "C"
