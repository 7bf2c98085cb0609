/*
 * judge-cell --box: the helper inside one sandbox that runs every test of a submission, so that a
 * test costs a fork and an exec instead of a whole new bubblewrap sandbox.
 *
 * It is the sandbox's command (bwrap's init is pid 1, this is pid 2). Fd 4 is a SOCK_SEQPACKET
 * socket to the cell outside: each "test" packet carries the rlimits and argv as NUL-separated
 * fields, and the test's stdin, stdout and stderr as SCM_RIGHTS (opened outside: the program sees
 * no path of any test file). After each test every other process of the sandbox is killed and
 * reaped (this helper is their subreaper) and /tmp is emptied, so a test starts as a fresh
 * sandbox would, then "done <wait status>" goes back. "kill" ends the running test.
 *
 * The program runs as the same uid as this helper, so it could signal it: every signal that can
 * be ignored is, the helper is not dumpable, and the test's system-call filter (seccomp.c) refuses
 * ptrace and every signal, priority or limit aimed at pid 1, at this helper (pid 2) or at its
 * group. Should the helper die all the same, the cell outside reports the end of the session.
 * The helper holds CAP_SYS_ADMIN in the sandbox's user namespace (bwrap --cap-add) only to give
 * each test an IPC namespace of its own; the test has none.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <sched.h>
#include <unistd.h>
#include "cell.h"

#define CTL 4

static int box_sig[2];
static int box_filtered;

static void box_sigchld(int sig) {
  (void)sig;
  int e = errno;
  if (write(box_sig[1], "c", 1) < 0) { /* a wake-up is pending */ }
  errno = e;
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  if (ftw->level > 0) remove(p);
  return 0;
}

/* What a test left in /tmp is gone before the next one. */
static void empty_tmp(void) {
  DIR *d = opendir("/tmp");
  if (!d) return;
  struct dirent *e;
  int any = 0;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) any = 1;
  closedir(d);
  if (any) nftw("/tmp", remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void box_send(const char *a, const char *b) {
  char msg[96];
  int n = snprintf(msg, sizeof msg, "%s%c%s", a, '\0', b);
  if (send(CTL, msg, (size_t)n + 1, MSG_NOSIGNAL) < 0) _exit(0);
}

/*
 * SIGKILL to every process of the sandbox but pid 1 and this helper; whether there was one. Not
 * kill(-1): the filter the helper shares with its tests refuses that (a test would kill the helper).
 */
static int kill_others(void) {
  DIR *d = opendir("/proc");
  if (!d) return 0;
  int found = 0;
  pid_t self = getpid();
  struct dirent *e;
  while ((e = readdir(d))) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end || pid <= 1 || pid == self) continue;
    if (kill((pid_t)pid, SIGKILL) == 0) found = 1;
  }
  closedir(d);
  return found;
}

/*
 * Kills every other process of the sandbox and reaps them all (this helper is their subreaper).
 * A sweep after each reap catches what a dying process forked, or handed over, meanwhile.
 */
static void end_test(void) {
  if (!box_filtered) {
    /* unfiltered (measuring the filter's cost): as the helper did before it */
    kill(-1, SIGKILL);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {}
    return;
  }
  for (;;) {
    kill_others();
    pid_t p = waitpid(-1, NULL, 0);
    if (p < 0 && errno == EINTR) continue;
    if (p < 0 && !kill_others()) return;
  }
}

static void box_fail(const char *step) {
  fprintf(stderr, "judge-box: %s: %s\n", step, strerror(errno));
  _exit(127);
}

/* No capability of the helper's (CAP_SYS_ADMIN, for the IPC namespace) reaches the test. */
static int drop_capabilities(void) {
  struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct d[2];
  memset(d, 0, sizeof d);
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL) return -1;
  return (int)syscall(SYS_capset, &h, d);
}

/*
 * A test: a session and process group of its own (a signal to "my group" stays in the test), an
 * IPC namespace of its own (System V shared memory, semaphores and message queues and POSIX
 * message queues of the test before are not there, and its own vanish with it), no capability,
 * no fd but its stdio, the rlimits, then the program (under the helper's system-call filter).
 */
static void box_child(int fds[3], char *rlimits, char **argv) {
  for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  for (int i = 0; i < 3; i++)
    if (dup2(fds[i], i) < 0) _exit(127);
  close_from(3);
  setsid();
  setpriority(PRIO_PROCESS, 0, 0);
  if (box_filtered && unshare(CLONE_NEWIPC)) box_fail("IPC namespace");
  if (drop_capabilities()) box_fail("capabilities");
  /* stopped at its exit before its files close, for the time of its end (see box_main) */
  ptrace(PTRACE_TRACEME, 0, NULL, NULL);
  if (apply_rlimits(rlimits)) box_fail("rlimits");
  execvp(argv[0], argv);
  /* the words bwrap uses, so that a missing program reads the same either way */
  fprintf(stderr, "bwrap: execvp %s: %s\n", argv[0], strerror(errno));
  _exit(1);
}

