# The "not yet" answer of the operator libraries (ops/not_yet/README.md).
#
# ops/not_yet/<part>/aclnn_*.h are the public headers of operators of
# libopapi_<part> that acl-cpu has no folder for yet; they are published as
# an operator's are.  Then, once every operator of this directory is added
# (a deferred call), each library gets a generated source with a weak "not
# yet" definition of every function its headers declare; an operator's own
# definition wins at link time.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
foreach(library IN LISTS ACLCPU_OPERATOR_LIBRARIES)
  string(REGEX REPLACE "^opapi_" "" part ${library})
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/${part}/aclnn_*.h)
  aclcpu_add_operator_headers(${library} ${headers})
endforeach()
file(GLOB ACLCPU_NOT_YET_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/tests/test_*.cpp)
set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TESTS ${ACLCPU_NOT_YET_TESTS})

function(aclcpu_add_not_yet_definitions)
  set(generator ${CMAKE_CURRENT_SOURCE_DIR}/not_yet/generate_stubs.py)
  foreach(library IN LISTS ACLCPU_OPERATOR_LIBRARIES)
    get_property(headers GLOBAL PROPERTY ACLCPU_OPERATOR_HEADERS_${library})
    set(source ${CMAKE_CURRENT_BINARY_DIR}/not_yet/${library}_not_yet.cpp)
    add_custom_command(OUTPUT ${source}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/not_yet
      COMMAND Python3::Interpreter ${generator} ${source} ${library} ${headers}
      DEPENDS ${generator} ${headers}
      COMMENT "Generating the not-yet definitions of lib${library}"
      VERBATIM)
    target_sources(${library}_objects PRIVATE ${source})
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL aclcpu_add_not_yet_definitions)
