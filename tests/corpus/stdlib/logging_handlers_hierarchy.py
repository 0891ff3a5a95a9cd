# The logger hierarchy (a.b inherits from a), propagate, handlers with their own
# levels and formatters, a Filter, a StreamHandler on a StringIO, and a
# LoggerAdapter adding context (rank) to each record.
import io
import logging
import sys

root_buf = io.StringIO()
parent = logging.getLogger("trainer")
parent.setLevel(logging.DEBUG)
h_out = logging.StreamHandler(sys.stdout)
h_out.setLevel(logging.INFO)
h_out.setFormatter(logging.Formatter("[%(name)s] %(levelname)-8s %(message)s"))
parent.addHandler(h_out)
h_buf = logging.StreamHandler(root_buf)
h_buf.setFormatter(logging.Formatter("%(levelno)d|%(funcName)s|%(message)s"))
parent.addHandler(h_buf)

child = logging.getLogger("trainer.data")
print(child.parent is parent, child.getEffectiveLevel(), child.handlers, child.propagate)


def load():
    child.debug("debug only in buffer")
    child.info("loaded %d samples", 50000)


load()
parent.warning("parent warns")


class SkipNoise(logging.Filter):
    def filter(self, record):
        return "noise" not in record.getMessage()


h_out.addFilter(SkipNoise())
child.info("some noise here")
child.info("signal here")
child.propagate = False
child.info("not propagated, no handler")
child.propagate = True


class RankAdapter(logging.LoggerAdapter):
    def process(self, msg, kwargs):
        return f"rank{self.extra['rank']}: {msg}", kwargs


adapter = RankAdapter(logging.getLogger("trainer.dist"), {"rank": 3})
adapter.info("all-reduce done in %d steps", 4)
adapter.warning("straggler")
plain = logging.LoggerAdapter(parent, {"run": "x"})
plain.info("plain adapter keeps message")
print("buffer:")
print(root_buf.getvalue(), end="")
parent.removeHandler(h_buf)
parent.info("after removing buffer handler")
print("buffer lines:", len(root_buf.getvalue().splitlines()), "handlers:", len(parent.handlers))
print(logging.getLogger("trainer.data.sub").parent.name, logging.root.name)