/* One packet: "test\0rlimits\0argv...\0" with three fds, or "kill". */
static pid_t box_request(pid_t running) {
  static char buf[MAX_FRAME];
  char control[CMSG_SPACE(3 * sizeof(int))];
  struct iovec iov = {buf, sizeof buf - 1};
  struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  ssize_t n = recvmsg(CTL, &mh, MSG_CMSG_CLOEXEC);
  if (n <= 0) {
    if (n < 0 && errno == EINTR) return running;
    if (running > 0) end_test();
    _exit(0); /* the cell closed the session */
  }
  buf[n] = '\0';
  int fds[3] = {-1, -1, -1};
  struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
  if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(3 * sizeof(int))) memcpy(fds, CMSG_DATA(c), sizeof fds);
  if (!strcmp(buf, "kill")) {
    if (running > 0) kill_others();
    return running;
  }
  if (strcmp(buf, "test") || running > 0 || fds[2] < 0) {
    for (int i = 0; i < 3; i++)
      if (fds[i] >= 0) close(fds[i]);
    box_send("error", "bad test request");
    return running;
  }
  char *fields[MAX_ARGS + 2];
  int count = 0;
  for (char *p = buf; p < buf + n && count < MAX_ARGS + 1; p += strlen(p) + 1) fields[count++] = p;
  fields[count] = NULL;
  pid_t pid = count >= 3 ? fork() : -1;
  if (pid == 0) box_child(fds, fields[1], fields + 2);
  for (int i = 0; i < 3; i++) close(fds[i]);
  if (pid < 0) box_send("error", count >= 3 ? strerror(errno) : "no argv");
  return pid;
}

/*
 * When a test ended. The program is traced (PTRACE_TRACEME before its exec) only to be stopped
 * at its exit before its files are closed: the time is taken then, so the other program of an
 * interactive pair cannot have seen this one's end of output yet, however late this helper got
 * the CPU. Without that stop (no ptrace here) it is when the exit was seen.
 */
static unsigned long long exit_stop_ns;
static int traced_options;

static void traced_stop(pid_t p, int st) {
  int sig = WSTOPSIG(st), event = st >> 16;
  if (sig == SIGTRAP && event == PTRACE_EVENT_EXIT) {
    exit_stop_ns = monotonic_ns();
    sig = 0;
  } else if (sig == SIGTRAP && event == PTRACE_EVENT_EXEC) {
    sig = 0; /* a later exec (a script's interpreter, a program that runs another) */
  } else if (sig == SIGTRAP && event == 0 && !traced_options) {
    /* the stop after its exec: from now on only its exit stops it (and its signals pass through) */
    ptrace(PTRACE_SETOPTIONS, p, NULL, (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL));
    traced_options = 1;
    sig = 0;
  }
  ptrace(PTRACE_CONT, p, NULL, (void *)(long)sig);
}

int box_main(int filtered) {
  box_filtered = filtered;
  if (fcntl(CTL, F_SETFD, FD_CLOEXEC) < 0) return 70;
  /* only stdio and the socket: what bwrap was given besides is no test's business */
  close(3);
  close_from(CTL + 1);
  prctl(PR_SET_DUMPABLE, 0);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (pipe2(box_sig, O_CLOEXEC | O_NONBLOCK)) return 70;
  for (int s = 1; s < NSIG; s++)
    if (s != SIGKILL && s != SIGSTOP && s != SIGCHLD) signal(s, SIG_IGN);
  /* no SA_NOCLDSTOP: the stops of a traced test must wake this loop too */
  struct sigaction sa = {.sa_handler = box_sigchld, .sa_flags = SA_RESTART};
  sigaction(SIGCHLD, &sa, NULL);
  /*
   * The filter once for the whole session, the helper included (its tests inherit it with each
   * fork): attaching one costs a millisecond or more, too much for every test. What the helper
   * needs of what it refuses to tests is allowed by the table only where it is harmless to them.
   */
  if (box_filtered && seccomp_install(1)) return 70;
  box_send("ready", "1");
  pid_t running = 0;
  for (;;) {
    struct pollfd fds[2] = {{CTL, POLLIN, 0}, {box_sig[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return 70;
    if (fds[1].revents) {
      char drain[64];
      while (read(box_sig[0], drain, sizeof drain) > 0) {}
      int st;
      pid_t p;
      struct rusage ru;
      while (running > 0 && (p = wait4(-1, &st, WNOHANG, &ru)) > 0) {
        if (p != running) continue;
        if (WIFSTOPPED(st)) {
          traced_stop(p, st);
          continue;
        }
        unsigned long long at = exit_stop_ns ? exit_stop_ns : monotonic_ns();
        exit_stop_ns = 0;
        traced_options = 0;
        running = 0;
        end_test();
        empty_tmp();
        char text[80];
        snprintf(text, sizeof text, "%d %llu %ld", st, at, ru.ru_maxrss);
        box_send("done", text);
      }
      if (!running) while (waitpid(-1, NULL, WNOHANG) > 0) {}
    }
    if (fds[0].revents) running = box_request(running);
  }
}
