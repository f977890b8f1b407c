#ifndef UNDERSTUDY_CHEADERLINES_H
#define UNDERSTUDY_CHEADERLINES_H

struct evkeyvalq;
struct evkeyval;

/// Links `count` header fields that the caller owns (key and value included) at the end of `headers`, for one
/// `evhttp_send_reply`. evhttp reads output headers only while it formats the head, inside that call; the caller
/// must unlink them with `understudy_unlink_fields` right after it returns, before evhttp frees the list.
void understudy_link_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count);

/// Unlinks fields linked by `understudy_link_fields`.
void understudy_unlink_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count);

struct evbuffer;

/// Makes the refusals evhttp sends by itself (its HTML error pages) leave through `output`, a connection's output
/// buffer, as JSON `{"message": …}` (see RefusalPages.c). Returns 0, or -1 when libevent could not add the callback.
int understudy_answer_refusals_as_json(struct evbuffer *output);

#endif
