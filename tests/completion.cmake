# SPDX-License-Identifier: MIT
# Shell completion (scripts/completion): the generator that writes the
# switch lists from the options table, a check that the committed files are
# what it writes now (so they never drift from -?), and the bash completion
# function driven for real (tests/e2e/completion_bash_test.sh), plus zsh.
if(NOT CMAKE_CROSSCOMPILING)
  set(iospd_comp_dir ${PROJECT_SOURCE_DIR}/scripts/completion)
  add_executable(iospd_completion_gen ${iospd_comp_dir}/gen_completion.c)
  target_compile_options(iospd_completion_gen PRIVATE ${iospd_cflags})
  target_link_libraries(iospd_completion_gen PRIVATE iospd_core iospd_plat)

  # cmake --build <dir> --target iospd_completion_update rewrites the
  # committed files after the options table or a template changed.
  add_custom_target(iospd_completion_update
    COMMAND iospd_completion_gen ${iospd_comp_dir}/iospd.bash.in ${iospd_comp_dir}/iospd.bash
    COMMAND iospd_completion_gen ${iospd_comp_dir}/_iospd.in ${iospd_comp_dir}/_iospd
    COMMENT "Regenerating scripts/completion/iospd.bash and _iospd")

  find_program(IOSPD_BASH bash)
  if(IOSPD_BASH)
    add_test(NAME completion_uptodate COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/completion_uptodate_test.sh
             $<TARGET_FILE:iospd_completion_gen> ${iospd_comp_dir})
    add_test(NAME e2e_completion_bash COMMAND ${IOSPD_BASH} --norc --noprofile
             ${PROJECT_SOURCE_DIR}/tests/e2e/completion_bash_test.sh
             ${iospd_comp_dir}/iospd.bash $<TARGET_FILE:iospd>)
    add_test(NAME e2e_completion_zsh COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/completion_zsh_test.sh
             ${iospd_comp_dir}/_iospd ${iospd_comp_dir}/iospd.bash)
    set_tests_properties(completion_uptodate e2e_completion_bash e2e_completion_zsh
                         PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  endif()
endif()
