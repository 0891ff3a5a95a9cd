//! Operators on Python values: truthiness, arithmetic with Python's int and float
//! rules, and comparisons (including `in` and `is`); where an instance of a user
//! class is an operand, its special methods decide (in `datamodel`). Tensor operands
//! are handed to `crate::torch::tensor`, behind a `Box::pin`: the tensor paths build large
//! futures, and keeping them out of these inline state machines keeps every level
//! of expression nesting cheap on the (in browsers, small and fixed) native stack.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use ruff_python_ast::{CmpOp, Operator, UnaryOp};
use std::cmp::Ordering;

impl Interpreter<'_> {
    /// `bool(value)`; a one-element tensor is read from the device.
    pub async fn truth(&mut self, value: &Value) -> PyResult<bool> {
        Ok(match value {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) | Value::Set(d) => !d.borrow().is_empty(),
            Value::Size(s) => !s.is_empty(),
            Value::Range(a, b, s) => crate::python::call::range_len(*a, *b, *s) > 0,
            Value::Tensor(t) => Box::pin(self.tensor_truth(t)).await?,
            // `__bool__`, else `__len__` (non-zero is true), else true.
            Value::Instance(_) => {
                if let Some(v) = self.call_special(value, "__bool__", Vec::new()).await? {
                    return match v {
                        Value::Bool(b) => Ok(b),
                        other => Err(PyErr::type_error(format!(
                            "__bool__ should return bool, returned {}",
                            other.type_name()
                        ))),
                    };
                }
                if let Value::Instance(i) = value
                    && i.class().lookup("__len__").is_some()
                {
                    return Ok(Box::pin(self.len_of(value)).await? != 0);
                }
                true
            }
            _ => true,
        })
    }

    pub async fn unary(&mut self, op: UnaryOp, operand: Value) -> PyResult<Value> {
        match (op, &operand) {
            (UnaryOp::Not, v) => Ok(Value::Bool(!self.truth(v).await?)),
            (UnaryOp::UAdd, Value::Int(_) | Value::Float(_) | Value::Tensor(_)) => Ok(operand),
            (UnaryOp::UAdd, Value::Bool(b)) => Ok(Value::Int(*b as i64)),
            (UnaryOp::USub, Value::Int(i)) => i.checked_neg().map(Value::Int).ok_or_else(|| {
                PyErr::new("OverflowError", "integer result does not fit in 64 bits")
            }),
            (UnaryOp::USub, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
            (UnaryOp::USub, Value::Float(f)) => Ok(Value::Float(-f)),
            (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
            (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
            (_, Value::Tensor(t)) => Box::pin(self.tensor_unary(op, t)).await,
            (_, Value::Instance(_)) => self.unary_special(op, &operand).await,
            _ => Err(PyErr::type_error(format!(
                "bad operand type for unary {}: '{}'",
                op.as_str(),
                operand.type_name()
            ))),
        }
    }

    pub async fn binary(&mut self, op: Operator, a: Value, b: Value) -> PyResult<Value> {
        // An instance on either side decides through its special methods, even
        // facing a tensor (`t * v` reaches `v.__rmul__`).
        if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            return Box::pin(self.binary_special(op, a, b)).await;
        }
        if matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_)) {
            return Box::pin(self.tensor_binary(op, &a, &b)).await;
        }
        arithmetic(op, &a, &b)
    }

    /// `a op= b`: in place for lists and tensors, as Python and PyTorch do.
    pub async fn inplace_binary(&mut self, op: Operator, a: Value, b: Value) -> PyResult<Value> {
        match (&a, op) {
            (Value::List(l), Operator::Add) => {
                let items = self.collect(b).await?;
                l.borrow_mut().extend(items);
                Ok(a)
            }
            (Value::Tensor(t), _) if !matches!(b, Value::Instance(_)) => {
                Box::pin(self.tensor_inplace(op, t, &b)).await
            }
            (Value::Instance(_), _) => Box::pin(self.inplace_special(op, a, b)).await,
            _ => self.binary(op, a, b).await,
        }
    }

    pub async fn compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        if matches!(op, CmpOp::In | CmpOp::NotIn) {
            let found = self.contains(b, a).await?;
            return Ok(Value::Bool(found == (op == CmpOp::In)));
        }
        if matches!(op, CmpOp::Is | CmpOp::IsNot) {
            return Ok(Value::Bool(a.is(b) == (op == CmpOp::Is)));
        }
        if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            return Box::pin(self.compare_special(op, a, b)).await;
        }
        if matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_)) {
            return Box::pin(self.tensor_compare(op, a, b)).await;
        }
        Ok(Value::Bool(match op {
            CmpOp::Eq => py_eq(a, b),
            CmpOp::NotEq => !py_eq(a, b),
            CmpOp::Lt => py_cmp(a, b)? == Ordering::Less,
            CmpOp::LtE => py_cmp(a, b)? != Ordering::Greater,
            CmpOp::Gt => py_cmp(a, b)? == Ordering::Greater,
            CmpOp::GtE => py_cmp(a, b)? != Ordering::Less,
            _ => unreachable!("membership and identity handled above"),
        }))
    }

    async fn contains(&mut self, container: &Value, item: &Value) -> PyResult<bool> {
        match container {
            Value::Str(s) => match item {
                Value::Str(sub) => Ok(s.contains(&**sub)),
                other => Err(PyErr::type_error(format!(
                    "'in <string>' requires string as left operand, not {}",
                    other.type_name()
                ))),
            },
            Value::Dict(d) | Value::Set(d) => {
                Ok(d.borrow().contains(&crate::python::expr::hash_key(item)?))
            }
            Value::Range(start, stop, step) => Ok(match item.as_int() {
                Some(i) => {
                    let inside = if *step > 0 {
                        i >= *start && i < *stop
                    } else {
                        i <= *start && i > *stop
                    };
                    inside && (i - start) % step == 0
                }
                None => false,
            }),
            Value::Instance(_) => Box::pin(self.contains_special(container, item)).await,
            other => {
                let items = self.collect(other.clone()).await?;
                for x in &items {
                    if self.equal(x, item).await? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }
}

/// `==` on plain values (tensors compare elementwise elsewhere).
pub fn py_eq(a: &Value, b: &Value) -> bool {
    eq_at(a, b, 0)
}

/// Containers that contain themselves would recurse forever; as in CPython,
/// identical objects are equal without looking inside, and past a nesting of
/// 100 the comparison gives up as unequal (CPython raises RecursionError).
fn eq_at(a: &Value, b: &Value, depth: usize) -> bool {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return x == y;
    }
    if a.is(b) && !matches!(a, Value::Float(_)) {
        return true;
    }
    if depth > 100 {
        return false;
    }
    let py_eq = |x: &Value, y: &Value| eq_at(x, y, depth + 1);
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(p, q))
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(p, q))
        }
        (Value::Size(x), Value::Size(y)) => x == y,
        (Value::Size(x), Value::Tuple(y)) | (Value::Tuple(y), Value::Size(x)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(d, v)| v.as_int() == Some(*d as i64))
        }
        (Value::Dict(x), Value::Dict(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len()
                && x.items().iter().all(|(k, v)| {
                    k.hash_key()
                        .and_then(|hk| y.get(&hk).map(|w| py_eq(v, w)))
                        .unwrap_or(false)
                })
        }
        (Value::Set(x), Value::Set(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len()
                && x.keys()
                    .iter()
                    .all(|k| k.hash_key().is_some_and(|hk| y.contains(&hk)))
        }
        (Value::Device(x), Value::Device(y)) => x == y,
        (Value::Device(d), Value::Str(s)) | (Value::Str(s), Value::Device(d)) => {
            d.to_string() == **s || (**s == *"tpu" && matches!(d, tpu_runtime::Device::Tpu(_)))
        }
        (Value::DType(x), Value::DType(y)) => x == y,
        _ => a.is(b),
    }
}

