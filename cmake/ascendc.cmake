# Installed as <prefix>/tikcpp/ascendc_kernel_cmake/ascendc.cmake, where
# CANN's Ascend C kernel build rules live.  acl-cpu runs host programs on the
# CPU and has no Ascend C compiler, so the kernel rules stop with the reason;
# projects that include this file but declare no kernel configure as usual.

function(aclcpu_refuse_ascendc_kernels rule target)
  message(FATAL_ERROR
    "${rule}(${target}): the project builds Ascend C device kernels. acl-cpu runs host programs "
    "on the CPU and has no Ascend C compiler; programs that launch custom kernels cannot be "
    "built against it (its own operators are in libopapi).")
endfunction()

function(ascendc_library target)
  aclcpu_refuse_ascendc_kernels(ascendc_library ${target})
endfunction()

function(ascendc_fatbin_library target)
  aclcpu_refuse_ascendc_kernels(ascendc_fatbin_library ${target})
endfunction()
