// acl-cpu runtime: the per-thread error state behind aclGetRecentErrMsg,
// aclrtGetLastError and aclrtPeekAtLastError.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "core/errors.hpp"

namespace aclcpu {
namespace {

/// Messages accumulate (newest first) until aclGetRecentErrMsg hands them
/// out; the returned text stays valid until that thread's next call.
struct ThreadErrorState {
    std::string pending;
    std::string handedOut;
    aclError lastError = ACL_SUCCESS;
};

ThreadErrorState& thread_errors() {
    thread_local ThreadErrorState state;
    return state;
}

/// CANN's prefix: "[PID:1234] 2026-11-21-10:05:33.123.456 ".
std::string message_prefix() {
    using namespace std::chrono;
    const auto now = system_clock::now();
    const std::time_t seconds = system_clock::to_time_t(now);
    const auto micros = duration_cast<microseconds>(now.time_since_epoch()).count() % 1000000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char buffer[96];
    const size_t length = std::strftime(buffer, sizeof buffer, "%Y-%m-%d-%H:%M:%S", &local);
    std::snprintf(buffer + length, sizeof buffer - length, ".%03lld.%03lld", static_cast<long long>(micros / 1000),
                  static_cast<long long>(micros % 1000));
    return "[PID:" + std::to_string(::getpid()) + "] " + buffer + " ";
}

}  // namespace

void vreport_message(const char* tag, const char* format, va_list args) {
    char text[1024];
    std::vsnprintf(text, sizeof text, format, args);
    ThreadErrorState& state = thread_errors();
    std::string line = message_prefix() + tag + ": " + text;
    if (!state.pending.empty()) line += "\n" + state.pending;
    state.pending = std::move(line);
}

void report_message(const char* tag, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport_message(tag, format, args);
    va_end(args);
}

void vreport_error(aclError code, const char* tag, const char* format, va_list args) {
    vreport_message(tag, format, args);
    thread_errors().lastError = code;
}

void report_error(aclError code, const char* tag, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport_error(code, tag, format, args);
    va_end(args);
}

namespace detail {

aclError param_error(aclError code, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport_error(code, kRuntimeParamTag, format, args);
    va_end(args);
    return code;
}

aclError runtime_error(aclError code, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport_error(code, kRuntimeInnerTag, format, args);
    va_end(args);
    return code;
}

void set_last_error(aclError code) noexcept { thread_errors().lastError = code; }

std::string take_thread_messages() {
    std::string messages;
    messages.swap(thread_errors().pending);
    return messages;
}

const char* hand_out_thread_messages() {
    ThreadErrorState& state = thread_errors();
    if (state.pending.empty()) return nullptr;
    state.handedOut = std::move(state.pending);
    state.pending.clear();
    return state.handedOut.c_str();
}

aclError last_error(bool clear) noexcept {
    ThreadErrorState& state = thread_errors();
    const aclError last = state.lastError;
    if (clear) state.lastError = ACL_SUCCESS;
    return last;
}

}  // namespace detail
}  // namespace aclcpu
