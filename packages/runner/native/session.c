/*
 * A session: one sandbox (bwrap running `judge-cell --box`) in which the runner runs test after
 * test of one submission. The cell opens each test's stdin and stdout (host paths: the program
 * never sees them), makes its stderr pipe, hands the three fds to the helper in the box over a
 * SOCK_SEQPACKET socket, drains stderr as for a run, and reports each test's end as an "exit"
 * event when the helper says "done" and stderr is closed.
 *
 *   request  session <uid> <rlimits> -- <bwrap argv...>     events  started <bwrap pid> -1 -1 -1
 *            test <rlimits> <stdin> <stdout> <stderr> <head> -- <argv...>   exit ... (per test)
 *            kill                     (the running test)                    closed <wait status>
 *            opened                   (the runner holds the test's pipes)   piped -1 <fd> <fd> <fd>
 *            end                      (closes the session)                  lost (the sandbox died in a test)
 * A test's stdio may be pipes the runner streams (interactive problems): "piped" names the cell's
 * ends, opened by the runner through /proc/<cell>/fd/<n>, then dropped here on "opened". Only the
 * program holds the other ends (not bwrap, not its pid 1), so it closing one is seen at once.
 *
 * A sandbox that never says "ready" is reported as an "exit" with started 0 and bwrap's words on
 * stderr, like a run that never started; a sandbox that dies during a test ends that test (as
 * killed) and the session.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cell.h"

struct session_state {
  struct run_state box;  /* bwrap: its pid, exit, JSON status, and its own stderr kept */
  struct run_state test; /* the running test: its stderr kept */
  int ctl;
  int ready;
  int testing; /* a test was handed over and is not reported yet */
  int done;    /* the helper said "done" */
  int lost;    /* the sandbox ended during a test */
};

