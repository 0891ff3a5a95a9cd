# datetime on fixed dates: date and datetime arithmetic with timedelta,
# comparisons, strftime/strptime round trips, isoformat/fromisoformat, weekday,
# timezone-aware UTC datetimes, and timedelta's total_seconds and repr.
from datetime import date, datetime, time, timedelta, timezone

start = datetime(2024, 2, 27, 22, 30, 0)
print(start, repr(start), start.isoformat(), start.date(), start.time())
print(start + timedelta(hours=3), start + timedelta(days=2), start - timedelta(weeks=1, minutes=5))
end = datetime(2024, 3, 1, 6, 15, 30)
elapsed = end - start
print(elapsed, repr(elapsed), elapsed.days, elapsed.seconds, elapsed.total_seconds())
print(timedelta(seconds=3725), timedelta(milliseconds=1500), timedelta(days=-1, seconds=1), -timedelta(hours=1))
print(timedelta(hours=36) // timedelta(hours=1), timedelta(hours=1) * 2.5, timedelta(minutes=90) / timedelta(hours=1))
print(start.strftime("%Y%m%d-%H%M%S"), start.strftime("%A %d %B %Y, %I:%M %p"), start.strftime("%j %U %w"))
parsed = datetime.strptime("2023-11-05 07:08:09", "%Y-%m-%d %H:%M:%S")
print(parsed, parsed.year, parsed.minute, parsed.weekday(), parsed.isoweekday(), parsed.isocalendar())
print(datetime.fromisoformat("2024-01-15T10:20:30.500000"), date.fromisoformat("2024-12-31"))
d = date(2024, 1, 31)
print(d + timedelta(days=1), d.replace(day=1), (date(2024, 12, 25) - d).days, d.toordinal(), date.fromordinal(738000))
print(d < date(2024, 2, 1), max(date(2023, 5, 1), date(2022, 6, 30)), d.strftime("%d/%m/%y"), d.isoformat())
print(sorted([date(2024, 3, 1), date(2023, 12, 31), date(2024, 1, 1)]))
utc = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)
print(utc, utc.isoformat(), utc.tzname(), utc.astimezone(timezone(timedelta(hours=5, minutes=30))))
print(utc.timestamp(), datetime.fromtimestamp(0, tz=timezone.utc), datetime.fromtimestamp(1700000000, timezone.utc))
print(time(9, 5), time(23, 59, 59, 999999).isoformat(), datetime.combine(d, time(8)))
print(datetime(2024, 1, 1) + timedelta(seconds=0.5), datetime.min.year, datetime.max.year, timedelta.max.days)
for bad in [("2024-13-01", "%Y-%m-%d"), ("2024-01-01", "%d/%m/%Y")]:
    try:
        datetime.strptime(*bad)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    date(2023, 2, 29)
except ValueError as e:
    print(type(e).__name__, e)
print(type(datetime.now()).__name__, isinstance(date.today(), date))
