//! The prelude's sources without their comments, as the wasm module carries
//! them: a comment line becomes an empty line and a comment after code is cut,
//! so every line keeps its number (tracebacks into the prelude name the same
//! lines) and the code is unchanged. About 25 kB of the module's gzipped size.
//! Used by `build.rs`, and by a test that parses every prelude file both ways
//! and compares the trees.

/// What a position inside a line is in.
#[derive(Clone, Copy, PartialEq)]
enum In {
    Code,
    /// A string opened by this quote, three of them when `triple`.
    Str {
        quote: char,
        triple: bool,
    },
}

/// `source` with its comments removed, line for line.
pub fn strip_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut state = In::Code;
    for line in source.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let chars: Vec<char> = body.chars().collect();
        let mut cut = chars.len();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            match state {
                In::Code => match c {
                    '#' => {
                        cut = i;
                        break;
                    }
                    '\'' | '"' => {
                        let triple = chars.get(i + 1) == Some(&c) && chars.get(i + 2) == Some(&c);
                        state = In::Str { quote: c, triple };
                        i += if triple { 3 } else { 1 };
                        continue;
                    }
                    _ => {}
                },
                In::Str { quote, triple } => {
                    if c == '\\' {
                        i += 2;
                        continue;
                    }
                    if c == quote {
                        if !triple {
                            state = In::Code;
                        } else if chars.get(i + 1) == Some(&quote)
                            && chars.get(i + 2) == Some(&quote)
                        {
                            state = In::Code;
                            i += 3;
                            continue;
                        }
                    }
                }
            }
            i += 1;
        }
        // A one-quote string ends with its line unless a backslash continues it.
        if let In::Str { triple: false, .. } = state
            && !body.ends_with('\\')
        {
            state = In::Code;
        }
        let kept: String = chars[..cut].iter().collect();
        out.push_str(if cut < chars.len() {
            kept.trim_end()
        } else {
            &kept
        });
        out.push_str(end);
    }
    out
}
