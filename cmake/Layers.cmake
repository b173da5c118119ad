# The include walls: the layering as a build fact. No target sees the source
# tree's root. Each layer exports a directory that holds only its public header
# (a symlink), and sees its own folder through a second one, so an #include of
# another layer's private header, or of a layer it does not link, fails to
# compile. cql/'s rooms get the same treatment per source file (cql/CMakeLists.txt).
# tests/walls/ proves it: probes that cross a wall must fail to build.
set(EMU_WALLS ${CMAKE_BINARY_DIR}/walls)

# emu_wall_link(<link> <target>): a symlink at <link>, parents created.
function(emu_wall_link link target)
  get_filename_component(dir ${link} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  file(CREATE_LINK ${target} ${link} SYMBOLIC)
endfunction()

# emu_layer(<target> <folder> [PUBLIC_HEADER <file>] [OWN_PUBLIC]):
# <folder>/<file> becomes visible to every target that links <target> as
# "<folder>/<file>"; the whole folder is visible to <target> itself (and to its
# dependents with OWN_PUBLIC, for the top layer whose headers serve main.c).
function(emu_layer target folder)
  cmake_parse_arguments(L "OWN_PUBLIC" "PUBLIC_HEADER" "" ${ARGN})
  emu_wall_link(${EMU_WALLS}/${folder}/own/${folder} ${PROJECT_SOURCE_DIR}/${folder})
  if(L_OWN_PUBLIC)
    target_include_directories(${target} PUBLIC ${EMU_WALLS}/${folder}/own)
  else()
    target_include_directories(${target} PRIVATE ${EMU_WALLS}/${folder}/own)
  endif()
  if(L_PUBLIC_HEADER)
    emu_wall_link(${EMU_WALLS}/${folder}/public/${folder}/${L_PUBLIC_HEADER}
                  ${PROJECT_SOURCE_DIR}/${folder}/${L_PUBLIC_HEADER})
    target_include_directories(${target} PUBLIC ${EMU_WALLS}/${folder}/public)
  endif()
endfunction()
