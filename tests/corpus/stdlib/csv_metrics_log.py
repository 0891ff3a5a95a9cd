# csv for metric logs: writer and DictWriter to a StringIO and a file (with
# newline=""), quoting of commas and quotes, reader and DictReader back with
# type conversion, other dialects (tab-separated), and Sniffer.
import csv
import io
import os
import tempfile

buf = io.StringIO()
w = csv.writer(buf)
w.writerow(["epoch", "loss", "note"])
w.writerows([[1, 0.5, "ok"], [2, 0.25, "has,comma"], [3, 0.125, 'has "quote"'], [4, None, ""]])
text = buf.getvalue()
print(repr(text))
rows = list(csv.reader(io.StringIO(text)))
print(rows)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "metrics.csv")
    with open(path, "w", newline="") as f:
        dw = csv.DictWriter(f, fieldnames=["step", "train_loss", "val_loss"])
        dw.writeheader()
        for step in range(0, 300, 100):
            dw.writerow({"step": step, "train_loss": round(2 / (step + 1), 5), "val_loss": round(2.2 / (step + 1), 5)})
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        print(reader.fieldnames)
        records = [{k: float(v) if "." in v else int(v) for k, v in r.items()} for r in reader]
    print(records)
    print(min(records, key=lambda r: r["val_loss"])["step"])
    with open(path, "rb") as f:
        print(f.read().count(b"\r\n"))
tsv = io.StringIO()
csv.writer(tsv, delimiter="\t", lineterminator="\n").writerows([["a", "b c"], ["1", "2"]])
print(repr(tsv.getvalue()), list(csv.reader(io.StringIO(tsv.getvalue()), delimiter="\t")))
q = io.StringIO()
csv.writer(q, quoting=csv.QUOTE_ALL).writerow(["x", 1, 2.5])
csv.writer(q, quoting=csv.QUOTE_NONNUMERIC).writerow(["x", 1, 2.5])
print(repr(q.getvalue()))
print(list(csv.reader(['"x",1,2.5'], quoting=csv.QUOTE_NONNUMERIC)))
dialect = csv.Sniffer().sniff("a;b;c\n1;2;3\n")
print(dialect.delimiter, csv.Sniffer().has_header("name,age\nbob,3\namy,4\n"))
print(list(csv.DictReader(io.StringIO("a,b\n1\n1,2,3\n"), restkey="rest", restval="NA")))
try:
    csv.writer(io.StringIO(), quoting=csv.QUOTE_NONE).writerow(["a,b"])
except csv.Error as e:
    print(type(e).__name__, e)
