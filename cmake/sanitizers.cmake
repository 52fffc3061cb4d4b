# ACLCPU_SANITIZE instruments every target of the build, libraries, tests and
# samples alike, so a report points at the faulty frame whichever side of a
# library boundary it is on.  scripts/run_sanitizers.sh sets the run-time
# options (halt on the first report, leak checking, TSan suppressions).
if(NOT ACLCPU_SANITIZE)
  return()
endif()
if(NOT ACLCPU_SANITIZE MATCHES "^(address,undefined|thread)$")
  message(FATAL_ERROR "ACLCPU_SANITIZE must be empty, \"address,undefined\" or \"thread\", not \"${ACLCPU_SANITIZE}\"")
endif()

# Frame pointers keep the sanitizers' stacks whole at -O1.
set(ACLCPU_SANITIZE_FLAGS -fsanitize=${ACLCPU_SANITIZE} -fno-omit-frame-pointer)
if(ACLCPU_SANITIZE MATCHES "undefined")
  # Undefined behaviour aborts the process instead of printing and going on,
  # so the test that triggered it fails.
  list(APPEND ACLCPU_SANITIZE_FLAGS -fno-sanitize-recover=all)
  # Loads of enum values outside the enum's range: a C caller may pass any
  # integer where the API takes an enum, so entry points must read such
  # codes as integers (aclcpu::code_of) before using them as enums.
  list(APPEND ACLCPU_SANITIZE_FLAGS -fsanitize=enum)
  # Not the vptr check: oneTBB's flow graph header (_flow_graph_impl.h,
  # graph_task::destruct_and_deallocate) casts every finished task to its
  # type after running its destructor.  That header is compiled into our
  # libraries, and GCC's runtime ignores suppressions of vptr reports, so the
  # check would fail every stream.  AddressSanitizer still catches any use of
  # a destroyed object.
  list(APPEND ACLCPU_SANITIZE_FLAGS -fno-sanitize=vptr)
endif()
add_compile_options(${ACLCPU_SANITIZE_FLAGS})
add_link_options(${ACLCPU_SANITIZE_FLAGS})
