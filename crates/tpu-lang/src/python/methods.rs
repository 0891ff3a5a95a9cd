//! Methods of the built-in types: `str`, `list`, `dict`, `set` and `tuple`, plus
//! the plain attributes of devices and dtypes. Tensor methods live in `crate::torch::tensor`.

use crate::python::builtins::Keywords;
use crate::python::error::PyErr;
use crate::python::expr::hash_key;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use std::rc::Rc;

const STR_METHODS: &[&str] = &[
    "split",
    "rsplit",
    "join",
    "lower",
    "upper",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "startswith",
    "endswith",
    "find",
    "count",
    "format",
    "isdigit",
    "isalpha",
    "isspace",
    "title",
    "capitalize",
    "ljust",
    "rjust",
    "center",
    "splitlines",
    "index",
    "zfill",
];
const LIST_METHODS: &[&str] = &[
    "append", "extend", "pop", "insert", "remove", "index", "count", "sort", "reverse", "copy",
    "clear",
];
const DICT_METHODS: &[&str] = &[
    "keys",
    "values",
    "items",
    "get",
    "pop",
    "setdefault",
    "update",
    "copy",
    "clear",
];
const SET_METHODS: &[&str] = &[
    "add",
    "remove",
    "discard",
    "update",
    "union",
    "intersection",
    "difference",
    "copy",
];
const TUPLE_METHODS: &[&str] = &["index", "count"];
const SIZE_METHODS: &[&str] = &["index", "count", "numel"];

/// The methods a built-in value has here, which `dir` lists.
pub fn native_method_names(value: &Value) -> Option<&'static [&'static str]> {
    Some(match value {
        Value::Str(_) => STR_METHODS,
        Value::List(_) => LIST_METHODS,
        Value::Dict(_) => DICT_METHODS,
        Value::Set(_) => SET_METHODS,
        Value::Tuple(_) => TUPLE_METHODS,
        Value::Size(_) => SIZE_METHODS,
        Value::Random(_) => crate::python::random_module::RANDOM_METHODS,
        _ => return None,
    })
}

/// `value.name` for the built-in types, if it exists.
pub fn native_attribute(value: &Value, name: &str) -> Option<Value> {
    let methods: &[&str] = match value {
        Value::Str(_)
        | Value::List(_)
        | Value::Dict(_)
        | Value::Set(_)
        | Value::Tuple(_)
        | Value::Size(_)
        | Value::Random(_) => native_method_names(value)?,
        Value::Float(f) => {
            return match name {
                "is_integer" => Some(Value::NativeMethod(Rc::new((value.clone(), "is_integer")))),
                "real" => Some(Value::Float(*f)),
                _ => None,
            };
        }
        Value::Device(d) => {
            return match name {
                "type" => Some(Value::str(match d {
                    tpu_runtime::Device::Cpu => "cpu",
                    tpu_runtime::Device::Tpu(_) => "tpu",
                })),
                "index" => Some(match d {
                    tpu_runtime::Device::Cpu => Value::None,
                    tpu_runtime::Device::Tpu(i) => Value::Int(*i as i64),
                }),
                _ => None,
            };
        }
        Value::DType(d) => {
            return match name {
                "is_floating_point" => Some(Value::Bool(d.is_floating())),
                "itemsize" => Some(Value::Int(d.size_in_bytes() as i64)),
                _ => None,
            };
        }
        _ => return None,
    };
    let name = methods.iter().find(|&&m| m == name)?;
    Some(Value::NativeMethod(Rc::new((value.clone(), name))))
}

