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
struct evbuffer_cb_entry;

/// The bytes a connection has read from its socket and written to it, counted by its buffers' callbacks: the idle
/// sweep tells a connection that moves from one that does not by these, where a timeout on every read and write
/// event would cost each request a timer update (ConnectionProgress.c).
struct understudy_progress {
    unsigned long bytes_in;
    unsigned long bytes_out;
};

/// Makes the refusals evhttp sends by itself (its HTML error pages) leave through `output`, a connection's output
/// buffer, as JSON `{"message": …}` (see RefusalPages.c), and counts the bytes written from it in `progress`, which
/// must outlive the callback (remove it with `evbuffer_remove_cb_entry` first). Returns the callback's entry, or
/// NULL when libevent could not add it.
struct evbuffer_cb_entry *understudy_answer_refusals_as_json(struct evbuffer *output, struct understudy_progress *progress);

/// Counts the bytes read into `input`, a connection's input buffer, in `progress` (which must outlive the callback).
/// Returns the callback's entry, or NULL when libevent could not add it.
struct evbuffer_cb_entry *understudy_count_input(struct evbuffer *input, struct understudy_progress *progress);

#endif
