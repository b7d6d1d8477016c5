"""Where the games are played: this process, local worker processes, or Ray.

Every backend takes the job and the games still to play and yields each
:class:`~kubik.sim.outcome.GameOutcome` as its game finishes, in whatever order the
games finish; the runner stores them by (cell, game), so the order never shows in a
result. Games go to workers in *batches* (:func:`batches`): a worker process sets the
job up once (:func:`kubik.sim.outcome.worker_for`) and plays batch after batch, and
the batches shrink toward the end so the workers finish together.

* :class:`InProcess` plays in this process (``--workers 1``).
* :class:`LocalProcesses` runs a process pool (``spawn``: the same on every platform,
  and nothing of the parent's threads is copied). Workers send each outcome through a
  queue as soon as the game ends, so an interrupted run loses only the games being
  played at that moment. Workers ignore Ctrl-C; the parent stops them.
* :class:`RayBackend` runs the same batches as Ray tasks (``--ray ADDRESS`` or
  ``--ray local``) through Ray's own scheduler. Each task is a generator, so outcomes
  stream back game by game too; at most a few tasks per CPU of the cluster are in
  flight at once (backpressure with ``ray.wait``), so a job of any size keeps little
  in memory. Ray is an optional extra: ``pip install 'kubik[ray]'``.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import queue
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from kubik.core.errors import InputError
from kubik.engine.requests import Message, msg
from kubik.sim.job import GameTask, SimJob
from kubik.sim.outcome import GameOutcome, SimError, play_batch

#: Largest batch: big enough that sending it costs nothing next to its games, small
#: enough that the last batches of a job spread over the workers.
MAX_BATCH = 16
#: Batches in flight per CPU of a Ray cluster.
RAY_TASKS_PER_CPU = 2


class Backend(Protocol):
    """Plays games and yields their outcomes as they finish."""

    @property
    def workers(self) -> int:
        """How many games it plays at once."""
        ...

    def describe(self) -> Message:
        """Where the games are played, for people (``2 local processes``)."""
        ...

    def run(self, job: SimJob, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        """Play ``tasks``; yield each outcome as its game ends."""
        ...


def batches(tasks: Sequence[GameTask], workers: int) -> list[tuple[GameTask, ...]]:
    """Split ``tasks`` into batches that shrink as the job goes on (guided scheduling):
    each is an eighth of what remains per worker, at most :data:`MAX_BATCH`, at least 1.

    >>> tasks = [GameTask(0, j, j) for j in range(100)]
    >>> sizes = [len(b) for b in batches(tasks, 2)]
    >>> sizes[:3], sizes[-3:], sum(sizes)
    ([7, 6, 6], [1, 1, 1], 100)
    """
    out: list[tuple[GameTask, ...]] = []
    start = 0
    while start < len(tasks):
        left = len(tasks) - start
        size = max(1, min(MAX_BATCH, math.ceil(left / (8 * max(1, workers)))))
        out.append(tuple(tasks[start : start + size]))
        start += size
    return out


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def check_workers(workers: object, name: str = "--workers") -> int:
    """``workers`` if it is a whole number from 1; else one line."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"{name}: {workers!r}; allowed: a whole number 1 or more")
    return workers


