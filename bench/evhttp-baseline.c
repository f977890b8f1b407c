/* A bare evhttp server in C, tuned as shared/reference/performance.md says: the physical limit of the listener
 * Understudy is built on. It serves fixed bytes fetched from Understudy by bench/bench.py.
 *
 *   evhttp-baseline MAPFILE [CERTIFICATE KEY]
 *
 * MAPFILE has one line per route: "STATUS<TAB>CONTENT-TYPE<TAB>URI<TAB>BODYFILE". The request URI (path and
 * query, exactly as sent) selects the entry; anything else is a 404. Binds 127.0.0.1 on a free port and prints
 * "http://127.0.0.1:PORT" as its first line. Exits on SIGTERM or SIGINT.
 *
 * With BASELINE_EXTRA_HEADERS set ("Name: value" lines), every reply also carries those headers: bench/instructions.sh
 * uses it to price the headers Understudy must send (X-RateLimit-*, ETag) in evhttp itself.
 *
 * With CERTIFICATE and KEY (PEM files), it also serves HTTPS on a second free port, printed as
 * "https://127.0.0.1:PORT" on its second line: bufferevent_openssl set up as Understudy sets up its own (TLS 1.2 and
 * up, SSL_MODE_RELEASE_BUFFERS, dirty shutdown allowed, each reply's first 16 KiB coalesced into one TLS record), so
 * bench/bench.py shows its TLS-to-plain ratio beside Understudy's as the ceiling of evhttp over OpenSSL on this
 * machine. BASELINE_TLS_SPLIT_RECORDS=1 leaves the coalescing out (head and body then go as two records, stock
 * bufferevent_openssl), to price it.
 *
 * Settings: evconnlistener_new_bind with a 1,024 backlog + evhttp_bind_listener, TCP_NODELAY on the listener
 * (accepted sockets inherit it), bufferevent max single write 256 KiB via evhttp_set_bevcb, bodies added by
 * reference (evbuffer_add_reference), no copy. */
#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct route {
    int status;
    char *content_type;
    char *uri;
    char *body;
    size_t length;
};

static struct route routes[64];
static int route_count;

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (size > 0 && fread(bytes, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(2); }
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

static void load_map(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) { perror(path); exit(2); }
    char line[4096];
    while (fgets(line, sizeof line, file) && route_count < 64) {
        line[strcspn(line, "\r\n")] = 0;
        char *status = strtok(line, "\t"), *type = strtok(NULL, "\t"), *uri = strtok(NULL, "\t"),
             *body = strtok(NULL, "\t");
        if (!status || !type || !uri || !body) continue;
        struct route *r = &routes[route_count++];
        r->status = atoi(status);
        r->content_type = strdup(type);
        r->uri = strdup(uri);
        r->body = read_file(body, &r->length);
    }
    fclose(file);
}

static char *extra_names[16], *extra_values[16];
static int extra_count;

static void load_extra_headers(void) {
    const char *text = getenv("BASELINE_EXTRA_HEADERS");
    if (!text) return;
    char *copy = strdup(text), *line, *rest = copy;
    while ((line = strsep(&rest, "\n")) && extra_count < 16) {
        char *colon = strstr(line, ": ");
        if (!colon) continue;
        *colon = '\0';
        extra_names[extra_count] = line;
        extra_values[extra_count++] = colon + 2;
    }
}

static void no_cleanup(const void *data, size_t length, void *arg) { (void)data; (void)length; (void)arg; }

static void handle(struct evhttp_request *request, void *arg) {
    (void)arg;
    const char *uri = evhttp_request_get_uri(request);
    for (int i = 0; i < route_count; i++) {
        if (strcmp(uri, routes[i].uri) == 0) {
            struct route *r = &routes[i];
            evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", r->content_type);
            for (int h = 0; h < extra_count; h++)
                evhttp_add_header(evhttp_request_get_output_headers(request), extra_names[h], extra_values[h]);
            evbuffer_add_reference(evhttp_request_get_output_buffer(request), r->body, r->length, no_cleanup, NULL);
            evhttp_send_reply(request, r->status, r->status == 200 ? "OK" : "Error", NULL);
            return;
        }
    }
    evhttp_send_error(request, 404, "Not Found");
}

