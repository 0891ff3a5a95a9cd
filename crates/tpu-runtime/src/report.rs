//! The Report: everything a run produced, as plain serialisable data. The CLI, the
//! npm package and the page only render it; none of them recomputes anything the
//! runtime knows.

use crate::backend::BackendKind;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// What the program printed.
    pub stdout: String,
    /// Errors that ended the run (at most one today), as Python-style tracebacks.
    pub diagnostics: Vec<Diagnostic>,
    /// Every op dispatched, in program order.
    pub ops: Vec<OpRecord>,
    /// The backend that ran `tpu` tensors.
    pub backend: Option<BackendKind>,
    /// The adapter or CPU that backend ran on.
    pub backend_device: String,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.diagnostics.is_empty()
    }
}

/// A 1-based line and column range in the user's source.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct SourceSpan {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Diagnostic {
    /// The Python exception type, e.g. `RuntimeError` or `SyntaxError`.
    pub kind: String,
    pub message: String,
    /// Where the error was raised (the innermost frame).
    pub span: Option<SourceSpan>,
    /// The full text as CPython would print it, ending with `Kind: message`.
    pub traceback: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OpRecord {
    /// The aten-style name, e.g. `aten::mm`.
    pub name: String,
    /// The op with its constants, as `tpu-ir` defines it.
    pub op: tpu_ir::Op,
    pub input_shapes: Vec<Vec<usize>>,
    pub output_shape: Vec<usize>,
    /// `tpu:0` or `cpu`.
    pub device: String,
    pub backend: BackendKind,
    pub kernel: String,
    /// `WGSL` for shaders, `Rust` for the reference loops.
    pub kernel_language: String,
    /// The source line that dispatched the op, when known.
    pub line: Option<u32>,
    /// Why a `tpu` op ran on the host reference instead of the accelerator
    /// backend (no kernel for it yet), if it did.
    #[serde(default)]
    pub fallback: Option<String>,
}
