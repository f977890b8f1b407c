// glibc declares memmem only for _GNU_SOURCE, which Swift's Glibc module is not built with, so Swift cannot call
// it directly on Linux; this one function is the bridge. memmem is vectorised in glibc and in Apple's libc: the
// search index (SearchIndex.swift) is a memmem pass over one buffer.
#define _GNU_SOURCE
#include <string.h>
#include "CByteSearch.h"

const void *understudy_find_bytes(const void *haystack, size_t haystack_length, const void *needle,
                                  size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
