//! The language half of the crate: a Python subset interpreted by an async tree
//! walker over ruff's AST. The pre-parse nesting check (`guard`), statements
//! (`interp` holds the interpreter's state and limits, `statements` the
//! statements, `exceptions` those that manage failure), expressions (`expr`),
//! the object protocol (`call`, `bind`, `env`, `classes`, attribute lookup with
//! descriptors in `descriptors`, iteration in `iteration`), operators (`ops`, with
//! the special-method rules for user classes in `datamodel`),
//! `str`/`repr` (`repr`, `pyformat`), what watches a run from outside (`watch`:
//! live output, progress, the wall-clock limit), built-in functions and methods
//! (`builtins`, `iterables`, `numbers`, `methods`; `dir`, `help` and `__doc__` in
//! `introspect`), imports (`modules`; the `time` module with its clocks is
//! `clock`, `random` is `random` and `random_module`; the modules written in
//! Python, torch's and the standard library's, are loaded by `library`, with
//! the standard library's Rust parts in `stdlib`), values (`value`) and
//! tracebacks (`error`, `source`). Tensor values pass through here untouched; what
//! they mean lives in `crate::torch`.

pub(crate) mod bind;
pub(crate) mod builtins;
pub(crate) mod call;
pub(crate) mod classes;
pub(crate) mod clock;
pub(crate) mod copy_module;
pub(crate) mod datamodel;
pub(crate) mod descriptors;
pub(crate) mod env;
pub(crate) mod error;
pub(crate) mod exceptions;
pub(crate) mod expr;
pub(crate) mod guard;
pub(crate) mod interp;
pub(crate) mod introspect;
pub(crate) mod iterables;
pub(crate) mod iteration;
pub(crate) mod library;
pub(crate) mod methods;
pub(crate) mod modules;
pub(crate) mod numbers;
pub(crate) mod ops;
pub(crate) mod pyformat;
pub(crate) mod random;
pub(crate) mod random_module;
pub(crate) mod repr;
pub(crate) mod source;
pub(crate) mod statements;
pub(crate) mod stdlib;
pub(crate) mod types;
pub(crate) mod value;
pub(crate) mod watch;
