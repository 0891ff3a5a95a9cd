# logging.basicConfig writing to stdout with a format string (no timestamps),
# levels and the level filter, %-style message arguments, logger names, and
# logging.exception's message line without its traceback.
import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("train")
log.debug("hidden: debug is below INFO")
log.info("starting run %s with lr=%.0e", "exp1", 3e-4)
for step in range(0, 300, 100):
    log.info("step %d loss %.4f", step, 2.5 / (step + 1))
log.warning("grad norm %s is large", 12.5)
log.error("nan loss at step %d", 301)
logging.info("root logger message")
log.setLevel(logging.DEBUG)
log.debug("now debug is shown")
print(logging.getLevelName(logging.WARNING), logging.getLevelName(10), logging.getLevelName("ERROR"))
print(log.level, log.getEffectiveLevel(), logging.getLogger().level, log.isEnabledFor(logging.DEBUG))
print(log.name, log.parent.name, logging.getLogger("train") is log)


class OnlyFirstLine(logging.Formatter):
    def formatException(self, ei):
        return f"[{ei[0].__name__}: {ei[1]}]"


logging.getLogger().handlers[0].setFormatter(OnlyFirstLine("%(levelname)s %(message)s"))
try:
    1 / 0
except ZeroDivisionError:
    log.exception("failed step")
log.log(logging.CRITICAL, "critical via log()")
logging.disable(logging.CRITICAL)
log.critical("disabled")
logging.disable(logging.NOTSET)
log.info("enabled again")