static struct bufferevent *make_bev(struct event_base *base, void *arg) {
    (void)arg;
    struct bufferevent *bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (bev) bufferevent_set_max_single_write(bev, 256 << 10);
    return bev;
}

static SSL_CTX *tls_context;

/* Every reply's first 16 KiB (one TLS record's worth) in one piece: bufferevent_openssl makes one SSL_write, so one
 * record and one write(2), per contiguous piece of the output buffer, and evhttp leaves the head and the body in
 * separate pieces. */
static void coalesce_reply(struct evbuffer *output, const struct evbuffer_cb_info *info, void *arg) {
    (void)arg;
    if (info->n_added == 0) return;
    size_t length = evbuffer_get_length(output);
    ev_ssize_t front = length < 16384 ? (ev_ssize_t)length : 16384;
    struct evbuffer_iovec first;
    if (evbuffer_peek(output, front, NULL, &first, 1) > 1) evbuffer_pullup(output, front);
}

static struct bufferevent *make_tls_bev(struct event_base *base, void *arg) {
    (void)arg;
    SSL *ssl = SSL_new(tls_context);
    if (!ssl) return NULL;
    struct bufferevent *bev = bufferevent_openssl_socket_new(base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                                             BEV_OPT_CLOSE_ON_FREE);
    if (!bev) { SSL_free(ssl); return NULL; }
    bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
    bufferevent_set_max_single_write(bev, 256 << 10);
    if (!getenv("BASELINE_TLS_SPLIT_RECORDS")) evbuffer_add_cb(bufferevent_get_output(bev), coalesce_reply, NULL);
    return bev;
}

static struct evconnlistener *listen_loopback(struct event_base *base, int *port) {
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    struct evconnlistener *listener = evconnlistener_new_bind(
        base, NULL, NULL, LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 1024,
        (struct sockaddr *)&address, sizeof address);
    if (!listener) { perror("listen"); exit(1); }
    evutil_socket_t fd = evconnlistener_get_fd(listener);
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    socklen_t length = sizeof address;
    getsockname(fd, (struct sockaddr *)&address, &length);
    *port = ntohs(address.sin_port);
    return listener;
}

static void on_signal(evutil_socket_t fd, short what, void *arg) {
    (void)fd; (void)what;
    event_base_loopexit((struct event_base *)arg, NULL);
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 4) { fprintf(stderr, "usage: %s MAPFILE [CERTIFICATE KEY]\n", argv[0]); return 2; }
    signal(SIGPIPE, SIG_IGN);
    load_map(argv[1]);
    load_extra_headers();
    struct event_base *base = event_base_new();
    struct evhttp *http = evhttp_new(base);
    evhttp_set_gencb(http, handle, NULL);
    evhttp_set_bevcb(http, make_bev, NULL);
    int port;
    evhttp_bind_listener(http, listen_loopback(base, &port));
    printf("http://127.0.0.1:%d\n", port);
    struct evhttp *https = NULL;
    if (argc == 4) {
        tls_context = SSL_CTX_new(TLS_server_method());
        SSL_CTX_set_min_proto_version(tls_context, TLS1_2_VERSION);
        SSL_CTX_set_mode(tls_context, SSL_MODE_RELEASE_BUFFERS);
        if (SSL_CTX_use_certificate_chain_file(tls_context, argv[2]) != 1
            || SSL_CTX_use_PrivateKey_file(tls_context, argv[3], SSL_FILETYPE_PEM) != 1) {
            ERR_print_errors_fp(stderr);
            return 2;
        }
        https = evhttp_new(base);
        evhttp_set_gencb(https, handle, NULL);
        evhttp_set_bevcb(https, make_tls_bev, NULL);
        evhttp_bind_listener(https, listen_loopback(base, &port));
        printf("https://127.0.0.1:%d\n", port);
    }
    fflush(stdout);
    struct event *term = evsignal_new(base, SIGTERM, on_signal, base);
    struct event *interrupt = evsignal_new(base, SIGINT, on_signal, base);
    event_add(term, NULL);
    event_add(interrupt, NULL);
    event_base_dispatch(base);
    event_free(term);
    event_free(interrupt);
    if (https) evhttp_free(https);
    evhttp_free(http);
    if (tls_context) SSL_CTX_free(tls_context);
    event_base_free(base);
    return 0;
}
