//! Python's built-in functions (`print`, `len`, `range`, `sorted`, ...) and
//! the built-in types used as functions (`int`, `list`, `dict`, ...); `type()`
//! and `isinstance` are in `types.rs`.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Dict, Value};
use std::cell::RefCell;
use std::rc::Rc;

const BUILTINS: &[&str] = &[
    "print",
    "len",
    "range",
    "enumerate",
    "zip",
    "sorted",
    "reversed",
    "min",
    "max",
    "sum",
    "abs",
    "round",
    "isinstance",
    "issubclass",
    "type",
    "list",
    "tuple",
    "dict",
    "set",
    "int",
    "float",
    "str",
    "bool",
    "repr",
    "hasattr",
    "getattr",
    "setattr",
    "any",
    "all",
    "map",
    "filter",
    "super",
    "object",
    "callable",
    "id",
    "hash",
    "vars",
    "format",
    "chr",
    "ord",
    "hex",
    "oct",
    "bin",
    "divmod",
    "pow",
    "iter",
    "next",
    "frozenset",
    "slice",
    "dir",
    "help",
    "property",
    "staticmethod",
    "classmethod",
];

/// The built-in types, which print as `<class 'int'>`.
const TYPES: &[&str] = &[
    "int",
    "float",
    "str",
    "bool",
    "list",
    "tuple",
    "dict",
    "set",
    "object",
    "type",
    "range",
    "frozenset",
    "slice",
    "property",
    "staticmethod",
    "classmethod",
];

pub fn builtin(name: &str) -> Option<Value> {
    BUILTINS
        .iter()
        .find(|&&b| b == name)
        .map(|&b| Value::Builtin(b))
}

pub fn type_name_of_builtin(name: &str) -> Option<&'static str> {
    TYPES.iter().find(|&&t| t == name).copied()
}

