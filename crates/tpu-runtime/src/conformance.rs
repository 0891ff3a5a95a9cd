//! The rule that decides whether a program's output agrees with what real PyTorch
//! printed (`../shared/conformance/README.md`): text between numbers identical,
//! integers equal, floats within max(1e-4, 1e-3·|expected|), nan matching nan and
//! infinities matching by sign. A port of the corpus's `compare.py`, equally strict.

/// `Ok` when `actual` agrees with `expected`; otherwise the first difference.
pub fn agree(expected: &str, actual: &str) -> Result<(), String> {
    let (e_lines, a_lines): (Vec<&str>, Vec<&str>) =
        (expected.lines().collect(), actual.lines().collect());
    for (i, (e, a)) in e_lines.iter().zip(&a_lines).enumerate() {
        let (te, ta) = (tokens(e), tokens(a));
        let same = te.len() == ta.len()
            && te.iter().zip(&ta).all(|(x, y)| match (x, y) {
                (Token::Text(p), Token::Text(q)) => p == q,
                (Token::Number(p), Token::Number(q)) => numbers_agree(p, q),
                _ => false,
            });
        if !same {
            return Err(format!("line {}:\n  expected: {e}\n  actual:   {a}", i + 1));
        }
    }
    if e_lines.len() != a_lines.len() {
        return Err(format!(
            "expected {} lines, got {}",
            e_lines.len(),
            a_lines.len()
        ));
    }
    Ok(())
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Text(&'a str),
    Number(&'a str),
}

/// Splits a line into text and numbers as compare.py's regular expression does:
/// `[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan`.
fn tokens(line: &str) -> Vec<Token<'_>> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let (mut text_start, mut i) = (0, 0);
    while i < bytes.len() {
        match number_at(bytes, i) {
            Some(end) => {
                out.push(Token::Text(&line[text_start..i]));
                out.push(Token::Number(&line[i..end]));
                i = end;
                text_start = end;
            }
            None => i += line[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    out.push(Token::Text(&line[text_start..]));
    out
}

/// The end of a number starting at `i`, if one does.
fn number_at(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
        j += 1;
    }
    if b[j..].starts_with(b"inf") {
        return Some(j + 3);
    }
    if j == i && b[j..].starts_with(b"nan") {
        return Some(j + 3);
    }
    let digits = |mut k: usize| {
        while k < b.len() && b[k].is_ascii_digit() {
            k += 1;
        }
        k
    };
    let int_end = digits(j);
    let mut end = if int_end > j {
        if int_end < b.len() && b[int_end] == b'.' {
            digits(int_end + 1)
        } else {
            int_end
        }
    } else if j < b.len() && b[j] == b'.' && digits(j + 1) > j + 1 {
        digits(j + 1)
    } else {
        return None;
    };
    if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut k = end + 1;
        if k < b.len() && (b[k] == b'-' || b[k] == b'+') {
            k += 1;
        }
        let exp_end = digits(k);
        if exp_end > k {
            end = exp_end;
        }
    }
    Some(end)
}

fn numbers_agree(expected: &str, actual: &str) -> bool {
    let is_int = |s: &str| {
        let s = s.strip_prefix(['-', '+']).unwrap_or(s);
        !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
    };
    if is_int(expected) && is_int(actual) {
        return expected.trim_start_matches('+').parse::<i128>().ok()
            == actual.trim_start_matches('+').parse::<i128>().ok();
    }
    let (Ok(e), Ok(a)) = (expected.parse::<f64>(), actual.parse::<f64>()) else {
        return false;
    };
    if e.is_nan() || a.is_nan() {
        return e.is_nan() && a.is_nan();
    }
    if e.is_infinite() || a.is_infinite() {
        return e == a;
    }
    (a - e).abs() <= 1e-4f64.max(1e-3 * e.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_within_tolerance_agree_and_text_must_match() {
        assert!(agree("tensor([1.0000, 2.5000])\n", "tensor([1.00005, 2.5001])\n").is_ok());
        assert!(agree("x 1000.0\n", "x 1000.9\n").is_ok());
        assert!(agree("x 1000.0\n", "x 1001.1\n").is_err());
        assert!(agree("tensor([1., 2.])\n", "tensor([1., 2.], device='tpu:0')\n").is_err());
        // As in compare.py, an int and a float of the same value agree.
        assert!(agree("3\n", "3.0\n").is_ok());
        assert!(agree("7\n", "8\n").is_err());
        assert!(agree("nan -inf\n", "nan -inf\n").is_ok());
        assert!(agree("inf\n", "-inf\n").is_err());
        assert!(agree("1e-05\n", "1.00001e-05\n").is_ok());
        assert!(agree("a\nb\n", "a\n").is_err());
    }

    #[test]
    fn tokens_split_like_compare_py() {
        assert_eq!(
            tokens("x=-1.5e-3,y"),
            vec![
                Token::Text("x="),
                Token::Number("-1.5e-3"),
                Token::Text(",y")
            ]
        );
        assert_eq!(
            tokens(".5"),
            vec![Token::Text(""), Token::Number(".5"), Token::Text("")]
        );
    }
}
