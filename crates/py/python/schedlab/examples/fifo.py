"""First in, first out, as a Python policy: the same decisions as schedlab's built-in ``fifo``.

Use it in a spec as ``py:schedlab.examples.fifo:Fifo`` (or ``...:Fifo[backfill=true]``).
"""

from schedlab import Context, Decision


class Fifo:
    """Starts waiting jobs in arrival order while they fit; with ``backfill``, later jobs that
    fit start when an earlier one does not."""

    def __init__(self, backfill: bool = False, placement: str = "consolidated", same_type: bool = True):
        self.backfill = backfill
        self.placement = placement
        self.same_type = same_type

    def schedule(self, context: Context):
        cluster = context.cluster
        if cluster.total_free == 0 or len(context.queued) == 0:
            return None
        start = []
        for job in context.queued:
            if cluster.total_free == 0:
                break
            allocation = cluster.place(job, self.placement, self.same_type)
            if allocation is None:
                if self.backfill:
                    continue
                break
            cluster.take(allocation, job)
            start.append((job.id, allocation))
        return Decision(start=start)
