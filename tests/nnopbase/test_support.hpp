// Helpers shared by the libnnopbase tests.
#pragma once

#include <string>

#include "acl/acl.h"

namespace nnopbase_test {

/// Takes the messages queued for aclGetRecentErrMsg on this thread (so the
/// next call starts empty).
inline std::string take_error_message() {
    const char* message = aclGetRecentErrMsg();
    return message != nullptr ? message : "";
}

}  // namespace nnopbase_test