impl Interpreter<'_> {
    pub async fn call_native_method(
        &mut self,
        receiver: &Value,
        name: &'static str,
        mut args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> PyResult<Value> {
        let mut kw = Keywords(kwargs);
        let arg = |i: usize, args: &[Value]| -> PyResult<Value> {
            args.get(i)
                .cloned()
                .ok_or_else(|| PyErr::type_error(format!("{name}() missing required argument")))
        };
        match receiver {
            Value::Tensor(t) => {
                let t = t.clone();
                self.call_tensor_method(&t, name, args, kw.0).await
            }
            Value::Str(s) => self.str_method(s, name, args, kw).await,
            Value::Random(r) => Box::pin(self.random_method(r, name, args, kw)).await,
            Value::List(list) => {
                let result = match name {
                    "append" => {
                        list.borrow_mut().push(arg(0, &args)?);
                        Value::None
                    }
                    "extend" => {
                        let items = self.collect(arg(0, &args)?).await?;
                        list.borrow_mut().extend(items);
                        Value::None
                    }
                    "insert" => {
                        let len = list.borrow().len() as i64;
                        let i = arg(0, &args)?
                            .as_int()
                            .ok_or_else(|| PyErr::type_error("index must be an integer"))?;
                        let i = if i < 0 { (i + len).max(0) } else { i.min(len) };
                        list.borrow_mut().insert(i as usize, arg(1, &args)?);
                        Value::None
                    }
                    "pop" => {
                        let len = list.borrow().len();
                        if len == 0 {
                            return Err(PyErr::new("IndexError", "pop from empty list"));
                        }
                        let i = match args.first() {
                            Some(v) => crate::python::call::normalize_index(v, len, "pop")?,
                            None => len - 1,
                        };
                        list.borrow_mut().remove(i)
                    }
                    "remove" => {
                        let item = arg(0, &args)?;
                        let items = list.borrow().clone();
                        match self.find_equal(&items, &item).await? {
                            Some(i) => {
                                list.borrow_mut().remove(i);
                                Value::None
                            }
                            None => {
                                return Err(PyErr::value_error("list.remove(x): x not in list"));
                            }
                        }
                    }
                    "index" => {
                        let item = arg(0, &args)?;
                        let items = list.borrow().clone();
                        let pos = self.find_equal(&items, &item).await?;
                        Value::Int(
                            pos.ok_or_else(|| PyErr::value_error("value is not in list"))? as i64,
                        )
                    }
                    "count" => {
                        let item = arg(0, &args)?;
                        let items = list.borrow().clone();
                        Value::Int(self.count_equal(&items, &item).await? as i64)
                    }
                    "sort" => {
                        let key = kw.take("key");
                        let reverse = match kw.take("reverse") {
                            Some(r) => self.truth(&r).await?,
                            None => false,
                        };
                        let items = list.borrow().clone();
                        let sorted = self.sort(items, key, reverse).await?;
                        *list.borrow_mut() = sorted;
                        Value::None
                    }
                    "reverse" => {
                        list.borrow_mut().reverse();
                        Value::None
                    }
                    "copy" => Value::list(list.borrow().clone()),
                    "clear" => {
                        list.borrow_mut().clear();
                        Value::None
                    }
                    _ => return Err(unknown(receiver, name)),
                };
                kw.finish(name)?;
                Ok(result)
            }
            Value::Dict(dict) => {
                let result = match name {
                    "keys" => Value::list(dict.borrow().keys()),
                    "values" => Value::list(dict.borrow().values()),
                    "items" => Value::list(
                        dict.borrow()
                            .items()
                            .iter()
                            .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                            .collect(),
                    ),
                    "get" => {
                        let key = hash_key(&arg(0, &args)?)?;
                        dict.borrow()
                            .get(&key)
                            .cloned()
                            .unwrap_or(args.get(1).cloned().unwrap_or(Value::None))
                    }
                    "pop" => {
                        let key_value = arg(0, &args)?;
                        let key = hash_key(&key_value)?;
                        let removed = dict.borrow_mut().remove(&key);
                        match (removed, args.get(1)) {
                            (Some(v), _) => v,
                            (None, Some(default)) => default.clone(),
                            (None, None) => {
                                return Err(self.key_error(&key_value).await);
                            }
                        }
                    }
                    "setdefault" => {
                        let key_value = arg(0, &args)?;
                        let key = hash_key(&key_value)?;
                        let existing = dict.borrow().get(&key).cloned();
                        match existing {
                            Some(v) => v,
                            None => {
                                let v = args.get(1).cloned().unwrap_or(Value::None);
                                dict.borrow_mut().insert(key, key_value, v.clone());
                                v
                            }
                        }
                    }
                    "update" => {
                        if let Some(Value::Dict(other)) = args.first() {
                            let items = other.borrow().items().to_vec();
                            for (k, v) in items {
                                dict.borrow_mut().insert(hash_key(&k)?, k, v);
                            }
                        }
                        for (k, v) in kw.0.drain(..) {
                            dict.borrow_mut().insert(
                                crate::python::value::HashKey::Str(Rc::from(k.as_str())),
                                Value::str(&k),
                                v,
                            );
                        }
                        Value::None
                    }
                    "copy" => Value::Dict(Rc::new(std::cell::RefCell::new(dict.borrow().clone()))),
                    "clear" => {
                        *dict.borrow_mut() = Default::default();
                        Value::None
                    }
                    _ => return Err(unknown(receiver, name)),
                };
                kw.finish(name)?;
                Ok(result)
            }
            Value::Set(set) => {
                let result = match name {
                    "add" => {
                        let item = arg(0, &args)?;
                        set.borrow_mut().insert(hash_key(&item)?, item, Value::None);
                        Value::None
                    }
                    "remove" | "discard" => {
                        let item = arg(0, &args)?;
                        let removed = set.borrow_mut().remove(&hash_key(&item)?);
                        if removed.is_none() && name == "remove" {
                            return Err(self.key_error(&item).await);
                        }
                        Value::None
                    }
                    "update" => {
                        for a in args.drain(..) {
                            for item in self.collect(a).await? {
                                set.borrow_mut().insert(hash_key(&item)?, item, Value::None);
                            }
                        }
                        Value::None
                    }
                    "union" | "intersection" | "difference" => {
                        let other = self.collect(arg(0, &args)?).await?;
                        let mine = set.borrow().keys();
                        let other_set = self.make_set(other.clone())?;
                        let Value::Set(other_dict) = &other_set else {
                            unreachable!("make_set makes a set")
                        };
                        let items: Vec<Value> = match name {
                            "union" => mine.into_iter().chain(other).collect(),
                            "intersection" => mine
                                .into_iter()
                                .filter(|x| {
                                    x.hash_key()
                                        .is_some_and(|k| other_dict.borrow().contains(&k))
                                })
                                .collect(),
                            _ => mine
                                .into_iter()
                                .filter(|x| {
                                    !x.hash_key()
                                        .is_some_and(|k| other_dict.borrow().contains(&k))
                                })
                                .collect(),
                        };
                        self.make_set(items)?
                    }
                    "copy" => Value::Set(Rc::new(std::cell::RefCell::new(set.borrow().clone()))),
                    _ => return Err(unknown(receiver, name)),
                };
                Ok(result)
            }
            // `torch.Size.numel()`: the product of the sizes.
            Value::Size(dims) if name == "numel" => {
                Ok(Value::Int(dims.iter().map(|&d| d as i64).product::<i64>()))
            }
            Value::Tuple(_) | Value::Size(_) => {
                let items = self.collect(receiver.clone()).await?;
                let item = arg(0, &args)?;
                match name {
                    "index" => self
                        .find_equal(&items, &item)
                        .await?
                        .map(|i| Value::Int(i as i64))
                        .ok_or_else(|| PyErr::value_error("tuple.index(x): x not in tuple")),
                    _ => Ok(Value::Int(self.count_equal(&items, &item).await? as i64)),
                }
            }
            Value::Float(f) if name == "is_integer" => Ok(Value::Bool(f.fract() == 0.0)),
            _ => Err(unknown(receiver, name)),
        }
    }

    async fn str_method(
        &mut self,
        s: &Rc<str>,
        name: &'static str,
        args: Vec<Value>,
        mut kw: Keywords,
    ) -> PyResult<Value> {
        let text = |i: usize| -> PyResult<Option<String>> {
            match args.get(i) {
                None | Some(Value::None) => Ok(None),
                Some(Value::Str(t)) => Ok(Some(t.to_string())),
                Some(v) => Err(PyErr::type_error(format!(
                    "must be str or None, not {}",
                    v.type_name()
                ))),
            }
        };
        let strs = |items: Vec<&str>| Value::list(items.into_iter().map(Value::str).collect());
        Ok(match name {
            "split" | "rsplit" => {
                let sep = text(0)?.or(kw.string("sep")?);
                let max = args
                    .get(1)
                    .and_then(Value::as_int)
                    .or(kw.take("maxsplit").and_then(|v| v.as_int()));
                match (sep, max) {
                    (None, None) => strs(s.split_whitespace().collect()),
                    (Some(sep), _) if sep.is_empty() => {
                        return Err(PyErr::value_error("empty separator"));
                    }
                    (Some(sep), None) => strs(s.split(sep.as_str()).collect()),
                    (Some(sep), Some(n)) if name == "split" => {
                        strs(s.splitn(n as usize + 1, sep.as_str()).collect())
                    }
                    (Some(sep), Some(n)) => {
                        let mut parts: Vec<&str> =
                            s.rsplitn(n as usize + 1, sep.as_str()).collect();
                        parts.reverse();
                        strs(parts)
                    }
                    (None, Some(n)) => {
                        strs(s.splitn(n as usize + 1, char::is_whitespace).collect())
                    }
                }
            }
            "join" => {
                let items = self
                    .collect(args.first().cloned().unwrap_or(Value::None))
                    .await?;
                let mut parts = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::Str(t) => parts.push(t.to_string()),
                        other => {
                            return Err(PyErr::type_error(format!(
                                "sequence item {i}: expected str instance, {} found",
                                other.type_name()
                            )));
                        }
                    }
                }
                Value::str(&parts.join(s))
            }
            "lower" => Value::str(&s.to_lowercase()),
            "upper" => Value::str(&s.to_uppercase()),
            "strip" | "lstrip" | "rstrip" => {
                let chars: Option<Vec<char>> = text(0)?.map(|t| t.chars().collect());
                let matches = |c: char| match &chars {
                    Some(set) => set.contains(&c),
                    None => c.is_whitespace(),
                };
                Value::str(match name {
                    "strip" => s.trim_matches(matches),
                    "lstrip" => s.trim_start_matches(matches),
                    _ => s.trim_end_matches(matches),
                })
            }
            "replace" => {
                let (from, to) = (text(0)?.unwrap_or_default(), text(1)?.unwrap_or_default());
                Value::str(&s.replace(from.as_str(), &to))
            }
            "startswith" | "endswith" => {
                let prefixes = match args.first() {
                    Some(Value::Tuple(t)) => t.to_vec(),
                    Some(v) => vec![v.clone()],
                    None => Vec::new(),
                };
                let hit = prefixes.iter().any(|p| match p {
                    Value::Str(p) => {
                        if name == "startswith" {
                            s.starts_with(&**p)
                        } else {
                            s.ends_with(&**p)
                        }
                    }
                    _ => false,
                });
                Value::Bool(hit)
            }
            "find" | "index" => {
                let needle = text(0)?.unwrap_or_default();
                match s.find(needle.as_str()) {
                    Some(byte) => Value::Int(s[..byte].chars().count() as i64),
                    None if name == "find" => Value::Int(-1),
                    None => return Err(PyErr::value_error("substring not found")),
                }
            }
            "count" => Value::Int(s.matches(text(0)?.unwrap_or_default().as_str()).count() as i64),
            "format" => Value::str(&self.str_format(s, &args, &kw.0).await?),
            "isdigit" => Value::Bool(!s.is_empty() && s.chars().all(|c| c.is_ascii_digit())),
            "isalpha" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphabetic)),
            "isspace" => Value::Bool(!s.is_empty() && s.chars().all(char::is_whitespace)),
            "title" | "capitalize" => {
                let mut out = String::with_capacity(s.len());
                let mut start = true;
                for c in s.chars() {
                    if start {
                        out.extend(c.to_uppercase());
                    } else if name == "capitalize" || c.is_alphabetic() {
                        out.extend(c.to_lowercase());
                    } else {
                        out.push(c);
                    }
                    start = if name == "title" {
                        !c.is_alphabetic()
                    } else {
                        false
                    };
                }
                Value::str(&out)
            }
            "ljust" | "rjust" | "center" | "zfill" => {
                let width = args.first().and_then(Value::as_int).unwrap_or(0).max(0) as usize;
                crate::python::ops::check_len(width)?;
                let fill = if name == "zfill" {
                    "0".to_string()
                } else {
                    text(1)?.unwrap_or_else(|| " ".into())
                };
                let align = match name {
                    "ljust" => "<",
                    "center" => "^",
                    _ => ">",
                };
                Value::str(&crate::python::pyformat::format_str(
                    s,
                    &format!("{fill}{align}{width}"),
                )?)
            }
            "splitlines" => strs(s.lines().collect()),
            _ => return Err(unknown(&Value::Str(s.clone()), name)),
        })
    }

    /// `"{} {:.2f} {name}".format(...)`.
    async fn str_format(
        &mut self,
        template: &str,
        args: &[Value],
        kwargs: &[(String, Value)],
    ) -> PyResult<String> {
        let mut out = String::new();
        let mut chars = template.chars().peekable();
        let mut auto = 0;
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    out.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    out.push('}');
                }
                '{' => {
                    let mut field = String::new();
                    for c in chars.by_ref() {
                        if c == '}' {
                            break;
                        }
                        field.push(c);
                    }
                    let (name, spec) = field.split_once(':').unwrap_or((&field, ""));
                    let (name, conversion) = name.split_once('!').unwrap_or((name, ""));
                    let value = if name.is_empty() {
                        auto += 1;
                        args.get(auto - 1).cloned()
                    } else if let Ok(i) = name.parse::<usize>() {
                        args.get(i).cloned()
                    } else {
                        kwargs
                            .iter()
                            .find(|(k, _)| k == name)
                            .map(|(_, v)| v.clone())
                    }
                    .ok_or_else(|| {
                        PyErr::new(
                            "IndexError",
                            format!("Replacement index {name} out of range"),
                        )
                    })?;
                    let value = match conversion {
                        "r" => Value::str(&self.repr_of(&value).await?),
                        "s" => Value::str(&self.str_of(&value).await?),
                        _ => value,
                    };
                    out.push_str(&self.format_value(&value, spec).await?);
                }
                c => out.push(c),
            }
        }
        Ok(out)
    }
}

fn unknown(receiver: &Value, name: &str) -> PyErr {
    PyErr::new(
        "AttributeError",
        format!(
            "'{}' object has no attribute '{name}'",
            receiver.type_name()
        ),
    )
}
