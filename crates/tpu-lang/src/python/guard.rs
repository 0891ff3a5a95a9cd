//! A lexical check that runs before parsing. ruff's parser recurses once per level
//! of nesting and grows its stack with `stacker` natively, but in wasm the stack is
//! fixed and overflowing it traps the whole module. So sources nested beyond what
//! any real program needs are refused up front, as CPython refuses them: more than
//! 200 open brackets is CPython's own "too many nested parentheses", and a single
//! statement with more than 1,000 operators (each one a level of the tree the
//! parser builds and the interpreter walks) is "too complex".

use ruff_text_size::{TextRange, TextSize};

const MAX_BRACKETS: usize = 200;
const MAX_OPERATORS_PER_STATEMENT: usize = 1_000;

/// `Err((message, range))` for a source nested too deeply to parse safely.
pub fn check(source: &str) -> Result<(), (String, TextRange)> {
    let b = source.as_bytes();
    let at = |i: usize| TextRange::empty(TextSize::new(i as u32));
    let mut depth = 0usize;
    let mut operators = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let (end, brackets) = skip_string(b, i);
                if depth + brackets > MAX_BRACKETS {
                    return Err(("too many nested parentheses".into(), at(i)));
                }
                i = end;
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_BRACKETS {
                    return Err(("too many nested parentheses".into(), at(i)));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' if depth == 0 && (i == 0 || b[i - 1] != b'\\') => operators = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'~' | b'<' | b'>' => {
                operators += 1;
                if operators > MAX_OPERATORS_PER_STATEMENT {
                    return Err((
                        "expression too complex: more than 1,000 operators in one statement".into(),
                        at(i),
                    ));
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if matches!(
                    &source[start..i],
                    "not" | "and" | "or" | "if" | "else" | "lambda" | "await"
                ) {
                    operators += 1;
                    if operators > MAX_OPERATORS_PER_STATEMENT {
                        return Err((
                            "expression too complex: more than 1,000 operators in one statement"
                                .into(),
                            at(start),
                        ));
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Skips a string literal starting at the quote `b[start]`; returns the index past
/// it and the deepest bracket nesting inside it (f-string fields nest too).
fn skip_string(b: &[u8], start: usize) -> (usize, usize) {
    let quote = b[start];
    let triple = b.len() >= start + 3 && b[start + 1] == quote && b[start + 2] == quote;
    let mut i = start + if triple { 3 } else { 1 };
    let (mut depth, mut deepest) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'{' | b'(' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            b'\n' if !triple => return (i, deepest),
            c if c == quote => {
                if !triple {
                    return (i + 1, deepest);
                }
                if b.len() >= i + 3 && b[i + 1] == quote && b[i + 2] == quote {
                    return (i + 3, deepest);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (i, deepest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_passes_and_pathological_nesting_does_not() {
        assert!(check("x = [(1, 2), {'a': [3]}]  # ((((\ns = ')))' + \"[[[\"\n").is_ok());
        assert!(check(&format!("x = {}1{}", "(".repeat(200), ")".repeat(200))).is_ok());
        let (message, range) =
            check(&format!("x = {}1{}", "[".repeat(201), "]".repeat(201))).unwrap_err();
        assert_eq!(message, "too many nested parentheses");
        assert_eq!(range.start(), TextSize::new(204));
        assert!(check(&format!("x = {}1\n", "-".repeat(1001))).is_err());
        assert!(check(&format!("x = 1{}\n", " + 1".repeat(1001))).is_err());
        // The operator count is per statement.
        assert!(check(&"x = 1 + 1\n".repeat(2000)).is_ok());
        assert!(check(&format!("f\"{}\"", "{".repeat(300))).is_err());
    }
}
