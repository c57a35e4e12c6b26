"""What each public page of bench/site.py costs in process: its queries, the time in the database, in
templates, in the cache and in the rest of Python, one request at a time.

    python bench/page_costs.py [--requests 100] [--page NAME ...] [--path /ADDRESS/ ...] [--sql [--explain]]
                               [--profile NAME [--cpu] [--top 25]]

Against the bench's database, loaded by bench/site.py (BENCH_DATABASE_URL), with the site's
production settings (DEBUG off, collected static files, the cache in Redis: BENCH_CACHE_URL,
emptied first) and the same addresses as the bench, asked through Django's test Client as an
anonymous visitor after a warm-up of ten requests a page. These numbers, not the bench's
wall-clock p95s that a shared machine makes noisy, say where a page's time goes:

- queries: a request's database queries (the mean, and the most of any request);
- SQL ms: the time in the database driver's execute (the query and its rows' transfer);
- templates ms: the time rendering templates, less the SQL their lazy querysets run;
- cache ms: the time in the cache's calls (Redis round trips and pickling);
- Python ms: the rest (middleware, the view, the selectors' Python, format_html);
- total ms: the request, mean and p95;
- CPU ms: this process's CPU time in the request, which the other work on a shared machine
  disturbs less than the times above; DB CPU ms: the database's process's, a mean over the
  page's requests; both: their sum, what a request costs the machine, and x help: that as a
  multiple of the help page's, which is what bench/site.py's ratios follow (under load, a
  page's latency is about proportional to what it costs the machine);
- GC max: the longest a request spent in the garbage collector (config/wsgi.py freezes what a
  web process loads at its start, as this process does, so that a full collection is short).

--path asks for any address of the site instead. --sql prints the queries of each page's last
request, with their times (and with --explain the database's planning and execution times of
each). --profile NAME runs as many other requests of that page under cProfile (--cpu: counting this
process's CPU time, not the time passed) and prints the time by package or module of the site's,
then the functions that took most time (their own, and with what they call).
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import databases
import redis
from databases import ROOT, log
from site_pages import CACHE, DATABASE, HELP, workloads


class Costs:
    """What the requests of one page spent, a row per request."""

    def __init__(self):
        self.rows = []
        self.now = None
        self.statements = []
        self.database_cpu = 0.0

    def start(self):
        self.statements = []  # the last request's (seconds, sql, params)
        counts, seconds = ("queries", "cache calls"), ("sql", "templates", "cache", "gc")
        self.now = dict.fromkeys(counts, 0) | dict.fromkeys(seconds, 0.0)

    def add(self, what, seconds, count=None):
        if self.now is not None:
            self.now[what] += seconds
            if count:
                self.now[count] += 1

    def stop(self, total, cpu):
        self.now["total"], self.now["cpu"] = total, cpu
        self.rows.append(self.now)
        self.now = None

    def mean(self, what):
        return statistics.fmean(row[what] for row in self.rows)


COSTS = Costs()


def time_queries(execute, sql, params, many, context):
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        elapsed = time.perf_counter() - started
        COSTS.add("sql", elapsed, "queries")
        if COSTS.now is not None:
            COSTS.statements.append((elapsed, sql, params))


def timed(what, method, count=None):
    """``method`` timed into COSTS under ``what``, the outermost call only (a template renders
    its includes, a cache's get_many may call get)."""
    depth = [0]

    def call(*args, **kwargs):
        if depth[0]:
            return method(*args, **kwargs)
        depth[0] += 1
        sql_before = COSTS.now["sql"] if COSTS.now else 0.0
        started = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            depth[0] -= 1
            sql = (COSTS.now["sql"] - sql_before) if COSTS.now else 0.0
            COSTS.add(what, time.perf_counter() - started - sql, count)

    return call


def collecting(phase, info, started=[0.0]):  # noqa: B006 - the collection's start, between its two calls
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        COSTS.add("gc", time.perf_counter() - started[0])


def instrument():
    """Time the templates, the cache's calls and the garbage collector's (the queries are timed by
    an execute wrapper)."""
    import gc

    gc.callbacks.append(collecting)
    from django.core.cache import caches
    from django.template import base

    base.Template.render = timed("templates", base.Template.render)
    backend = type(caches["default"])
    for name in ("get", "set", "get_many", "set_many", "add", "incr", "delete", "has_key"):
        setattr(backend, name, timed("cache", getattr(backend, name), "cache calls"))


def setup(static_root):
    env = databases.django_env(
        DATABASE,
        DATABASE_CONN_MAX_AGE="600",
        STATIC_ROOT=str(static_root),
        CACHE_URL=CACHE,
    )
    env["ALLOWED_HOSTS"] = "127.0.0.1,testserver"  # the test Client's host
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.clear()
    os.environ.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    instrument()
    import config.wsgi  # noqa: F401 - a web process's start: its templates compiled, what it loaded frozen


@contextmanager
def queries_timed():
    from django.db import connection

    with connection.execute_wrapper(time_queries):
        yield


def cost(client, name, paths):
    """Ask for each path, one at a time; the page's Costs."""
    global COSTS
    COSTS = Costs()
    database = database_cpu()
    with queries_timed():
        for path in paths:
            COSTS.start()
            started, cpu = time.perf_counter(), time.process_time()
            response = client.get(path)
            COSTS.stop(time.perf_counter() - started, time.process_time() - cpu)
            if response.status_code != 200:
                raise SystemExit(f"{name}: {path} answered {response.status_code}")
    COSTS.database_cpu = (database_cpu() - database) / len(paths)
    return COSTS


def database_cpu() -> float:
    """The CPU seconds the database's process serving this connection has used (Linux's /proc:
    counted in ticks of 10 ms, so only a mean over many requests means anything)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def explained(sql, params) -> str:
    """The database's planning and execution times of a query, ms."""
    from django.db import connection

    if not sql.lstrip().upper().startswith("SELECT"):
        return ""

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    plan = plan[0] if isinstance(plan, list) else json.loads(plan)[0]
    return f" (plan {plan['Planning Time']:.2f}, run {plan['Execution Time']:.2f})"


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def machine(costs) -> float:
    """A request's CPU, ms: this process's and the database's."""
    return (costs.mean("cpu") + costs.database_cpu) * 1000


def show(name, costs, help_costs=None):
    ms = {what: costs.mean(what) * 1000 for what in ("sql", "templates", "cache", "total", "cpu")}
    python = ms["total"] - ms["sql"] - ms["templates"] - ms["cache"]
    p95 = percentile([row["total"] for row in costs.rows], 0.95) * 1000
    collected = max(row["gc"] for row in costs.rows) * 1000
    queries = [row["queries"] for row in costs.rows]
    ratio = f"{machine(costs) / machine(help_costs):>8.2f}" if help_costs else ""
    log(
        f"{name:<22}{statistics.fmean(queries):>8.1f}{max(queries):>5}{ms['sql']:>8.2f}{ms['templates']:>10.2f}"
        f"{ms['cache']:>7.2f}{costs.mean('cache calls'):>5.1f}{python:>8.2f}{ms['total']:>8.2f}{p95:>8.2f}"
        f"{ms['cpu']:>8.2f}{costs.database_cpu * 1000:>8.2f}{machine(costs):>8.2f}{ratio}{collected:>8.2f}"
    )


def area(filename):
    """Where a function lives, as a profile groups them: a package of Django's or a library, a
    module of the site's."""
    if "site-packages/" in filename:
        parts = filename.split("site-packages/", 1)[1].split("/")
        return "/".join(parts[:3] if parts[0] == "django" else parts[:1])
    if filename.startswith(str(ROOT)):
        return filename[len(str(ROOT)) + 1 :]
    return "python" if "/lib/python" in filename else filename


def profile(client, paths, top, cpu=False):
    profiler = cProfile.Profile(time.process_time) if cpu else cProfile.Profile()
    profiler.enable()
    for path in paths:
        client.get(path)
    profiler.disable()
    stats = pstats.Stats(profiler)
    by_area = {}
    for (filename, _line, _name), (_calls, _primitive, own, _cumulative, _callers) in stats.stats.items():
        by_area[area(filename)] = by_area.get(area(filename), 0.0) + own
    total = sum(by_area.values())
    log("--- own time by area ---")
    for name, seconds in sorted(by_area.items(), key=lambda item: -item[1])[:top]:
        log(f"{seconds / len(paths) * 1000:8.2f} ms {seconds / total:6.1%}  {name}")
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
        log(f"--- by {order} ---\n" + out.getvalue().split("\n\n", 1)[-1].strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100, help="per page")
    parser.add_argument("--page", action="append", help="only these pages (bench/site_pages.py's names)")
    parser.add_argument("--path", action="append", help="an address of the site's, asked --requests times")
    parser.add_argument("--profile", help="a page to run again under cProfile")
    parser.add_argument("--top", type=int, default=25, help="functions the profile shows")
    parser.add_argument("--cpu", action="store_true", help="profile this process's CPU time, not the time passed")
    parser.add_argument("--sql", action="store_true", help="print each page's last request's queries")
    parser.add_argument("--explain", action="store_true", help="with --sql: each query's planning and execution")
    options = parser.parse_args()

    work = workloads(random.Random(7), 6 * options.requests)  # the second half for --profile
    unknown = {*(options.page or ()), *([options.profile] if options.profile else [])} - set(work)
    if unknown:
        raise SystemExit(f"No page named {', '.join(sorted(unknown))}: {', '.join(work)}")
    redis.Redis.from_url(CACHE).flushdb()
    setup(Path(tempfile.mkdtemp(prefix="bench-static-")))
    from django.test import Client

    client = Client()
    pages = {name: paths[: options.requests] for name, paths in work.items() if name in (options.page or work)}
    if options.path:
        pages = {**(pages if options.page else {}), **{path: [path] * options.requests for path in options.path}}
    for name, paths in pages.items():  # warm up: imports, templates, the connection, the cache
        cost(client, name, paths[:10])
    log(f"{len(next(iter(pages.values())))} requests a page, one at a time, in process; ms a request (means)")
    log(
        f"{'page':<22}{'queries':>8}{'max':>5}{'SQL':>8}{'templates':>10}{'cache':>7}{'#':>5}"
        f"{'Python':>8}{'total':>8}{'p95':>8}{'CPU':>8}{'DB CPU':>8}{'both':>8}{'x help':>8}{'GC max':>8}"
    )
    measured = {name: cost(client, name, paths) for name, paths in pages.items()}
    for name, costs in measured.items():
        show(name, costs, measured.get(HELP))
        for seconds, sql, params in costs.statements if options.sql else ():
            log(f"    {seconds * 1000:6.2f} ms{explained(sql, params) if options.explain else ''}  {sql[:300]}")
    if options.profile:
        log(f"\ncProfile of {options.profile}, {options.requests} requests")
        profile(client, work[options.profile][options.requests : 2 * options.requests], options.top, options.cpu)


if __name__ == "__main__":
    main()
