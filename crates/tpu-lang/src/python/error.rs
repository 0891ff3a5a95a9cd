//! Python exceptions raised by user programs, and their rendering as CPython-style
//! tracebacks: one frame per call, most recent last, each quoting its source line
//! with carets under the failing expression (that is how the column is named),
//! then `Kind: message`.

use crate::python::source::SourceFile;
use crate::python::value::Value;
use ruff_text_size::TextRange;
use std::rc::Rc;
use tpu_runtime::{Diagnostic, RuntimeError};

/// One frame of a traceback: where in which file, inside which function.
#[derive(Clone)]
pub struct TraceEntry {
    pub file: Rc<SourceFile>,
    pub range: TextRange,
    pub function: String,
}

/// A Python exception on its way up.
#[derive(Clone)]
pub struct PyErr {
    /// The exception class name, e.g. `ValueError`.
    pub kind: String,
    pub message: String,
    /// The exception object, when Python code created or caught it.
    pub value: Option<Value>,
    /// Where, in the innermost frame not yet recorded, it was raised.
    pub range: Option<TextRange>,
    /// Frames already unwound, innermost first.
    pub traceback: Vec<TraceEntry>,
    /// Limits of the sandbox (fuel, recursion): `except` cannot catch these.
    pub fatal: bool,
}

impl std::fmt::Debug for PyErr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl PyErr {
    pub fn new(kind: &str, message: impl Into<String>) -> Self {
        PyErr {
            kind: kind.to_string(),
            message: message.into(),
            value: None,
            range: None,
            traceback: Vec::new(),
            fatal: false,
        }
    }

    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new("TypeError", message)
    }

    pub fn value_error(message: impl Into<String>) -> Self {
        Self::new("ValueError", message)
    }

    pub fn not_implemented(message: impl Into<String>) -> Self {
        Self::new("NotImplementedError", message)
    }

    pub fn fatal(kind: &str, message: impl Into<String>) -> Self {
        PyErr {
            fatal: true,
            ..Self::new(kind, message)
        }
    }

    /// Attaches a location unless a more precise one is already there.
    pub fn at(mut self, range: TextRange) -> Self {
        self.range.get_or_insert(range);
        self
    }

    /// Records the frame the error is leaving; the caller attaches its call site.
    pub fn leave_frame(mut self, file: &Rc<SourceFile>, function: &str) -> Self {
        if let Some(range) = self.range.take() {
            self.traceback.push(TraceEntry {
                file: file.clone(),
                range,
                function: function.to_string(),
            });
        }
        self
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        // The innermost frame in the user's own file names the line: errors inside
        // library code (the nn prelude) point at the user's call.
        let innermost = self
            .traceback
            .iter()
            .find(|e| !e.file.is_library)
            .or(self.traceback.first());
        let span = innermost.map(|e| e.file.span(e.range));
        let mut traceback = String::from("Traceback (most recent call last):\n");
        // Like CPython, a frame repeated more than three times in a row is shown
        // three times and then counted.
        let mut previous: Option<(String, u32, &str)> = None;
        let mut repeats = 0;
        let flush = |traceback: &mut String, repeats: usize| {
            if repeats > 3 {
                let more = repeats - 3;
                let s = if more == 1 { "" } else { "s" };
                traceback.push_str(&format!("  [Previous line repeated {more} more time{s}]\n"));
            }
        };
        for entry in self.traceback.iter().rev() {
            let span = entry.file.span(entry.range);
            let key = (entry.file.name.clone(), span.line, entry.function.as_str());
            if previous.as_ref() == Some(&key) {
                repeats += 1;
                if repeats > 3 {
                    continue;
                }
            } else {
                flush(&mut traceback, repeats);
                repeats = 1;
                previous = Some(key);
            }
            traceback.push_str(&format!(
                "  File \"{}\", line {}, in {}\n",
                entry.file.name, span.line, entry.function
            ));
            traceback.push_str(&quote_with_carets(&entry.file, span));
        }
        flush(&mut traceback, repeats);
        if self.message.is_empty() {
            traceback.push_str(&self.kind);
        } else {
            traceback.push_str(&format!("{}: {}", self.kind, self.message));
        }
        Diagnostic {
            kind: self.kind.clone(),
            message: self.message.clone(),
            span,
            traceback,
        }
    }
}

impl From<RuntimeError> for PyErr {
    fn from(e: RuntimeError) -> Self {
        PyErr::new(e.python_kind(), e.to_string())
    }
}

/// `    y = a @ b` then `        ^^^^^` under the span (clipped to its first line),
/// with the line's indentation stripped as CPython does.
pub fn quote_with_carets(file: &SourceFile, span: tpu_runtime::SourceSpan) -> String {
    let line = file.line_text(span.line);
    let indent = line.chars().take_while(|c| c.is_whitespace()).count();
    let first = (span.column as usize).saturating_sub(1).max(indent);
    let last = if span.end_line == span.line {
        (span.end_column as usize).saturating_sub(1)
    } else {
        line.chars().count()
    };
    let width = last.saturating_sub(first).max(1);
    let code: String = line.chars().skip(indent).collect();
    format!(
        "    {code}\n    {}{}\n",
        " ".repeat(first - indent),
        "^".repeat(width)
    )
}

/// A syntax error as CPython prints one: no traceback header, the location, the
/// quoted line and one caret.
pub fn syntax_error(file: &SourceFile, message: &str, range: TextRange) -> Diagnostic {
    let mut span = file.span(range);
    span.end_line = span.line;
    span.end_column = span.column + 1;
    let traceback = format!(
        "  File \"{}\", line {}\n{}SyntaxError: {}",
        file.name,
        span.line,
        quote_with_carets(file, span),
        message
    );
    Diagnostic {
        kind: "SyntaxError".into(),
        message: message.to_string(),
        span: Some(span),
        traceback,
    }
}
