"""Running one child process and measuring it the way the kernel accounts it: wall time from
spawn to exit, user+sys CPU seconds and peak RSS from wait4's rusage. Only the direct child
is counted, so every measured program (floe, the C++ baselines, the peer's JVM) is exec'd
directly, never through a shell."""
from __future__ import annotations

import dataclasses
import os
import signal
import statistics
import subprocess
import time


@dataclasses.dataclass
class Usage:
    wall: float          # seconds
    cpu: float           # user + sys seconds
    rss_mib: float       # peak resident set
    returncode: int
    stdout: str = ""


def _finish(proc: subprocess.Popen, began: float) -> tuple[int, "os.struct_rusage", float]:
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - began
    proc.returncode = os.waitstatus_to_exitcode(status)  # Popen must not wait() again
    return proc.returncode, ru, wall


def run(cmd: list[str], *, log_path=None, env=None, timeout: float = 900) -> Usage:
    """Runs cmd to completion; stdout is captured (the tools print one JSON line), stderr goes
    to log_path. Raises on a non-zero exit, naming the log."""
    log = open(log_path, "w") if log_path else subprocess.DEVNULL
    began = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, env=env, text=True)
    # The tools print little: reading stdout to EOF before wait4 cannot deadlock.
    out = proc.stdout.read()
    proc.stdout.close()
    code, ru, wall = _finish(proc, began)
    if log_path:
        log.close()
    if code != 0:
        tail = open(log_path).read()[-3000:] if log_path else ""
        raise RuntimeError(f"{cmd[0]} exited {code}:\n{tail}")
    return Usage(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, code, out)


class Background:
    """A long-running child (floe run, the peer) stopped by the caller; measured at stop()."""

    def __init__(self, cmd: list[str], *, log_path, env=None, stdout=None):
        self.log = open(log_path, "w")
        self.log_path = log_path
        self.began = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=stdout or self.log, stderr=self.log, env=env, text=True,
                                     stdin=subprocess.DEVNULL)

    def alive(self) -> bool:
        # Not Popen.poll(): that reaps the child, and wait4 in stop() needs it unreaped.
        return os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None

    def stop(self, sig=signal.SIGTERM, timeout: float = 60) -> Usage:
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                # WNOWAIT: only look, so wait4 below still reaps it and gets its rusage.
                if os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    break
                time.sleep(0.1)
            else:
                self.proc.kill()
        code, ru, wall = _finish(self.proc, self.began)
        self.log.close()
        return Usage(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, code)


def median_usage(runs: list[Usage]) -> Usage:
    """Median of each measure on its own (runs of one figure are alike; the medians of wall,
    CPU and RSS need not come from the same run)."""
    return Usage(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs),
                 statistics.median(r.rss_mib for r in runs), 0)
