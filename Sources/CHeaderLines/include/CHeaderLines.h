#ifndef UNDERSTUDY_CHEADERLINES_H
#define UNDERSTUDY_CHEADERLINES_H

/// Whether libevent's own calls to `evbuffer_add_printf` reach the fast header writer in this process: true
/// where the program's definition interposes the shared library's (Linux), false where libevent binds its own
/// (Darwin's two-level namespace), in which case evhttp formats as it always does.
int understudy_header_lines_active(void);

struct evkeyvalq;
struct evkeyval;

/// Links `count` header fields that the caller owns (key and value included) at the end of `headers`, for one
/// `evhttp_send_reply`. evhttp reads output headers only while it formats the head, inside that call; the caller
/// must unlink them with `understudy_unlink_fields` right after it returns, before evhttp frees the list.
void understudy_link_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count);

/// Unlinks fields linked by `understudy_link_fields`.
void understudy_unlink_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count);

#endif
