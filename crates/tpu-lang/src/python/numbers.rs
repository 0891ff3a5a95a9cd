//! Python's numeric conversions: `int()`, `float()` (with CPython's accepted
//! spellings of infinities and NaN) and `round()` (ties to even, and decimal
//! rounding by the exact binary value, so `round(2.675, 2)` is 2.67).

use crate::python::error::PyErr;
use crate::python::interp::PyResult;
use crate::python::value::Value;

pub fn convert_number(name: &str, value: &Value) -> PyResult<Value> {
    Ok(match (name, value) {
        ("int", Value::Float(f)) if f.is_finite() => Value::Int(f.trunc() as i64),
        ("int", Value::Float(_)) => {
            return Err(PyErr::value_error(
                "cannot convert float NaN or infinity to integer",
            ));
        }
        ("int", v) if v.as_int().is_some() => Value::Int(v.as_int().unwrap_or(0)),
        ("float", v) if v.as_number().is_some() => Value::Float(v.as_number().unwrap_or(0.0)),
        ("float", Value::Str(s)) => {
            let t = s.trim().to_lowercase();
            let parsed = match t.as_str() {
                "inf" | "+inf" | "infinity" => Some(f64::INFINITY),
                "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
                "nan" | "+nan" | "-nan" => Some(f64::NAN),
                _ => t.parse::<f64>().ok(),
            };
            Value::Float(parsed.ok_or_else(|| {
                PyErr::value_error(format!(
                    "could not convert string to float: {}",
                    crate::python::value::str_repr(s)
                ))
            })?)
        }
        ("int", Value::Str(s)) => Value::Int(s.trim().parse::<i64>().map_err(|_| {
            PyErr::value_error(format!(
                "invalid literal for int() with base 10: {}",
                crate::python::value::str_repr(s)
            ))
        })?),
        (_, v) => {
            return Err(PyErr::type_error(format!(
                "{name}() argument must be a string or a real number, not '{}'",
                v.type_name()
            )));
        }
    })
}

/// Python's `round`: to an int with ties to even, or to `ndigits` decimals by the
/// exact decimal value (so `round(2.675, 2)` is 2.67, as in CPython).
pub fn round(value: &Value, ndigits: Option<i64>) -> PyResult<Value> {
    match (value, ndigits) {
        (Value::Int(_) | Value::Bool(_), _) => Ok(Value::Int(value.as_int().unwrap_or(0))),
        (Value::Float(f), None) => {
            if !f.is_finite() {
                return Err(PyErr::value_error(
                    "cannot convert float NaN or infinity to integer",
                ));
            }
            Ok(Value::Int(f.round_ties_even() as i64))
        }
        // Past 17 significant digits rounding changes nothing (CPython returns
        // the float itself); this also keeps the precision argument in range.
        (Value::Float(f), Some(n)) if n > 330 || !f.is_finite() => Ok(Value::Float(*f)),
        (Value::Float(f), Some(n)) if n >= 0 => {
            let text = tpu_runtime::format::python_fixed(*f, n as usize);
            Ok(Value::Float(text.parse().unwrap_or(*f)))
        }
        (Value::Float(f), Some(n)) => {
            let scale = 10f64.powi((-n).min(400) as i32);
            if scale.is_infinite() {
                return Ok(Value::Float(0.0f64.copysign(*f)));
            }
            Ok(Value::Float((f / scale).round_ties_even() * scale))
        }
        (other, _) => Err(PyErr::type_error(format!(
            "type {} doesn't define __round__ method",
            other.type_name()
        ))),
    }
}
