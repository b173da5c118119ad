# -DSANITIZE=ON builds everything with ASan + UBSan (what CI runs the suite under).
option(SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

# -DEMU_FUZZ=ON (clang): instrument every library for libFuzzer coverage; tests/fuzz links the
# fuzzer driver into its targets.
option(EMU_FUZZ "Build libFuzzer targets (clang)" OFF)
if(EMU_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
