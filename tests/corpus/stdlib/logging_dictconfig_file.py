# Logging configured with logging.config.dictConfig (handlers, formatters,
# per-logger levels and propagate), a FileHandler writing into a temp dir that
# is read back, a custom Formatter subclass, %-style and {}-style formats, and
# extra= fields on records.
import logging
import logging.config
import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    log_file = os.path.join(tmp, "train.log")
    logging.config.dictConfig({
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "short": {"format": "%(levelname).1s %(name)s: %(message)s"},
            "brace": {"format": "{levelname:<7} | {name} | {message}", "style": "{"},
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": "short", "level": "INFO"},
            "file": {"class": "logging.FileHandler", "filename": log_file, "formatter": "brace", "level": "DEBUG"},
        },
        "loggers": {
            "trainer": {"level": "DEBUG", "handlers": ["console", "file"], "propagate": False},
            "trainer.noisy": {"level": "WARNING"},
        },
        "root": {"level": "ERROR", "handlers": ["console"]},
    })
    log = logging.getLogger("trainer")
    log.debug("debug goes only to the file")
    log.info("epoch %d done", 1)
    logging.getLogger("trainer.noisy").info("suppressed by WARNING level")
    logging.getLogger("trainer.noisy").warning("noisy warning shown")
    logging.getLogger("other").warning("root is ERROR, not shown")
    logging.getLogger("other").error("root error shown")
    log.info("with extra", extra={"step": 7})

    class StepFormatter(logging.Formatter):
        def format(self, record):
            step = getattr(record, "step", "-")
            return f"[step {step}] {record.getMessage()}"

    h = logging.StreamHandler()
    h.setStream(__import__("sys").stdout)
    h.setFormatter(StepFormatter())
    log.addHandler(h)
    log.info("custom formatter", extra={"step": 42})
    log.info("no step attribute")
    log.removeHandler(h)
    for handler in log.handlers:
        handler.flush()
    with open(log_file) as f:
        print("file contents:")
        print(f.read(), end="")
    for handler in list(log.handlers):
        handler.close()
        log.removeHandler(handler)
print(logging.getLogger("trainer").handlers, logging.getLogger("trainer.noisy").level, logging.getLevelName(logging.getLogger().level))
