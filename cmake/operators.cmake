# aclcpu_add_operator(<name> LIBRARY <library>)
#
# An operator (or a family of operators) is one folder, ops/<name>/, built
# into <library> (opapi_nn, opapi_math, opapi_transformer, opapi_cv; libopapi
# holds them all), holding:
#   aclnn_*.h          its public header: visible to the build as
#                      aclnnop/aclnn_*.h, installed into include/aclnnop/
#   *.cpp              its API entry (checks), tiling and kernel
#   tests/test_*.cpp   its GoogleTest cases, built into ops_tests
#   tests/tiling_*.cpp white-box tests of its tiling, built into
#                      ops_tiling_tests with the libraries' objects
#   tests/fuzz_*.cpp   its libFuzzer targets, each seeded from tests/corpus/ or,
#                      in a family with several, tests/corpus/<target>/
#   README.md          what it computes and the rules worth knowing
# so adding an operator is its folder and one call of this function.
set(ACLCPU_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/include)

# aclcpu_add_operator_headers(<library> <header>...)
#
# Publishes aclnnop headers of <library>: copied into the build tree's
# include/aclnnop, installed, and listed in the global property
# ACLCPU_OPERATOR_HEADERS_<library>, from which ops/not_yet/ generates the
# "not yet" answer of every declared function no operator defines.  A header
# name published twice (an operator's folder and ops/not_yet/, say) stops
# the configuration: one of them is stale.
function(aclcpu_add_operator_headers library)
  if(NOT ARGN)
    return()
  endif()
  foreach(header IN LISTS ARGN)
    get_filename_component(file ${header} NAME)
    get_property(earlier GLOBAL PROPERTY ACLCPU_OPERATOR_HEADER_${file})
    if(earlier)
      message(FATAL_ERROR "aclnnop/${file} is published twice: ${earlier} and ${header}; "
                          "an operator's folder takes its header from ops/not_yet/ (git mv), it does not copy it")
    endif()
    set_property(GLOBAL PROPERTY ACLCPU_OPERATOR_HEADER_${file} ${header})
    configure_file(${header} ${ACLCPU_GENERATED_INCLUDE}/aclnnop/${file} COPYONLY)
  endforeach()
  install(FILES ${ARGN} DESTINATION include/aclnnop)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_HEADERS_${library} ${ARGN})
endfunction()

function(aclcpu_add_operator name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LIBRARY" "")
  if(NOT arg_LIBRARY)
    message(FATAL_ERROR "aclcpu_add_operator(${name}): LIBRARY is required")
  endif()
  set(folder ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  file(GLOB sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  target_sources(${arg_LIBRARY}_objects PRIVATE ${sources})
  file(GLOB headers CONFIGURE_DEPENDS ${folder}/aclnn_*.h)
  aclcpu_add_operator_headers(${arg_LIBRARY} ${headers})
  file(GLOB tests CONFIGURE_DEPENDS ${folder}/tests/test_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TESTS ${tests})
  file(GLOB tilingTests CONFIGURE_DEPENDS ${folder}/tests/tiling_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TILING_TESTS ${tilingTests})
  file(GLOB fuzzers CONFIGURE_DEPENDS ${folder}/tests/fuzz_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_FUZZERS ${fuzzers})
endfunction()
