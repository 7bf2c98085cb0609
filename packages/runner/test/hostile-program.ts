/**
 * The hostile programs of the sandbox tests (sandbox-hostile.test.ts): one C program that does
 * what its first input word says, each thing a black-box probe of the judge tried, and prints
 * what the kernel answered ("refused <errno>" or what it got).
 */
export const HOSTILE_PROGRAM = `#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static int said(const char *what, long r) {
  if (r < 0) printf("%s refused %d\\n", what, errno);
  else printf("%s done %ld\\n", what, r);
  return r < 0;
}

/* ptrace: attach, and if that worked stop the target and leave it stopped (what killed the launcher) */
static void attach(pid_t pid) {
  char what[32];
  snprintf(what, sizeof what, "ptrace %d", (int)pid);
  if (said(what, ptrace(PTRACE_ATTACH, pid, 0, 0))) return;
  waitpid(pid, NULL, __WALL);
  sleep(1);
}

int main(void) {
  char what[32] = "";
  if (scanf("%31s", what) < 1) return 2;
  if (!strcmp(what, "ptrace1")) attach(1);
  else if (!strcmp(what, "ptrace2")) attach(2);
  else if (!strcmp(what, "vmread")) {
    char buf[64], there[64];
    struct iovec l = {buf, sizeof buf}, r = {there, sizeof there};
    said("process_vm_readv 1", syscall(SYS_process_vm_readv, 1, &l, 1, &r, 1, 0));
    said("process_vm_readv self", syscall(SYS_process_vm_readv, getpid(), &l, 1, &r, 1, 0));
  } else if (!strcmp(what, "pidfd")) {
    int fd = (int)syscall(SYS_pidfd_open, 2, 0);
    if (fd < 0) fd = (int)syscall(SYS_pidfd_open, 1, 0);
    said("pidfd_getfd", syscall(SYS_pidfd_getfd, fd, 4, 0));
    said("pidfd_send_signal", syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0));
  } else if (!strcmp(what, "perf")) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_SOFTWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.exclude_kernel = 1;
    said("perf_event_open", syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
  } else if (!strcmp(what, "bpf")) {
    union bpf_attr a;
    memset(&a, 0, sizeof a);
    a.map_type = BPF_MAP_TYPE_ARRAY;
    a.key_size = 4;
    a.value_size = 4;
    a.max_entries = 1;
    said("bpf", syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof a));
  } else if (!strcmp(what, "keyctl")) {
    said("keyctl", syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
    said("add_key", syscall(SYS_add_key, "user", "judge", "secret", 6, KEY_SPEC_SESSION_KEYRING));
  } else if (!strcmp(what, "signals")) {
    /* the helper (pid 2), its group, every process, pid 1; then an fd owner's signal */
    said("kill 2", kill(2, SIGKILL));
    said("kill -2", kill(-2, SIGKILL));
    said("kill -1", kill(-1, SIGKILL));
    said("kill 1", kill(1, SIGKILL));
    said("tgkill 2", syscall(SYS_tgkill, 2, 2, SIGKILL));
    said("prlimit 2", syscall(SYS_prlimit64, 2, RLIMIT_NOFILE, &(struct rlimit){0, 0}, NULL));
    said("setpriority user", setpriority(PRIO_USER, 0, 19));
    said("F_SETSIG", fcntl(0, F_SETSIG, SIGKILL));
    said("kill self 0", kill(getpid(), 0));
  } else if (!strcmp(what, "group")) {
    kill(0, SIGKILL); /* its own group: itself only */
    sleep(1);
  } else if (!strcmp(what, "mount")) {
    said("unshare", unshare(CLONE_NEWNS));
    said("mount", mount("none", "/tmp", "tmpfs", 0, NULL));
    said("socket vsock", socket(40 /* AF_VSOCK */, SOCK_STREAM, 0));
    said("socket alg", socket(38 /* AF_ALG */, SOCK_SEQPACKET, 0));
    said("socket netlink audit", socket(AF_NETLINK, SOCK_RAW, 9 /* NETLINK_AUDIT */));
    said("socket netlink route", socket(AF_NETLINK, SOCK_RAW, 0));
    said("socket unix", socket(AF_UNIX, SOCK_STREAM, 0));
    said("socket inet", socket(AF_INET, SOCK_STREAM, 0));
  } else if (!strcmp(what, "compat")) {
#if defined(__x86_64__)
    /* getpid through the 32-bit table (int 0x80, number 20) and the x32 one (bit 30) */
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
    printf("i386 getpid %s\\n", r == -ENOSYS ? "refused" : "done");
    r = syscall(0x40000000L | SYS_getpid);
    printf("x32 getpid %s\\n", r < 0 && errno == ENOSYS ? "refused" : "done");
#else
    printf("i386 getpid refused\\nx32 getpid refused\\n");
#endif
  } else if (!strcmp(what, "ipc-make")) {
    said("shm", shmget(0x4a55, 4096, IPC_CREAT | 0600));
    said("msg", msgget(0x4a55, IPC_CREAT | 0600));
    said("sem", semget(0x4a55, 1, IPC_CREAT | 0600));
    struct mq_attr at = {0, 4, 64, 0};
    said("mq", mq_open("/judge", O_CREAT | O_RDWR, 0600, &at));
  } else if (!strcmp(what, "ipc-look")) {
    said("shm", shmget(0x4a55, 0, 0));
    said("msg", msgget(0x4a55, 0));
    said("sem", semget(0x4a55, 0, 0));
    said("mq", mq_open("/judge", O_RDWR));
  } else if (!strcmp(what, "fds")) {
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    printf("fds");
    while ((e = readdir(d)))
      if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d)) printf(" %s", e->d_name);
    printf("\\n");
  } else if (!strcmp(what, "status")) {
    /* the filter is on, and which sandbox this is (pid 1's start time) */
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (fgets(line, sizeof line, f))
      if (!strncmp(line, "Seccomp:", 8) || !strncmp(line, "CapEff:", 7)) fputs(line, stdout);
    f = fopen("/proc/1/stat", "r");
    char stat[1024] = "";
    if (f && fgets(stat, sizeof stat, f)) {
      char *p = strrchr(stat, ')');
      unsigned long long start = 0;
      for (int field = 3; p && field <= 22; field++) {
        p = strchr(p + 1, ' ');
        if (field == 22 && p) start = strtoull(p + 1, NULL, 10);
      }
      printf("sandbox %llu\\n", start);
    }
  } else printf("echo\\n");
  return 0;
}
`;
