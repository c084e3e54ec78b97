/* The demangling oracle: each line of standard input, a symbol, printed as perf 6.1 built without libbfd
   names it (tools/perf/util/symbol-elf.c, demangle_sym): libiberty's cplus_demangle(name, DMGL_NO_OPTS) —
   C++ (Itanium ABI) and Rust (legacy and v0) without parameters, verbose details or Rust hashes — or the
   name itself when that gives nothing. Output: name TAB demangled.
   Build: gcc -O1 -o demangle demangle.c -liberty   (Debian: libiberty-dev) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>

int main(void) {
    char line[65536];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *d = cplus_demangle(line, DMGL_NO_OPTS);
        printf("%s\t%s\n", line, d ? d : line);
        free(d);
    }
    return 0;
}
