// Shared set-up for the benchmarks.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace aclcpu::bench {

/// aclInit + device 0 + one stream for the life of a benchmark; device
/// buffers made through it are freed with it.
class RuntimeSession {
public:
    RuntimeSession() {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtCreateStream(&stream_);
    }
    ~RuntimeSession() {
        aclrtSynchronizeStream(stream_);
        for (void* buffer : buffers_) aclrtFree(buffer);
        aclrtDestroyStream(stream_);
        aclrtResetDevice(0);
        aclFinalize();
    }
    RuntimeSession(const RuntimeSession&) = delete;
    RuntimeSession& operator=(const RuntimeSession&) = delete;

    aclrtStream stream() const { return stream_; }

    void* device_buffer(size_t bytes) {
        void* buffer = nullptr;
        aclrtMalloc(&buffer, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        buffers_.push_back(buffer);
        return buffer;
    }

private:
    aclrtStream stream_ = nullptr;
    std::vector<void*> buffers_;
};

/// Sets an environment variable for a scope (read by the next aclInit).
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, hadOld_ = true;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (hadOld_) setenv(name_, old_.c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool hadOld_ = false;
};

/// The process's resident set size in KiB (VmRSS).
inline long resident_kib() {
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            long kib = 0;
            status >> kib;
            return kib;
        }
        status.ignore(4096, '\n');
    }
    return -1;
}

}  // namespace aclcpu::bench
