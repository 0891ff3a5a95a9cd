//! Operators on instances of user classes, resolved as CPython resolves them
//! (`binary_op1`, `do_richcompare` and the slot wrappers in `typeobject.c`):
//! the left operand's method first, `NotImplemented` passing the turn to the
//! right operand's reflected method, and a right operand whose class subclasses
//! the left's (and overrides the reflected method) going first. A built-in value
//! or a tensor facing an instance has no method that accepts it (PyTorch's tensor
//! operators return `NotImplemented` for objects they cannot convert), so the
//! instance's reflected method decides, which makes `2 * v` and `t * v` work.
//! Also here: in-place operators falling back to the binary ones, unary
//! operators, comparisons with `==` falling back to identity, equality and
//! ordering for `in`, `min`/`max` and `sorted`, and the numeric conversions
//! `__index__`, `__int__` and `__float__`.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Class, Value};
use ruff_python_ast::{CmpOp, Operator, UnaryOp};
use std::cmp::Ordering;
use std::rc::Rc;

impl Interpreter<'_> {
    /// `a op b` with an instance on at least one side.
    pub async fn binary_special(&mut self, op: Operator, a: Value, b: Value) -> PyResult<Value> {
        let (name, reflected) = binary_dunders(op);
        let (left_class, right_class) = (class_of(&a), class_of(&b));
        let same_class =
            matches!((&left_class, &right_class), (Some(l), Some(r)) if Rc::ptr_eq(l, r));
        let mut right_first = false;
        let mut try_right = !same_class && has(&right_class, reflected);
        if try_right && let (Some(l), Some(r)) = (&left_class, &right_class) {
            let overrides = match (l.lookup(reflected), r.lookup(reflected)) {
                (Some(lm), Some(rm)) => !lm.is(&rm),
                _ => true,
            };
            right_first = r.is_subclass_of(l) && overrides;
        }
        if right_first {
            let result = self.call_reflected(&b, reflected, &a).await?;
            if !matches!(result, Value::NotImplemented) {
                return Ok(result);
            }
            try_right = false;
        }
        if let Some(result) = self.call_special(&a, name, vec![b.clone()]).await?
            && !matches!(result, Value::NotImplemented)
        {
            return Ok(result);
        }
        if try_right {
            let result = self.call_reflected(&b, reflected, &a).await?;
            if !matches!(result, Value::NotImplemented) {
                return Ok(result);
            }
        }
        let sequence = |v: &Value| matches!(v, Value::Str(_) | Value::List(_) | Value::Tuple(_));
        if op == Operator::Mult && (sequence(&a) || sequence(&b)) {
            let other = if sequence(&a) { &b } else { &a };
            return Err(PyErr::type_error(format!(
                "can't multiply sequence by non-int of type '{}'",
                other.type_name()
            )));
        }
        Err(crate::python::ops::unsupported_operands(op, &a, &b))
    }

    async fn call_reflected(&mut self, obj: &Value, name: &str, other: &Value) -> PyResult<Value> {
        Ok(self
            .call_special(obj, name, vec![other.clone()])
            .await?
            .unwrap_or(Value::NotImplemented))
    }

    /// `a op= b` for an instance `a`: its in-place method, else `a op b`.
    pub async fn inplace_special(&mut self, op: Operator, a: Value, b: Value) -> PyResult<Value> {
        let name = inplace_dunder(op);
        if let Some(result) = self.call_special(&a, name, vec![b.clone()]).await?
            && !matches!(result, Value::NotImplemented)
        {
            return Ok(result);
        }
        self.binary(op, a, b).await
    }

    /// `-x`, `+x`, `~x` of an instance.
    pub async fn unary_special(&mut self, op: UnaryOp, operand: &Value) -> PyResult<Value> {
        let name = match op {
            UnaryOp::USub => "__neg__",
            UnaryOp::UAdd => "__pos__",
            _ => "__invert__",
        };
        match self.call_special(operand, name, Vec::new()).await? {
            Some(result) => Ok(result),
            None => Err(PyErr::type_error(format!(
                "bad operand type for unary {}: '{}'",
                op.as_str(),
                operand.type_name()
            ))),
        }
    }

    /// A comparison with an instance on at least one side. `__eq__` and `__ne__`
    /// default to identity (with `__ne__` inverting a defined `__eq__`), as
    /// `object`'s do.
    pub async fn compare_special(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        let (name, reflected, symbol) = match op {
            CmpOp::Eq => ("__eq__", "__eq__", "=="),
            CmpOp::NotEq => ("__ne__", "__ne__", "!="),
            CmpOp::Lt => ("__lt__", "__gt__", "<"),
            CmpOp::LtE => ("__le__", "__ge__", "<="),
            CmpOp::Gt => ("__gt__", "__lt__", ">"),
            _ => ("__ge__", "__le__", ">="),
        };
        let (left_class, right_class) = (class_of(a), class_of(b));
        let reflected_first = match (&left_class, &right_class) {
            (Some(l), Some(r)) => !Rc::ptr_eq(l, r) && r.is_subclass_of(l),
            _ => false,
        };
        if reflected_first {
            let result = self.compare_method(b, reflected, a).await?;
            if !matches!(result, Value::NotImplemented) {
                return Ok(result);
            }
        }
        let result = self.compare_method(a, name, b).await?;
        if !matches!(result, Value::NotImplemented) {
            return Ok(result);
        }
        if !reflected_first {
            let result = self.compare_method(b, reflected, a).await?;
            if !matches!(result, Value::NotImplemented) {
                return Ok(result);
            }
        }
        match op {
            CmpOp::Eq => Ok(Value::Bool(a.is(b))),
            CmpOp::NotEq => Ok(Value::Bool(!a.is(b))),
            _ => Err(PyErr::type_error(format!(
                "'{symbol}' not supported between instances of '{}' and '{}'",
                a.type_name(),
                b.type_name()
            ))),
        }
    }

    /// `type(x).name(x, y)`, with `object`'s defaults where the class has none.
    async fn compare_method(&mut self, x: &Value, name: &str, y: &Value) -> PyResult<Value> {
        if let Some(result) = self.call_special(x, name, vec![y.clone()]).await? {
            return Ok(result);
        }
        Ok(match name {
            "__eq__" if x.is(y) => Value::Bool(true),
            "__ne__" if matches!(x, Value::Instance(_)) => {
                match Box::pin(self.compare_method(x, "__eq__", y)).await? {
                    Value::NotImplemented => Value::NotImplemented,
                    equal => Value::Bool(!self.truth(&equal).await?),
                }
            }
            _ => Value::NotImplemented,
        })
    }

    /// `a == b` as a truth value, calling `__eq__` where an instance is involved
    /// (what `in`, `list.index` and friends ask).
    pub async fn equal(&mut self, a: &Value, b: &Value) -> PyResult<bool> {
        if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            let result = self.compare_special(CmpOp::Eq, a, b).await?;
            return self.truth(&result).await;
        }
        Ok(crate::python::ops::py_eq(a, b))
    }

    /// The first position of an item equal to `item`, as `list.index` finds it.
    pub async fn find_equal(&mut self, items: &[Value], item: &Value) -> PyResult<Option<usize>> {
        for (i, x) in items.iter().enumerate() {
            if x.is(item) || self.equal(x, item).await? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// How many items equal `item`, as `list.count` counts them.
    pub async fn count_equal(&mut self, items: &[Value], item: &Value) -> PyResult<usize> {
        let mut n = 0;
        for x in items {
            if x.is(item) || self.equal(x, item).await? {
                n += 1;
            }
        }
        Ok(n)
    }

    /// The order of two instances for `sorted`, `min` and `max`, which CPython
    /// decides with `<` alone.
    pub async fn order_special(&mut self, a: &Value, b: &Value) -> PyResult<Ordering> {
        let less = self.compare_special(CmpOp::Lt, a, b).await?;
        if self.truth(&less).await? {
            return Ok(Ordering::Less);
        }
        let greater = self.compare_special(CmpOp::Lt, b, a).await?;
        Ok(if self.truth(&greater).await? {
            Ordering::Greater
        } else {
            Ordering::Equal
        })
    }

    /// A stable sort by `order`, for keys that include instances: a binary
    /// insertion sort, which needs O(n log n) comparisons, each of them Python.
    pub async fn sort_special(&mut self, keys: &[Value], reverse: bool) -> PyResult<Vec<usize>> {
        let mut sorted: Vec<usize> = Vec::with_capacity(keys.len());
        for i in 0..keys.len() {
            let (mut lo, mut hi) = (0, sorted.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                let mut ord = self.order(&keys[i], &keys[sorted[mid]]).await?;
                if reverse {
                    ord = ord.reverse();
                }
                if ord == Ordering::Less {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            sorted.insert(lo, i);
        }
        Ok(sorted)
    }

    /// `x in container` for an instance container: `__contains__`, else a search
    /// of what iterating over it gives.
    pub async fn contains_special(&mut self, container: &Value, item: &Value) -> PyResult<bool> {
        if let Some(found) = self
            .call_special(container, "__contains__", vec![item.clone()])
            .await?
        {
            return self.truth(&found).await;
        }
        let mut iter = self.iter(container.clone()).await.map_err(|_| {
            PyErr::type_error(format!(
                "argument of type '{}' is not iterable",
                container.type_name()
            ))
        })?;
        while let Some(x) = self.next_item(&mut iter).await? {
            if x.is(item) || self.equal(&x, item).await? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// An instance as an index or an int, through `__index__` (`seq[obj]`).
    pub async fn index_of(&mut self, value: &Value) -> PyResult<Option<Value>> {
        if !matches!(value, Value::Instance(_)) {
            return Ok(None);
        }
        match self.call_special(value, "__index__", Vec::new()).await? {
            Some(i) if i.as_int().is_some() => Ok(Some(i)),
            Some(other) => Err(PyErr::type_error(format!(
                "__index__ returned non-int (type {})",
                other.type_name()
            ))),
            None => Ok(None),
        }
    }

    /// `int(obj)`, `float(obj)` and `abs(obj)` of an instance, through
    /// `__int__` (else `__index__`), `__float__` (else `__index__`) and `__abs__`.
    pub async fn convert_special(&mut self, name: &str, value: &Value) -> PyResult<Value> {
        let (method, fallback) = match name {
            "int" => ("__int__", Some("__index__")),
            "float" => ("__float__", Some("__index__")),
            _ => ("__abs__", None),
        };
        let mut result = self.call_special(value, method, Vec::new()).await?;
        if result.is_none()
            && let Some(fallback) = fallback
        {
            result = self.call_special(value, fallback, Vec::new()).await?;
        }
        match (name, result) {
            ("abs", Some(v)) => Ok(v),
            ("abs", None) => Err(PyErr::type_error(format!(
                "bad operand type for abs(): '{}'",
                value.type_name()
            ))),
            ("int", Some(v @ (Value::Int(_) | Value::Bool(_)))) => {
                Ok(Value::Int(v.as_int().unwrap_or(0)))
            }
            ("float", Some(v)) if v.as_number().is_some() => {
                Ok(Value::Float(v.as_number().unwrap_or(0.0)))
            }
            (_, Some(other)) => Err(PyErr::type_error(format!(
                "{method} returned non-{name} (type {})",
                other.type_name()
            ))),
            (_, None) => Err(PyErr::type_error(format!(
                "{name}() argument must be a string or a real number, not '{}'",
                value.type_name()
            ))),
        }
    }
}

fn class_of(value: &Value) -> Option<Rc<Class>> {
    match value {
        Value::Instance(i) => Some(i.class()),
        _ => None,
    }
}

fn has(class: &Option<Rc<Class>>, name: &str) -> bool {
    class.as_ref().is_some_and(|c| c.lookup(name).is_some())
}

/// The method of `a op b` and the reflected one of its right operand.
pub fn binary_dunders(op: Operator) -> (&'static str, &'static str) {
    match op {
        Operator::Add => ("__add__", "__radd__"),
        Operator::Sub => ("__sub__", "__rsub__"),
        Operator::Mult => ("__mul__", "__rmul__"),
        Operator::MatMult => ("__matmul__", "__rmatmul__"),
        Operator::Div => ("__truediv__", "__rtruediv__"),
        Operator::Mod => ("__mod__", "__rmod__"),
        Operator::Pow => ("__pow__", "__rpow__"),
        Operator::LShift => ("__lshift__", "__rlshift__"),
        Operator::RShift => ("__rshift__", "__rrshift__"),
        Operator::BitOr => ("__or__", "__ror__"),
        Operator::BitXor => ("__xor__", "__rxor__"),
        Operator::BitAnd => ("__and__", "__rand__"),
        Operator::FloorDiv => ("__floordiv__", "__rfloordiv__"),
    }
}

/// The method of `a op= b`.
fn inplace_dunder(op: Operator) -> &'static str {
    match op {
        Operator::Add => "__iadd__",
        Operator::Sub => "__isub__",
        Operator::Mult => "__imul__",
        Operator::MatMult => "__imatmul__",
        Operator::Div => "__itruediv__",
        Operator::Mod => "__imod__",
        Operator::Pow => "__ipow__",
        Operator::LShift => "__ilshift__",
        Operator::RShift => "__irshift__",
        Operator::BitOr => "__ior__",
        Operator::BitXor => "__ixor__",
        Operator::BitAnd => "__iand__",
        Operator::FloorDiv => "__ifloordiv__",
    }
}
