# The public headers in tiers (c/include/juliet/): the API one level up, the
# layouts that may change under private/. CHECK says which rule to check:
#   umbrella  every header of c/include/juliet/ (private/ aside) is included
#             by juliet.h, so `#include <juliet/juliet.h>` is the whole API;
#   internal  no header of c/include/juliet/ (private/ aside) names a jli_
#             symbol (internal helpers are declared under private/ or in
#             c/src), and every header of private/ opens with the warning
#             that it may change without notice.
#   cmake -DINCLUDE=<repo>/c/include/juliet -DCHECK=umbrella -P check_headers.cmake
cmake_minimum_required(VERSION 3.20) # script mode: IN_LIST

if(NOT IS_DIRECTORY "${INCLUDE}")
  message(FATAL_ERROR "no public headers at INCLUDE=${INCLUDE}")
endif()
file(GLOB public RELATIVE ${INCLUDE} ${INCLUDE}/*.h)
file(GLOB private RELATIVE ${INCLUDE} ${INCLUDE}/private/*.h)
list(SORT public)
set(bad "")

if(CHECK STREQUAL "umbrella")
  file(READ ${INCLUDE}/juliet.h umbrella)
  string(REGEX MATCHALL "#[ \t]*include[ \t]*\"[^\"]+\"" directives "${umbrella}")
  set(included "")
  foreach(directive IN LISTS directives)
    string(REGEX REPLACE ".*\"([^\"]+)\"" "\\1" name "${directive}")
    list(APPEND included "${name}")
  endforeach()
  foreach(header IN LISTS public)
    if(NOT header STREQUAL "juliet.h" AND NOT header IN_LIST included)
      list(APPEND bad "c/include/juliet/juliet.h does not include ${header}")
    endif()
  endforeach()
  list(LENGTH public count)
  set(done "juliet.h includes all ${count} public headers but itself")
elseif(CHECK STREQUAL "internal")
  foreach(header IN LISTS public)
    file(STRINGS ${INCLUDE}/${header} lines REGEX "jli_|JLI_")
    foreach(line IN LISTS lines)
      string(STRIP "${line}" line)
      list(APPEND bad "c/include/juliet/${header} names an internal symbol: ${line}")
    endforeach()
  endforeach()
  foreach(header IN LISTS private)
    file(READ ${INCLUDE}/${header} text LIMIT 1200)
    string(REGEX REPLACE "[ \t\n*]+" " " text "${text}")
    if(NOT text MATCHES "may change without notice")
      list(APPEND bad "c/include/juliet/${header} does not open with the private tier's warning (\"may change without notice\")")
    endif()
  endforeach()
  list(LENGTH public count)
  list(LENGTH private private_count)
  set(done "${count} public headers name no jli_ symbol; ${private_count} private headers carry the warning")
else()
  message(FATAL_ERROR "CHECK must be umbrella or internal, not '${CHECK}'")
endif()

if(bad)
  list(JOIN bad "\n  " shown)
  message(FATAL_ERROR "public headers:\n  ${shown}")
endif()
message(STATUS "${done}")
