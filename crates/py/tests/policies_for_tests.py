"""Python policies the tests run (imported as py:policies_for_tests:NAME)."""

import random

from schedlab import Decision


class Failing:
    """Raises at the third decision point."""

    def __init__(self):
        self.calls = 0

    def schedule(self, context):
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("deliberate failure in a test policy")
        return None


class OutOfCluster:
    """Starts the first waiting job on a node the cluster does not have."""

    def schedule(self, context):
        from schedlab import Allocation

        if len(context.queued) == 0:
            return None
        job = context.queued[0]
        return Decision(start=[(job.id, Allocation([(10_000, job.gpus)]))])


class WrongReturn:
    """Returns a dict instead of a Decision."""

    def schedule(self, context):
        return {"start": []}


class RandomOrder:
    """Starts waiting jobs in an order drawn from the run's seed, with backfilling, and preempts
    the newest running job now and then: exercises seeds, preemption and ticks."""

    def begin_run(self, run):
        self.rng = random.Random(run.seed)

    def schedule(self, context):
        cluster = context.cluster
        preempt = []
        if len(context.running) > 0 and self.rng.random() < 0.05:
            victim = context.running[len(context.running) - 1]
            preempt.append(victim.id)
        start = []
        waiting = list(context.queued)
        self.rng.shuffle(waiting)
        for job in waiting:
            allocation = cluster.place(job)
            if allocation is not None:
                cluster.take(allocation, job)
                start.append((job.id, allocation))
        # A preempted job's GPUs free only once the decision is applied: start nothing then.
        if preempt:
            start = []
        # Ticks while jobs are active (a policy that ticks forever is stopped by the engine).
        active = len(context.queued) + len(context.running) > 0
        return Decision(start=start, preempt=preempt, next_tick=context.now + 3600.0 if active else None)


class Slow:
    """FIFO that sleeps a millisecond per decision point (to interrupt a run under way)."""

    def __init__(self):
        from schedlab.examples.fifo import Fifo

        self.fifo = Fifo()

    def schedule(self, context):
        import time

        time.sleep(0.001)
        return self.fifo.schedule(context)


class SequenceChecks:
    """FIFO that checks at every decision point that the job lists behave as Python sequences:
    slices, negative indices, equality and hashing of the same job."""

    def __init__(self):
        from schedlab.examples.fifo import Fifo

        self.fifo = Fifo()
        self.checked = 0

    def schedule(self, context):
        for jobs in (context.queued, context.running):
            every = list(jobs)
            assert [job.id for job in jobs[:2]] == [job.id for job in every[:2]]
            assert [job.id for job in jobs[::-2]] == [job.id for job in every[::-2]]
            assert len(jobs[5:1]) == 0
            if every:
                assert jobs[0] == jobs[0] and hash(jobs[0]) == hash(jobs[0])
                assert jobs[-1] in jobs and jobs[-1] == every[-1]
                assert jobs[0] != "a job"
                assert len(every) == 1 or jobs[0] != jobs[1]
                self.checked += 1
        return self.fifo.schedule(context)


class IndexByName:
    """Indexes the waiting jobs with a string."""

    def schedule(self, context):
        return context.queued["first"]
