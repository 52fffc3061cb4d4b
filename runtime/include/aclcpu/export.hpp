// acl-cpu: the visibility of the runtime's private interface.  Every library
// is built with hidden visibility; what the libraries built on the runtime
// (libnnopbase, libopapi_*) and the tests call is marked ACLCPU_EXPORT.
// Not installed: host programs only see CANN's C API.
#pragma once

#define ACLCPU_EXPORT __attribute__((visibility("default")))
