/* WebSocket load for `make bench`, on one epoll loop.
 *
 *   ws-load echo PORT PATH CONNECTIONS SECONDS SIZE
 *       Opens CONNECTIONS sockets to 127.0.0.1:PORT PATH, then for SECONDS (counted once every socket is open) each
 *       sends a masked text message of SIZE bytes and waits for its echo before sending the next (one message in
 *       flight per socket). Checks every echo byte for byte. Prints one JSON line: sockets open, messages echoed,
 *       messages per second, errors, and the round trip's median and 99th percentile in ms.
 *   ws-load idle PORT PATH CONNECTIONS
 *       Opens CONNECTIONS sockets and leaves them idle; prints "ready N" once N are open, then waits for a line on
 *       stdin, sends each a close (1000) and prints one JSON line: sockets open, closes answered with 1000.
 *
 * Every socket upgrades with RFC 6455's sample key and checks the 101. Exits 2 on bad arguments, 1 when no socket
 * could be opened. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { UPGRADING, OPEN, CLOSING, DONE };

struct conn {
    int fd;
    int state;
    unsigned char in[70000];
    size_t in_length;
    double sent_at;
    int close_code;
};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char *path;
static int port;
static size_t size;
static unsigned char *message;     /* the payload every socket sends, and expects back */
static unsigned char *frame;       /* that payload as a masked client frame */
static size_t frame_length;
static long errors, echoed;
static double *rtts;
static size_t rtt_count, rtt_capacity;

static size_t client_frame(unsigned char *out, int opcode, const unsigned char *payload, size_t length) {
    static const unsigned char mask[4] = { 0x37, 0xfa, 0x21, 0x3d };
    size_t n = 0;
    out[n++] = 0x80 | (unsigned char)opcode;
    if (length < 126) {
        out[n++] = 0x80 | (unsigned char)length;
    } else {
        out[n++] = 0x80 | 126;
        out[n++] = (unsigned char)(length >> 8);
        out[n++] = (unsigned char)length;
    }
    memcpy(out + n, mask, 4);
    n += 4;
    for (size_t i = 0; i < length; i++) out[n + i] = payload[i] ^ mask[i & 3];
    return n + length;
}

/* Blocking writes: the messages are small and one is in flight per socket, so a send never waits for long. */
static int send_all(int fd, const void *bytes, size_t length) {
    const char *p = bytes;
    while (length) {
        ssize_t n = send(fd, p, length, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        length -= (size_t)n;
    }
    return 0;
}

static int open_socket(int epoll, struct conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) return -1;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0) { close(c->fd); c->fd = -1; return -1; }
    char request[512];
    int length = snprintf(request, sizeof request,
        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", path, port);
    if (send_all(c->fd, request, (size_t)length) < 0) { close(c->fd); c->fd = -1; return -1; }
    c->state = UPGRADING;
    struct epoll_event event = { .events = EPOLLIN, .data.ptr = c };
    epoll_ctl(epoll, EPOLL_CTL_ADD, c->fd, &event);
    return 0;
}

static void add_rtt(double value) {
    if (rtt_count == rtt_capacity) {
        rtt_capacity = rtt_capacity ? rtt_capacity * 2 : 1 << 16;
        rtts = realloc(rtts, rtt_capacity * sizeof *rtts);
    }
    rtts[rtt_count++] = value;
}

static void finish(struct conn *c, int failed) {
    if (failed) errors++;
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    c->state = DONE;
}

