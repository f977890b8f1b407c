/* A bare WebSocket echo server in C on libevent bufferevents: the baseline for Understudy's `/ws/echo` in `make bench`.
 *
 *   ws-echo-baseline            prints "http://127.0.0.1:PORT" on its first line, then serves until SIGTERM
 *
 * It does the framing Understudy does on that route, and no more: the upgrade (Sec-WebSocket-Key → Accept), client
 * frames required masked, reserved bits refused (1002), fragments reassembled up to 1 MiB (1009 past it), control
 * frames at most 125 bytes and answered between fragments (ping → pong), text checked for UTF-8 (1007), each message
 * echoed as one unmasked frame, and the closing handshake answered. What it leaves out is what Understudy adds on top:
 * routing, faults, sessions, the journal and the hub. One thread, one event base, like Understudy's loop. */
#define _GNU_SOURCE
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/evp.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAX_MESSAGE = 1 << 20 };

struct conn {
    struct bufferevent *bev;
    int upgraded;
    int closing;          /* a close frame has been written: end once it is flushed */
    int opcode;           /* the message in progress (1 text, 2 binary), 0 when none */
    unsigned char *message;
    size_t length, capacity;
};

static void conn_free(struct conn *c) {
    bufferevent_free(c->bev);
    free(c->message);
    free(c);
}

static void write_frame(struct conn *c, int opcode, const unsigned char *payload, size_t length) {
    unsigned char head[10];
    size_t n = 0;
    head[n++] = 0x80 | (unsigned char)opcode;
    if (length < 126) {
        head[n++] = (unsigned char)length;
    } else if (length < 65536) {
        head[n++] = 126;
        head[n++] = (unsigned char)(length >> 8);
        head[n++] = (unsigned char)length;
    } else {
        head[n++] = 127;
        for (int shift = 56; shift >= 0; shift -= 8) head[n++] = (unsigned char)((uint64_t)length >> shift);
    }
    struct evbuffer *out = bufferevent_get_output(c->bev);
    evbuffer_add(out, head, n);
    if (length) evbuffer_add(out, payload, length);
}

static void fail(struct conn *c, int code) {
    unsigned char payload[2] = { (unsigned char)(code >> 8), (unsigned char)code };
    write_frame(c, 0x8, payload, 2);
    c->closing = 1;
    bufferevent_disable(c->bev, EV_READ);
}

/* RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF. */
static int valid_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char b = s[i];
        if (b < 0x80) { i++; continue; }
        size_t extra;
        uint32_t cp;
        if ((b & 0xE0) == 0xC0) { extra = 1; cp = b & 0x1F; }
        else if ((b & 0xF0) == 0xE0) { extra = 2; cp = b & 0x0F; }
        else if ((b & 0xF8) == 0xF0) { extra = 3; cp = b & 0x07; }
        else return 0;
        if (i + extra >= n) return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000)) return 0;
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += extra + 1;
    }
    return 1;
}

