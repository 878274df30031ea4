"""Running one child process and measuring it the way the kernel accounts it: wall time from
spawn to exit, user+sys CPU seconds and peak RSS from wait4's rusage. Each measured command
runs under floe_bench_rusage (bench/floe_bench_rusage.cc), which forks it and reports its
rusage: forked from this Python process instead, a child's peak RSS would start at the
driver's own ~130 MB. Only the command's own process is counted, so every measured program
(floe, the C++ baselines, the peer's JVM) is exec'd directly, never through a shell."""
from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import signal
import statistics
import subprocess
import tempfile
import time

LAUNCHER: pathlib.Path | None = None  # set by bench/run.py: <build>/bench/floe_bench_rusage


@dataclasses.dataclass
class Usage:
    wall: float          # seconds
    cpu: float           # user + sys seconds
    rss_mib: float       # peak resident set
    returncode: int
    stdout: str = ""


def _wrap(cmd: list[str]) -> tuple[list[str], pathlib.Path]:
    fd, path = tempfile.mkstemp(prefix="floe-bench-usage-", suffix=".json")
    open(fd).close()
    return [str(LAUNCHER), "--out", path, "--", *map(str, cmd)], pathlib.Path(path)


def _usage(path: pathlib.Path, stdout: str = "") -> Usage:
    try:
        u = json.loads(path.read_text())
    finally:
        path.unlink(missing_ok=True)
    return Usage(u["wall"], u["cpu"], u["maxrss_kib"] / 1024, u["returncode"], stdout)


def run(cmd: list, *, log_path=None, env=None) -> Usage:
    """Runs cmd to completion; stdout is captured (the tools print one JSON line), stderr goes
    to log_path. Raises on a non-zero exit, naming the log."""
    wrapped, usage_path = _wrap(cmd)
    with open(log_path, "w") if log_path else open("/dev/null", "w") as log:
        proc = subprocess.run(wrapped, stdout=subprocess.PIPE, stderr=log, env=env, text=True)
    usage = _usage(usage_path, proc.stdout)
    if proc.returncode != 0:
        tail = open(log_path).read()[-3000:] if log_path else ""
        raise RuntimeError(f"{cmd[0]} exited {proc.returncode}:\n{tail}")
    return usage


class Background:
    """A long-running child (floe run, the peer) stopped by the caller; measured at stop()."""

    def __init__(self, cmd: list, *, log_path, env=None, stdout=None):
        wrapped, self.usage_path = _wrap(cmd)
        self.log = open(log_path, "w")
        self.began = time.monotonic()
        self.proc = subprocess.Popen(wrapped, stdout=stdout or self.log, stderr=self.log, env=env, text=True,
                                     stdin=subprocess.DEVNULL, start_new_session=True)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGTERM, timeout: float = 60) -> Usage:
        """sig goes to the command (the launcher forwards it; SIGUSR1 means SIGKILL it). A
        command still running after timeout is killed, the launcher still reporting."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGUSR1)
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)  # its own session: launcher and command
                    self.proc.wait()
        self.log.close()
        return _usage(self.usage_path)


def median_usage(runs: list[Usage]) -> Usage:
    """Median of each measure on its own (the medians of wall, CPU and RSS need not come from
    the same run)."""
    return Usage(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs),
                 statistics.median(r.rss_mib for r in runs), 0)


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a running process has used so far: read before and after a
    figure for a server sharing the cores (the Kafka broker, the S3 server)."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def with_broker_cpu(pid: int, figure):
    """Runs `figure()` (a dict of measures) and adds `broker_cpu_s`: what the Kafka broker's
    process `pid` used meanwhile."""
    before = process_cpu(pid)
    result = figure()
    result["broker_cpu_s"] = process_cpu(pid) - before
    return result


def rates(usage: Usage, records: int, payload_bytes: int, wall: float | None = None) -> dict:
    """The figures every measured run reports (its wall time replaced by `wall` when given)."""
    wall = usage.wall if wall is None else wall
    return {"records": records, "wall_s": wall, "cpu_s": usage.cpu, "rss_mib": usage.rss_mib,
            "records_per_s": records / wall, "mb_per_s": payload_bytes / wall / 1e6,
            "records_per_cpu_s": records / usage.cpu if usage.cpu else None,
            # Payload per CPU-second: what one fully busy core would carry, the unit of Redpanda's
            # per-shard figure for the same job (issue 17).
            "payload_mib_per_cpu_s": payload_bytes / usage.cpu / 2**20 if usage.cpu else None}
