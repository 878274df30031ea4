#pragma once
// SIGINT/SIGTERM handling for long-running commands: the signals are blocked in every
// thread and one thread waits for them synchronously, so no code runs in a signal handler.
namespace floe::cli {

void BlockShutdownSignals();
int WaitForShutdownSignal();  // returns the signal number

}  // namespace floe::cli
