# rmabench_options: one interface target every project target links, carrying warnings
# (errors in CI) and the sanitizer flags of RMABENCH_SANITIZE.
add_library(rmabench_options INTERFACE)
target_compile_options(rmabench_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                       -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual)
# GCC 12 at -O2 reports -Wmaybe-uninitialized inside nlohmann::json's iterators (a known false
# positive of that compiler), which no code of ours can silence locally.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(rmabench_options INTERFACE -Wno-maybe-uninitialized)
endif()
if(RMABENCH_WERROR)
  target_compile_options(rmabench_options INTERFACE -Werror)
endif()
if(RMABENCH_SANITIZE)
  target_compile_options(rmabench_options INTERFACE -fsanitize=${RMABENCH_SANITIZE}
                         -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(rmabench_options INTERFACE -fsanitize=${RMABENCH_SANITIZE})
endif()
