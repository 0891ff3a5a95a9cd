//! How deep a program's expressions nest, estimated from its tokens before
//! RustPython parses it. RustPython's parser, compiler and syntax tree
//! recurse once per level; in a browser the stack is about a megabyte, and a
//! line such as `x = 1+1+...+1` with 20,000 terms (or 3,000 unary minuses)
//! overflows it, which ends the whole wasm instance instead of the program.
//! CPython stops such sources with "maximum recursion depth exceeded during
//! compilation" (or, for unary chains, a `MemoryError` from its parser), and
//! RustPython's compiler stops them from about 1,000 levels; so a program
//! whose estimate passes [`LIMIT`] gets that `RecursionError` at once,
//! natively as in the browser, naming the line.
//!
//! The estimate: within each bracket, the operators, dots and trailing
//! brackets between two commas (or colons, or lines) each add a level, and
//! a bracket's contents sit one level below what precedes it. Counting
//! every operator of a stretch over-counts where precedence makes the tree
//! shallower (`a * b + c * d` counts 3 and nests 2), never under-counts a
//! chain. Text in strings and comments is skipped. Code that `exec` or `compile` builds
//! at run time is not estimated.

/// The deepest estimate a program may have.
pub(crate) const LIMIT: usize = 1000;

/// Brackets nested deeper than this are the tokenizer's `SyntaxError`.
const MAX_BRACKETS: usize = 200;

/// The first line whose estimate passes [`LIMIT`], if one does.
pub(crate) fn too_deep(source: &str) -> Option<u32> {
    let bytes = source.as_bytes();
    // Per open bracket: the depth its contents start at, and the count of
    // the current stretch between separators.
    let mut levels: Vec<(usize, usize)> = vec![(0, 0)];
    let mut line = 1u32;
    let mut i = 0;
    let add = |levels: &mut Vec<(usize, usize)>, n: usize| -> bool {
        let (base, count) = levels.last_mut().expect("the outermost level stays");
        *count += n;
        *base + *count > LIMIT
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                if levels.len() == 1 {
                    levels[0].1 = 0;
                }
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let quote = c;
                let triple = bytes[i..].starts_with(&[quote; 3]);
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 1,
                        b'\n' => {
                            line += 1;
                            if !triple {
                                break;
                            }
                        }
                        b if b == quote && (!triple || bytes[i..].starts_with(&[quote; 3])) => {
                            i += if triple { 3 } else { 1 };
                            break;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                if levels.len() > MAX_BRACKETS {
                    // The tokenizer refuses this, as CPython's does ("too
                    // many nested parentheses").
                    return None;
                }
                if add(&mut levels, 1) {
                    return Some(line);
                }
                let (base, count) = *levels.last().expect("the outermost level stays");
                levels.push((base + count, 0));
            }
            b')' | b']' | b'}' => {
                if levels.len() > 1 {
                    levels.pop();
                }
            }
            b',' | b':' | b';' => levels.last_mut().expect("the outermost level stays").1 = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'~' | b'<' | b'>'
            | b'.' | b'=' | b'!' => {
                // `a = b = c` and `x += 1` are statements, not nesting: an
                // `=` closes the stretch unless it is part of a comparison.
                let comparison = c == b'='
                    && (bytes.get(i + 1) == Some(&b'=')
                        || i > 0 && matches!(bytes[i - 1], b'=' | b'!' | b'<' | b'>'));
                if c == b'=' && !comparison {
                    levels.last_mut().expect("the outermost level stays").1 = 0;
                } else if add(&mut levels, 1) {
                    return Some(line);
                }
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &source[start..i];
                if matches!(
                    word,
                    "not" | "and" | "or" | "if" | "else" | "lambda" | "await" | "in" | "is"
                ) && add(&mut levels, 1)
                {
                    return Some(line);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::too_deep;

    #[test]
    fn chains_past_the_limit_name_their_line() {
        let sum = format!("print(1)\nx = {}1\n", "1+".repeat(5000));
        assert_eq!(too_deep(&sum), Some(2));
        let minus = format!("x = {}1\n", "-".repeat(3000));
        assert_eq!(too_deep(&minus), Some(1));
        let attributes = format!("\n\nx = {}b\n", "a.".repeat(2000));
        assert_eq!(too_deep(&attributes), Some(3));
        let nots = format!("x = {}1\n", "not ".repeat(2000));
        assert_eq!(too_deep(&nots), Some(1));
    }

    #[test]
    fn wide_code_is_not_deep() {
        let list = format!("x = [{}]\n", "a + 1, ".repeat(20_000));
        assert_eq!(too_deep(&list), None);
        let lines = "x = x + 1\n".repeat(20_000);
        assert_eq!(too_deep(&lines), None);
        let text = format!("x = '{}'\n# {}\n", "+".repeat(20_000), "-".repeat(20_000));
        assert_eq!(too_deep(&text), None);
        let doc = format!("\"\"\"{}\n\"\"\"\ny = 1\n", "- ".repeat(20_000));
        assert_eq!(too_deep(&doc), None);
        let calls = format!("x = {}\n", "f(1); ".repeat(20_000));
        assert_eq!(too_deep(&calls), None);
        let deep_enough = format!("x = {}1\n", "-".repeat(900));
        assert_eq!(too_deep(&deep_enough), None);
        let brackets = format!("x = {}1{}\n", "[".repeat(20_000), "]".repeat(20_000));
        assert_eq!(too_deep(&brackets), None, "the tokenizer's to refuse");
    }
}
