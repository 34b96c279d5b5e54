"""The report of a served run, rebuilt as its records grow, and served under the set rule.

The server builds ``arena.report``'s own report (its leaderboard, head to head, course and
replay viewer: nothing drawn twice) into ``OUT/web/report/`` from ``OUT/records.jsonl``, at
most every ``interval`` seconds while records arrive and the report is read, in a child
process at a lower priority (the server goes on answering meanwhile, and under ``arena run
--serve`` the runner and its workers come first for the machine's cores). A replay file (a batch of
matches' hands and moves) is served only when no match in it waits for its duplicate set.
"""

from __future__ import annotations

import json
import mimetypes
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import trio
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from arena.records import RECORDS, TABLE_RECORDS, get_logger
from arena.report import REPORT_DIR, Rebuilds, write_report

from ._api import error
from ._child import Child
from ._static import KeptFiles

STATIC = Path(str(resources.files("arena.web") / "static"))
"""The package's pages, scripts and styles."""

if TYPE_CHECKING:
    from ._live import RunFolder

__all__ = ["KEPT_BYTES", "PEOPLE_REPORT", "SHARE", "STATIC", "WEB_DIR", "PeopleReport",
           "ReportBuilder", "report_routes", "safe_path"]

WEB_DIR = "web"
"""``OUT/web/``: what the server writes (its report), beside the run's own files."""
PEOPLE_REPORT = "people"
"""``/report/people/``, written to ``OUT/web/people/report/``: the people's tables' report."""

_log = get_logger("arena.web")

KEPT_BYTES = 32 << 20
"""The most bytes of a served report's files kept in memory (each report: the run's and the
people's); a file over a quarter of it is read from disk at each request."""

SHARE = 20.0
"""A served report's next build waits this many times the last one took (at most a
twenty-first of the time, where ``arena run --report`` takes a fifth): the server shares the
machine with the run it serves, and a page follows the run by its standings, redrawn each
second, more than by its report."""

_CHILD = ("import json, sys\n"
          "from arena.report import write_report\n"
          "print(flush=True)\n"
          "for line in sys.stdin:\n"
          "    folder, records = json.loads(line)\n"
          "    try:\n"
          "        write_report(folder, [records], on_skip=lambda message: None, public=True)\n"
          "    except Exception as exc:\n"
          "        print(' '.join(str(exc).split())[:300] or type(exc).__name__, flush=True)\n"
          "    else:\n"
          "        print(flush=True)\n")
"""The served report's builds, in a child process at a lower priority kept from one build to
the next (:class:`~arena.web._child.Child`: its imports once, not once a build): a line, the
JSON list of the report's folder and records file, asks for one build by ``arena.report``'s
one writer, as ``arena report`` calls it; an empty line answers it built, else its error."""


def safe_path(root: Path, relative: str) -> Path | None:
    """``root / relative`` when it names a file inside ``root`` (no ``..``, no absolute
    path, no link out of it), else None."""
    parts = PurePosixPath(relative).parts
    if not parts or any(p in ("..", ".") or p.startswith("/") or "\\" in p or "\0" in p
                        for p in parts):
        return None
    path = (root / Path(*parts)).resolve()
    try:
        path.relative_to(root.resolve())
    except ValueError:
        return None
    return path if path.is_file() else None


