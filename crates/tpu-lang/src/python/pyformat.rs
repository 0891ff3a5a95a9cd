//! Python's format-specification mini-language (`f"{x:>8.3f}"`, `format(x, ",")`,
//! `"{:.2e}".format(x)`) for ints, floats and strings, following the rules of the
//! Python documentation ("Format Specification Mini-Language").

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Value, float_repr};
use tpu_runtime::format::{python_exp, python_fixed};

#[derive(Default, Debug)]
struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    no_negative_zero: bool,
    alternate: bool,
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    kind: Option<char>,
}

fn parse(spec: &str) -> PyResult<Spec> {
    let bad = || PyErr::value_error(format!("Invalid format specifier '{spec}'"));
    let chars: Vec<char> = spec.chars().collect();
    let mut s = Spec::default();
    let mut i = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
    if chars.len() >= 2 && is_align(chars[1]) {
        s.fill = Some(chars[0]);
        s.align = Some(chars[1]);
        i = 2;
    } else if !chars.is_empty() && is_align(chars[0]) {
        s.align = Some(chars[0]);
        i = 1;
    }
    if i < chars.len() && matches!(chars[i], '+' | '-' | ' ') {
        s.sign = Some(chars[i]);
        i += 1;
    }
    if i < chars.len() && chars[i] == 'z' {
        s.no_negative_zero = true;
        i += 1;
    }
    if i < chars.len() && chars[i] == '#' {
        s.alternate = true;
        i += 1;
    }
    if i < chars.len() && chars[i] == '0' {
        s.zero = true;
        i += 1;
    }
    let start = i;
    while i < chars.len() && chars[i].is_ascii_digit() {
        i += 1;
    }
    if i > start {
        s.width = chars[start..i]
            .iter()
            .collect::<String>()
            .parse()
            .map_err(|_| bad())?;
    }
    if i < chars.len() && matches!(chars[i], ',' | '_') {
        s.grouping = Some(chars[i]);
        i += 1;
    }
    if i < chars.len() && chars[i] == '.' {
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return Err(PyErr::value_error("Format specifier missing precision"));
        }
        s.precision = Some(
            chars[start..i]
                .iter()
                .collect::<String>()
                .parse()
                .map_err(|_| bad())?,
        );
    }
    // Widths and precisions are allocations too.
    crate::python::ops::check_len(s.width)?;
    crate::python::ops::check_len(s.precision.unwrap_or(0))?;
    if i < chars.len() {
        s.kind = Some(chars[i]);
        i += 1;
    }
    if i != chars.len() {
        return Err(bad());
    }
    Ok(s)
}

impl Interpreter<'_> {
    /// `format(value, spec)`.
    pub async fn format_value(&mut self, value: &Value, spec: &str) -> PyResult<String> {
        match value {
            Value::Bool(b) if spec.is_empty() => Ok(if *b { "True" } else { "False" }.into()),
            Value::Int(_) | Value::Bool(_) => format_int(value.as_int().unwrap_or(0), spec),
            Value::Float(f) => format_float(*f, spec),
            Value::Str(s) => format_str(s, spec),
            Value::Tensor(t) if t.numel() == 1 && !spec.is_empty() => {
                // PyTorch formats a one-element tensor as its Python scalar.
                let item = self.tensor_item(t).await?;
                Box::pin(self.format_value(&item, spec)).await
            }
            Value::Instance(i) if i.class().lookup("__format__").is_some() => {
                let text = self
                    .call_special(value, "__format__", vec![Value::str(spec)])
                    .await?
                    .unwrap_or(Value::None);
                match text {
                    Value::Str(s) => Ok(s.to_string()),
                    other => Err(PyErr::type_error(format!(
                        "__format__ must return a str, not {}",
                        other.type_name()
                    ))),
                }
            }
            other => {
                let text = self.str_of(other).await?;
                if spec.is_empty() {
                    Ok(text)
                } else {
                    format_str(&text, spec).map_err(|_| {
                        PyErr::type_error(format!(
                            "unsupported format string passed to {}.__format__",
                            other.type_name()
                        ))
                    })
                }
            }
        }
    }
}

