# Installs the library built in BUILD_DIR into a scratch prefix and builds
# two consumers against it, as a game team would (see CMakeLists.txt):
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DSCRATCH=... -DC_COMPILER=...
#         -DPKG_CONFIG=... -P run_consumers.cmake
# The scratch folder is emptied before and removed after (kept on failure).
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(prefix ${SCRATCH}/prefix)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}): ${ARGN}\n${out}${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# Every header, both tiers: the public ones include those of juliet/private/.
file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/c ${SOURCE_DIR}/c/include/juliet/*.h)
foreach(file ${headers} bin/juliet)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the install has no ${file}")
  endif()
endforeach()
file(GLOB_RECURSE packages ${prefix}/*/juliet-config.cmake)
file(GLOB_RECURSE pc_files ${prefix}/*/juliet.pc)
file(GLOB_RECURSE archives ${prefix}/*/libjuliet.a)
if(NOT packages OR NOT pc_files OR NOT archives)
  message(FATAL_ERROR "the install lacks juliet-config.cmake, juliet.pc or libjuliet.a")
endif()
run("juliet --version" ${prefix}/bin/juliet --version)
file(STRINGS ${SOURCE_DIR}/c/include/juliet/version.h version_line REGEX "#define JL_VERSION_STRING ")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" version "${version_line}")
if(NOT run_output MATCHES "^juliet ${version}\n")
  message(FATAL_ERROR "juliet --version printed '${run_output}', expected juliet ${version}")
endif()

# 1. The example game, a CMake project of its own: find_package(juliet).
run("configure the example game" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/game -B ${SCRATCH}/game
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER})
run("build the example game" ${CMAKE_COMMAND} --build ${SCRATCH}/game)
run("example_game save" ${SCRATCH}/game/example_game save ${SCRATCH}/game_world)
run("example_game check" ${SCRATCH}/game/example_game check ${SCRATCH}/game_world)

# 2. A program built with the compiler and pkg-config alone (the .pc file
# is relocatable: found through PKG_CONFIG_PATH wherever the prefix is).
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run("pkg-config" ${PKG_CONFIG} --cflags --libs juliet)
string(STRIP "${run_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("compile crate_game.c" ${C_COMPILER} -std=c11 -Wall -Werror ${SOURCE_DIR}/tests/consumers/crate_game.c
    -o ${SCRATCH}/crate_game ${flags})
run("crate_game" ${SCRATCH}/crate_game ${SCRATCH}/crate_world)

# The installed tool accepts both worlds: the game's knowing its classes
# from the class files it wrote (not even a warning), the crates' keeping
# entities of a class it does not know as text (warnings only).
run("juliet validate --strict game_world" ${prefix}/bin/juliet validate --strict ${SCRATCH}/game_world)
run("juliet validate crate_world" ${prefix}/bin/juliet validate ${SCRATCH}/crate_world)

file(REMOVE_RECURSE ${SCRATCH})
