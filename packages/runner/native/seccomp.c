/*
 * The system-call filter of every program the runner starts for a submission (compilers, the
 * submission's tests, validators and interactors): ONE table, below, of what is refused and why.
 * README.md's sandbox part lists the same entries for users; a change here changes it there.
 *
 * What is refused is what no submission needs and what namespaces, the slot uid and the cgroups
 * do not already confine: calls that reach into another process (ptrace, process_vm_*,
 * pidfd_getfd), kernel interfaces shared by the whole machine (keyrings, perf, bpf, the kernel
 * log, modules, clocks, swap), calls that rebuild the sandbox from inside (mount, unshare,
 * setns), and the other system-call tables of the CPU (the 32-bit i386 and x32 tables of
 * x86-64), which a filter written for the native table would let through unchecked.
 *
 * A refused call fails with an error (EPERM, or ENOSYS where a caller is expected to fall back,
 * EAFNOSUPPORT for a socket family), never by killing the process: the program sees a normal
 * failure and its test a normal verdict.
 *
 * The filter is classic BPF written by hand (no library to install): the architecture check,
 * then one comparison per entry (a call it does not name passes all of them and is allowed). Entries that look at an argument compare its low 32 bits, which
 * is all the kernel reads of an int argument (a caller may set the high bits to anything).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "cell.h"

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "the sandbox's system-call filter knows x86-64 and aarch64 only"
#endif

/* (CLONE_NEWTIME shares its bit with clone's exit signal: only unshare and clone3 take it) */
#define CLONE_NAMESPACES (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

/* What an entry checks before refusing the call. */
enum test {
  ALWAYS,     /* the call, whatever its arguments */
  ARG_IN,     /* argument `arg` is one of vals */
  ARG_NOT_IN, /* argument `arg` is none of vals */
  ARG_MASK,   /* argument `arg` has a bit of vals[0] */
  PID_IN,     /* argument `arg` names the sandbox's pid 1 or the session's helper (pid 2) */
  SIGNAL_PID, /* as PID_IN, and also -1 (every process) and the helper's process group */
  SOCKET,     /* socket(): a family other than those of vals, or netlink other than NETLINK_ROUTE */
};

struct entry {
  long nr;
  int err;
  enum test test;
  int arg;
  unsigned vals[6];
  int nvals;
  const char *why;
};

#define E(name, e, t, a, why, ...) {SYS_##name, e, t, a, {__VA_ARGS__}, sizeof((unsigned[]){0, ##__VA_ARGS__}) / sizeof(unsigned) - 1, why}

