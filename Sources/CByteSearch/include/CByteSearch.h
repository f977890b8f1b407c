#ifndef UNDERSTUDY_BYTE_SEARCH_H
#define UNDERSTUDY_BYTE_SEARCH_H

#include <stddef.h>

/// The first occurrence of `needle` in `haystack`, or NULL, as `memmem` finds it.
const void *understudy_find_bytes(const void *haystack, size_t haystack_length, const void *needle,
                                  size_t needle_length);

#endif