pub fn format_str(text: &str, spec: &str) -> PyResult<String> {
    let s = parse(spec)?;
    if let Some(k) = s.kind
        && k != 's'
    {
        return Err(PyErr::value_error(format!(
            "Unknown format code '{k}' for object of type 'str'"
        )));
    }
    if s.sign.is_some() {
        return Err(PyErr::value_error(
            "Sign not allowed in string format specifier",
        ));
    }
    let text: String = match s.precision {
        Some(p) => text.chars().take(p).collect(),
        None => text.to_string(),
    };
    Ok(pad("", &text, &s, '<'))
}

pub fn format_int(i: i64, spec: &str) -> PyResult<String> {
    let s = parse(spec)?;
    match s.kind {
        Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') => return format_float(i as f64, spec),
        Some('n') | Some('d') | None => {}
        Some('x' | 'X' | 'o' | 'b' | 'c') => {}
        Some(k) => {
            return Err(PyErr::value_error(format!(
                "Unknown format code '{k}' for object of type 'int'"
            )));
        }
    }
    if s.precision.is_some() {
        return Err(PyErr::value_error(
            "Precision not allowed in integer format specifier",
        ));
    }
    let magnitude = i.unsigned_abs();
    let (digits, prefix) = match s.kind {
        Some('x') => (format!("{magnitude:x}"), "0x"),
        Some('X') => (format!("{magnitude:X}"), "0X"),
        Some('o') => (format!("{magnitude:o}"), "0o"),
        Some('b') => (format!("{magnitude:b}"), "0b"),
        Some('c') => {
            let c = char::from_u32(i as u32)
                .ok_or_else(|| PyErr::new("OverflowError", "%c arg not in range"))?;
            return Ok(pad("", &c.to_string(), &s, '<'));
        }
        _ => (magnitude.to_string(), ""),
    };
    let digits = match s.grouping {
        Some(g) => group(&digits, g),
        None => digits,
    };
    let sign = sign_text(i < 0, &s);
    let prefix = if s.alternate { prefix } else { "" };
    Ok(pad(&format!("{sign}{prefix}"), &digits, &s, '>'))
}

pub fn format_float(v: f64, spec: &str) -> PyResult<String> {
    let s = parse(spec)?;
    if spec.is_empty() {
        return Ok(float_repr(v));
    }
    let negative = v.is_sign_negative() && !(s.no_negative_zero && v == 0.0) && !v.is_nan();
    let a = v.abs();
    let upper = matches!(s.kind, Some('E' | 'F' | 'G'));
    let mut body = match s.kind {
        Some('f' | 'F') => python_fixed(a, s.precision.unwrap_or(6)),
        Some('e' | 'E') => python_exp(a, s.precision.unwrap_or(6)),
        Some('g' | 'G' | 'n') => general(a, s.precision.unwrap_or(6), s.alternate, false),
        Some('%') => format!("{}%", python_fixed(a * 100.0, s.precision.unwrap_or(6))),
        None => match s.precision {
            Some(p) => general(a, p, s.alternate, true),
            None => float_repr(a),
        },
        Some(k) => {
            return Err(PyErr::value_error(format!(
                "Unknown format code '{k}' for object of type 'float'"
            )));
        }
    };
    if upper {
        body = body.to_uppercase();
    }
    if let Some(g) = s.grouping {
        let (int_part, rest) = match body.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => body.split_at(i),
            None => (body.as_str(), ""),
        };
        body = format!("{}{rest}", group(int_part, g));
    }
    let sign = sign_text(negative, &s);
    Ok(pad(sign, &body, &s, '>'))
}

