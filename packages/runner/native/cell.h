/* What the cell (judge-cell.c), its sessions (session.c) and the in-box helper (box.c) share. */
#ifndef JUDGE_CELL_H
#define JUDGE_CELL_H
#include <stddef.h>
#include <sys/types.h>

#define PROTOCOL "4"
#define MAX_FRAME (1 << 20)
#define MAX_ARGS 4096
#define TAIL 4096
#define MAX_HEAD (1 << 20)

extern char req[MAX_FRAME + 1];
extern char scratch[65536];
extern int sig_pipe[2];

struct stdio_plan {
  char kind;        /* n r w a p k */
  const char *path; /* r w a */
  int child_fd;     /* the end the child gets (pipes), -1 otherwise */
  int cell_fd;      /* the end the cell keeps: for the runner to open (p) or to drain (k) */
};

struct run_state {
  pid_t pid;
  int status;
  int exited;
  int status_fd;
  char status_text[4096];
  size_t status_len;
  int drain_fd;
  unsigned long long err_bytes;
  size_t head_len, head_max;
  size_t tail_len, tail_pos;
  int held[3];
  /* CLOCK_MONOTONIC (the runner's clock too) when the program was seen to end */
  unsigned long long exited_ns;
  /* the largest resident set of the program and what it waited for, in KiB (wait4) */
  long maxrss_kib;
};

unsigned long long monotonic_ns(void);

void die(const char *what);
int split_fields(long len, char **fields, int max);
void write_all(int fd, const void *buf, size_t n);
void send_event(const char *bin1, size_t n1, const char *bin2, size_t n2, int count, ...);
long read_request(void);
/* setup.c */
int apply_rlimits(char *spec);
int plan_stdio(struct stdio_plan *s, const char *spec, int is_input);
int open_stdio(const struct stdio_plan *s, int target);
void child(struct stdio_plan io[3], int status_w, int ctl, char *rlimits, int uid, int gid, char **argv);
void keep_stderr(struct run_state *r, const char *p, size_t n);
void drain_stderr(struct run_state *r, int devnull);
void read_status(struct run_state *r);
void reap(struct run_state *r);
pid_t ns_init(const struct run_state *r);
int init_left(const struct run_state *r);
void send_exit(struct run_state *r);
void session(long len, int devnull);
/* filtered 0: tests without the filter and their own IPC namespace (only to measure their cost) */
int box_main(int filtered);
/* seccomp.c: the system-call filter of submissions (session 1: the helper is pid 2, protected too) */
struct sock_filter;
int seccomp_build(struct sock_filter *out, int max, int session);
int seccomp_install(int session);
int seccomp_pipe(int session);
/* closes every fd from `from` up (close_range, or one by one on an older kernel) */
void close_from(int from);
/* bwrap's --seccomp takes the filter on this fd (run requests whose bwrap argv asks for it) */
#define SECCOMP_FD 5
#endif
