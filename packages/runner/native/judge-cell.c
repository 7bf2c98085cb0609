/*
 * judge-cell: the sandbox's launcher, one long-lived process per cell (a set of cgroups that the
 * runner reuses run after run).
 *
 * Why it exists: moving a process into a cgroup takes the kernel's threadgroup lock for writing,
 * which waits for an RCU grace period when nothing moved lately (5-25 ms on a quiet host), and a
 * fork of the runner's large Node process costs about a millisecond on the event loop. The cell
 * joins its cgroups once, at start; every run it forks is born inside them, from a process a few
 * hundred kilobytes large. It also drains the run's stderr (keeping its head and tail), so that a
 * run needs no pipe set up by the runner unless the runner streams its stdin or stdout.
 *
 * Protocol (stdin: requests, stdout: events), each message one frame: a little-endian u32 length,
 * then fields separated by NUL bytes (the last one NUL-terminated too, except for binary tails).
 *
 *   events   ready <version> <pid>
 *            started <pid of bwrap> <fd of stdin pipe|-1> <fd of stdout pipe|-1> <fd of stderr pipe|-1>
 *            exit <wait status> <started 0|1> <stderr bytes> <head length> <tail length> then head and tail bytes
 *            error <message>                     (the run could not be started)
 *   requests run <uid> <gid> <rlimits> <stdin> <stdout> <stderr> <head bytes> -- <argv...>
 *            opened                              (the runner opened its ends of the pipes: drop ours)
 *
 * rlimits: "cpu=S:H,fsize=N,nofile=N,core=0,stack=N|unlimited,nproc=N,as=N" (any subset).
 * stdio:   n (/dev/null)  r:PATH  w:PATH (created 0600, truncated)  a:PATH (appended)
 *          p (a pipe the runner opens as /proc/<cell>/fd/<n>)  k (stderr only: drained here).
 * The status of bwrap's --json-status-fd on fd 3 tells a program that ran from a sandbox that
 * never reached it: bwrap reports an exit code only once the program was executed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cell.h"


char req[MAX_FRAME + 1];
static char head[MAX_HEAD];
static char tail_ring[TAIL];
char scratch[65536];
int sig_pipe[2];

/* The NUL-separated fields of the request in req (at most max, then a NULL). */
int split_fields(long len, char **fields, int max) {
  int n = 0;
  for (char *p = req; p < req + len && n < max; p += strlen(p) + 1) fields[n++] = p;
  fields[n] = NULL;
  return n;
}

unsigned long long monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

void die(const char *what) {
  fprintf(stderr, "judge-cell: %s: %s\n", what, strerror(errno));
  exit(70);
}

void write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      exit(0); /* the runner is gone */
    }
    p += w;
    n -= (size_t)w;
  }
}

/* One event: NUL-terminated text fields, then optional raw bytes. */
void send_event(const char *bin1, size_t n1, const char *bin2, size_t n2, int count, ...) {
  char buf[8192];
  size_t len = 4;
  va_list ap;
  va_start(ap, count);
  for (int i = 0; i < count; i++) {
    const char *f = va_arg(ap, const char *);
    size_t l = strlen(f);
    if (len + l + 1 > sizeof buf) l = sizeof buf - len - 1;
    memcpy(buf + len, f, l);
    len += l;
    buf[len++] = '\0';
  }
  va_end(ap);
  uint32_t total = (uint32_t)(len - 4 + n1 + n2);
  memcpy(buf, &total, 4);
  write_all(1, buf, len);
  if (n1) write_all(1, bin1, n1);
  if (n2) write_all(1, bin2, n2);
}

static int read_full(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n > 0) {
    ssize_t r = read(fd, p, n);
    if (r == 0) return 0;
    if (r < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += r;
    n -= (size_t)r;
  }
  return 1;
}

/* Reads one request frame into req; returns its length, or -1 at EOF. */
long read_request(void) {
  uint32_t len;
  if (read_full(0, &len, 4) <= 0) return -1;
  if (len > MAX_FRAME) {
    fprintf(stderr, "judge-cell: request of %u bytes refused\n", len);
    exit(65);
  }
  if (read_full(0, req, len) <= 0) return -1;
  req[len] = '\0';
  return (long)len;
}

static void on_sigchld(int sig) {
  (void)sig;
  int e = errno;
  if (write(sig_pipe[1], "c", 1) < 0) { /* full: a wake-up is pending anyway */ }
  errno = e;
}

