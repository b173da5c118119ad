# emu_warnings: the warning set every project target compiles with.
option(EMU_WERROR "Treat warnings as errors" ON)
add_library(emu_warnings INTERFACE)
target_compile_options(emu_warnings INTERFACE
  -Wall -Wextra -Wshadow -Wstrict-prototypes -Wvla -Wformat=2 -Wimplicit-fallthrough
  -Wpointer-arith -Wundef
  $<$<BOOL:${EMU_WERROR}>:-Werror>)
target_compile_definitions(emu_warnings INTERFACE _POSIX_C_SOURCE=200809L _DEFAULT_SOURCE)
