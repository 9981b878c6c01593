// Linux system calls and macros that Glibc does not export to Swift.
#ifndef CIMOCK_SHIMS_H
#define CIMOCK_SHIMS_H

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

static inline int cimock_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int cimock_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

static inline int cimock_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    return epoll_wait(epfd, events, maxevents, timeout);
}

static inline uint64_t cimock_epoll_event_data(const struct epoll_event *ev) { return ev->data.u64; }
static inline uint32_t cimock_epoll_event_flags(const struct epoll_event *ev) { return ev->events; }

static inline int cimock_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

static inline int cimock_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

/// Arms the timer to fire once after `nanoseconds` (0 disarms it).
static inline int cimock_timerfd_arm(int fd, int64_t nanoseconds) {
    struct itimerspec spec = {0};
    if (nanoseconds > 0) {
        spec.it_value.tv_sec = nanoseconds / 1000000000;
        spec.it_value.tv_nsec = nanoseconds % 1000000000;
    }
    return timerfd_settime(fd, 0, &spec, NULL);
}

/// Arms the timer to fire once at the absolute CLOCK_MONOTONIC time `nanoseconds`
/// (a time in the past fires at once; 0 disarms it).
static inline int cimock_timerfd_arm_absolute(int fd, int64_t nanoseconds) {
    struct itimerspec spec = {0};
    if (nanoseconds > 0) {
        spec.it_value.tv_sec = nanoseconds / 1000000000;
        spec.it_value.tv_nsec = nanoseconds % 1000000000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

// accept4 is declared only under _GNU_SOURCE, which this header must not define: it would
// change glibc's types and clash with the Glibc module.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

static inline int cimock_accept4(int fd, struct sockaddr *addr, socklen_t *len) {
    return accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

static inline int cimock_socket(int domain, int type) {
    return socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

static inline uint32_t cimock_epollin(void) { return EPOLLIN; }
static inline uint32_t cimock_epollout(void) { return EPOLLOUT; }
static inline uint32_t cimock_epollerr(void) { return EPOLLERR; }
static inline uint32_t cimock_epollhup(void) { return EPOLLHUP; }
static inline uint32_t cimock_epollrdhup(void) { return EPOLLRDHUP; }
#endif

/// Blocks SIGINT and SIGTERM in the calling thread (and threads it starts later) and returns a
/// signalfd that becomes readable when either arrives, so the event loop can stop cleanly.
static inline int cimock_termination_signalfd(void) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0) return -1;
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

static inline int cimock_errno(void) { return errno; }

/// Makes close() send a TCP RST instead of a FIN (SO_LINGER with a zero timeout).
static inline int cimock_set_linger_zero(int fd) {
    struct linger l = { .l_onoff = 1, .l_linger = 0 };
    return setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
}

/// Bytes in the socket's send queue that the peer's TCP has not acknowledged (sent or not):
/// SIOCOUTQ, which stays readable after a reset. -1 on error.
static inline long cimock_unacknowledged_output(int fd) {
    int count = 0;
    if (ioctl(fd, SIOCOUTQ, &count) != 0) return -1;
    return count;
}

static inline int cimock_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof(value));
}

/// Raises the soft open-file limit towards the hard limit; returns the new soft limit or -1.
static inline long cimock_raise_nofile_limit(long wanted) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    rlim_t target = (rlim_t)wanted;
    if (rl.rlim_max != RLIM_INFINITY && target > rl.rlim_max) target = rl.rlim_max;
    if (target > rl.rlim_cur) {
        rl.rlim_cur = target;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    }
    return (long)rl.rlim_cur;
}

static inline int cimock_set_nofile_soft_limit(long value) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    rl.rlim_cur = (rlim_t)value;
    return setrlimit(RLIMIT_NOFILE, &rl);
}

static inline int cimock_ignore_sigpipe(void) {
    return signal(SIGPIPE, SIG_IGN) == SIG_ERR ? -1 : 0;
}

static inline int cimock_msg_nosignal(void) { return MSG_NOSIGNAL; }

#endif
