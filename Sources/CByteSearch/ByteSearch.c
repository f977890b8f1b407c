// The search index (SearchIndex.swift) looks for a short needle in one large buffer, over and over from the
// point after each hit. glibc's memmem prepares the needle on every call (two-way), which for a needle found
// in one item of ten cost more than the scan itself; Swift's Glibc module does not even declare it (it needs
// _GNU_SOURCE). So on x86-64 the scan compares the needle's first and last bytes against 16 positions at a time
// with SSE2 (which every x86-64 has) and checks the middle only where both match; elsewhere it is memmem.
#define _GNU_SOURCE
#include <string.h>
#include "CByteSearch.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>

const void *understudy_find_bytes(const void *haystack, size_t haystack_length, const void *needle,
                                  size_t needle_length) {
    const unsigned char *h = haystack, *n = needle;
    if (needle_length == 0) return haystack;
    if (needle_length > haystack_length) return NULL;
    if (needle_length == 1) return memchr(haystack, n[0], haystack_length);
    const size_t last = needle_length - 1;
    const size_t end = haystack_length - needle_length;  // the last position a match can start at
    const __m128i first_byte = _mm_set1_epi8((char)n[0]);
    const __m128i last_byte = _mm_set1_epi8((char)n[last]);
    size_t i = 0;
    for (; i + 16 <= end + 1; i += 16) {
        __m128i starts = _mm_loadu_si128((const __m128i *)(h + i));
        __m128i ends = _mm_loadu_si128((const __m128i *)(h + i + last));
        unsigned mask = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(starts, first_byte), _mm_cmpeq_epi8(ends, last_byte)));
        while (mask) {
            unsigned bit = (unsigned)__builtin_ctz(mask);
            if (memcmp(h + i + bit + 1, n + 1, last - 1) == 0) return h + i + bit;
            mask &= mask - 1;
        }
    }
    for (; i <= end; i++) {
        if (h[i] == n[0] && h[i + last] == n[last] && memcmp(h + i + 1, n + 1, last - 1) == 0) return h + i;
    }
    return NULL;
}

#else

const void *understudy_find_bytes(const void *haystack, size_t haystack_length, const void *needle,
                                  size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

#endif