impl Interpreter<'_> {
    pub async fn call_builtin(
        &mut self,
        name: &'static str,
        mut args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> PyResult<Value> {
        if let Some(native) = name.strip_prefix("torch._C.") {
            if !kwargs.is_empty() {
                return Err(PyErr::type_error(format!(
                    "torch._C.{native}() takes no keyword arguments"
                )));
            }
            return Box::pin(self.call_native(native, args)).await;
        }
        if name == "torch_tpu.stablehlo" {
            // Written in Python: torch._stablehlo (prelude/torch/_compile.py).
            let torch = self.import("torch").await?;
            let f = self.get_attribute(&torch, "_stablehlo").await?;
            return Box::pin(self.call(f, args, kwargs)).await;
        }
        if let Some(tpu_name) = name.strip_prefix("torch_tpu.") {
            return self.call_torch_tpu(tpu_name, &args, &kwargs);
        }
        if let Some(torch_name) = name.strip_prefix("torch.") {
            return Box::pin(self.call_torch(torch_name, args, kwargs)).await;
        }
        if let Some(math_name) = name.strip_prefix("math.") {
            return self.call_math(math_name, &args).await;
        }
        if let Some(copy_name) = name.strip_prefix("copy.") {
            return Box::pin(self.call_copy(copy_name, &args, &kwargs)).await;
        }
        if let Some(time_name) = name.strip_prefix("time.") {
            return crate::python::clock::call_time(time_name, &args, &kwargs);
        }
        let mut kw = Keywords(kwargs);
        let result = match name {
            "random.Random" => return self.new_random(args, kw),
            "dir" => {
                kw.finish(name)?;
                return self.dir(&args);
            }
            "help" => {
                kw.finish(name)?;
                return self.help(&args).await;
            }
            "print" => {
                let sep = kw.string("sep")?.unwrap_or_else(|| " ".into());
                let end = kw.string("end")?.unwrap_or_else(|| "\n".into());
                kw.take("flush");
                kw.finish(name)?;
                if self.runtime.is_capturing() {
                    // Dynamo cannot trace print: a graph break.
                    let types: Vec<String> = args
                        .iter()
                        .map(|v| match v {
                            Value::Tensor(_) => "'Tensor'".to_string(),
                            other => format!("'{}'", other.type_name()),
                        })
                        .collect();
                    let types = types.join(", ");
                    let reason = format!(
                        "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types [{types}] (has_kwargs False)\n  Hint: Avoid calling builtin `print` with argument types [{types}]. Consider using an equivalent alternative function/method to `print`."
                    );
                    self.runtime.capture_break(reason, true).await?;
                }
                let mut parts = Vec::with_capacity(args.len());
                for value in &args {
                    parts.push(self.str_of(value).await?);
                }
                let mut text = parts.join(&sep);
                text.push_str(&end);
                self.write_stdout(&text);
                Value::None
            }
            "object.__init__" => Value::None,
            "len" => {
                arity(name, 1, &args)?;
                Value::Int(self.len_of(&args[0]).await? as i64)
            }
            "range" => {
                let ints: Vec<i64> = args
                    .iter()
                    .map(|v| {
                        v.as_int().ok_or_else(|| {
                            PyErr::type_error(format!(
                                "'{}' object cannot be interpreted as an integer",
                                v.type_name()
                            ))
                        })
                    })
                    .collect::<PyResult<_>>()?;
                let (start, stop, step) = match ints[..] {
                    [stop] => (0, stop, 1),
                    [start, stop] => (start, stop, 1),
                    [start, stop, step] => (start, stop, step),
                    _ => {
                        return Err(PyErr::type_error(format!(
                            "range expected at most 3 arguments, got {}",
                            ints.len()
                        )));
                    }
                };
                if step == 0 {
                    return Err(PyErr::value_error("range() arg 3 must not be zero"));
                }
                Value::Range(start, stop, step)
            }
            "enumerate" | "zip" | "sorted" | "reversed" | "min" | "max" | "sum" | "any" | "all"
            | "map" | "filter" | "iter" => return self.call_iterable_builtin(name, args, kw).await,
            "abs" => {
                arity(name, 1, &args)?;
                match &args[0] {
                    Value::Int(i) => Value::Int(i.abs()),
                    Value::Bool(b) => Value::Int(*b as i64),
                    Value::Float(f) => Value::Float(f.abs()),
                    Value::Tensor(t) => {
                        self.call_torch("abs", vec![Value::Tensor(t.clone())], Vec::new())
                            .await?
                    }
                    v @ Value::Instance(_) => self.convert_special("abs", v).await?,
                    other => {
                        return Err(PyErr::type_error(format!(
                            "bad operand type for abs(): '{}'",
                            other.type_name()
                        )));
                    }
                }
            }
            "round" => {
                let ndigits = match args.get(1).cloned().or_else(|| kw.take("ndigits")) {
                    None | Some(Value::None) => None,
                    Some(v) => Some(
                        v.as_int()
                            .ok_or_else(|| PyErr::type_error("ndigits must be an integer"))?,
                    ),
                };
                let value = match args.first() {
                    Some(Value::Tensor(t)) => self.tensor_item(t).await?,
                    Some(v) => v.clone(),
                    None => {
                        return Err(PyErr::type_error(
                            "round() missing required argument 'number'",
                        ));
                    }
                };
                crate::python::numbers::round(&value, ndigits)?
            }
            "isinstance" => {
                arity(name, 2, &args)?;
                Value::Bool(self.isinstance(&args[0], &args[1])?)
            }
            "issubclass" => {
                arity(name, 2, &args)?;
                Value::Bool(crate::python::classes::issubclass(&args[0], &args[1]))
            }
            "type" if args.len() == 3 => self.new_type(args)?,
            "type" => {
                arity(name, 1, &args)?;
                self.type_of(&args[0])
            }
            "list" | "tuple" | "set" | "frozenset" => {
                let items = match args.into_iter().next() {
                    Some(v) => self.collect(v).await?,
                    None => Vec::new(),
                };
                match name {
                    "list" => Value::list(items),
                    "tuple" => Value::tuple(items),
                    _ => self.make_set(items)?,
                }
            }
            "dict" => {
                let mut dict = Dict::default();
                if let Some(source) = args.into_iter().next() {
                    match source {
                        Value::Dict(d) => dict = d.borrow().clone(),
                        other => {
                            for pair in self.collect(other).await? {
                                let kv = self.collect(pair).await?;
                                if kv.len() != 2 {
                                    return Err(PyErr::value_error(
                                        "dictionary update sequence element has wrong length",
                                    ));
                                }
                                dict.insert(
                                    crate::python::expr::hash_key(&kv[0])?,
                                    kv[0].clone(),
                                    kv[1].clone(),
                                );
                            }
                        }
                    }
                }
                for (k, v) in kw.0.drain(..) {
                    dict.insert(
                        crate::python::value::HashKey::Str(Rc::from(k.as_str())),
                        Value::str(&k),
                        v,
                    );
                }
                Value::Dict(Rc::new(RefCell::new(dict)))
            }
            "int" | "float" | "bool" | "str" | "repr" => {
                let value = args.first().cloned();
                match (name, value) {
                    ("bool", None) => Value::Bool(false),
                    ("bool", Some(v)) => Value::Bool(self.truth(&v).await?),
                    ("str", None) => Value::str(""),
                    ("str", Some(v)) => Value::str(&self.str_of(&v).await?),
                    ("repr", Some(v)) => Value::str(&self.repr_of(&v).await?),
                    ("int", None) => Value::Int(0),
                    ("float", None) => Value::Float(0.0),
                    (_, Some(v @ Value::Instance(_))) => self.convert_special(name, &v).await?,
                    (_, Some(Value::Tensor(t))) => {
                        // `Tensor.__float__`/`__int__` check the size in Python,
                        // before `item()` would.
                        if t.shape().numel() != 1 {
                            return Err(PyErr::value_error(
                                "only one element tensors can be converted to Python scalars",
                            ));
                        }
                        let item = self.tensor_item(&t).await?;
                        crate::python::numbers::convert_number(name, &item)?
                    }
                    (_, Some(v)) => crate::python::numbers::convert_number(name, &v)?,
                    _ => {
                        return Err(PyErr::type_error(format!(
                            "{name}() missing required argument"
                        )));
                    }
                }
            }
            "slice" => {
                let (start, stop, step) = match args.len() {
                    1 => (Value::None, args[0].clone(), Value::None),
                    2 => (args[0].clone(), args[1].clone(), Value::None),
                    3 => (args[0].clone(), args[1].clone(), args[2].clone()),
                    n => {
                        return Err(PyErr::type_error(format!(
                            "slice expected at most 3 arguments, got {n}"
                        )));
                    }
                };
                Value::Slice(Rc::new([start, stop, step]))
            }
            "hasattr" => {
                arity(name, 2, &args)?;
                let Value::Str(attr) = &args[1] else {
                    return Err(PyErr::type_error(
                        "hasattr(): attribute name must be string",
                    ));
                };
                Value::Bool(self.get_attribute(&args[0], attr).await.is_ok())
            }
            "getattr" => {
                let Some(Value::Str(attr)) = args.get(1).cloned() else {
                    return Err(PyErr::type_error(
                        "getattr(): attribute name must be string",
                    ));
                };
                match self.get_attribute(&args[0], &attr).await {
                    Ok(v) => v,
                    Err(e) => match args.get(2) {
                        Some(default) => default.clone(),
                        None => return Err(e),
                    },
                }
            }
            "setattr" => {
                arity(name, 3, &args)?;
                let Value::Str(attr) = &args[1] else {
                    return Err(PyErr::type_error(
                        "setattr(): attribute name must be string",
                    ));
                };
                self.set_attribute(&args[0], attr, args[2].clone()).await?;
                Value::None
            }
            "vars" => {
                arity(name, 1, &args)?;
                self.get_attribute(&args[0], "__dict__").await?
            }
            "next" => return self.next_builtin(args).await,
            "super" => {
                if !args.is_empty() {
                    return match (&args[0], args.get(1)) {
                        (Value::Class(c), Some(obj)) => {
                            Ok(Value::Super(Rc::new((c.clone(), obj.clone()))))
                        }
                        _ => Err(PyErr::type_error(
                            "super() arguments must be a class and an instance",
                        )),
                    };
                }
                let Some((function, Some(receiver))) = self.frames.last().cloned() else {
                    return Err(PyErr::new("RuntimeError", "super(): no arguments"));
                };
                let Some(class) = function.class.borrow().upgrade() else {
                    return Err(PyErr::new(
                        "RuntimeError",
                        "super(): __class__ cell not found",
                    ));
                };
                Value::Super(Rc::new((class, receiver)))
            }
            "object" => {
                let class =
                    crate::python::classes::new_class("object", Vec::new(), Default::default())?;
                self.classes.push(Rc::downgrade(&class));
                Value::Instance(Rc::new(crate::python::value::Instance::new(
                    class,
                    Vec::new(),
                )))
            }
            "callable" => {
                arity(name, 1, &args)?;
                Value::Bool(
                    matches!(
                        args[0],
                        Value::Function(_)
                            | Value::Builtin(_)
                            | Value::NativeMethod(_)
                            | Value::BoundMethod(_)
                            | Value::Class(_)
                    ) || matches!(&args[0], Value::Instance(i) if i.class().lookup("__call__").is_some()),
                )
            }
            "id" => {
                arity(name, 1, &args)?;
                Value::Int(match args[0].hash_key() {
                    Some(crate::python::value::HashKey::Id(id)) => id as i64,
                    _ => 0,
                })
            }
            "hash" => {
                arity(name, 1, &args)?;
                let key = crate::python::expr::hash_key(&args[0])?;
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                key.hash(&mut h);
                Value::Int(match key {
                    crate::python::value::HashKey::Int(i) => i,
                    _ => h.finish() as i64,
                })
            }
            "format" => {
                let spec = match args.get(1) {
                    Some(Value::Str(s)) => s.to_string(),
                    None => String::new(),
                    Some(_) => return Err(PyErr::type_error("format() argument 2 must be str")),
                };
                let value = args.first().cloned().unwrap_or(Value::None);
                Value::str(&self.format_value(&value, &spec).await?)
            }
            "chr" => {
                arity(name, 1, &args)?;
                let code = args[0]
                    .as_int()
                    .ok_or_else(|| PyErr::type_error("an integer is required"))?;
                let c = char::from_u32(code as u32)
                    .ok_or_else(|| PyErr::value_error("chr() arg not in range(0x110000)"))?;
                Value::str(&c.to_string())
            }
            "hex" | "oct" | "bin" => {
                arity(name, 1, &args)?;
                let n = match &args[0] {
                    Value::Int(i) => *i,
                    Value::Bool(b) => i64::from(*b),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "'{}' object cannot be interpreted as an integer",
                            other.type_name()
                        )));
                    }
                };
                let magnitude = n.unsigned_abs();
                let digits = match name {
                    "hex" => format!("0x{magnitude:x}"),
                    "oct" => format!("0o{magnitude:o}"),
                    _ => format!("0b{magnitude:b}"),
                };
                Value::str(&if n < 0 { format!("-{digits}") } else { digits })
            }
            "ord" => {
                arity(name, 1, &args)?;
                match &args[0] {
                    Value::Str(s) if s.chars().count() == 1 => {
                        Value::Int(s.chars().next().unwrap_or('\0') as i64)
                    }
                    other => {
                        return Err(PyErr::type_error(format!(
                            "ord() expected a character, but got {}",
                            other.type_name()
                        )));
                    }
                }
            }
            "divmod" => {
                arity(name, 2, &args)?;
                let q = crate::python::ops::arithmetic(
                    ruff_python_ast::Operator::FloorDiv,
                    &args[0],
                    &args[1],
                )?;
                let r = crate::python::ops::arithmetic(
                    ruff_python_ast::Operator::Mod,
                    &args[0],
                    &args[1],
                )?;
                Value::tuple(vec![q, r])
            }
            "pow" => {
                arity(name, 2, &args)?;
                let (a, b) = (args.remove(0), args.remove(0));
                self.binary(ruff_python_ast::Operator::Pow, a, b).await?
            }
            _ => return Err(PyErr::not_implemented(format!("{name}() is not supported"))),
        };
        Ok(result)
    }

    pub async fn len_of(&mut self, value: &Value) -> PyResult<usize> {
        Ok(match value {
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Str(s) => s.chars().count(),
            Value::Dict(d) | Value::Set(d) => d.borrow().len(),
            Value::Size(s) => s.len(),
            Value::Range(a, b, s) => crate::python::call::range_len(*a, *b, *s) as usize,
            Value::Tensor(t) => match t.shape().dims().first() {
                Some(&d) => d,
                None => return Err(PyErr::type_error("len() of a 0-d tensor")),
            },
            Value::Instance(i) => match i.class().lookup("__len__") {
                Some(method) => {
                    let n = self.call(method, vec![value.clone()], Vec::new()).await?;
                    n.as_int().unwrap_or(0) as usize
                }
                None => {
                    return Err(PyErr::type_error(format!(
                        "object of type '{}' has no len()",
                        i.class().name
                    )));
                }
            },
            other => {
                return Err(PyErr::type_error(format!(
                    "object of type '{}' has no len()",
                    other.type_name()
                )));
            }
        })
    }
}

