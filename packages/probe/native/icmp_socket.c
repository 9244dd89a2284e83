/*
 * ICMP sockets for Node (docs/monitors.md, "ICMP ping"): the few system calls Node has no API for.
 * Everything about echo requests (identifiers, sequences, checksums, parsing, matching, timeouts)
 * is TypeScript in packages/probe/src/ping/; this file only opens a socket, sends a buffer to an
 * address, hands each received datagram to a JavaScript callback from the event loop, and closes.
 *
 * Built by packages/probe/scripts/build-icmp-addon.js with the system C compiler against the
 * running Node's own headers; the N-API symbols resolve against the node binary when it loads.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

/* Linux's ICMP_FILTER (linux/icmp.h): a bit per ICMP type a raw IPv4 socket drops. */
#ifndef ICMP_FILTER
#define ICMP_FILTER 1
#endif

/* A datagram is at most an IPv4 header (60) + an echo reply of the largest size we send. */
#define RECEIVE_BUFFER 2048

typedef struct {
  uv_poll_t poll;
  int fd;
  int family;
  int closing;
  /* Freed once both libuv has let go of the poll handle and the garbage collector of the external. */
  int handle_closed;
  int finalized;
  napi_env env;
  napi_ref callback;
  napi_ref resource;
  napi_async_context context;
} icmp_socket;

static napi_value throw_errno(napi_env env, const char *syscall, int err) {
  char message[256];
  snprintf(message, sizeof message, "%s: %s", syscall, strerror(err));
  napi_value code, text, error;
  const char *name = uv_err_name(uv_translate_sys_error(err));
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text);
  napi_create_error(env, code, text, &error);
  napi_set_named_property(env, error, "code", code);
  napi_throw(env, error);
  return NULL;
}

/*
 * Times are the kernel's clock of socket timestamps (CLOCK_REALTIME), in ms: a reply's is taken
 * by the kernel when it arrived (SO_TIMESTAMPNS), as iputils does, so a busy event loop that
 * reads it late does not lengthen the round trip.
 */
static double ms_of(const struct timespec *t) { return (double)t->tv_sec * 1e3 + (double)t->tv_nsec / 1e6; }

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return ms_of(&t);
}

/* Every datagram waiting on the socket, each as callback(bytes, sourceAddress, receivedAtMs), in one callback scope. */
static void on_readable(uv_poll_t *poll, int status, int events) {
  icmp_socket *s = (icmp_socket *)poll->data;
  if (s->closing || status < 0 || !(events & UV_READABLE)) return;
  napi_env env = s->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value callback, resource;
  napi_get_reference_value(env, s->callback, &callback);
  napi_get_reference_value(env, s->resource, &resource);
  napi_callback_scope callback_scope;
  napi_open_callback_scope(env, resource, s->context, &callback_scope);
  unsigned char bytes[RECEIVE_BUFFER];
  int errors = 0;
  for (;;) {
    struct sockaddr_storage from;
    struct iovec iov = {bytes, sizeof bytes};
    char control[CMSG_SPACE(sizeof(struct timespec))];
    struct msghdr message = {
        .msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    ssize_t n = recvmsg(s->fd, &message, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      /* EAGAIN: drained. Another error is one an ICMP error left on the socket (sk_err), read once
       * and gone; a few in a row are bounded so that one that stays cannot spin the loop. */
      if (errno == EAGAIN || errno == EWOULDBLOCK || ++errors > 16) break;
      continue;
    }
    if (s->closing) break;
    char address[INET6_ADDRSTRLEN] = "";
    if (from.ss_family == AF_INET) inet_ntop(AF_INET, &((struct sockaddr_in *)&from)->sin_addr, address, sizeof address);
    else if (from.ss_family == AF_INET6) inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&from)->sin6_addr, address, sizeof address);
    napi_handle_scope inner;
    napi_open_handle_scope(env, &inner);
    napi_value args[3], result;
    void *data;
    napi_create_buffer_copy(env, (size_t)n, bytes, &data, &args[0]);
    napi_create_string_utf8(env, address, NAPI_AUTO_LENGTH, &args[1]);
    double received_at = now_ms();
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
        struct timespec stamp;
        memcpy(&stamp, CMSG_DATA(c), sizeof stamp);
        received_at = ms_of(&stamp);
      }
    napi_create_double(env, received_at, &args[2]);
    napi_status called = napi_call_function(env, resource, callback, 3, args, &result);
    napi_close_handle_scope(env, inner);
    if (called == napi_pending_exception) {
      napi_value error;
      napi_get_and_clear_last_exception(env, &error);
      napi_fatal_exception(env, error);
      break;
    }
  }
  napi_close_callback_scope(env, callback_scope);
  napi_close_handle_scope(env, scope);
}