static int open_plan(const struct stdio_plan *p) {
  switch (p->kind) {
    case 'n': return open("/dev/null", O_RDWR | O_CLOEXEC);
    case 'r': return open(p->path, O_RDONLY | O_CLOEXEC);
    case 'w': return open(p->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    case 'a': return open(p->path, O_WRONLY | O_APPEND | O_CLOEXEC);
    default: return p->child_fd;
  }
}

static void to_box(struct session_state *s, const char *msg, size_t len, int fds[3]) {
  char control[CMSG_SPACE(3 * sizeof(int))];
  struct iovec iov = {(void *)msg, len};
  struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
  if (fds) {
    memset(control, 0, sizeof control);
    mh.msg_control = control;
    mh.msg_controllen = sizeof control;
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(3 * sizeof(int));
    memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
  }
  if (sendmsg(s->ctl, &mh, MSG_NOSIGNAL) < 0) { /* the box is gone: its end is reported by SIGCHLD */ }
}

/* "test rlimits stdin stdout stderr head -- argv...": the fds open here, the rest in the box. */
static void start_test(struct session_state *s, long len) {
  char *f[MAX_ARGS + 16];
  int n = split_fields(len, f, MAX_ARGS + 15);
  if (s->testing || n < 8 || strcmp(f[6], "--")) {
    send_event(NULL, 0, NULL, 0, 2, "error", s->testing ? "a test is running" : "malformed test request");
    return;
  }
  struct stdio_plan io[3];
  int fds[3] = {-1, -1, -1};
  const char *why = NULL;
  for (int i = 0; i < 3 && !why; i++) {
    if (plan_stdio(&io[i], f[2 + i], i == 0) || (io[i].kind == 'k' && i != 2)) why = "bad stdio";
    else if ((fds[i] = open_plan(&io[i])) < 0) why = strerror(errno);
  }
  if (why) {
    for (int i = 0; i < 3; i++) {
      if (fds[i] >= 0) close(fds[i]);
      if (io[i].cell_fd >= 0 && (io[i].kind == 'p' || io[i].kind == 'k')) close(io[i].cell_fd);
    }
    send_event(NULL, 0, NULL, 0, 2, "error", why);
    return;
  }
  memset(&s->test, 0, sizeof s->test);
  s->test.status_fd = s->test.drain_fd = -1;
  int piped = 0;
  char fdtext[3][16];
  for (int i = 0; i < 3; i++) {
    s->test.held[i] = io[i].kind == 'p' ? io[i].cell_fd : -1;
    piped |= io[i].kind == 'p';
    snprintf(fdtext[i], sizeof fdtext[i], "%d", s->test.held[i]);
  }
  s->test.head_max = strtoul(f[5], NULL, 10);
  if (s->test.head_max > MAX_HEAD) s->test.head_max = MAX_HEAD;
  if (io[2].kind == 'k') {
    s->test.drain_fd = io[2].cell_fd;
    fcntl(s->test.drain_fd, F_SETFL, O_NONBLOCK);
  }
  /* "test\0rlimits\0argv..." */
  size_t off = 0;
  static char msg[MAX_FRAME];
  const char *parts[MAX_ARGS + 2];
  int count = 0;
  parts[count++] = "test";
  parts[count++] = f[1];
  for (int i = 7; i < n && count < MAX_ARGS + 1; i++) parts[count++] = f[i];
  for (int i = 0; i < count; i++) {
    size_t l = strlen(parts[i]) + 1;
    if (off + l > sizeof msg) break;
    memcpy(msg + off, parts[i], l);
    off += l;
  }
  to_box(s, msg, off, fds);
  for (int i = 0; i < 3; i++) close(fds[i]);
  s->testing = 1;
  s->done = 0;
  if (piped) send_event(NULL, 0, NULL, 0, 5, "piped", "-1", fdtext[0], fdtext[1], fdtext[2]);
}

static void from_box(struct session_state *s) {
  char buf[256];
  ssize_t n = recv(s->ctl, buf, sizeof buf - 1, MSG_DONTWAIT);
  if (n <= 0) {
    if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      close(s->ctl);
      s->ctl = -1;
    }
    return;
  }
  buf[n] = '\0';
  const char *arg = buf + strlen(buf) + 1 < buf + n ? buf + strlen(buf) + 1 : "";
  if (!strcmp(buf, "ready")) {
    s->ready = 1;
    char pid[16];
    snprintf(pid, sizeof pid, "%d", s->box.pid);
    send_event(NULL, 0, NULL, 0, 5, "started", pid, "-1", "-1", "-1");
  } else if (!strcmp(buf, "done") && s->testing) {
    char *rest;
    s->test.status = (int)strtol(arg, &rest, 10);
    s->test.exited_ns = strtoull(rest, &rest, 10);
    s->test.maxrss_kib = strtol(rest, NULL, 10);
    s->done = 1;
  } else if (!strcmp(buf, "error")) {
    s->testing = 0;
    send_event(NULL, 0, NULL, 0, 2, "error", arg);
  }
}

static void drop_test_pipes(struct session_state *s) {
  for (int i = 0; i < 3; i++)
    if (s->test.held[i] >= 0) {
      close(s->test.held[i]);
      s->test.held[i] = -1;
    }
}

/* The test is over once the helper said so (or the sandbox died) and its stderr is closed. */
static void finish_test(struct session_state *s, int devnull) {
  if (!s->testing || !(s->done || s->lost)) return;
  if (s->test.drain_fd >= 0) {
    if (!s->lost) return;
    drain_stderr(&s->test, devnull);
    if (s->test.drain_fd >= 0) return;
  }
  if (s->lost && !s->done) {
    s->test.status = SIGKILL;
    /* before the test's exit: the runner opens a new sandbox for its next test */
    send_event(NULL, 0, NULL, 0, 1, "lost");
  }
  drop_test_pipes(s);
  memcpy(s->test.status_text, "{ \"exit-code\": 0 }", 19);
  s->test.status_len = 18;
  send_exit(&s->test);
  s->testing = 0;
}