/* THE LIST. Each line: the call, its error, what is checked, and why no submission needs it. */
static const struct entry table[] = {
  /* other processes: the sandbox's pid 1, the helper, anything of the same uid */
  /* (the two most frequent calls the filter inspects come first: it checks entries in order) */
  E(fcntl, EPERM, ARG_IN, 1, "F_SETSIG picks the signal an fd's owner gets, SIGKILL included: with F_SETOWN it reaches the helper", F_SETSIG),
  E(prlimit64, EPERM, PID_IN, 0, "lowers the limits of pid 1 or the helper"),
  E(ptrace, EPERM, ARG_NOT_IN, 0, "attaching to, reading and writing other processes (the probe's ptrace of pid 1 killed the launcher); "
    "TRACEME, CONT and SETOPTIONS act on the caller's own tracees only (the helper times a test's end with them)",
    PTRACE_TRACEME, PTRACE_CONT, PTRACE_SETOPTIONS),
  E(process_vm_readv, EPERM, ALWAYS, 0, "reads another process's memory"),
  E(process_vm_writev, EPERM, ALWAYS, 0, "writes another process's memory"),
  E(pidfd_getfd, EPERM, ALWAYS, 0, "takes a file descriptor out of another process"),
  E(pidfd_send_signal, EPERM, ALWAYS, 0, "signals through a pidfd, which the pid checks below cannot see"),
  E(process_madvise, EPERM, ALWAYS, 0, "changes another process's memory"),
  E(process_mrelease, EPERM, ALWAYS, 0, "reaps another process's memory"),
  E(kcmp, EPERM, ALWAYS, 0, "compares the kernel objects of two processes"),
  E(kill, EPERM, SIGNAL_PID, 0, "signals the sandbox's pid 1, the helper, its group or every process"),
  E(tkill, EPERM, PID_IN, 0, "signals a thread of pid 1 or of the helper"),
  E(tgkill, EPERM, PID_IN, 0, "signals a thread of pid 1 or of the helper"),
  E(rt_sigqueueinfo, EPERM, PID_IN, 0, "queues a signal to pid 1 or the helper"),
  E(rt_tgsigqueueinfo, EPERM, PID_IN, 0, "queues a signal to pid 1 or the helper"),
  E(setpriority, EPERM, ARG_NOT_IN, 0, "PRIO_PGRP and PRIO_USER reach the helper: only PRIO_PROCESS", PRIO_PROCESS),
  E(setpriority, EPERM, PID_IN, 1, "lowers the priority of pid 1 or the helper"),
  E(sched_setaffinity, EPERM, PID_IN, 0, "pins pid 1 or the helper to a busy CPU"),
  E(sched_setscheduler, EPERM, PID_IN, 0, "changes how pid 1 or the helper is scheduled"),
  E(sched_setparam, EPERM, PID_IN, 0, "changes how pid 1 or the helper is scheduled"),
  E(sched_setattr, EPERM, PID_IN, 0, "changes how pid 1 or the helper is scheduled"),
  E(ioprio_set, EPERM, ARG_NOT_IN, 0, "the group and user kinds reach the helper: only IOPRIO_WHO_PROCESS", 1),
  E(ioprio_set, EPERM, PID_IN, 1, "lowers the I/O priority of pid 1 or the helper"),
  E(migrate_pages, EPERM, PID_IN, 0, "moves the memory of pid 1 or the helper"),
  E(move_pages, EPERM, PID_IN, 0, "moves the memory of pid 1 or the helper"),
  /* kernel interfaces the whole machine shares (not namespaced) */
  E(perf_event_open, EPERM, ALWAYS, 0, "kernel and CPU counters, a side channel and a large kernel attack surface"),
  E(bpf, EPERM, ALWAYS, 0, "loads programs into the kernel"),
  E(keyctl, ENOSYS, ALWAYS, 0, "kernel keyrings are shared by the uid across sandboxes (libraries fall back on ENOSYS)"),
  E(add_key, ENOSYS, ALWAYS, 0, "kernel keyrings are shared by the uid across sandboxes"),
  E(request_key, ENOSYS, ALWAYS, 0, "kernel keyrings are shared by the uid across sandboxes"),
  E(syslog, EPERM, ALWAYS, 0, "the kernel log is the machine's"),
  E(userfaultfd, EPERM, ALWAYS, 0, "stalls the kernel inside a copy at will (used to widen kernel races)"),
  E(io_uring_setup, ENOSYS, ALWAYS, 0, "a second system-call path the filter cannot see (runtimes fall back on ENOSYS)"),
  E(io_uring_enter, ENOSYS, ALWAYS, 0, "a second system-call path the filter cannot see"),
  E(io_uring_register, ENOSYS, ALWAYS, 0, "a second system-call path the filter cannot see"),
  E(personality, EPERM, ARG_NOT_IN, 0, "only the usual personalities (and the query): others turn off address randomisation or make data executable",
    0x0, 0x8, 0x20000, 0x20008, 0xffffffffu),
  E(modify_ldt, EPERM, ALWAYS, 0, "16-bit segments, a past source of kernel bugs"),
  E(lookup_dcookie, EPERM, ALWAYS, 0, "a profiler's kernel interface"),
  E(quotactl, EPERM, ALWAYS, 0, "disk quotas of the host"),
  E(fanotify_init, EPERM, ALWAYS, 0, "watches the host's filesystems"),
  E(open_by_handle_at, EPERM, ALWAYS, 0, "opens files by handle, past the sandbox's mounts"),
  E(name_to_handle_at, EPERM, ALWAYS, 0, "the other half of open_by_handle_at"),
  /* the sandbox itself: rebuilding it from inside */
  E(mount, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(umount2, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(pivot_root, EPERM, ALWAYS, 0, "the sandbox's root is fixed"),
  E(chroot, EPERM, ALWAYS, 0, "the sandbox's root is fixed"),
  E(move_mount, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(open_tree, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(fsopen, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(fsconfig, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(fsmount, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(fspick, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(mount_setattr, EPERM, ALWAYS, 0, "the sandbox's mounts are fixed"),
  E(unshare, EPERM, ARG_NOT_IN, 0, "new namespaces: the sandbox's are fixed; CLONE_NEWIPC alone needs CAP_SYS_ADMIN, which only the helper "
    "has (it gives each test an IPC namespace so)", CLONE_NEWIPC),
  E(setns, EPERM, ALWAYS, 0, "joins other namespaces"),
  E(clone, EPERM, ARG_MASK, 0, "fork and threads are fine; new namespaces are not", CLONE_NAMESPACES),
  E(clone3, ENOSYS, ALWAYS, 0, "its flags are in memory the filter cannot read: C libraries fall back to clone on ENOSYS"),
  E(sethostname, EPERM, ALWAYS, 0, "the sandbox's name is fixed"),
  E(setdomainname, EPERM, ALWAYS, 0, "the sandbox's name is fixed"),
  /* the machine: modules, power, clocks, swap, accounting */
  E(init_module, EPERM, ALWAYS, 0, "loads kernel code"),
  E(finit_module, EPERM, ALWAYS, 0, "loads kernel code"),
  E(delete_module, EPERM, ALWAYS, 0, "unloads kernel code"),
  E(kexec_load, EPERM, ALWAYS, 0, "replaces the running kernel"),
  E(kexec_file_load, EPERM, ALWAYS, 0, "replaces the running kernel"),
  E(reboot, EPERM, ALWAYS, 0, "restarts the machine"),
  E(swapon, EPERM, ALWAYS, 0, "the machine's swap"),
  E(swapoff, EPERM, ALWAYS, 0, "the machine's swap"),
  E(acct, EPERM, ALWAYS, 0, "the machine's process accounting"),
  E(settimeofday, EPERM, ALWAYS, 0, "the machine's clock (not namespaced)"),
  E(clock_settime, EPERM, ALWAYS, 0, "the machine's clocks (not namespaced)"),
  E(clock_adjtime, EPERM, ALWAYS, 0, "the machine's clocks (not namespaced)"),
  E(adjtimex, EPERM, ALWAYS, 0, "the machine's clock (not namespaced)"),
  E(vhangup, EPERM, ALWAYS, 0, "hangs up the terminal"),
#ifdef SYS_iopl
  E(iopl, EPERM, ALWAYS, 0, "the machine's I/O ports"),
  E(ioperm, EPERM, ALWAYS, 0, "the machine's I/O ports"),
#endif
#ifdef SYS_uselib
  E(uselib, EPERM, ALWAYS, 0, "obsolete library loader"),
  E(ustat, EPERM, ALWAYS, 0, "obsolete filesystem statistics of the host"),
  E(sysfs, EPERM, ALWAYS, 0, "obsolete list of the kernel's filesystems"),
  E(_sysctl, EPERM, ALWAYS, 0, "obsolete kernel tunables"),
  E(nfsservctl, EPERM, ALWAYS, 0, "the kernel's NFS server"),
#endif
  /* sockets: the network namespace is empty, but some families are not namespaced at all */
  E(socket, EAFNOSUPPORT, SOCKET, 0, "only AF_UNIX, AF_INET, AF_INET6 and NETLINK_ROUTE: AF_VSOCK, AF_ALG, AF_BLUETOOTH, AF_PACKET and the rest reach the host or kernel code nobody needs",
    AF_UNIX, AF_INET, AF_INET6),
  E(socketpair, EAFNOSUPPORT, ARG_NOT_IN, 0, "only AF_UNIX pairs exist anyway", AF_UNIX),
};

#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i)) /* little-endian: the low half first */

struct prog {
  struct sock_filter *at;
  int n, max;
};

static void emit(struct prog *p, unsigned short code, unsigned char jt, unsigned char jf, unsigned k) {
  if (p->n < p->max) p->at[p->n] = (struct sock_filter){code, jt, jf, k};
  p->n++;
}

/* The values an entry compares with, for this variant (the helper is pid 2 only in a session). */
static int values(const struct entry *e, int session, unsigned *out) {
  if (e->test != PID_IN && e->test != SIGNAL_PID) {
    memcpy(out, e->vals, sizeof e->vals);
    return e->nvals;
  }
  int n = 0;
  out[n++] = 1;
  if (session) out[n++] = 2;
  if (e->test == SIGNAL_PID) {
    out[n++] = (unsigned)-1; /* every process (and pid 1's group) */
    if (session) out[n++] = (unsigned)-2; /* the helper's process group */
  }
  return n;
}

/*
 * One entry. A call it does not refuse goes on to the next entry, so a call may have several:
 *   JEQ nr ? on : past | LD arg | compares ... | X: RET ERRNO | Y: LD nr (past: the next entry)
 */
static void entry_code(struct prog *p, const struct entry *e, int session) {
  unsigned v[8];
  int n = values(e, session, v);
  unsigned deny = SECCOMP_RET_ERRNO | (unsigned)e->err;
  const unsigned short jeq = BPF_JMP | BPF_JEQ | BPF_K;
  if (e->test == ALWAYS) {
    emit(p, jeq, 0, 1, (unsigned)e->nr);
    emit(p, BPF_RET | BPF_K, 0, 0, deny);
    return;
  }
  int compares = e->test == ARG_MASK ? 1 : e->test == SOCKET ? n + 3 : n;
  emit(p, jeq, 0, (unsigned char)(1 + compares + 2), (unsigned)e->nr);
  emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (unsigned)ARG_LOW(e->arg));
  if (e->test == ARG_MASK) {
    emit(p, BPF_JMP | BPF_JSET | BPF_K, 0, 1, v[0]);
  } else if (e->test == SOCKET) {
    /* an allowed family: on; AF_NETLINK: on for NETLINK_ROUTE only; any other: refused */
    for (int i = 0; i < n; i++) emit(p, jeq, (unsigned char)(n + 3 - i), 0, v[i]);
    emit(p, jeq, 0, 2, AF_NETLINK);
    emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (unsigned)ARG_LOW(2));
    emit(p, jeq, 1, 0, 0 /* NETLINK_ROUTE */);
  } else if (e->test == ARG_NOT_IN) {
    /* a match is on (Y); none refuses (X) */
    for (int i = 0; i < n; i++) emit(p, jeq, (unsigned char)(n - i), 0, v[i]);
  } else {
    /* ARG_IN, PID_IN, SIGNAL_PID: a match refuses (X); none is on (Y) */
    for (int i = 0; i < n; i++) emit(p, jeq, (unsigned char)(n - 1 - i), i == n - 1 ? 1 : 0, v[i]);
  }
  emit(p, BPF_RET | BPF_K, 0, 0, deny);
  emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (unsigned)offsetof(struct seccomp_data, nr));
}

/* The whole program for a session's tests (session 1) or a run of its own (0); its length. */
int seccomp_build(struct sock_filter *out, int max, int session) {
  struct prog p = {out, 0, max};
  emit(&p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (unsigned)offsetof(struct seccomp_data, arch));
  emit(&p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, NATIVE_ARCH);
  /* another table of this CPU (i386 on x86-64, arm32 on aarch64) */
  emit(&p, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS);
  emit(&p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (unsigned)offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
  /* the x32 table: the same numbers with bit 30 set */
  emit(&p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000u);
  emit(&p, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS);
#endif
  /*
   * The entries that look at arguments first: the kernel runs the filter for those calls every
   * time (fcntl and prlimit64 are frequent), while for a call whose answer depends on its number
   * alone it remembers an allowing answer, so the rest of the list costs nothing there.
   */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
      if ((table[i].test == ALWAYS) == pass) entry_code(&p, &table[i], session);
  emit(&p, BPF_RET | BPF_K, 0, 0, SECCOMP_RET_ALLOW);
  return p.n <= max ? p.n : -1;
}

/* Installs the filter on the calling process (and what it will start). */
int seccomp_install(int session) {
  static struct sock_filter code[1024];
  int n = seccomp_build(code, 1024, session);
  if (n < 0) return -1;
  struct sock_fprog fprog = {(unsigned short)n, code};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
  /* no forced speculative-store-bypass mitigation: it protects a program from itself only */
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &fprog) == 0) return 0;
  return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog);
}

/* A pipe holding the compiled filter, for bwrap's --seccomp FD; its read end (close-on-exec). */
int seccomp_pipe(int session) {
  static struct sock_filter code[1024];
  int n = seccomp_build(code, 1024, session);
  int p[2];
  if (n < 0 || pipe2(p, O_CLOEXEC)) return -1;
  size_t len = (size_t)n * sizeof code[0];
  ssize_t w = write(p[1], code, len); /* well under a pipe's 64 KiB */
  close(p[1]);
  if (w != (ssize_t)len) {
    close(p[0]);
    return -1;
  }
  return p[0];
}