/// CPython's check that a built-in got exactly `n` positional arguments.
pub fn arity(name: &str, n: usize, args: &[Value]) -> PyResult<()> {
    if args.len() != n {
        return Err(PyErr::type_error(format!(
            "{name}() takes exactly {n} argument{} ({} given)",
            if n == 1 { "" } else { "s" },
            args.len()
        )));
    }
    Ok(())
}

/// Keyword arguments of a built-in, consumed by name.
pub struct Keywords(pub Vec<(String, Value)>);

impl Keywords {
    pub fn take(&mut self, name: &str) -> Option<Value> {
        let i = self.0.iter().position(|(k, _)| k == name)?;
        Some(self.0.remove(i).1)
    }

    pub fn string(&mut self, name: &str) -> PyResult<Option<String>> {
        match self.take(name) {
            None | Some(Value::None) => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s.to_string())),
            Some(v) => Err(PyErr::type_error(format!(
                "{name} must be None or a string, not {}",
                v.type_name()
            ))),
        }
    }

    pub fn finish(&self, function: &str) -> PyResult<()> {
        match self.0.first() {
            Some((name, _)) => Err(PyErr::type_error(format!(
                "{function}() got an unexpected keyword argument '{name}'"
            ))),
            None => Ok(()),
        }
    }
}
