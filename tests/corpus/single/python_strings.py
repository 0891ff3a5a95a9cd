# Strings: methods, slicing and the text a report prints.
name = "Tensor Processing Unit"
print(name.lower(), name.upper(), name.split(), name.split(" ", 1), name.replace("Unit", "Core"))
print(name[0], name[-4:], name[::-1][:4], name.find("Pro"), name.count("n"), len(name))
print(name.startswith("Ten"), name.endswith(("Core", "Unit")), "ss" in name, name.index("U"))
acronym = "".join(word[0] for word in name.split())
print(acronym, "-".join(acronym), acronym.lower().capitalize(), "  padded  ".strip() + "|")
print("a,b,,c".split(","), "x=1;y=2".split(";"), "line1\nline2".splitlines(), "7".zfill(3))
print("{:>10}|{:<6}|{:^7}|".format("right", "left", "mid"), "%d items" if False else "ok")
print(str(3) + str(4.5) + str(True), repr("tab\there"), "é".upper(), ord("A"), chr(66))
rows = [("v5e", 197, 16), ("v6e", 918, 32), ("TPU7x", 2307, 192)]
for gen, tflops, hbm in rows:
    print(f"{gen:<6}{tflops:>6} TFLOP/s {hbm:>4} GB  {tflops / hbm:7.2f} FLOP/B")
print(f"{'total':<6}{sum(r[1] for r in rows):>6}", f"{len(rows)=}", f"{rows[0][0]!r:>8}")