/// Ordering for `<` and `sorted`: numbers, strings, and sequences lexicographically.
pub fn py_cmp(a: &Value, b: &Value) -> PyResult<Ordering> {
    cmp_at(a, b, 0)
}

/// `py_cmp` with the nesting it has reached, so that containers that contain
/// themselves end in `RecursionError` rather than a stack overflow.
fn cmp_at(a: &Value, b: &Value, depth: usize) -> PyResult<Ordering> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return x
            .partial_cmp(&y)
            .ok_or_else(|| PyErr::value_error("comparison with nan"));
    }
    if depth > 100 {
        return Err(PyErr::new(
            "RecursionError",
            "maximum recursion depth exceeded in comparison",
        ));
    }
    let sequence = |items_a: &[Value], items_b: &[Value]| -> PyResult<Ordering> {
        for (x, y) in items_a.iter().zip(items_b) {
            if !py_eq(x, y) {
                return cmp_at(x, y, depth + 1);
            }
        }
        Ok(items_a.len().cmp(&items_b.len()))
    };
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(x.cmp(y)),
        (Value::Tuple(x), Value::Tuple(y)) => sequence(x, y),
        (Value::List(x), Value::List(y)) => sequence(&x.borrow(), &y.borrow()),
        _ => Err(PyErr::type_error(format!(
            "'<' not supported between instances of '{}' and '{}'",
            a.type_name(),
            b.type_name()
        ))),
    }
}

