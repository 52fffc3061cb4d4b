// Reading a timeline trace (ACLCPU_TRACE, Chrome trace-event JSON) back in
// the tests: its named processes and tracks, the slices of a track, the flow
// events and which slice a flow event binds to.  Needs nlohmann_json.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aclcpu::testkit {

/// The trace at path; a discarded value (is_discarded()) when the file is
/// missing or not valid JSON.
inline nlohmann::json load_trace(const std::string& path) {
    std::ifstream file(path);
    return nlohmann::json::parse(file, nullptr, false);
}

/// The trace's tracks by name ("Stream 0", "Host thread 0", ...) and
/// processes by name, from its metadata events.
struct TraceIndex {
    explicit TraceIndex(const nlohmann::json& trace) {
        for (const nlohmann::json& event : trace["traceEvents"]) {
            if (event["ph"] != "M") continue;
            if (event["name"] == "process_name") processes[event["args"]["name"]] = event["pid"];
            if (event["name"] == "thread_name") {
                tracks[event["args"]["name"]] = {event["pid"].get<int>(), event["tid"].get<int>()};
            }
        }
    }

    /// The slices of one track in time order.
    std::vector<nlohmann::json> slices_on(const nlohmann::json& trace, const std::string& track) const {
        std::vector<nlohmann::json> slices;
        const auto [pid, tid] = tracks.at(track);
        for (const nlohmann::json& event : trace["traceEvents"]) {
            if (event["ph"] == "X" && event["pid"] == pid && event["tid"] == tid) slices.push_back(event);
        }
        std::sort(slices.begin(), slices.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
            return a["ts"].get<double>() < b["ts"].get<double>();
        });
        return slices;
    }

    std::map<std::string, int> processes;
    std::map<std::string, std::pair<int, int>> tracks;
};

/// The flow events of a phase ('s' or 'f') by id.
inline std::map<uint64_t, nlohmann::json> flows(const nlohmann::json& trace, const char* phase) {
    std::map<uint64_t, nlohmann::json> found;
    for (const nlohmann::json& event : trace["traceEvents"]) {
        if (event["ph"] == phase) found[event["id"].get<uint64_t>()] = event;
    }
    return found;
}

/// True when a flow event sits on slice's track inside it.
inline bool touches(const nlohmann::json& flow, const nlohmann::json& slice) {
    const double begin = slice["ts"];
    const double end = begin + slice["dur"].get<double>();
    const double at = flow["ts"];
    return flow["pid"] == slice["pid"] && flow["tid"] == slice["tid"] && at >= begin && at <= end;
}

inline bool any_touches(const std::map<uint64_t, nlohmann::json>& flows, const nlohmann::json& slice) {
    return std::any_of(flows.begin(), flows.end(), [&](const auto& entry) { return touches(entry.second, slice); });
}

/// True when some flow starts inside `from` and ends inside `to`.
inline bool linked(const nlohmann::json& trace, const nlohmann::json& from, const nlohmann::json& to) {
    const auto starts = flows(trace, "s");
    const auto ends = flows(trace, "f");
    return std::any_of(ends.begin(), ends.end(), [&](const auto& entry) {
        const auto start = starts.find(entry.first);
        return start != starts.end() && touches(start->second, from) && touches(entry.second, to);
    });
}

}  // namespace aclcpu::testkit
