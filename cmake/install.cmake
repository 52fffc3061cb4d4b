# The install tree mirrors CANN's toolkit layout, so unchanged sample build
# files work against it:
#   P/include/{acl,aclnn,aclnnop}   P/lib64/lib{ascendcl,acl_rt,nnopbase,opapi_nn,opapi,opapi_math,c_sec}.so
#   P/set_env.sh                    P/lib64/cmake/acl-cpu/acl-cpuConfig.cmake
set(ACLCPU_LIBDIR lib64)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION include)
install(TARGETS aclcpu_headers ascendcl nnopbase opapi_nn opapi_math opapi c_sec
  EXPORT acl-cpu-targets
  LIBRARY DESTINATION ${ACLCPU_LIBDIR}
  INCLUDES DESTINATION include)
set_target_properties(ascendcl nnopbase opapi_nn opapi_math opapi PROPERTIES INSTALL_RPATH "$ORIGIN")

# libacl_rt: the name CANN programs that use only the runtime link with, a link to libascendcl.
foreach(alias_pair "acl_rt;ascendcl")
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