static void on_closed(uv_handle_t *handle) {
  icmp_socket *s = (icmp_socket *)handle->data;
  close(s->fd);
  s->handle_closed = 1;
  if (s->finalized) free(s);
}

/*
 * The external was collected. An open socket keeps its own external reachable (the callback's
 * `this` holds it), so this comes after close, or at exit, when libuv may never close the handle.
 */
static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  (void)env;
  icmp_socket *s = (icmp_socket *)data;
  s->finalized = 1;
  if (s->handle_closed) free(s);
}

static napi_value get_args(napi_env env, napi_callback_info info, size_t expected, napi_value *args) {
  size_t count = expected;
  napi_get_cb_info(env, info, &count, args, NULL, NULL);
  if (count < expected) {
    napi_throw_type_error(env, NULL, "missing arguments");
    return NULL;
  }
  return args[0];
}

static icmp_socket *socket_of(napi_env env, napi_value external) {
  void *data = NULL;
  if (napi_get_value_external(env, external, &data) != napi_ok || data == NULL) {
    napi_throw_type_error(env, NULL, "not an ICMP socket");
    return NULL;
  }
  icmp_socket *s = (icmp_socket *)data;
  if (s->closing) {
    napi_throw_error(env, "ERR_SOCKET_CLOSED", "the ICMP socket is closed");
    return NULL;
  }
  return s;
}

/* The open socket a call names first, its `count` arguments in `args`; NULL with an exception thrown when there is none. */
static icmp_socket *socket_call(napi_env env, napi_callback_info info, size_t count, napi_value *args) {
  if (!get_args(env, info, count, args)) return NULL;
  return socket_of(env, args[0]);
}

/*
 * open(family 4 | 6, onDatagram) -> { socket, raw }. First the unprivileged ICMP datagram socket
 * that net.ipv4.ping_group_range allows; when that is refused, a raw socket (CAP_NET_RAW). The
 * socket is unreferenced: a check waiting for its reply keeps the process alive by its own timer.
 */
