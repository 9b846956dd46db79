# Generated content (--compress, --dedupe; iospd/content.h): the pool and
# writer against zlib (test_content, also under wine), and real runs whose
# files are measured with python3's zlib (tests/e2e/content_test.sh).
iospd_add_test(test_content SOURCES test_content.c LIBS ZLIB::ZLIB TIMEOUT 300)
find_program(IOSPD_BASH bash)
find_package(Python3 COMPONENTS Interpreter)
if(IOSPD_BASH AND Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_content COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/content_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_content PROPERTIES TIMEOUT 300)
elseif(IOSPD_BASH AND Python3_FOUND AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_content_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/content_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_content_wine PROPERTIES TIMEOUT 600
                       ENVIRONMENT "${iospd_test_env}")
endif()
