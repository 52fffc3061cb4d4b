# The "not yet" answer of the operator libraries (ops/not_yet/README.md).
#
# ops/not_yet/<part>/aclnn_api.toml lists the public headers of operators of
# libopapi_<part> that acl-cpu has no folder for yet; they are published as
# an operator's are.  Then, once every operator of this directory is added
# (a deferred call), each library gets a generated source with a weak "not
# yet" definition of every function its lists declare; an operator's own
# definition wins at link time.
foreach(library IN LISTS ACLCPU_OPERATOR_LIBRARIES)
  string(REGEX REPLACE "^opapi_" "" part ${library})
  aclcpu_add_operator_headers(${library} ${CMAKE_CURRENT_LIST_DIR}/${part}/aclnn_api.toml)
endforeach()
file(GLOB ACLCPU_NOT_YET_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/tests/test_*.cpp)
set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TESTS ${ACLCPU_NOT_YET_TESTS})

function(aclcpu_add_not_yet_definitions)
  set(generator ${CMAKE_CURRENT_SOURCE_DIR}/not_yet/generate_stubs.py)
  foreach(library IN LISTS ACLCPU_OPERATOR_LIBRARIES)
    get_property(lists GLOBAL PROPERTY ACLCPU_OPERATOR_API_LISTS_${library})
    set(source ${CMAKE_CURRENT_BINARY_DIR}/not_yet/${library}_not_yet.cpp)
    add_custom_command(OUTPUT ${source}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/not_yet
      COMMAND Python3::Interpreter ${generator} ${source} ${library} ${lists}
      DEPENDS ${generator} ${CMAKE_CURRENT_SOURCE_DIR}/aclnn_api.py ${lists}
      COMMENT "Generating the not-yet definitions of lib${library}"
      VERBATIM)
    target_sources(${library}_objects PRIVATE ${source})
  endforeach()
  # A header no list publishes any more (its entry was removed) leaves the build tree too.
  file(GLOB generated ${ACLCPU_GENERATED_INCLUDE}/aclnnop/aclnn_*.h)
  foreach(header IN LISTS generated)
    get_filename_component(file ${header} NAME)
    get_property(published GLOBAL PROPERTY ACLCPU_OPERATOR_HEADER_${file})
    if(NOT published)
      file(REMOVE ${header})
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL aclcpu_add_not_yet_definitions)
