/*
 * What a run's child sets up before it executes its program, in the cell (judge-cell.c) and in a
 * session's helper (box.c): rlimits, stdio, and no fd beyond those it is meant to have.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "cell.h"

static int parse_limit(const char *v, rlim_t *out) {
  if (!strcmp(v, "unlimited")) {
    *out = RLIM_INFINITY;
    return 0;
  }
  char *end;
  unsigned long long n = strtoull(v, &end, 10);
  if (end == v) return -1;
  *out = (rlim_t)n;
  return *end == '\0' || *end == ':' ? 0 : -1;
}

/* In the child: "cpu=2:3,fsize=1025,...", and "affinity=N" pins it (and what it starts) to CPU N. */
int apply_rlimits(char *spec) {
  static const struct { const char *name; int res; } names[] = {
    {"cpu", RLIMIT_CPU}, {"fsize", RLIMIT_FSIZE}, {"nofile", RLIMIT_NOFILE}, {"core", RLIMIT_CORE},
    {"stack", RLIMIT_STACK}, {"nproc", RLIMIT_NPROC}, {"as", RLIMIT_AS},
  };
  for (char *item = strtok(spec, ","); item; item = strtok(NULL, ",")) {
    char *eq = strchr(item, '=');
    if (!eq) return -1;
    *eq = '\0';
    if (!strcmp(item, "affinity")) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(atoi(eq + 1), &set);
      if (sched_setaffinity(0, sizeof set, &set)) return -1;
      continue;
    }
    int res = -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (!strcmp(item, names[i].name)) res = names[i].res;
    if (res < 0) return -1;
    struct rlimit rl;
    if (parse_limit(eq + 1, &rl.rlim_cur)) return -1;
    char *colon = strchr(eq + 1, ':');
    rl.rlim_max = rl.rlim_cur;
    if (colon && parse_limit(colon + 1, &rl.rlim_max)) return -1;
    if (setrlimit(res, &rl)) return -1;
  }
  return 0;
}

int plan_stdio(struct stdio_plan *s, const char *spec, int is_input) {
  s->kind = spec[0];
  s->path = spec[0] && spec[1] == ':' ? spec + 2 : NULL;
  s->child_fd = s->cell_fd = -1;
  if (s->kind == 'p' || s->kind == 'k') {
    int p[2];
    if (pipe2(p, O_CLOEXEC)) return -1;
    s->child_fd = is_input ? p[0] : p[1];
    s->cell_fd = is_input ? p[1] : p[0];
    return 0;
  }
  return strchr("nrwa", s->kind) && (s->kind == 'n' || s->path) ? 0 : -1;
}

int open_stdio(const struct stdio_plan *s, int target) {
  int fd;
  switch (s->kind) {
    case 'n': fd = open("/dev/null", O_RDWR | O_CLOEXEC); break;
    case 'r': fd = open(s->path, O_RDONLY | O_CLOEXEC); break;
    case 'w': fd = open(s->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600); break;
    case 'a': fd = open(s->path, O_WRONLY | O_APPEND | O_CLOEXEC); break;
    default: fd = s->child_fd;
  }
  if (fd < 0) return -1;
  return dup2(fd, target) < 0 ? -1 : 0;
}

void close_from(int from) {
  if (syscall(SYS_close_range, (unsigned)from, ~0U, 0) == 0) return;
  struct rlimit rl;
  long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? (long)rl.rlim_cur : 65536;
  for (long fd = from; fd < max; fd++) close((int)fd);
}