static int upgrade(struct conn *c, struct evbuffer *in) {
    struct evbuffer_ptr end = evbuffer_search(in, "\r\n\r\n", 4, NULL);
    if (end.pos < 0) return evbuffer_get_length(in) > 8192 ? -1 : 0;
    size_t length = (size_t)end.pos + 4;
    char *head = malloc(length + 1);
    evbuffer_remove(in, head, length);
    head[length] = 0;
    const char *key = NULL;
    size_t key_length = 0;
    for (char *line = strstr(head, "\r\n"); line && line[2]; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "Sec-WebSocket-Key:", 18) == 0) {
            key = line + 20;
            while (*key == ' ') key++;
            key_length = strcspn(key, "\r");
        }
    }
    if (strncmp(head, "GET ", 4) != 0 || !key || key_length == 0 || key_length > 64) {
        free(head);
        return -1;
    }
    char joined[128];
    snprintf(joined, sizeof joined, "%.*s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int)key_length, key);
    free(head);
    unsigned char digest[20];
    unsigned int digest_length = 0;
    EVP_Digest(joined, strlen(joined), digest, &digest_length, EVP_sha1(), NULL);
    unsigned char accept[32];
    EVP_EncodeBlock(accept, digest, 20);
    evbuffer_add_printf(bufferevent_get_output(c->bev),
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Accept: %s\r\n\r\n", accept);
    c->upgraded = 1;
    return 1;
}

/* Every whole frame in `in`; returns when a frame is incomplete or the connection is closing. */
static void frames(struct conn *c, struct evbuffer *in) {
    while (!c->closing) {
        size_t available = evbuffer_get_length(in);
        if (available < 2) return;
        unsigned char *h = evbuffer_pullup(in, available < 14 ? (ev_ssize_t)available : 14);
        int fin = h[0] & 0x80, opcode = h[0] & 0x0F, masked = h[1] & 0x80;
        uint64_t length = h[1] & 0x7F;
        size_t head = 2;
        if (h[0] & 0x70) { fail(c, 1002); return; }
        if (!masked) { fail(c, 1002); return; }
        if (length == 126) {
            if (available < 4) return;
            length = ((uint64_t)h[2] << 8) | h[3];
            head = 4;
        } else if (length == 127) {
            if (available < 10) return;
            length = 0;
            for (int k = 0; k < 8; k++) length = (length << 8) | h[2 + k];
            head = 10;
        }
        int control = opcode & 0x8;
        if (control && (!fin || length > 125)) { fail(c, 1002); return; }
        if (!control && c->length + length > MAX_MESSAGE) { fail(c, 1009); return; }
        if (available < head + 4 + length) return;
        unsigned char mask[4];
        memcpy(mask, h + head, 4);
        evbuffer_drain(in, head + 4);
        unsigned char control_payload[125];
        unsigned char *payload;
        if (control) {
            payload = control_payload;
        } else {
            if (opcode == 0 ? c->opcode == 0 : c->opcode != 0) { fail(c, 1002); return; }
            if (opcode != 0 && opcode != 1 && opcode != 2) { fail(c, 1002); return; }
            if (opcode) c->opcode = opcode;
            if (c->length + length > c->capacity) {
                c->capacity = (c->length + length) * 2;
                c->message = realloc(c->message, c->capacity);
            }
            payload = c->message + c->length;
        }
        evbuffer_remove(in, payload, length);
        for (uint64_t i = 0; i < length; i++) payload[i] ^= mask[i & 3];
        if (opcode == 0x9) {
            write_frame(c, 0xA, payload, length);
        } else if (opcode == 0x8) {
            write_frame(c, 0x8, payload, length >= 2 ? 2 : 0);
            c->closing = 1;
            bufferevent_disable(c->bev, EV_READ);
        } else if (opcode == 0xA) {
            /* a pong: nothing to do */
        } else if (control) {
            { fail(c, 1002); return; }
        } else {
            c->length += length;
            if (fin) {
                if (c->opcode == 1 && !valid_utf8(c->message, c->length)) { fail(c, 1007); return; }
                write_frame(c, c->opcode, c->message, c->length);
                c->opcode = 0;
                c->length = 0;
            }
        }
    }
}

static void on_read(struct bufferevent *bev, void *argument) {
    struct conn *c = argument;
    struct evbuffer *in = bufferevent_get_input(bev);
    if (!c->upgraded) {
        int result = upgrade(c, in);
        if (result < 0) {
            evbuffer_add_printf(bufferevent_get_output(bev), "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
            c->closing = 1;
            return;
        }
        if (result == 0) return;
    }
    frames(c, in);
}

static void on_write(struct bufferevent *bev, void *argument) {
    struct conn *c = argument;
    if (c->closing && evbuffer_get_length(bufferevent_get_output(bev)) == 0) conn_free(c);
}

static void on_event(struct bufferevent *bev, short what, void *argument) {
    (void)bev;
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) conn_free(argument);
}

static void on_accept(struct evconnlistener *listener, evutil_socket_t fd, struct sockaddr *address, int length,
                      void *argument) {
    (void)address; (void)length; (void)argument;
    struct conn *c = calloc(1, sizeof *c);
    c->bev = bufferevent_socket_new(evconnlistener_get_base(listener), fd, BEV_OPT_CLOSE_ON_FREE);
    bufferevent_setcb(c->bev, on_read, on_write, on_event, c);
    bufferevent_enable(c->bev, EV_READ | EV_WRITE);
}

static void on_signal(evutil_socket_t fd, short what, void *base) {
    (void)fd; (void)what;
    event_base_loopexit(base, NULL);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    struct event_base *base = event_base_new();
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct evconnlistener *listener = evconnlistener_new_bind(base, on_accept, NULL,
        LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 1024, (struct sockaddr *)&address, sizeof address);
    if (!listener) { perror("ws-echo-baseline: bind"); return 1; }
    struct sockaddr_in bound;
    socklen_t bound_length = sizeof bound;
    getsockname(evconnlistener_get_fd(listener), (struct sockaddr *)&bound, &bound_length);
    printf("http://127.0.0.1:%d\n", ntohs(bound.sin_port));
    fflush(stdout);
    struct event *term = evsignal_new(base, SIGTERM, on_signal, base);
    event_add(term, NULL);
    event_base_dispatch(base);
    event_free(term);
    evconnlistener_free(listener);
    event_base_free(base);
    return 0;
}
