//! Python values as the interpreter holds them. Containers are reference-counted
//! like CPython's objects, so aliasing (`b = a; b.append(1)`) behaves as in Python.

use std::cell::RefCell;
use std::rc::Rc;
use tpu_ir::DType;
use tpu_runtime::{Device, Tensor};

#[derive(Clone)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    List(Rc<RefCell<Vec<Value>>>),
    Tuple(Rc<[Value]>),
    Tensor(Tensor),
    /// `torch.Size`: a tuple of ints that prints as `torch.Size([2, 3])`.
    Size(Rc<[usize]>),
    Device(Device),
    DType(DType),
    /// A module such as `torch` or `math`, by its dotted name.
    Module(&'static str),
    /// A built-in function, by qualified name (`print`, `torch.ones`).
    Builtin(&'static str),
    /// A tensor method bound to its tensor (`x.sum`).
    Method(Tensor, &'static str),
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    /// The name `type(v).__name__` gives, used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Tensor(_) => "Tensor",
            Value::Size(_) => "Size",
            Value::Device(_) => "device",
            Value::DType(_) => "dtype",
            Value::Module(_) => "module",
            Value::Builtin(_) => "builtin_function_or_method",
            Value::Method(..) => "builtin_function_or_method",
        }
    }

    /// Python truthiness for values that do not need the device.
    pub fn truthy(&self) -> Option<bool> {
        Some(match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Size(s) => !s.is_empty(),
            Value::Tensor(_) => return None,
            _ => true,
        })
    }

    /// A number as `f64`, for arithmetic with Python scalars.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Bool(b) => Some(*b as i64 as f64),
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
}

/// CPython's `repr(float)`: the shortest digits that round-trip, in fixed notation
/// when the decimal exponent is in [-4, 16), otherwise `d.ddde±XX`.
pub fn float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // Rust's `{:e}` gives the shortest round-trip digits, e.g. `-1.2345e-7`.
    let sci = format!("{v:e}");
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exponent: i32 = exponent.parse().expect("exponent is an integer");
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if negative { "-" } else { "" };
    // Position of the decimal point relative to the digit string.
    let point = exponent + 1;
    if !(-4 < point && point <= 16) {
        let (head, tail) = digits.split_at(1);
        let fraction = if tail.is_empty() {
            String::new()
        } else {
            format!(".{tail}")
        };
        let esign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{head}{fraction}e{esign}{:02}", exponent.abs());
    }
    if point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
    } else if point as usize >= digits.len() {
        format!(
            "{sign}{digits}{}.0",
            "0".repeat(point as usize - digits.len())
        )
    } else {
        let (int, frac) = digits.split_at(point as usize);
        format!("{sign}{int}.{frac}")
    }
}

/// CPython's `repr(str)`: single quotes unless the text contains one and no double.
pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_cpython() {
        let cases = [
            (36.0, "36.0"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1.0 / 3.0, "0.3333333333333333"),
            (-0.0, "-0.0"),
            (f64::from(0.1f32), "0.10000000149011612"),
        ];
        for (v, expected) in cases {
            assert_eq!(float_repr(v), expected, "repr({v:?})");
        }
    }

    #[test]
    fn str_repr_picks_quotes_like_cpython() {
        assert_eq!(str_repr("tpu"), "'tpu'");
        assert_eq!(str_repr("it's"), "\"it's\"");
        assert_eq!(str_repr("a\nb"), "'a\\nb'");
    }
}
