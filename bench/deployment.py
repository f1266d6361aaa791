"""The server recipe against the hall's laptop, in one run: bench/load.py's
hall (1,000 phones and 30 referees by default) against

- hall: one `manage.py serve` process on SQLite, as `make run` serves;
- server: Debian's nginx with deploy/nginx-site.conf in front of
  `manage.py serve --workers 2` on PostgreSQL and Redis, as
  docs/OPERATING.md › Production sets it up,

both with config.settings (DEBUG off, the manifest, the real password
hasher), both measured through `bench/load.py --url`, one after the other
(`--rounds` alternates them again). Where the server's time goes: the CPU
its parts used per request (the workers, nginx, PostgreSQL's processes,
Redis, and the load generator itself, which shares the machine), from
/proc. PostgreSQL and Redis are the machine's own (POSTGRES_URL's server,
a database of the run's own; Redis database 13, emptied first), so other
work on them counts too.

    python bench/deployment.py [--viewers 1000] [--referees 30] [--seconds 30]
                               [--rounds 1]

Last line: one JSON object: viewers, referees, hall and server (each
round's bench/load.py figures with cpu_ms_per_request by part), ratio_p95
(the server's p95 over the hall's, median of the rounds),
ratio_referees_worst_p95, errors.

Measured on this 2-core machine, quiet (load 2), 1,000 phones and 30
referees, 30 s, one round:

    |                        | hall (SQLite, 1 process) | server (nginx, 2 workers) |
    |------------------------|--------------------------|---------------------------|
    | errors                 | 0                        | 0                         |
    | p50 / p95              | 6.1 / 975 ms             | 45.1 / 544 ms             |
    | referees' worst p95    | 5,518 ms (signing in)    | 4,525 ms (signing in)     |
    | CPU ms per request     | workers 14.1             | workers 12.2, nginx 0.24, |
    |                        |                          | PostgreSQL 1.4, Redis 0.3 |

ratio_p95 0.56, ratio_referees_worst_p95 0.82. The server answers the
median later (a hop through nginx, the kept pages and the guards' counts
in Redis, queries over a socket) but spreads the burst over two workers,
so its p95 is lower; the referees' worst is the 30 sign-ins at once with
the real password hasher, in both.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support import servers as support  # noqa: E402

REDIS_URL = support.redis_url(13)
# The deployment lets the bench's one address ask as a hall of phones does
# (bench/load.py --url).
OPEN = {"PLAYER_LINK_REQUESTS": "1000000"}
TICK = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, str, float]]:
    """Every process: its parent, its name, its CPU seconds so far."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (
            int(fields[1]),
            name,
            (int(fields[11]) + int(fields[12])) / TICK,
        )
    return found


def cpu_by_part(roots: dict[str, int]) -> dict[str, float]:
    """CPU seconds so far of each named process with its descendants, and
    of every postgres and redis-server process."""
    procs = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in procs.items():
        children.setdefault(parent, []).append(pid)

    def tree(pid: int) -> float:
        return procs.get(pid, (0, "", 0.0))[2] + sum(
            tree(c) for c in children.get(pid, [])
        )

    parts = {name: tree(pid) for name, pid in roots.items()}
    for name, comm in (("postgres", "postgres"), ("redis", "redis-server")):
        parts[name] = sum(cpu for _, n, cpu in procs.values() if n == comm)
    return parts


# bench/load.py prints this line just before its load phase begins.
LOAD_BEGINS = "baseline, 1 viewer with a new connection per request"


def measure(
    name: str, url: str, env: dict[str, str], roots: dict[str, int], args
) -> dict:
    """bench/load.py --url against `url`; its figures, with the CPU each
    part (and the load generator) spent per request of its load phase."""
    print(f"== {name}: {url}", flush=True)
    run = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "bench" / "load.py"),
            f"--url={url}",
            f"--viewers={args.viewers}",
            f"--referees={args.referees}",
            f"--seconds={args.seconds}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    roots = roots | {"load generator": run.pid}
    assert run.stdout
    before = after = None
    lines = []
    for line in run.stdout:
        print(line, end="", flush=True)
        lines.append(line)
        if line.startswith(LOAD_BEGINS):
            before = cpu_by_part(roots)
        elif line.startswith("{"):  # its figures: the load is over
            after = cpu_by_part(roots)
    run.wait()
    try:
        figures = json.loads(lines[-1])
    except (IndexError, ValueError):
        raise SystemExit(f"{name}: bench/load.py ended without figures") from None
    if before and after:
        requests = max(1, figures["requests"])
        figures["cpu_ms_per_request"] = {
            part: round((after[part] - before[part]) * 1000 / requests, 2)
            for part in after
        }
    return figures


@contextmanager
def hall(folder: Path) -> Iterator[tuple[str, dict[str, str], dict[str, int]]]:
    env = support.hall_env(folder, **OPEN)
    port = support.free_port()
    server = support.start_server(env, port)
    try:
        support.wait_until_up(port, server)
        database = f"sqlite:///{folder / support.DATABASE_FILE}"
        yield (
            f"http://127.0.0.1:{port}",
            env | {"DATABASE_URL": database},
            {"workers": server.pid},
        )
    finally:
        support.stop(server)


@contextmanager
def server(folder: Path) -> Iterator[tuple[str, dict[str, str], dict[str, int]]]:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    with support.private_postgres_database() as (_, url):
        env = support.hall_env(folder, DATABASE_URL=url, REDIS_URL=REDIS_URL, **OPEN)
        support.manage(env, "migrate", "-v0")
        upstream, front = support.free_port(), support.free_port()
        workers = support.start_server(env, upstream, "--workers", "2")
        nginx = support.start_nginx(folder, front, upstream)
        try:
            support.wait_until_up(upstream, workers)
            support.wait_until_up(front, nginx)
            yield (
                f"http://127.0.0.1:{front}",
                env,
                {
                    "workers": workers.pid,
                    "nginx": nginx.pid,
                },
            )
        finally:
            support.stop(nginx)
            support.stop(workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--referees", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if not support.NGINX or not support.postgres_answers():
        raise SystemExit("needs nginx and PostgreSQL (docs/OPERATING.md)")
    if not support.redis_answers(REDIS_URL):
        raise SystemExit(f"needs Redis at {REDIS_URL}")
    results: dict[str, list[dict]] = {"hall": [], "server": []}
    for _ in range(args.rounds):
        for name, setup in (("hall", hall), ("server", server)):
            with (
                tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as folder,
                setup(Path(folder)) as (url, env, roots),
            ):
                results[name].append(measure(name, url, env, roots, args))

    def ratio(key: str) -> float:
        return round(
            statistics.median(
                s[key] / h[key]
                for h, s in zip(results["hall"], results["server"], strict=True)
            ),
            2,
        )

    print("== where the time goes (CPU ms per request)")
    for name, runs in results.items():
        for figures in runs:
            print(
                f"{name}: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, "
                f"referees' worst p95 {figures['referees_worst_p95_ms']} ms, "
                f"{figures['errors']} errors; "
                + ", ".join(
                    f"{p} {ms}" for p, ms in figures["cpu_ms_per_request"].items()
                )
            )
    errors = sum(f["errors"] for runs in results.values() for f in runs)
    print(
        json.dumps(
            {
                "viewers": args.viewers,
                "referees": args.referees,
                **results,
                "ratio_p95": ratio("p95_ms"),
                "ratio_referees_worst_p95": ratio("referees_worst_p95_ms"),
                "errors": errors,
            }
        )
    )
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
