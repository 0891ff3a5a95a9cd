# textwrap for console reports and generated code: dedent of indented blocks,
# fill and wrap at a width, indent with a predicate, shorten with a placeholder,
# and TextWrapper options.
import textwrap

doc = """
    Train a model.

        Indented example line.
    Last line.
    """
print(repr(textwrap.dedent(doc)))
print(textwrap.dedent(doc).strip())
text = ("The learning rate schedule uses a linear warmup followed by cosine decay down to "
        "ten percent of the peak value, which is common for transformer language models.")
print(textwrap.fill(text, width=40))
print(textwrap.wrap(text, width=30)[:3])
print(textwrap.fill(text, width=50, initial_indent="* ", subsequent_indent="  "))
print(textwrap.indent("line one\n\nline three\n", "> "))
print(textwrap.indent("a\n\nb\n", "+ ", predicate=lambda line: True), end="")
print(textwrap.shorten(text, width=50))
print(textwrap.shorten("short text", width=50), textwrap.shorten(text, 30, placeholder=" [more]"))
w = textwrap.TextWrapper(width=20, break_long_words=True, max_lines=3, placeholder=" ...")
print(w.wrap("supercalifragilisticexpialidocious and a few more words to wrap here"))
print(textwrap.wrap("a\tb c", width=10, expand_tabs=True, tabsize=4), textwrap.wrap("", 10))
code = textwrap.dedent("""\
    def step(x):
        return x + 1
    """)
print(code, end="")
ns = {}
exec(code, ns)
print(ns["step"](41))