class ReportBuilder:
    """Rebuilds the served report when the records grew, one build at a time, and no more
    often than it is read: a build once the report was asked for since the last (a file of
    it, or ``watched()``: a page follows its builds); until the first, its page says it is
    being built."""

    def __init__(self, run: RunFolder, interval: float = 5.0,
                 on_built: Callable[[int], None] | None = None,
                 watched: Callable[[], bool] | None = None, share: float = SHARE) -> None:
        self.run = run
        self.interval = interval
        self.on_built = on_built
        self.watched = watched
        self.folder = run.folder / WEB_DIR
        self.rebuilds = Rebuilds(self.build, interval, what="building the served report",
                                 share=share)
        self._built_for = -1
        self._wanted = False
        self._ids: tuple[float, list[str], int] | None = None  # matches.js: mtime, ids, batch
        self.child = Child(_CHILD)

    def want(self) -> None:
        """The report was asked for: build it again once the records grew."""
        self._wanted = True

    @property
    def root(self) -> Path:
        """The served report's folder."""
        return self.folder / REPORT_DIR

    async def run_forever(self) -> None:
        """Build whenever the records grew and the report is read, at most every
        ``interval`` seconds (the builds' child ended as it ends)."""
        try:
            while True:
                count = len(self.run.records)
                if count and count != self._built_for and self.rebuilds.due() and (
                        self._wanted or (self.watched is not None and self.watched())):
                    wanted, self._wanted = self._wanted, False
                    # abandoned when the server stops (its child killed below): its end
                    # waits for no build
                    built = await trio.to_thread.run_sync(self.rebuilds.build,
                                                          abandon_on_cancel=True)
                    self._built_for = count
                    self._wanted = self._wanted or (wanted and not built)
                    if built and self.on_built is not None:
                        self.on_built(self.builds)
                else:
                    await trio.sleep(0.25)
        finally:
            self.close()

    @property
    def builds(self) -> int:
        """The reports built so far."""
        return self.rebuilds.builds

    def build(self) -> bool:
        """One build (in the child process, started at the first and kept, from a thread,
        through :attr:`rebuilds`, which logs a failure, its error, and keeps the old report):
        whether it was built."""
        records = self.run.folder / RECORDS
        if not records.exists():
            return False
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.run.folder / "config.yaml"
        if config.exists():
            shutil.copyfile(config, self.folder / "config.yaml")
        answer = self.child.ask(json.dumps([str(self.folder), str(records)]))
        if answer is None:  # the child ended: killed (the server stops), or it died
            status = self.child.status
            if status is None or status < 0:
                return False
            raise RuntimeError(f"the report's child process ended (exit status {status})")
        if answer.strip():
            raise RuntimeError(answer.strip())
        return True

    def close(self) -> None:
        """End the builds' child process, if any."""
        self.child.close()

    def batch_ids(self, number: int) -> list[str] | None:
        """The match ids of replay file ``number`` (from the report's match index)."""
        path = self.root / "data" / "matches.js"
        try:
            mtime = path.stat().st_mtime
            if self._ids is None or self._ids[0] != mtime:
                text = path.read_text(encoding="utf-8")
                data: Any = json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))
                self._ids = (mtime, [str(i) for i in data["ids"]], int(data["batch"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        _, ids, batch = self._ids
        return ids[number * batch:(number + 1) * batch]


class PeopleReport:
    """The people's tables' report (``arena report OUT --people``'s, from
    ``OUT/tables/records.jsonl``), apart from the run's: built in a thread when a file of it
    is asked for and a people's match was recorded since. A people's match is public once
    over (no duplicate set), so every file of it is served."""

    def __init__(self, run: RunFolder) -> None:
        self.run = run
        self.folder = run.folder / WEB_DIR / PEOPLE_REPORT
        self._built_for: frozenset[str] = frozenset()
        self._lock = trio.Lock()
        self.rebuilds = Rebuilds(self._write, 0.0, what="building the people's report")
        """The report's one rebuilder (as the run's): a failed build is logged, the old
        report stays."""

    @property
    def root(self) -> Path:
        """The people's report's folder."""
        return self.folder / REPORT_DIR

    async def fresh(self) -> None:
        """Build the report when the people's matches changed since the last build."""
        async with self._lock:
            matches = frozenset(self.run.people)
            if not matches or matches == self._built_for:
                return
            # not abandoned: a second build must not write the folder while one does (a
            # people's report is small, as the people's matches are few)
            if await trio.to_thread.run_sync(self.rebuilds.build):
                self._built_for = matches

    def _write(self) -> bool:
        """One build (in a thread, through :attr:`rebuilds`)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        write_report(self.folder, [self.run.folder / TABLE_RECORDS],
                     on_skip=lambda message: None, people=True, public=True)
        return True


def _file_answer(kept: KeptFiles, path: Path, build: int) -> Response:
    """A report's file, read whole, once: a build replaces the report's files, and one
    replaced between FileResponse's stat and its read was sent with the old length (the
    browser then drops it: ERR_CONTENT_LENGTH_MISMATCH). Kept from one request to the next
    while the file and the report's ``build`` are the same (:class:`KeptFiles`)."""
    try:
        content, _ = kept.read(path, build)
    except OSError:
        return error(404, f"no file {path.name[:100]} in the report")
    return Response(content, media_type=mimetypes.guess_type(path.name)[0] or "text/plain",
                    headers={"Cache-Control": "no-cache"})


def _people_routes(report: PeopleReport, sync: Callable[[], None]) -> list[Route]:
    """``/report/people/``: the people's tables' report, every file of it."""
    kept = KeptFiles(KEPT_BYTES)

    async def people_file(request: Request) -> Response:
        relative = request.path_params.get("path") or "index.html"
        sync()
        await report.fresh()
        path = safe_path(report.root, relative)
        if path is None:
            if relative == "index.html":  # no people's match yet: the page says so
                return FileResponse(STATIC / "building.html", media_type="text/html")
            return error(404, f"no file {relative[:100]} in the report")
        return _file_answer(kept, path, report.rebuilds.builds)

    prefix = f"/report/{PEOPLE_REPORT}/"
    return [Route(prefix, people_file), Route(prefix + "{path:path}", people_file)]


def report_routes(builder: ReportBuilder, sync: Callable[[], None]) -> list[Route]:
    """``/report/``: the served report's files, its replay files under the set rule; and
    ``/report/people/``, the people's tables' report (:class:`PeopleReport`)."""
    run = builder.run
    kept = KeptFiles(KEPT_BYTES)

    async def report_file(request: Request) -> Response:
        relative = request.path_params.get("path") or "index.html"
        builder.want()
        path = safe_path(builder.root, relative)
        if path is None:
            if relative == "index.html":  # not built yet: the page says so (no error)
                sync()  # a folder of people's tables alone has their report, and says so
                page = "people-only.html" if run.people and not run.records else "building.html"
                return FileResponse(STATIC / page, media_type="text/html")
            return error(404, f"no file {relative[:100]} in the report")
        if PurePosixPath(relative).parts[:2] == ("data", "replays"):
            try:
                number = int(path.stem)
            except ValueError:
                return error(404, f"no file {relative[:100]} in the report")
            ids = builder.batch_ids(number)
            sync()
            if ids is None or any(i not in run.records or run.waiting_for_set(i) for i in ids):
                return error(409, "a match of this replay file waits for its duplicate set")
            try:
                content, _ = kept.read(path, builder.builds)
            except OSError:
                return error(404, f"no file {relative[:100]} in the report")
            if builder.batch_ids(number) != ids:  # a new build came between: ask again
                return error(409, "the report was rebuilt meanwhile; try again")
            return Response(content, media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})
        return _file_answer(kept, path, builder.builds)

    return [*_people_routes(PeopleReport(run), sync),
            Route("/report/", report_file), Route("/report/{path:path}", report_file)]