/* bwrap's argv (before its "--") asks for the filter on SECCOMP_FD. */
static int wants_seccomp(char **argv) {
  for (int i = 0; argv[i] && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--seccomp")) return 1;
  return 0;
}

/*
 * The child: stdio, limits, the slot's uid, then bwrap. Failures go to the status pipe as text.
 * bwrap hands the fds it was given to the program, so only those it needs are left open: 0-2,
 * its status fd (3), a session's socket (4), the filter of a run (5).
 */
void child(struct stdio_plan io[3], int status_w, int ctl, char *rlimits, int uid, int gid, char **argv) {
  int err = status_w;
  int filter = -1;
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGCHLD, SIG_DFL);
  const char *step = "stdio";
  for (int i = 0; i < 3; i++)
    if (open_stdio(&io[i], i)) goto fail;
  /* bwrap writes its JSON status on fd 3 */
  step = "seccomp";
  if (wants_seccomp(argv) && (filter = seccomp_pipe(0)) < 0) goto fail;
  /* out of the way of the numbers they are given below */
  step = "status fd";
  if ((status_w = fcntl(status_w, F_DUPFD_CLOEXEC, 16)) < 0) goto fail;
  if (ctl >= 0 && (ctl = fcntl(ctl, F_DUPFD_CLOEXEC, 16)) < 0) goto fail;
  if (filter >= 0 && (filter = fcntl(filter, F_DUPFD_CLOEXEC, 16)) < 0) goto fail;
  if (dup2(status_w, 3) < 0) goto fail;
  err = 3;
  step = "control socket";
  if (ctl >= 0 && dup2(ctl, 4) < 0) goto fail;
  if (filter >= 0 && dup2(filter, SECCOMP_FD) < 0) goto fail;
  step = "close fds";
  close_from(SECCOMP_FD + 1);
  if (ctl < 0) close(4);
  if (filter < 0) close(SECCOMP_FD);
  step = "oom_score_adj";
  int adj = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (adj >= 0) {
    if (write(adj, "0", 1) < 0) { /* not fatal */ }
    close(adj);
  }
  step = "session";
  setsid();
  /*
   * A session's helper reports when each program ended (the order of an interactive pair depends
   * on it): it runs at a higher priority, so it wakes at once; each program it starts goes back to
   * the normal one (raising the nice value needs no privilege).
   */
  if (ctl >= 0) setpriority(PRIO_PROCESS, 0, -10);
  step = "rlimits";
  if (apply_rlimits(rlimits)) goto fail;
  if (uid >= 0) {
    step = "uid";
    if (setgroups(0, NULL) || setgid((gid_t)gid) || setuid((uid_t)uid)) goto fail;
  }
  char *env[] = {"PATH=/usr/bin:/bin", NULL};
  step = "exec";
  execve(argv[0], argv, env);
fail:;
  char msg[512];
  int n = snprintf(msg, sizeof msg, "\n{ \"cell-error\": \"%s: %s\" }\n", step, strerror(errno));
  if (write(err, msg, (size_t)n) < 0) { /* nothing left to tell */ }
  _exit(127);
}

void keep_stderr(struct run_state *r, const char *p, size_t n) {
  r->err_bytes += n;
  if (r->head_len < r->head_max) {
    size_t take = r->head_max - r->head_len < n ? r->head_max - r->head_len : n;
    memcpy(head + r->head_len, p, take);
    r->head_len += take;
  }
  for (size_t i = n > TAIL ? n - TAIL : 0; i < n; i++) {
    tail_ring[r->tail_pos] = p[i];
    r->tail_pos = (r->tail_pos + 1) % TAIL;
    if (r->tail_len < TAIL) r->tail_len++;
  }
}

/*
 * stderr is never limited, and the cell is in the run's cgroup: what it spends reading counts as
 * the run's CPU time. So the middle of a flood is spliced to /dev/null without being copied.
 */
void drain_stderr(struct run_state *r, int devnull) {
  for (;;) {
    int avail = 0;
    if (ioctl(r->drain_fd, FIONREAD, &avail) == 0 && r->head_len >= r->head_max && avail > TAIL) {
      ssize_t s = splice(r->drain_fd, NULL, devnull, NULL, (size_t)(avail - TAIL), SPLICE_F_NONBLOCK);
      if (s > 0) r->err_bytes += (unsigned long long)s;
    }
    ssize_t n = read(r->drain_fd, scratch, sizeof scratch);
    if (n > 0) {
      keep_stderr(r, scratch, (size_t)n);
      continue;
    }
    if (n == 0) {
      close(r->drain_fd);
      r->drain_fd = -1;
    }
    return; /* EAGAIN: later */
  }
}

