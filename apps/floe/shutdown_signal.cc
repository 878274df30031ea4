#include "shutdown_signal.h"

#include <pthread.h>
#include <signal.h>

namespace floe::cli {
namespace {

sigset_t ShutdownSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void BlockShutdownSignals() {
  sigset_t set = ShutdownSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int WaitForShutdownSignal() {
  sigset_t set = ShutdownSet();
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

}  // namespace floe::cli
