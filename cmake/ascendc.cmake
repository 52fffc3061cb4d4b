# Installed as <prefix>/tikcpp/ascendc_kernel_cmake/ascendc.cmake, where
# CANN's Ascend C kernel build rules live.  acl-cpu runs host programs on the
# CPU and has no Ascend C compiler: a kernel library is declared empty, with a
# warning that says why.  Many of CANN's examples declare one and link it
# without calling a kernel; those build and run.  A program that does call a
# kernel's launch function fails to link, naming the function.

function(aclcpu_empty_kernel_library rule target)
  message(WARNING
    "${rule}(${target}): the project builds Ascend C device kernels. acl-cpu runs host programs "
    "on the CPU and has no Ascend C compiler; ${target} is empty, and a program that launches "
    "its kernels will not link (acl-cpu's own operators are in libopapi).")
  add_library(${target} INTERFACE)
endfunction()

function(ascendc_library target)
  aclcpu_empty_kernel_library(ascendc_library ${target})
endfunction()

function(ascendc_fatbin_library target)
  aclcpu_empty_kernel_library(ascendc_fatbin_library ${target})
endfunction()
