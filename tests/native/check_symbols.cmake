# Fails if the engine library defines an external symbol without the
# project's prefix: jl_ for the public API, jli_ for internal helpers shared
# between files (the private headers of c/src/<layer>/). Names starting with
# "__" belong to the compiler and the sanitizers, never to the project.
#   cmake -DNM=<nm> -DLIB=<libjuliet.a> -P check_symbols.cmake
execute_process(COMMAND ${NM} -g --defined-only ${LIB}
                OUTPUT_VARIABLE listing RESULT_VARIABLE code ERROR_VARIABLE errors)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}: ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(checked 0)
set(bad "")
foreach(line ${lines})
  # "<address> <type> <name>"; member headers ("file.o:") and blanks have no type.
  if(NOT line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^ ]+)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_1}")
  math(EXPR checked "${checked} + 1")
  if(name MATCHES "^jli?_" OR name MATCHES "^__")
    continue()
  endif()
  list(APPEND bad "${name}")
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no symbols read from ${LIB}: is ${NM} the right tool?")
endif()
if(bad)
  list(JOIN bad "\n  " shown)
  message(FATAL_ERROR "external symbols without the jl_/jli_ prefix in ${LIB}:\n  ${shown}")
endif()
message(STATUS "${checked} external symbols, all prefixed jl_ or jli_")
