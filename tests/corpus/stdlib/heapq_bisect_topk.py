# heapq and bisect in utilities: a top-k of best checkpoints with a bounded
# heap, nlargest/nsmallest with keys, heappushpop/heapreplace, merge of sorted
# shards, a priority queue with tie-breaking counters, and bisect for
# piecewise schedules and sorted insertion.
import bisect
import heapq
import itertools

scores = [0.71, 0.93, 0.55, 0.88, 0.91, 0.62, 0.95]
top = []
for step, s in enumerate(scores):
    if len(top) < 3:
        heapq.heappush(top, (s, step))
    else:
        dropped = heapq.heappushpop(top, (s, step))
        print("drop", dropped)
print(sorted(top, reverse=True))
h = [5, 3, 8, 1, 9, 2]
heapq.heapify(h)
print(h[0], [heapq.heappop(h) for _ in range(3)], h)
print(heapq.heapreplace(h, 0), h)
print(heapq.nlargest(2, scores), heapq.nsmallest(2, scores))
runs = [{"n": "a", "loss": 0.3}, {"n": "b", "loss": 0.1}, {"n": "c", "loss": 0.2}]
print([r["n"] for r in heapq.nsmallest(2, runs, key=lambda r: r["loss"])])
print(list(heapq.merge([1, 4, 9], [2, 3, 10], [5])), list(heapq.merge(["b", "a"], ["c"], key=len)))
counter = itertools.count()
pq = []
for prio, task in [(2, "eval"), (1, "save"), (2, "log"), (0, "stop")]:
    heapq.heappush(pq, (prio, next(counter), task))
print([heapq.heappop(pq)[2] for _ in range(len(pq))])

milestones = [30, 60, 90]
for epoch in [0, 29, 30, 59, 60, 95]:
    print(epoch, 0.1 * 0.1 ** bisect.bisect_right(milestones, epoch), end="; ")
print()
print(bisect.bisect_left([1, 2, 2, 3], 2), bisect.bisect_right([1, 2, 2, 3], 2), bisect.bisect([], 5))
xs = []
for v in [5, 1, 4, 1, 3]:
    bisect.insort(xs, v)
print(xs)
grades = "FDCBA"
print([grades[bisect.bisect([60, 70, 80, 90], s)] for s in [33, 99, 77, 70, 89, 90, 100]])
recs = [(1, "a"), (3, "c"), (5, "e")]
print(bisect.bisect_left(recs, 3, key=lambda r: r[0]), bisect.bisect_right([0.1, 0.5], 0.5))
