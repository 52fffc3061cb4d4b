# The install tree mirrors CANN's toolkit layout, so unchanged sample build
# files work against it:
#   P/include/{acl,aclnn,aclnnop,hccl}
#   P/lib64/lib{ascendcl,acl_rt,nnopbase,opapi_nn,opapi,opapi_math,opapi_transformer,opapi_cv,
#               hccl,c_sec}.so
#   P/set_env.sh                    P/lib64/cmake/acl-cpu/acl-cpuConfig.cmake
#   P/bin/{setenv.bash,aclcpu-soc-name,aclcpu-explore}
#   P/tikcpp/ascendc_kernel_cmake/ascendc.cmake
#   P/lib64/lib<alias>.so           the other names CANN's libraries go by
set(ACLCPU_LIBDIR lib64)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION include)
install(TARGETS aclcpu_headers ascendcl nnopbase ${ACLCPU_OPERATOR_LIBRARIES} opapi hccl c_sec
  EXPORT acl-cpu-targets
  LIBRARY DESTINATION ${ACLCPU_LIBDIR}
  INCLUDES DESTINATION include)
set_target_properties(ascendcl nnopbase hccl PROPERTIES INSTALL_RPATH "$ORIGIN")
# The operator libraries also load BLIS from the directory it was found in
# (ops/CMakeLists.txt).
get_filename_component(ACLCPU_BLIS_LIBRARY_DIR "${ACLCPU_BLIS_LIBRARY}" DIRECTORY)
set_target_properties(${ACLCPU_OPERATOR_LIBRARIES} opapi PROPERTIES INSTALL_RPATH "$ORIGIN;${ACLCPU_BLIS_LIBRARY_DIR}")

# The names of CANN's libraries whose functions libascendcl defines: the
# runtime (acl_rt, acl_rt_impl), profiling (msprofiler, profapi, ms_tools_ext),
# dump (ascend_dump), the TDT channels and queues, the platform queries
# (platform), DVPP (acl_dvpp, whose functions answer "not supported") and the
# single-operator compiler (acl_op_compiler, which CANN programs such as
# ggml's CANN backend link; no function of its acl_op_compiler.h is declared
# yet) -- links to it.
foreach(alias_pair "acl_rt;ascendcl" "acl_rt_impl;ascendcl" "msprofiler;ascendcl" "profapi;ascendcl"
                   "ms_tools_ext;ascendcl" "ascend_dump;ascendcl" "acl_tdt_channel;ascendcl" "acl_tdt_queue;ascendcl"
                   "platform;ascendcl" "acl_dvpp;ascendcl" "acl_op_compiler;ascendcl")
  list(GET alias_pair 0 alias)
  list(GET alias_pair 1 target)
  install(CODE "execute_process(COMMAND ${CMAKE_COMMAND} -E create_symlink lib${target}.so
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${ACLCPU_LIBDIR}/lib${alias}.so\")")
endforeach()

install(EXPORT acl-cpu-targets NAMESPACE acl-cpu:: DESTINATION ${ACLCPU_LIBDIR}/cmake/acl-cpu)
include(CMakePackageConfigHelpers)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/acl-cpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/acl-cpuConfig.cmake
  INSTALL_DESTINATION ${ACLCPU_LIBDIR}/cmake/acl-cpu)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/acl-cpuConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/acl-cpuConfig.cmake ${PROJECT_BINARY_DIR}/acl-cpuConfigVersion.cmake
  DESTINATION ${ACLCPU_LIBDIR}/cmake/acl-cpu)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/set_env.sh DESTINATION .)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/setenv.bash DESTINATION bin)
install(TARGETS aclcpu_soc_name aclcpu_explore RUNTIME DESTINATION bin)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/ascendc.cmake DESTINATION tikcpp/ascendc_kernel_cmake)
