# ZhuoseShaders.cmake: translate 着色 sources (名。着色器。豫) as part of a CMake build.
#
#   list(APPEND CMAKE_MODULE_PATH "<repository>/integrations/cmake")
#   include(ZhuoseShaders)
#   zhuose_add_shaders(kernels
#     SOURCES 应用/加倍。着色器。豫 应用/量。着色器。豫
#     TARGETS wgsl msl ptx module          # default: wgsl
#     WORKSPACE ${CMAKE_CURRENT_SOURCE_DIR}  # the folder the packages (包.json) are found under; default
#     OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/zhuose)                                          # default
#
# Each source and target is one custom command (着色器 译|金属|千手|生成 … --输出 … --依赖文件 …)
# whose DEPFILE names every file the result depends on: the source, each module it imports,
# the builtin declarations and the 包.json of each.  Ninja (and Make) rerun exactly the commands
# whose dependencies changed; an output whose text did not change is left untouched, so with
# Ninja what depends on it does not rebuild either (CMake's custom commands restat).
#
# Outputs: <OUTPUT_DIR>/<source path below WORKSPACE without 。着色器。豫>.wgsl|.metal|.ptx|。着色生成。豫;
# the list is the target's property ZHUOSE_OUTPUTS.  The command line is ZHUOSE_COMMAND (a list),
# else the program zhuose on PATH, else `Python3 -m zhuose.cli`.
# See docs/生成.md, “CMake 与 Ninja”.

cmake_minimum_required(VERSION 3.20)   # add_custom_command(DEPFILE) for every generator, CMP0116

set(_ZHUOSE_SUFFIX "。着色器。豫")
# target → subcommand (ASCII alias) and the output's suffix
set(_ZHUOSE_wgsl_COMMAND wgsl)
set(_ZHUOSE_wgsl_SUFFIX ".wgsl")
set(_ZHUOSE_msl_COMMAND msl)
set(_ZHUOSE_msl_SUFFIX ".metal")
set(_ZHUOSE_ptx_COMMAND ptx)
set(_ZHUOSE_ptx_SUFFIX ".ptx")
set(_ZHUOSE_module_COMMAND generate)
set(_ZHUOSE_module_SUFFIX "。着色生成。豫")

function(_zhuose_command out)
  if(ZHUOSE_COMMAND)
    set(${out} ${ZHUOSE_COMMAND} PARENT_SCOPE)
    return()
  endif()
  find_program(ZHUOSE_EXECUTABLE NAMES zhuose)
  if(ZHUOSE_EXECUTABLE)
    set(${out} ${ZHUOSE_EXECUTABLE} PARENT_SCOPE)
    return()
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(${out} ${Python3_EXECUTABLE} -m zhuose.cli PARENT_SCOPE)
endfunction()

function(zhuose_add_shaders target)
  cmake_parse_arguments(PARSE_ARGV 1 ZS "" "WORKSPACE;OUTPUT_DIR" "SOURCES;TARGETS")
  if(ZS_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "zhuose_add_shaders(${target}): 不认识的参数 ${ZS_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ZS_SOURCES)
    message(FATAL_ERROR "zhuose_add_shaders(${target}): 缺少 SOURCES（着色源 名。着色器。豫）")
  endif()
  if(NOT ZS_TARGETS)
    set(ZS_TARGETS wgsl)
  endif()
  if(NOT ZS_WORKSPACE)
    set(ZS_WORKSPACE "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  if(NOT ZS_OUTPUT_DIR)
    set(ZS_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/zhuose")
  endif()
  get_filename_component(workspace "${ZS_WORKSPACE}" ABSOLUTE)
  get_filename_component(out_dir "${ZS_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  _zhuose_command(command)

  set(outputs)
  foreach(source IN LISTS ZS_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE)
    string(FIND "${source}" "${_ZHUOSE_SUFFIX}" at REVERSE)
    if(at EQUAL -1)
      message(FATAL_ERROR "zhuose_add_shaders(${target}): 「${source}」不是着色源：后缀须是 ${_ZHUOSE_SUFFIX}")
    endif()
    file(RELATIVE_PATH relative "${workspace}" "${source}")
    if(relative MATCHES "^\\.\\./")
      message(FATAL_ERROR "zhuose_add_shaders(${target}): 「${source}」在 WORKSPACE ${workspace} 之外")
    endif()
    string(FIND "${relative}" "${_ZHUOSE_SUFFIX}" at REVERSE)
    string(SUBSTRING "${relative}" 0 ${at} stem)
    foreach(kind IN LISTS ZS_TARGETS)
      if(NOT DEFINED _ZHUOSE_${kind}_COMMAND)
        message(FATAL_ERROR "zhuose_add_shaders(${target}): 未知的目标「${kind}」：可选 wgsl msl ptx module")
      endif()
      set(output "${out_dir}/${stem}${_ZHUOSE_${kind}_SUFFIX}")
      add_custom_command(
        OUTPUT "${output}"
        COMMAND ${command} ${_ZHUOSE_${kind}_COMMAND} "${source}" --output "${output}" --depfile "${output}.d"
        DEPENDS "${source}"
        DEPFILE "${output}.d"
        WORKING_DIRECTORY "${workspace}"
        COMMENT "着色 ${kind} ${relative}"
        VERBATIM)
      list(APPEND outputs "${output}")
    endforeach()
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
  set_property(TARGET ${target} PROPERTY ZHUOSE_OUTPUTS ${outputs})
endfunction()
