// Runs a command and writes its resource use as one JSON line to --out:
//   floe_bench_rusage --out usage.json -- floe run ...
// Why not wait4 from the Python driver directly: on Linux a child's peak RSS (ru_maxrss)
// starts at its parent's RSS at fork and survives exec, so every child of a ~130 MB Python
// process would report at least ~130 MB. Forked from this small process, the floor is a few MB.
// SIGTERM/SIGINT from the driver are forwarded to the child, so it can shut down cleanly;
// SIGUSR1 kills the child (SIGKILL) while this launcher lives on to report its usage.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace {

pid_t g_child = -1;

void Forward(int sig) {
  if (g_child > 0) kill(g_child, sig == SIGUSR1 ? SIGKILL : sig);
}

double Seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || std::strcmp(argv[1], "--out") != 0 || std::strcmp(argv[3], "--") != 0) {
    std::fprintf(stderr, "usage: floe_bench_rusage --out FILE -- COMMAND [ARGS...]\n");
    return 2;
  }
  timespec began{};
  clock_gettime(CLOCK_MONOTONIC, &began);
  g_child = fork();
  if (g_child < 0) {
    std::perror("fork");
    return 2;
  }
  if (g_child == 0) {
    execvp(argv[4], argv + 4);
    std::fprintf(stderr, "floe_bench_rusage: exec %s: %s\n", argv[4], std::strerror(errno));
    _exit(127);
  }
  struct sigaction sa {};
  sa.sa_handler = Forward;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGUSR1, &sa, nullptr);
  int status = 0;
  rusage ru{};
  while (wait4(g_child, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      std::perror("wait4");
      return 2;
    }
  }
  timespec ended{};
  clock_gettime(CLOCK_MONOTONIC, &ended);
  const double wall = static_cast<double>(ended.tv_sec - began.tv_sec) +
                      static_cast<double>(ended.tv_nsec - began.tv_nsec) * 1e-9;
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (std::FILE* f = std::fopen(argv[2], "w")) {
    std::fprintf(f, "{\"wall\": %.6f, \"cpu\": %.6f, \"maxrss_kib\": %ld, \"returncode\": %d}\n", wall,
                 Seconds(ru.ru_utime) + Seconds(ru.ru_stime), ru.ru_maxrss, code);
    std::fclose(f);
  }
  return code;
}