static napi_value icmp_open(napi_env env, napi_callback_info info) {
  napi_value args[2];
  if (!get_args(env, info, 2, args)) return NULL;
  int32_t family;
  if (napi_get_value_int32(env, args[0], &family) != napi_ok || (family != 4 && family != 6)) {
    napi_throw_type_error(env, NULL, "family must be 4 or 6");
    return NULL;
  }
  int af = family == 4 ? AF_INET : AF_INET6;
  int protocol = family == 4 ? IPPROTO_ICMP : IPPROTO_ICMPV6;
  int raw = 0;
  int fd = socket(af, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
  if (fd < 0 && (errno == EACCES || errno == EPERM)) {
    fd = socket(af, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
    raw = 1;
  }
  if (fd < 0) return throw_errno(env, "socket", errno);
  if (raw && family == 4) {
    /* Only echo replies: a raw socket otherwise gets a copy of every ICMP packet, our own requests on loopback too. */
    uint32_t drop = ~(1U << 0 /* ICMP_ECHOREPLY */);
    setsockopt(fd, SOL_RAW, ICMP_FILTER, &drop, sizeof drop);
  } else if (raw) {
    struct icmp6_filter filter;
    ICMP6_FILTER_SETBLOCKALL(&filter);
    ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &filter);
    setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filter, sizeof filter);
  }
  /* Room for the replies of many checks answered at once; the kernel caps it at net.core.rmem_max. */
  int buffer = 1 << 20;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);

  icmp_socket *s = calloc(1, sizeof *s);
  if (s == NULL) {
    close(fd);
    napi_throw_error(env, "ENOMEM", "out of memory");
    return NULL;
  }
  s->fd = fd;
  s->family = family;
  s->env = env;
  uv_loop_t *loop;
  napi_get_uv_event_loop(env, &loop);
  int failed = uv_poll_init(loop, &s->poll, fd);
  if (failed == 0) failed = uv_poll_start(&s->poll, UV_READABLE, on_readable);
  if (failed != 0) {
    close(fd);
    free(s);
    napi_throw_error(env, uv_err_name(failed), uv_strerror(failed));
    return NULL;
  }
  s->poll.data = s;
  uv_unref((uv_handle_t *)&s->poll);

  napi_value result, external, is_raw, name;
  napi_create_object(env, &result);
  napi_create_reference(env, args[1], 1, &s->callback);
  napi_create_reference(env, result, 1, &s->resource);
  napi_create_string_utf8(env, "icmp-socket", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, result, name, &s->context);
  napi_create_external(env, s, finalize, NULL, &external);
  napi_get_boolean(env, raw, &is_raw);
  napi_set_named_property(env, result, "socket", external);
  napi_set_named_property(env, result, "raw", is_raw);
  return result;
}

/* send(socket, bytes, address) -> the time it left, in the milliseconds of receivedAtMs. Throws with the errno's code. */
static napi_value icmp_send(napi_env env, napi_callback_info info) {
  napi_value args[3];
  icmp_socket *s = socket_call(env, info, 3, args);
  if (s == NULL) return NULL;
  void *bytes;
  size_t length;
  if (napi_get_buffer_info(env, args[1], &bytes, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "bytes must be a Buffer");
    return NULL;
  }
  char address[INET6_ADDRSTRLEN + 1];
  size_t address_length;
  if (napi_get_value_string_utf8(env, args[2], address, sizeof address, &address_length) != napi_ok) {
    napi_throw_type_error(env, NULL, "address must be a string");
    return NULL;
  }
  struct sockaddr_storage to;
  socklen_t to_length;
  memset(&to, 0, sizeof to);
  if (s->family == 4) {
    struct sockaddr_in *v4 = (struct sockaddr_in *)&to;
    v4->sin_family = AF_INET;
    if (inet_pton(AF_INET, address, &v4->sin_addr) != 1) {
      napi_throw_type_error(env, NULL, "not an IPv4 address");
      return NULL;
    }
    to_length = sizeof *v4;
  } else {
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&to;
    v6->sin6_family = AF_INET6;
    if (inet_pton(AF_INET6, address, &v6->sin6_addr) != 1) {
      napi_throw_type_error(env, NULL, "not an IPv6 address");
      return NULL;
    }
    to_length = sizeof *v6;
  }
  double sent_at = now_ms();
  ssize_t sent;
  do sent = sendto(s->fd, bytes, length, 0, (struct sockaddr *)&to, to_length);
  while (sent < 0 && errno == EINTR);
  if (sent < 0) return throw_errno(env, "sendto", errno);
  napi_value result;
  napi_create_double(env, sent_at, &result);
  return result;
}

/* close(socket): stops polling, then closes the descriptor once libuv lets go of the handle. */
static napi_value icmp_close(napi_env env, napi_callback_info info) {
  napi_value args[1];
  icmp_socket *s = socket_call(env, info, 1, args);
  if (s == NULL) return NULL;
  s->closing = 1;
  napi_delete_reference(env, s->callback);
  napi_delete_reference(env, s->resource);
  napi_async_destroy(env, s->context);
  uv_poll_stop(&s->poll);
  uv_close((uv_handle_t *)&s->poll, on_closed);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
      {"open", NULL, icmp_open, NULL, NULL, NULL, napi_default, NULL},
      {"send", NULL, icmp_send, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, icmp_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}

NAPI_MODULE(icmp_socket, init)