/// The `g` presentation: fixed or scientific by the exponent, trailing zeros
/// removed. `repr_like` is the no-type form, which keeps one digit after a point.
fn general(a: f64, precision: usize, alternate: bool, repr_like: bool) -> String {
    if !a.is_finite() {
        return python_fixed(a, 0);
    }
    let p = precision.max(1);
    let sci = python_exp(a, p - 1);
    let exp: i32 = sci
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let strip = |text: String| -> String {
        if alternate || !text.contains('.') {
            return text;
        }
        let (mantissa, tail) = match text.find('e') {
            Some(i) => (text[..i].to_string(), text[i..].to_string()),
            None => (text.clone(), String::new()),
        };
        let trimmed = mantissa.trim_end_matches('0').trim_end_matches('.');
        format!("{trimmed}{tail}")
    };
    if -4 <= exp && exp < p as i32 {
        let fixed = strip(python_fixed(a, (p as i32 - 1 - exp).max(0) as usize));
        if repr_like && !fixed.contains('.') {
            format!("{fixed}.0")
        } else {
            fixed
        }
    } else {
        strip(sci)
    }
}

fn sign_text(negative: bool, s: &Spec) -> &'static str {
    match (negative, s.sign) {
        (true, _) => "-",
        (false, Some('+')) => "+",
        (false, Some(' ')) => " ",
        _ => "",
    }
}

fn group(digits: &str, separator: char) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(c);
    }
    out
}

/// Applies width, fill and alignment; `=` (and the `0` flag) pads after the sign.
fn pad(sign: &str, body: &str, s: &Spec, default_align: char) -> String {
    let len = sign.chars().count() + body.chars().count();
    let (fill, align) = match (s.fill, s.align) {
        (f, Some(a)) => (f.unwrap_or(if s.zero { '0' } else { ' ' }), a),
        (_, None) if s.zero => ('0', '='),
        _ => (' ', default_align),
    };
    if len >= s.width {
        return format!("{sign}{body}");
    }
    let padding = s.width - len;
    let fill_n = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
    match align {
        '<' => format!("{sign}{body}{}", fill_n(padding)),
        '^' => format!(
            "{}{sign}{body}{}",
            fill_n(padding / 2),
            fill_n(padding - padding / 2)
        ),
        '=' => format!("{sign}{}{body}", fill_n(padding)),
        _ => format!("{}{sign}{body}", fill_n(padding)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_format_as_python_does() {
        let cases = [
            (std::f64::consts::PI, ".3f", "3.142"),
            (0.000123, ".2e", "1.23e-04"),
            (1234.5, ".3", "1.23e+03"),
            (1.0, ".3", "1.0"),
            (0.5, "g", "0.5"),
            (123456789.0, "g", "1.23457e+08"),
            (-2.5, "+08.2f", "-0002.50"),
            (2.5, "+.1f", "+2.5"),
            (0.25, ".1%", "25.0%"),
            (1234567.891, ",.2f", "1,234,567.89"),
            (3.0, ">8.2f", "    3.00"),
            (2.675, ".2f", "2.67"),
        ];
        for (v, spec, expected) in cases {
            assert_eq!(
                format_float(v, spec).unwrap(),
                expected,
                "format({v}, {spec:?})"
            );
        }
    }

    #[test]
    fn ints_and_strings_format_as_python_does() {
        assert_eq!(format_int(42, ">5").unwrap(), "   42");
        assert_eq!(format_int(1234567, ",").unwrap(), "1,234,567");
        assert_eq!(format_int(-42, "05d").unwrap(), "-0042");
        assert_eq!(format_int(255, "#x").unwrap(), "0xff");
        assert_eq!(format_int(3, ".2f").unwrap(), "3.00");
        assert_eq!(format_str("ab", "^6").unwrap(), "  ab  ");
        assert_eq!(format_str("ab", "*<4").unwrap(), "ab**");
    }
}