/* What `c` has read so far: the 101, then whole server frames. Returns how many sockets became open. */
static int consume(struct conn *c, int sending) {
    int opened = 0;
    if (c->state == UPGRADING) {
        unsigned char *end = memmem(c->in, c->in_length, "\r\n\r\n", 4);
        if (!end) return 0;
        if (c->in_length < 12 || memcmp(c->in, "HTTP/1.1 101", 12) != 0
            || !memmem(c->in, (size_t)(end - c->in), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", 28)) {
            finish(c, 1);
            return 0;
        }
        size_t head = (size_t)(end - c->in) + 4;
        memmove(c->in, c->in + head, c->in_length - head);
        c->in_length -= head;
        c->state = OPEN;
        opened = 1;
        if (sending) {
            c->sent_at = now_ms();
            if (send_all(c->fd, frame, frame_length) < 0) finish(c, 1);
        }
    }
    while (c->state == OPEN || c->state == CLOSING) {
        if (c->in_length < 2) break;
        size_t length = c->in[1] & 0x7F, head = 2;
        if (c->in[1] & 0x80) { finish(c, 1); break; }
        if (length == 126) {
            if (c->in_length < 4) break;
            length = ((size_t)c->in[2] << 8) | c->in[3];
            head = 4;
        } else if (length == 127) {
            finish(c, 1);
            break;
        }
        if (c->in_length < head + length) break;
        int opcode = c->in[0] & 0x0F;
        if (opcode == 0x8) {
            c->close_code = length >= 2 ? (c->in[head] << 8) | c->in[head + 1] : 1005;
            finish(c, c->state != CLOSING);
            break;
        }
        if (opcode != 0x1 || length != size || memcmp(c->in + head, message, size) != 0) { finish(c, 1); break; }
        double now = now_ms();
        if (sending) {
            echoed++;
            add_rtt(now - c->sent_at);
            c->sent_at = now;
            if (send_all(c->fd, frame, frame_length) < 0) { finish(c, 1); break; }
        }
        memmove(c->in, c->in + head + length, c->in_length - head - length);
        c->in_length -= head + length;
    }
    return opened;
}

static int read_into(struct conn *c) {
    ssize_t n = recv(c->fd, c->in + c->in_length, sizeof c->in - c->in_length, 0);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
        finish(c, c->state != CLOSING || c->close_code == 0);
        return -1;
    }
    c->in_length += (size_t)n;
    return 1;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int echo = argc == 7 && strcmp(argv[1], "echo") == 0;
    int idle = argc == 5 && strcmp(argv[1], "idle") == 0;
    if (!echo && !idle) {
        fprintf(stderr, "usage: %s echo PORT PATH CONNECTIONS SECONDS SIZE | idle PORT PATH CONNECTIONS\n", argv[0]);
        return 2;
    }
    port = atoi(argv[2]);
    path = argv[3];
    int count = atoi(argv[4]);
    double seconds = echo ? atof(argv[5]) : 0;
    size = echo ? (size_t)atol(argv[6]) : 0;
    if (port <= 0 || count <= 0 || (echo && (seconds <= 0 || size == 0 || size > 65535))) {
        fprintf(stderr, "ws-load: bad arguments\n");
        return 2;
    }
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);

    message = malloc(size + 1);
    for (size_t i = 0; i < size; i++) message[i] = (unsigned char)('a' + i % 26);
    frame = malloc(size + 14);
    frame_length = client_frame(frame, 0x1, message, size);

    int epoll = epoll_create1(0);
    struct conn *conns = calloc((size_t)count, sizeof *conns);
    struct epoll_event events[256];
    int open = 0;
    for (int i = 0; i < count; i++) {
        if (open_socket(epoll, &conns[i]) < 0) { conns[i].state = DONE; errors++; }
        /* Upgrade in batches, so the listen backlog is never what refuses a socket. */
        if (i % 256 == 255 || i == count - 1) {
            double deadline = now_ms() + 10e3;
            int waiting;
            do {
                waiting = 0;
                for (int k = i - i % 256; k <= i; k++) waiting += conns[k].state == UPGRADING;
                if (!waiting) break;
                int n = epoll_wait(epoll, events, 256, 100);
                for (int e = 0; e < n; e++) {
                    struct conn *c = events[e].data.ptr;
                    if (read_into(c) > 0) open += consume(c, 0);
                }
            } while (now_ms() < deadline);
            for (int k = i - i % 256; k <= i; k++) if (conns[k].state == UPGRADING) finish(&conns[k], 1);
        }
    }
    if (open == 0) { fprintf(stderr, "ws-load: no socket opened\n"); return 1; }

    if (idle) {
        printf("ready %d\n", open);
        fflush(stdout);
        char line[16];
        if (!fgets(line, sizeof line, stdin)) { /* stdin closed: close them all the same */ }
        static const unsigned char payload[2] = { 0x03, 0xE8 };
        unsigned char close_frame[16];
        size_t close_length = client_frame(close_frame, 0x8, payload, 2);
        for (int i = 0; i < count; i++) {
            if (conns[i].state != OPEN) continue;
            conns[i].state = CLOSING;
            if (send_all(conns[i].fd, close_frame, close_length) < 0) finish(&conns[i], 1);
        }
        int answered = 0, closing = 0;
        double deadline = now_ms() + 30e3;
        do {
            closing = 0;
            for (int i = 0; i < count; i++) closing += conns[i].state == CLOSING;
            if (!closing) break;
            int n = epoll_wait(epoll, events, 256, 100);
            for (int e = 0; e < n; e++) {
                struct conn *c = events[e].data.ptr;
                if (c->state == CLOSING && read_into(c) > 0) consume(c, 0);
            }
        } while (now_ms() < deadline);
        for (int i = 0; i < count; i++) answered += conns[i].close_code == 1000;
        printf("{\"open\": %d, \"closes_answered\": %d, \"errors\": %ld}\n", open, answered, errors);
        return 0;
    }

    for (int i = 0; i < count; i++) {
        if (conns[i].state != OPEN) continue;
        conns[i].sent_at = now_ms();
        if (send_all(conns[i].fd, frame, frame_length) < 0) finish(&conns[i], 1);
    }
    double started = now_ms(), end = started + seconds * 1e3;
    while (now_ms() < end) {
        int n = epoll_wait(epoll, events, 256, 50);
        for (int e = 0; e < n; e++) {
            struct conn *c = events[e].data.ptr;
            if (c->state == OPEN && read_into(c) > 0) consume(c, 1);
        }
    }
    double elapsed = (now_ms() - started) / 1e3;
    qsort(rtts, rtt_count, sizeof *rtts, compare);
    double p50 = rtt_count ? rtts[rtt_count / 2] : 0, p99 = rtt_count ? rtts[(size_t)(rtt_count * 0.99)] : 0;
    printf("{\"open\": %d, \"messages\": %ld, \"per_second\": %.1f, \"errors\": %ld, \"p50_ms\": %.3f, \"p99_ms\": %.3f}\n",
           open, echoed, echoed / elapsed, errors, p50, p99);
    return 0;
}
