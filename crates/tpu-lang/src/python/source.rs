//! Byte offsets to 1-based lines and columns, and the source line text that a
//! traceback quotes. Columns count characters, not bytes, as editors do.

use ruff_text_size::TextRange;
use tpu_runtime::SourceSpan;

pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Part of the runtime's own Python (the `nn` prelude), not the user's program.
    pub is_library: bool,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.to_string(),
            text: text.to_string(),
            is_library: false,
            line_starts,
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let column = self.text[start..offset].chars().count();
        (line as u32 + 1, column as u32 + 1)
    }

    pub fn span(&self, range: TextRange) -> SourceSpan {
        let (line, column) = self.position(range.start().to_usize());
        let (end_line, end_column) = self.position(range.end().to_usize());
        SourceSpan {
            line,
            column,
            end_line,
            end_column,
        }
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize)
            .saturating_sub(1)
            .min(self.line_starts.len() - 1);
        let start = self.line_starts[i];
        let end = self.line_starts.get(i + 1).map_or(self.text.len(), |&e| e);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let f = SourceFile::new("main.py", "a = 1\nπ = 2\n");
        assert_eq!(f.position(0), (1, 1));
        assert_eq!(f.position(6), (2, 1));
        // `=` after the two-byte π is the third character of line 2.
        assert_eq!(f.position(9), (2, 3));
        assert_eq!(f.line_text(2), "π = 2");
    }
}
