// acl-cpu test kit: ScopedEnv, an environment variable set for a scope.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace aclcpu::testkit {

/// Sets (or, with nullopt, removes) an environment variable for a scope and
/// restores the previous value afterwards.  The runtime reads its variables
/// at aclInit, so set them before it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
        if (const char* previous = std::getenv(name)) saved_ = previous;
        if (value) {
            setenv(name, value->c_str(), 1);
        } else {
            unsetenv(name);
        }
    }
    ~ScopedEnv() {
        if (saved_) {
            setenv(name_.c_str(), saved_->c_str(), 1);
        } else {
            unsetenv(name_.c_str());
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
    std::optional<std::string> saved_;
};

}  // namespace aclcpu::testkit
