# aclcpu_add_operator(<name> LIBRARY <library>)
#
# An operator (or a family of operators) is one folder, ops/<name>/, built
# into <library> (opapi_nn, opapi_math; libopapi holds them all), holding:
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

function(aclcpu_add_operator name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "LIBRARY" "")
  if(NOT arg_LIBRARY)
    message(FATAL_ERROR "aclcpu_add_operator(${name}): LIBRARY is required")
  endif()
  set(folder ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  file(GLOB sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  target_sources(${arg_LIBRARY}_objects PRIVATE ${sources})
  file(GLOB headers CONFIGURE_DEPENDS ${folder}/aclnn_*.h)
  foreach(header IN LISTS headers)
    get_filename_component(file ${header} NAME)
    configure_file(${header} ${ACLCPU_GENERATED_INCLUDE}/aclnnop/${file} COPYONLY)
  endforeach()
  install(FILES ${headers} DESTINATION include/aclnnop)
  file(GLOB tests CONFIGURE_DEPENDS ${folder}/tests/test_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TESTS ${tests})
  file(GLOB tilingTests CONFIGURE_DEPENDS ${folder}/tests/tiling_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_TILING_TESTS ${tilingTests})
  file(GLOB fuzzers CONFIGURE_DEPENDS ${folder}/tests/fuzz_*.cpp)
  set_property(GLOBAL APPEND PROPERTY ACLCPU_OPERATOR_FUZZERS ${fuzzers})
endfunction()
