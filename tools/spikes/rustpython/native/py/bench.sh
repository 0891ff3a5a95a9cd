#!/bin/bash
# usage: bench.sh ; prints min/median of 7 runs per (impl, program)
cd /work/spike/native/py
B=/work/spike/native/target/release/rpspike
PY=~/.pyenv/versions/3.13.0/bin/python3.13
T=/work/main/target/release/tpu
stats() { sort -n | awk '{a[NR]=$1} END {printf "min %.1f med %.1f ms\n", a[1], a[int((NR+1)/2)]}'; }
for f in loop300k fib dictstr empty; do
  for h in none signal trace mon; do
    echo -n "rustpython($h) run-only $f: "; for i in 1 2 3 4 5 6 7; do $B bench $f.py $h 2>&1 >/dev/null | sed 's/.*: //;s/ ms//'; done | stats
  done
  echo -n "cpython3.13 run-only $f: "; for i in 1 2 3 4 5 6 7; do $PY cpy_bench.py $f.py; done | stats
  echo -n "rustpython whole process $f: "; for i in 1 2 3 4 5 6 7; do /usr/bin/time -f %e $B run $f.py 2>&1 >/dev/null | tail -1 | awk '{print $1*1000}'; done | stats
  echo -n "cpython3.13 whole process $f: "; for i in 1 2 3 4 5 6 7; do /usr/bin/time -f %e $PY $f.py 2>&1 >/dev/null | tail -1 | awk '{print $1*1000}'; done | stats
  echo -n "tpu whole process $f: "; for i in 1 2 3 4 5 6 7; do /usr/bin/time -f %e $T run $f.py 2>&1 >/dev/null | tail -1 | awk '{print $1*1000}'; done | stats
done