void read_status(struct run_state *r) {
  for (;;) {
    size_t room = sizeof r->status_text - 1 - r->status_len;
    ssize_t n = read(r->status_fd, room ? r->status_text + r->status_len : scratch, room ? room : sizeof scratch);
    if (n > 0) {
      if (room) r->status_len += (size_t)n;
      continue;
    }
    if (n == 0) {
      close(r->status_fd);
      r->status_fd = -1;
    }
    r->status_text[r->status_len] = '\0';
    return;
  }
}

void reap(struct run_state *r) {
  for (;;) {
    int st;
    struct rusage ru;
    pid_t p = wait4(-1, &st, WNOHANG, &ru);
    if (p <= 0) return;
    if (p == r->pid) {
      r->status = st;
      r->exited = 1;
      r->exited_ns = monotonic_ns();
      r->maxrss_kib = ru.ru_maxrss;
    }
  }
}

static void drop_held(struct run_state *r) {
  for (int i = 0; i < 3; i++)
    if (r->held[i] >= 0) {
      close(r->held[i]);
      r->held[i] = -1;
    }
}

/* bwrap's pid 1 in the namespace (its "child-pid"), once bwrap said it. */
pid_t ns_init(const struct run_state *r) {
  const char *p = strstr(r->status_text, "\"child-pid\":");
  return p ? (pid_t)atoi(p + 12) : 0;
}

/*
 * After bwrap, its pid 1 in the namespace is this cell's child (subreaper) or gone: reaped here,
 * so that nothing of the run is left, not even a zombie, when the exit is reported.
 */
int init_left(const struct run_state *r) {
  pid_t init = ns_init(r);
  return init > 0 && r->exited && kill(init, 0) == 0;
}