pub fn arithmetic(op: Operator, a: &Value, b: &Value) -> PyResult<Value> {
    let overflow = || PyErr::new("OverflowError", "integer result does not fit in 64 bits");
    let zero = |what: &str| PyErr::new("ZeroDivisionError", what.to_string());
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        return Ok(match op {
            Operator::Add => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
            Operator::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
            Operator::Mult => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
            Operator::Div if y == 0 => return Err(zero("division by zero")),
            Operator::Div => Value::Float(x as f64 / y as f64),
            Operator::FloorDiv if y == 0 => return Err(zero("integer division or modulo by zero")),
            Operator::FloorDiv => Value::Int(floor_div(x, y)),
            Operator::Mod if y == 0 => return Err(zero("integer modulo by zero")),
            Operator::Mod => Value::Int(x - y * floor_div(x, y)),
            Operator::Pow if y >= 0 => Value::Int(
                u32::try_from(y)
                    .ok()
                    .and_then(|e| x.checked_pow(e))
                    .ok_or_else(overflow)?,
            ),
            Operator::Pow => Value::Float((x as f64).powf(y as f64)),
            Operator::BitAnd => Value::Int(x & y),
            Operator::BitOr => Value::Int(x | y),
            Operator::BitXor => Value::Int(x ^ y),
            Operator::LShift => Value::Int(x.checked_shl(y as u32).ok_or_else(overflow)?),
            Operator::RShift => Value::Int(x >> y.min(63)),
            Operator::MatMult => return Err(unsupported_operands(op, a, b)),
        });
    }
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(Value::Float(match op {
            Operator::Add => x + y,
            Operator::Sub => x - y,
            Operator::Mult => x * y,
            Operator::Div if y == 0.0 => return Err(zero("division by zero")),
            Operator::Div => x / y,
            Operator::FloorDiv if y == 0.0 => return Err(zero("division by zero")),
            Operator::FloorDiv => (x / y).floor(),
            Operator::Mod if y == 0.0 => return Err(zero("division by zero")),
            Operator::Mod => {
                let r = x % y;
                if r != 0.0 && (r < 0.0) != (y < 0.0) {
                    r + y
                } else {
                    r
                }
            }
            Operator::Pow if x == 0.0 && y < 0.0 => {
                return Err(zero("zero to a negative power"));
            }
            Operator::Pow => x.powf(y),
            _ => return Err(unsupported_operands(op, a, b)),
        }));
    }
    match (op, a, b) {
        (Operator::Add, Value::Str(x), Value::Str(y)) => Ok(Value::str(&format!("{x}{y}"))),
        (Operator::Add, Value::List(x), Value::List(y)) => Ok(Value::list(
            x.borrow()
                .iter()
                .chain(y.borrow().iter())
                .cloned()
                .collect(),
        )),
        (Operator::Add, Value::Tuple(x), Value::Tuple(y)) => {
            Ok(Value::tuple(x.iter().chain(y.iter()).cloned().collect()))
        }
        // `torch.Size` joined with a tuple on either side, or repeated, is a
        // `torch.Size` (its `__add__`, `__radd__` and `__mul__`) while every
        // item is a size.
        (Operator::Add, Value::Size(_), Value::Size(_) | Value::Tuple(_))
        | (Operator::Add, Value::Tuple(_), Value::Size(_))
        | (Operator::Mult, Value::Size(_), _)
        | (Operator::Mult, _, Value::Size(_)) => {
            let as_tuple = |v: &Value| match v {
                Value::Size(s) => Value::tuple(s.iter().map(|&d| Value::Int(d as i64)).collect()),
                other => other.clone(),
            };
            let joined = arithmetic(op, &as_tuple(a), &as_tuple(b))?;
            let Value::Tuple(t) = &joined else {
                return Ok(joined);
            };
            let dims: Option<Vec<usize>> = t
                .iter()
                .map(|v| match v {
                    Value::Int(n) if *n >= 0 => Some(*n as usize),
                    _ => None,
                })
                .collect();
            Ok(dims.map_or(joined.clone(), |d| Value::Size(d.into())))
        }
        (Operator::Mult, Value::Str(s), n) | (Operator::Mult, n, Value::Str(s))
            if n.as_int().is_some() =>
        {
            let times = repetitions(s.len(), n)?;
            Ok(Value::str(&s.repeat(times)))
        }
        (Operator::Mult, Value::List(l), n) | (Operator::Mult, n, Value::List(l))
            if n.as_int().is_some() =>
        {
            let items = l.borrow();
            let times = repetitions(items.len(), n)?;
            Ok(Value::list(
                items
                    .iter()
                    .cloned()
                    .cycle()
                    .take(items.len() * times)
                    .collect(),
            ))
        }
        (Operator::Mult, Value::Tuple(t), n) | (Operator::Mult, n, Value::Tuple(t))
            if n.as_int().is_some() =>
        {
            let times = repetitions(t.len(), n)?;
            Ok(Value::tuple(
                t.iter().cloned().cycle().take(t.len() * times).collect(),
            ))
        }
        (Operator::Mod, Value::Str(_), _) => Err(PyErr::not_implemented(
            "'%' string formatting is not supported; use an f-string",
        )),
        (
            Operator::BitAnd | Operator::BitOr | Operator::Sub | Operator::BitXor,
            Value::Set(x),
            Value::Set(y),
        ) => {
            let (x, y) = (x.borrow(), y.borrow());
            let in_y = |v: &Value| v.hash_key().is_some_and(|k| y.contains(&k));
            let in_x = |v: &Value| v.hash_key().is_some_and(|k| x.contains(&k));
            let items: Vec<Value> = match op {
                Operator::BitAnd => x.keys().into_iter().filter(|v| in_y(v)).collect(),
                Operator::Sub => x.keys().into_iter().filter(|v| !in_y(v)).collect(),
                Operator::BitOr => x.keys().into_iter().chain(y.keys()).collect(),
                _ => x
                    .keys()
                    .into_iter()
                    .filter(|v| !in_y(v))
                    .chain(y.keys().into_iter().filter(|v| !in_x(v)))
                    .collect(),
            };
            let mut set = crate::python::value::Dict::default();
            for item in items {
                set.insert(crate::python::expr::hash_key(&item)?, item, Value::None);
            }
            Ok(Value::Set(std::rc::Rc::new(std::cell::RefCell::new(set))))
        }
        (Operator::BitOr, Value::Dict(x), Value::Dict(y)) => {
            let mut merged = x.borrow().clone();
            for (k, v) in y.borrow().items() {
                merged.insert(crate::python::expr::hash_key(k)?, k.clone(), v.clone());
            }
            Ok(Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(
                merged,
            ))))
        }
        _ => Err(unsupported_operands(op, a, b)),
    }
}

/// The most items (or bytes of text) one sequence may hold: a program that asks
/// for more gets `MemoryError` instead of exhausting the host.
pub const MAX_SEQUENCE_LEN: usize = 50_000_000;

/// The repeat count of `seq * n`, refused when the result would be too long.
fn repetitions(len: usize, n: &Value) -> PyResult<usize> {
    let times = n.as_int().unwrap_or(0).max(0) as usize;
    check_len(len.saturating_mul(times))?;
    Ok(times)
}

/// `MemoryError` for a sequence of `len` items or bytes past the limit.
pub fn check_len(len: usize) -> PyResult<()> {
    if len > MAX_SEQUENCE_LEN {
        return Err(PyErr::new(
            "MemoryError",
            format!("a sequence of {len} items is past this runtime's limit of {MAX_SEQUENCE_LEN}"),
        ));
    }
    Ok(())
}

fn floor_div(x: i64, y: i64) -> i64 {
    let q = x / y;
    if (x % y != 0) && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

pub fn unsupported_operands(op: Operator, a: &Value, b: &Value) -> PyErr {
    PyErr::type_error(format!(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        op.as_str(),
        a.type_name(),
        b.type_name()
    ))
}
