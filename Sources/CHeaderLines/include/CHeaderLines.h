#ifndef UNDERSTUDY_CHEADERLINES_H
#define UNDERSTUDY_CHEADERLINES_H

/// Whether libevent's own calls to `evbuffer_add_printf` reach the fast header writer in this process: true
/// where the program's definition interposes the shared library's (Linux), false where libevent binds its own
/// (Darwin's two-level namespace), in which case evhttp formats as it always does.
int understudy_header_lines_active(void);

#endif
