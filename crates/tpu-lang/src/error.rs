//! Python exceptions raised by user programs, and their rendering as CPython-style
//! tracebacks: the frame line, the quoted source, carets under the failing
//! expression (that is how the column is named), then `Kind: message`.

use crate::source::SourceFile;
use ruff_text_size::TextRange;
use tpu_runtime::{Diagnostic, RuntimeError};

/// A Python exception on its way up. `range` is filled in by the innermost
/// expression that knows where it is.
#[derive(Debug, Clone)]
pub struct PyErr {
    pub kind: &'static str,
    pub message: String,
    pub range: Option<TextRange>,
}

impl PyErr {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        PyErr {
            kind,
            message: message.into(),
            range: None,
        }
    }

    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new("TypeError", message)
    }

    pub fn not_implemented(message: impl Into<String>) -> Self {
        Self::new("NotImplementedError", message)
    }

    /// Attaches a location unless a more precise one is already there.
    pub fn at(mut self, range: TextRange) -> Self {
        self.range.get_or_insert(range);
        self
    }

    pub fn to_diagnostic(&self, file: &SourceFile) -> Diagnostic {
        let span = self.range.map(|r| file.span(r));
        let mut traceback = String::from("Traceback (most recent call last):\n");
        if let Some(span) = span {
            traceback.push_str(&format!(
                "  File \"{}\", line {}, in <module>\n",
                file.name, span.line
            ));
            traceback.push_str(&quote_with_carets(file, span));
        }
        traceback.push_str(&format!("{}: {}", self.kind, self.message));
        Diagnostic {
            kind: self.kind.to_string(),
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