static int serve(struct session_state *s, int devnull) {
  struct pollfd fds[5] = {
    {sig_pipe[0], POLLIN, 0}, {0, POLLIN, 0}, {s->ctl, POLLIN, 0}, {s->test.drain_fd, POLLIN, 0}, {s->box.drain_fd, POLLIN, 0},
  };
  if (poll(fds, 5, s->box.exited ? 10 : -1) < 0) {
    if (errno == EINTR) return 0;
    die("poll");
  }
  if (fds[0].revents) {
    while (read(sig_pipe[0], scratch, sizeof scratch) > 0) {}
  }
  reap(&s->box);
  if (s->box.status_fd >= 0) read_status(&s->box);
  if (s->box.drain_fd >= 0 && fds[4].revents) {
    if (!s->ready) drain_stderr(&s->box, devnull);
    else {
      /* the head and tail buffers belong to the test now: what the sandbox itself says is dropped */
      ssize_t got = read(s->box.drain_fd, scratch, sizeof scratch);
      if (got == 0) {
        close(s->box.drain_fd);
        s->box.drain_fd = -1;
      }
    }
  }
  if (s->ctl >= 0 && fds[2].revents) from_box(s);
  if (s->test.drain_fd >= 0 && fds[3].revents) drain_stderr(&s->test, devnull);
  if (fds[1].revents) {
    long len = read_request();
    if (len < 0) exit(0);
    if (!strcmp(req, "test") && s->ready && !s->box.exited && s->ctl >= 0) start_test(s, len);
    else if (!strcmp(req, "test")) send_event(NULL, 0, NULL, 0, 2, "error", "the session's sandbox is gone");
    else if (!strcmp(req, "kill") && s->testing) to_box(s, "kill", 5, NULL);
    else if (!strcmp(req, "opened")) drop_test_pipes(s);
    else if (!strcmp(req, "end") && s->ctl >= 0) {
      close(s->ctl);
      s->ctl = -1;
    }
  }
  if (s->box.exited && s->testing && !s->done) s->lost = 1;
  finish_test(s, devnull);
  return s->box.exited && s->box.status_fd < 0 && s->box.drain_fd < 0 && !s->testing && !init_left(&s->box);
}

void session(long len, int devnull) {
  char *f[MAX_ARGS + 16];
  int n = split_fields(len, f, MAX_ARGS + 15);
  /* session uid rlimits -- bwrap argv... */
  if (n < 6 || strcmp(f[3], "--")) {
    send_event(NULL, 0, NULL, 0, 2, "error", "malformed session request");
    return;
  }
  struct session_state s;
  memset(&s, 0, sizeof s);
  s.box.status_fd = s.box.drain_fd = s.test.status_fd = s.test.drain_fd = -1;
  for (int i = 0; i < 3; i++) s.box.held[i] = s.test.held[i] = -1;
  s.box.head_max = 2048;
  int sp[2], status[2];
  struct stdio_plan io[3];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) || pipe2(status, O_CLOEXEC)) die("socketpair");
  plan_stdio(&io[0], "n", 1);
  plan_stdio(&io[1], "n", 0);
  plan_stdio(&io[2], "k", 0);
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid == 0) child(io, status[1], sp[1], f[2], atoi(f[1]), atoi(f[1]), f + 4);
  close(sp[1]);
  close(status[1]);
  close(io[2].child_fd);
  s.ctl = sp[0];
  s.box.pid = pid;
  s.box.status_fd = status[0];
  s.box.drain_fd = io[2].cell_fd;
  fcntl(s.box.status_fd, F_SETFL, O_NONBLOCK);
  fcntl(s.box.drain_fd, F_SETFL, O_NONBLOCK);
  int waits = 0;
  while (!serve(&s, devnull))
    if (s.box.exited && s.box.status_fd < 0 && s.box.drain_fd < 0 && !s.testing && ++waits > 500) break;
  if (s.ctl >= 0) close(s.ctl);
  if (!s.ready) {
    /* never reached the box: reported as a run that did not start, with bwrap's words */
    s.box.status_text[0] = '\0';
    send_exit(&s.box);
    return;
  }
  char st[16];
  snprintf(st, sizeof st, "%d", s.box.status);
  send_event(NULL, 0, NULL, 0, 2, "closed", st);
}
