# aclcpu_add_operator(<name> LIBRARY <library>)
#
# An operator (or a family of operators) is one folder, ops/<name>/, built
# into <library> (opapi_nn, opapi_math, opapi_transformer, opapi_cv; libopapi
# holds them all), holding:
#   aclnn_api.toml     the declarations of its public headers, one list:
#                      ops/aclnn_api.py writes each header at configure
#                      time into the build tree's include/aclnnop/ (visible
#                      to the build as aclnnop/aclnn_*.h), installed into
#                      include/aclnnop/
#   *.cpp              its API entry (checks), tiling and kernel
#   tests/test_*.cpp   its GoogleTest cases, built into ops_tests
#   tests/tiling_*.cpp white-box tests of its tiling, built into
#                      ops_tiling_tests with the libraries' objects
#   tests/fuzz_*.cpp   its libFuzzer targets, each seeded from tests/corpus/ or,
#                      in a family with several, tests/corpus/<target>/
#   README.md          what it computes and the rules worth knowing
# so adding an operator is its folder and one call of this function.
set(ACLCPU_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/include)
# ops/aclnn_api.py reads the lists with tomllib (Python 3.11, Debian 12's).
find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter)

# aclcpu_add_operator_headers(<library> <list>)
#
# Publishes the aclnnop headers a declaration list (aclnn_api.toml) holds as
# headers of <library>: ops/aclnn_api.py writes them into the build tree's
# include/aclnnop (the configuration runs again when the list or the script
# changes), they are installed, and the list is appended to the global
# property ACLCPU_OPERATOR_API_LISTS_<library>, from which ops/not_yet/
# generates the "not yet" answer of every declared function no operator
# defines.  A header name published twice (in an operator's list and in
# ops/not_yet/'s, say) stops the configuration: one of them is stale.  A
# folder without a list publishes nothing.
function(aclcpu_add_operator_headers library list)
  if(NOT EXISTS ${list})
    return()
  endif()
  set(generator ${PROJECT_SOURCE_DIR}/ops/aclnn_api.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list} ${generator})
  execute_process(COMMAND ${Python3_EXECUTABLE} ${generator} ${ACLCPU_GENERATED_INCLUDE}/aclnnop ${list}
                  OUTPUT_VARIABLE headers OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "ops/aclnn_api.py could not write the headers of ${list}")
  endif()
  string(REPLACE "\n" ";" headers "${headers}")
  foreach(header IN LISTS headers)
    get_filename_component(file ${header} NAME)
    get_property(earlier GLOBAL PROPERTY ACLCPU_OPERATOR_HEADER_${file})
    if(earlier)
      message(FATAL_ERROR "aclnnop/${file} is published twice: by ${earlier} and by ${list}; "
                          "an operator's folder takes its header's entry from ops/not_yet/'s list, it does not copy it")
    endif()
    set_property(GLOBAL PROPERTY ACLCPU_OPERATOR_HEADER_${file} ${list})
  endforeach()
  if(headers)
    install(FILES ${headers} DESTINATION include/aclnnop)
  endif()
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_API_LISTS_${library} ${list})
endfunction()

function(aclcpu_add_operator name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LIBRARY" "")
  if(NOT arg_LIBRARY)
    message(FATAL_ERROR "aclcpu_add_operator(${name}): LIBRARY is required")
  endif()
  set(folder ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  file(GLOB sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  target_sources(${arg_LIBRARY}_objects PRIVATE ${sources})
  aclcpu_add_operator_headers(${arg_LIBRARY} ${folder}/aclnn_api.toml)
  file(GLOB tests CONFIGURE_DEPENDS ${folder}/tests/test_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TESTS ${tests})
  file(GLOB tilingTests CONFIGURE_DEPENDS ${folder}/tests/tiling_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TILING_TESTS ${tilingTests})
  file(GLOB fuzzers CONFIGURE_DEPENDS ${folder}/tests/fuzz_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_FUZZERS ${fuzzers})
endfunction()
