# datetime in experiment bookkeeping on fixed instants: timestamped run names,
# an ETA from steps done and elapsed seconds, bucketing log records by day
# and hour, ISO strings with UTC offsets, week numbers, and month-end dates.
from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta, timezone


def run_name(model: str, started: datetime) -> str:
    return f"{model}-{started:%Y%m%d-%H%M%S}"


def eta(done: int, total: int, elapsed: timedelta) -> tuple[timedelta, datetime]:
    per_step = elapsed / done
    remaining = per_step * (total - done)
    remaining = timedelta(seconds=round(remaining.total_seconds()))
    return remaining, START + elapsed + remaining


START = datetime(2024, 3, 9, 23, 15, 5)
print(run_name("gpt2-small", START), run_name("resnet50", START + timedelta(days=1, seconds=59)))
for done in (100, 2500, 9999):
    remaining, finish = eta(done, 10000, timedelta(minutes=7, seconds=30) * (done / 100))
    print(f"{done:5d}/10000 remaining {remaining} finishes {finish.isoformat(sep=' ')}")
records = [START + timedelta(minutes=37 * i) for i in range(8)]
by_day = defaultdict(list)
for t in records:
    by_day[t.date()].append(t.strftime("%H:%M"))
for day, times in sorted(by_day.items()):
    print(day.isoformat(), day.strftime("%a"), times)
by_hour = defaultdict(int)
for t in records:
    by_hour[t.replace(minute=0, second=0)] += 1
print({k.strftime("%d %Hh"): v for k, v in sorted(by_hour.items())})
tz = timezone(timedelta(hours=-5), "EST")
aware = START.replace(tzinfo=timezone.utc)
print(aware.isoformat(), aware.astimezone(tz).isoformat(), aware.astimezone(tz).tzname(), aware.utcoffset())
print(datetime.fromisoformat("2024-03-09T23:15:05+00:00") == aware, datetime.fromisoformat("2024-03-10T04:15:05Z").tzinfo)
try:
    print(START < aware)
except TypeError as e:
    print(type(e).__name__, e)
print(START.isocalendar().week, date(2024, 12, 30).isocalendar(), date(2021, 1, 3).isocalendar()[:2])


def month_end(d: date) -> date:
    nxt = d.replace(day=28) + timedelta(days=4)
    return nxt - timedelta(days=nxt.day)


print([month_end(date(2024, m, 15)).day for m in range(1, 13)], month_end(date(2023, 2, 1)))
print(sorted(records)[-1] - sorted(records)[0], max(records).time(), min(records).timetuple().tm_yday)
print(timedelta(days=1, hours=2, minutes=3, seconds=4.5), str(timedelta(microseconds=1)), timedelta(0) == timedelta())