/* Waits for the run to end (its status pipe and stderr closed, bwrap and its pid 1 reaped), serving requests. */
static void supervise(struct run_state *r, int devnull) {
  int waits = 0;
  while (!r->exited || r->status_fd >= 0 || r->drain_fd >= 0 || (init_left(r) && waits++ < 500)) {
    struct pollfd fds[4] = {
      {sig_pipe[0], POLLIN, 0}, {0, POLLIN, 0}, {r->status_fd, POLLIN, 0}, {r->drain_fd, POLLIN, 0},
    };
    if (poll(fds, 4, r->exited && r->status_fd < 0 && r->drain_fd < 0 ? 10 : -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    reap(r);
    if (fds[0].revents) {
      while (read(sig_pipe[0], scratch, sizeof scratch) > 0) {}
      reap(r);
    }
    if (fds[1].revents) {
      if (read_request() < 0) exit(0); /* the runner is gone: the run dies with us (die-with-parent) */
      if (!strcmp(req, "opened")) drop_held(r);
    }
    if (r->status_fd >= 0 && fds[2].revents) read_status(r);
    if (r->drain_fd >= 0 && fds[3].revents) drain_stderr(r, devnull);
    if (r->exited && r->status_fd < 0 && r->drain_fd >= 0) {
      /* bwrap is gone and with it the namespace: what stderr still holds is all there is */
      drain_stderr(r, devnull);
    }
  }
  drop_held(r);
}

void send_exit(struct run_state *r) {
  char st[32], started[4], bytes[32], hl[32], tl[32];
  snprintf(st, sizeof st, "%d", r->status);
  snprintf(started, sizeof started, "%d", strstr(r->status_text, "\"exit-code\"") != NULL);
  snprintf(bytes, sizeof bytes, "%llu", r->err_bytes);
  snprintf(hl, sizeof hl, "%zu", r->head_len);
  snprintf(tl, sizeof tl, "%zu", r->tail_len);
  /* the ring, oldest byte first */
  static char tail[TAIL];
  size_t start = (r->tail_pos + TAIL - r->tail_len) % TAIL;
  for (size_t i = 0; i < r->tail_len; i++) tail[i] = tail_ring[(start + i) % TAIL];
  const char *cell_error = strstr(r->status_text, "\"cell-error\"");
  if (cell_error && !r->err_bytes) {
    /* the child failed before bwrap: say why in place of stderr */
    keep_stderr(r, r->status_text, r->status_len);
    snprintf(bytes, sizeof bytes, "%llu", r->err_bytes);
    snprintf(hl, sizeof hl, "%zu", r->head_len);
  }
  char ns[32], rss[32];
  snprintf(ns, sizeof ns, "%llu", r->exited_ns);
  snprintf(rss, sizeof rss, "%ld", r->maxrss_kib);
  send_event(head, r->head_len, tail, r->tail_len, 8, "exit", st, started, bytes, hl, tl, ns, rss);
}

static void run(long len, int devnull) {
  char *fields[MAX_ARGS + 16];
  int n = split_fields(len, fields, MAX_ARGS + 15);
  /* run uid gid rlimits stdin stdout stderr head -- argv... */
  if (n < 10 || strcmp(fields[8], "--")) {
    send_event(NULL, 0, NULL, 0, 2, "error", "malformed run request");
    return;
  }
  int uid = atoi(fields[1]), gid = atoi(fields[2]);
  struct run_state r = {.status_fd = -1, .drain_fd = -1, .held = {-1, -1, -1}};
  r.head_max = strtoul(fields[7], NULL, 10);
  if (r.head_max > MAX_HEAD) r.head_max = MAX_HEAD;
  struct stdio_plan io[3];
  int status[2];
  for (int i = 0; i < 3; i++) {
    if (plan_stdio(&io[i], fields[4 + i], i == 0) || (io[i].kind == 'k' && i != 2)) {
      send_event(NULL, 0, NULL, 0, 2, "error", "bad stdio");
      for (int j = 0; j < i; j++) {
        if (io[j].child_fd >= 0) close(io[j].child_fd);
        if (io[j].cell_fd >= 0) close(io[j].cell_fd);
      }
      return;
    }
  }
  if (pipe2(status, O_CLOEXEC)) die("pipe");
  pid_t pid = fork();
  if (pid < 0) {
    send_event(NULL, 0, NULL, 0, 2, "error", strerror(errno));
    return;
  }
  if (pid == 0) child(io, status[1], -1, fields[3], uid, gid, fields + 9);
  close(status[1]);
  r.pid = pid;
  r.status_fd = status[0];
  fcntl(r.status_fd, F_SETFL, O_NONBLOCK);
  char fdtext[3][16];
  for (int i = 0; i < 3; i++) {
    if (io[i].child_fd >= 0) close(io[i].child_fd);
    snprintf(fdtext[i], sizeof fdtext[i], "%d", io[i].kind == 'p' ? io[i].cell_fd : -1);
    if (io[i].kind == 'p') r.held[i] = io[i].cell_fd;
    if (io[i].kind == 'k') {
      r.drain_fd = io[i].cell_fd;
      fcntl(r.drain_fd, F_SETFL, O_NONBLOCK);
    }
  }
  char pidtext[16];
  snprintf(pidtext, sizeof pidtext, "%d", pid);
  send_event(NULL, 0, NULL, 0, 5, "started", pidtext, fdtext[0], fdtext[1], fdtext[2]);
  supervise(&r, devnull);
  send_exit(&r);
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "--box")) return box_main(!(argc == 3 && !strcmp(argv[2], "--unfiltered")));
  /* nothing the runner was started with (a shell's fd 251) reaches a run: the cell holds none of it */
  close_from(3);
  /* the runner's death ends the cell, and bwrap (--die-with-parent) the run */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 0;
  /* orphans of a run (bwrap's pid 1 after bwrap exits) are reaped here, not by the host's init */
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  int adj = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (adj >= 0) {
    if (write(adj, "-1000", 5) < 0) { /* an unprivileged cell stays killable */ }
    close(adj);
  }
  if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK)) die("pipe");
  struct sigaction sa = {.sa_handler = on_sigchld, .sa_flags = SA_RESTART | SA_NOCLDSTOP};
  sigaction(SIGCHLD, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (devnull < 0) die("/dev/null");
  /* touch the buffers before joining: their pages stay charged where the cell was born */
  memset(head, 0, sizeof head);
  memset(tail_ring, 0, sizeof tail_ring);
  memset(scratch, 0, sizeof scratch);
  memset(req, 0, sizeof req);
  for (int i = 1; i < argc; i++) {
    int fd = open(argv[i], O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "0", 1) != 1) {
      fprintf(stderr, "judge-cell: cannot join %s: %s\n", argv[i], strerror(errno));
      return 71;
    }
    close(fd);
  }
  char pidtext[16];
  snprintf(pidtext, sizeof pidtext, "%d", getpid());
  send_event(NULL, 0, NULL, 0, 3, "ready", PROTOCOL, pidtext);
  for (;;) {
    struct pollfd fds[2] = {{0, POLLIN, 0}, {sig_pipe[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) die("poll");
    if (fds[1].revents) {
      while (read(sig_pipe[0], scratch, sizeof scratch) > 0) {}
      while (waitpid(-1, NULL, WNOHANG) > 0) {}
    }
    if (!fds[0].revents) continue;
    long len = read_request();
    if (len < 0) return 0;
    if (!strcmp(req, "run")) run(len, devnull);
    else if (!strcmp(req, "session")) session(len, devnull);
    else if (!strcmp(req, "opened")) { /* late: the run is over */ }
    else send_event(NULL, 0, NULL, 0, 2, "error", "unknown request");
    /* a SIGCHLD of an orphan between runs */
    while (waitpid(-1, NULL, WNOHANG) > 0) {}
  }
}
