# rmabench_options: one interface target every project target links, carrying warnings
# (errors in CI) and the sanitizer flags of RMABENCH_SANITIZE.
add_library(rmabench_options INTERFACE)
target_compile_options(rmabench_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                       -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual)
if(RMABENCH_WERROR)
  target_compile_options(rmabench_options INTERFACE -Werror)
endif()
if(RMABENCH_SANITIZE)
  target_compile_options(rmabench_options INTERFACE -fsanitize=${RMABENCH_SANITIZE}
                         -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(rmabench_options INTERFACE -fsanitize=${RMABENCH_SANITIZE})
endif()