@dataclass(frozen=True, slots=True)
class InProcess:
    """Every game in this process, one after another."""

    @property
    def workers(self) -> int:
        return 1

    def describe(self) -> Message:
        return msg("sim.backend.this_process")

    def run(self, job: SimJob, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        yield from play_batch(job, tasks)


# -- local processes ---------------------------------------------------------------

_JOB: SimJob | None = None  # the job of this worker process (set by _start_worker)
_RESULTS: Any = None  # the worker's end of the outcome queue


def _start_worker(job: SimJob, results: Any) -> None:
    """Pool initializer: keep the job and the queue; leave Ctrl-C to the parent."""
    global _JOB, _RESULTS
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _JOB, _RESULTS = job, results


def _run_batch(batch: tuple[GameTask, ...]) -> int:
    """Pool task: play a batch, sending each outcome as its game ends."""
    assert _JOB is not None, "the pool's initializer sets the job"
    for outcome in play_batch(_JOB, batch):
        _RESULTS.put(outcome)
    return len(batch)


@dataclass(frozen=True, slots=True)
class LocalProcesses:
    """A pool of ``processes`` local processes; the job is sent to each once.

    A worker that dies (killed, out of memory) breaks the pool: the run stops with
    one line, and every game that finished is stored already.
    """

    processes: int

    @property
    def workers(self) -> int:
        return self.processes

    def describe(self) -> Message:
        return msg("sim.backend.local", n=self.processes)

    def run(self, job: SimJob, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        if not tasks:
            return
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        pool = ProcessPoolExecutor(self.processes, context, _start_worker, (job, results))
        finished = False
        try:
            futures = [pool.submit(_run_batch, b) for b in batches(tasks, self.processes)]
            for _ in range(len(tasks)):
                yield self._next(results, futures)
            finished = True
        finally:
            if not finished:  # interrupted, or a worker failed: stop the games being played
                workers = list((pool._processes or {}).values())
                pool.shutdown(wait=False, cancel_futures=True)
                for process in workers:
                    process.terminate()
            pool.shutdown(wait=True)
            results.close()

    @staticmethod
    def _next(results: Any, futures: Sequence[Future[int]]) -> GameOutcome:
        """The next outcome any worker sends; a worker's error is raised here."""
        while True:
            try:
                outcome: GameOutcome = results.get(timeout=0.25)
                return outcome
            except queue.Empty:
                for future in futures:
                    if future.done() and future.exception() is not None:
                        error = future.exception()
                        if isinstance(error, BrokenProcessPool):
                            raise SimError(
                                "a worker process died (killed, or out of memory?); every game "
                                "that finished is stored: run the same command to go on"
                            ) from None
                        assert error is not None
                        raise error from None


# -- Ray -----------------------------------------------------------------------------


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise InputError(
            "--ray: Ray is not installed; install it with: pip install 'kubik[ray]'"
        ) from None
    return ray


def ray_batch(job: SimJob, batch: tuple[GameTask, ...]) -> Iterator[GameOutcome]:
    """A Ray task: play a batch in a Ray worker, yielding each outcome as it ends."""
    yield from play_batch(job, batch)


@dataclass(slots=True)
class RayBackend:
    """Ray tasks on a cluster (``address``) or on a Ray started here (``"local"``).

    With ``"local"`` and Ray not yet running in this process, a local Ray is started
    with ``local_cpus`` CPUs and shut down afterwards; a Ray already initialised (a
    notebook, the tests) is used as it is.
    """

    address: str
    local_cpus: int | None = None
    _cpus: int = 0

    @property
    def workers(self) -> int:
        return self._cpus or self.local_cpus or default_workers()

    def describe(self) -> Message:
        if self.address == "local":
            return msg("sim.backend.ray_local", n=self.workers)
        return msg("sim.backend.ray", address=self.address, n=self.workers)

    def run(self, job: SimJob, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        ray = _ray()
        started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address == "local":
                options["num_cpus"] = self.local_cpus or default_workers()
            else:
                options["address"] = self.address
            try:
                ray.init(**options)
            except Exception as error:  # a wrong address, no cluster there ...
                raise SimError(f"--ray {self.address}: cannot connect ({error})") from None
            started = True
        try:
            self._cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            if tasks:
                yield from self._stream(ray, job, tasks)
        finally:
            if started:
                ray.shutdown()

    def _stream(self, ray: Any, job: SimJob, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        remote = ray.remote(ray_batch)
        job_ref = ray.put(job)
        waiting = list(reversed(batches(tasks, self._cpus)))
        limit = RAY_TASKS_PER_CPU * self._cpus
        running: list[Any] = []
        try:
            while waiting or running:
                while waiting and len(running) < limit:
                    running.append(remote.remote(job_ref, waiting.pop()))
                ready, _ = ray.wait(running, num_returns=1)
                for generator in ready:
                    try:
                        reference = next(generator)
                    except StopIteration:
                        running.remove(generator)
                        continue
                    yield _outcome(ray, reference)
        finally:
            for generator in running:
                # already finished, or the cluster is gone: nothing to stop
                with contextlib.suppress(Exception):
                    ray.cancel(generator, force=True)


def _outcome(ray: Any, reference: Any) -> GameOutcome:
    try:
        outcome = ray.get(reference)
    except ray.exceptions.RayTaskError as error:
        cause = error.as_instanceof_cause()
        if isinstance(cause, SimError | InputError):
            raise SimError(str(cause)) from None
        raise
    if not isinstance(outcome, GameOutcome):
        raise SimError(f"a Ray task returned {type(outcome).__name__}, not a game outcome")
    return outcome


def make_backend(workers: int | None, ray: str | None) -> Backend:
    """The backend the options ask for: Ray when ``ray`` is given, else local processes
    (one process: this one)."""
    if workers is not None:
        check_workers(workers)
    if ray is not None:
        if not ray.strip():
            raise InputError("--ray: give a cluster address (ray://host:10001, auto) or local")
        return RayBackend(ray.strip(), workers)
    count = workers if workers is not None else default_workers()
    return InProcess() if count == 1 else LocalProcesses(count)


__all__ = [
    "MAX_BATCH",
    "Backend",
    "InProcess",
    "LocalProcesses",
    "RayBackend",
    "batches",
    "check_workers",
    "default_workers",
    "make_backend",
]
