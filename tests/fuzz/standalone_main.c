/*
 * standalone_main.c - runs a libFuzzer target over files, so the committed
 * corpora are regression tests under any compiler (each file once).
 *   fuzz_x FILE...
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/base.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) {
            perror(argv[i]);
            return 1;
        }
        base_buf_t b;
        base_buf_init(&b);
        uint8_t chunk[4096];
        size_t n;
        while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
            base_buf_put(&b, chunk, n);
        }
        fclose(f);
        LLVMFuzzerTestOneInput(b.data, b.len);
        base_buf_fini(&b);
    }
    printf("%d inputs ran\n", argc - 1);
    return 0;
}
