# Runs the example game into a scratch directory and checks what it wrote:
#   cmake -DGAME=<example_game> -DSCRATCH=<dir> [-DJULIET=<juliet>] -P run_example.cmake
# The directory is emptied before and removed after (kept on failure).
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(world ${SCRATCH}/world)

execute_process(COMMAND ${GAME} save ${world} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "example_game save failed (${code}):\n${out}${err}")
endif()

file(GLOB files ${world}/Entities/*.jasset)
list(LENGTH files count)
if(NOT count EQUAL 5)
  message(FATAL_ERROR "expected 5 entity files in ${world}/Entities, found ${count}")
endif()
set(enemies 0)
foreach(file ${files})
  file(READ ${file} text)
  if(text MATCHES "\n; class\nEnemy\n")
    math(EXPR enemies "${enemies} + 1")
    if(NOT text MATCHES "\n; target\n0x[0-9a-f]+\n")
      message(FATAL_ERROR "${file}: an enemy without its target:\n${text}")
    endif()
  endif()
endforeach()
if(NOT enemies EQUAL 3)
  message(FATAL_ERROR "expected 3 Enemy files, found ${enemies}")
endif()

# Loaded back by a program that registered the game's classes.
execute_process(COMMAND ${GAME} check ${world} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0 OR NOT out STREQUAL "Enemy 3\nPickup 2\n")
  message(FATAL_ERROR "example_game check failed (${code}):\n${out}${err}")
endif()

# The juliet tool (JULIET, when given), which has none of the game's code,
# knows its classes from the class files the game wrote: no warning.
foreach(class Enemy Pickup)
  if(NOT EXISTS ${world}/Classes/${class}.jclass)
    message(FATAL_ERROR "the game did not write Classes/${class}.jclass")
  endif()
endforeach()
if(JULIET)
  execute_process(COMMAND ${JULIET} validate --strict ${world} RESULT_VARIABLE code OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "juliet validate --strict refused the game's world (${code}):\n${out}${err}")
  endif()
endif()

file(REMOVE_RECURSE ${SCRATCH})
