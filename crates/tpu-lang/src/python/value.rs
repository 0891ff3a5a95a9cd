//! Python values as the interpreter holds them. Containers, functions, classes and
//! instances are reference-counted like CPython's objects, so aliasing
//! (`b = a; b.append(1)`) and identity (`is`) behave as in Python.

use crate::python::env::Env;
use crate::python::source::SourceFile;
use ruff_python_ast as ast;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};
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
    Dict(Rc<RefCell<Dict>>),
    /// A set is a dict whose values are all `None`.
    Set(Rc<RefCell<Dict>>),
    Range(i64, i64, i64),
    Slice(Rc<[Value; 3]>),
    Function(Rc<Function>),
    /// A function implemented in Rust, by qualified name (`print`, `torch.ones`);
    /// also the built-in types (`int`, `float`), which are callable.
    Builtin(&'static str),
    /// A method implemented in Rust, bound to its receiver (`"a,b".split`).
    NativeMethod(Rc<(Value, &'static str)>),
    /// A Python function bound to an instance.
    BoundMethod(Rc<(Value, Rc<Function>)>),
    Class(Rc<Class>),
    Instance(Rc<Instance>),
    Module(Rc<Module>),
    /// `super()`: look attributes up in the MRO of the instance after `class`.
    Super(Rc<(Rc<Class>, Value)>),
    Tensor(Tensor),
    /// `torch.Size`: a tuple of ints that prints as `torch.Size([2, 3])`.
    Size(Rc<[usize]>),
    Device(Device),
    DType(DType),
    /// A context manager of the torch API kept in Rust (`torch.no_grad()`,
    /// `torch.inference_mode()`, `torch.random.fork_rng()`), which is also a
    /// decorator when called on a function.
    TorchContext(TorchContext),
    /// A `random.Random` generator (the `random` module's functions are the
    /// methods of a hidden one).
    Random(Rc<RefCell<crate::python::random::PythonRandom>>),
    /// `NotImplemented`, which a binary special method returns to let the other
    /// operand's reflected method try.
    NotImplemented,
    /// An iterator over a built-in iterable (`iter([1, 2])`), advanced by `next()`.
    Iterator(Rc<RefCell<crate::python::iteration::Iter>>),
    /// `property`, `staticmethod` and `classmethod` objects, which change what
    /// looking a name up on an instance or a class gives.
    Descriptor(Rc<Descriptor>),
}

/// What a `Value::TorchContext` sets while its `with` block runs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum TorchContext {
    /// `torch.no_grad()`.
    NoGrad,
    /// `torch.enable_grad()`.
    EnableGrad,
    /// `torch.inference_mode(mode)`.
    InferenceMode(bool),
    /// `torch.random.fork_rng(enabled=...)`: the RNG state is restored after.
    ForkRng(bool),
}

impl TorchContext {
    /// The class name PyTorch gives the object.
    pub fn name(self) -> &'static str {
        match self {
            TorchContext::NoGrad => "no_grad",
            TorchContext::EnableGrad => "enable_grad",
            TorchContext::InferenceMode(_) => "inference_mode",
            TorchContext::ForkRng(_) => "fork_rng",
        }
    }
}

/// The built-in descriptors a class body creates with decorators.
pub enum Descriptor {
    /// `property(fget, fset, fdel, doc)`; `None` where a part is missing.
    Property {
        fget: Value,
        fset: Value,
        fdel: Value,
    },
    StaticMethod(Value),
    ClassMethod(Value),
}

/// A `def` or a `lambda`, with what it captured when it was created.
pub struct Function {
    pub name: String,
    pub code: FunctionCode,
    /// Evaluated defaults by parameter name, as CPython evaluates them once at `def`.
    pub defaults: HashMap<String, Value>,
    /// The scope the function was defined in.
    pub closure: Rc<Env>,
    pub file: Rc<SourceFile>,
    /// The class whose body defined this function, for zero-argument `super()`.
    pub class: RefCell<Weak<Class>>,
}

#[derive(Clone)]
pub enum FunctionCode {
    Def(Rc<ast::StmtFunctionDef>),
    Lambda(Rc<ast::ExprLambda>),
}

impl Function {
    pub fn parameters(&self) -> Option<&ast::Parameters> {
        match &self.code {
            FunctionCode::Def(d) => Some(&d.parameters),
            FunctionCode::Lambda(l) => l.parameters.as_deref(),
        }
    }
}

pub struct Class {
    pub name: String,
    pub bases: Vec<Rc<Class>>,
    /// Method resolution order, this class first (C3 linearisation).
    pub mro: RefCell<Vec<Rc<Class>>>,
    pub attrs: RefCell<HashMap<String, Value>>,
}

impl Class {
    /// Looks `name` up along the MRO.
    pub fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.attrs.borrow().get(name) {
            return Some(v.clone());
        }
        self.mro
            .borrow()
            .iter()
            .skip(1)
            .find_map(|c| c.attrs.borrow().get(name).cloned())
    }

    pub fn is_subclass_of(&self, other: &Rc<Class>) -> bool {
        self.mro.borrow().iter().any(|c| Rc::ptr_eq(c, other))
    }
}

pub struct Instance {
    /// Its class, which assigning `obj.__class__` replaces (FSDP2 does).
    pub class_cell: RefCell<Rc<Class>>,
    /// Attributes in assignment order (`vars(obj)` order), which is also the order
    /// `nn.Module` registers parameters and submodules in.
    pub attrs: RefCell<Vec<(Rc<str>, Value)>>,
}

impl Instance {
    pub fn new(class: Rc<Class>, attrs: Vec<(Rc<str>, Value)>) -> Self {
        Instance {
            class_cell: RefCell::new(class),
            attrs: RefCell::new(attrs),
        }
    }

    pub fn class(&self) -> Rc<Class> {
        self.class_cell.borrow().clone()
    }

    pub fn get(&self, name: &str) -> Option<Value> {
        self.attrs
            .borrow()
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| v.clone())
    }

    pub fn remove(&self, name: &str) -> Option<Value> {
        let mut attrs = self.attrs.borrow_mut();
        let i = attrs.iter().position(|(k, _)| &**k == name)?;
        Some(attrs.remove(i).1)
    }

    pub fn set(&self, name: &str, value: Value) {
        let mut attrs = self.attrs.borrow_mut();
        match attrs.iter_mut().find(|(k, _)| &**k == name) {
            Some(slot) => slot.1 = value,
            None => attrs.push((Rc::from(name), value)),
        }
    }
}

pub struct Module {
    pub name: String,
    pub attrs: RefCell<HashMap<String, Value>>,
}

/// The key of a dict entry: Python's hash equality (`1 == 1.0 == True`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum HashKey {
    None,
    Int(i64),
    Float(u64),
    Str(Rc<str>),
    Tuple(Vec<HashKey>),
    /// Objects hashed by identity: functions, classes, instances, tensors.
    Id(usize),
    /// Immutable torch values hashed by what they are: a dtype, a device, a
    /// `torch.Size` (which hashes as the tuple of its sizes in PyTorch, kept
    /// apart here only by being a separate kind of key), a range.
    Value(&'static str, String),
}

/// An insertion-ordered dict.
#[derive(Default, Clone)]
pub struct Dict {
    entries: Vec<(Value, Value)>,
    index: HashMap<HashKey, usize>,
}

impl Dict {
    pub fn get(&self, key: &HashKey) -> Option<&Value> {
        self.index.get(key).map(|&i| &self.entries[i].1)
    }

    pub fn insert(&mut self, hk: HashKey, key: Value, value: Value) {
        match self.index.get(&hk) {
            Some(&i) => self.entries[i].1 = value,
            None => {
                self.index.insert(hk, self.entries.len());
                self.entries.push((key, value));
            }
        }
    }

    pub fn remove(&mut self, hk: &HashKey) -> Option<Value> {
        let i = self.index.remove(hk)?;
        let (_, v) = self.entries.remove(i);
        for slot in self.index.values_mut() {
            if *slot > i {
                *slot -= 1;
            }
        }
        Some(v)
    }

    pub fn contains(&self, hk: &HashKey) -> bool {
        self.index.contains_key(hk)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn keys(&self) -> Vec<Value> {
        self.entries.iter().map(|(k, _)| k.clone()).collect()
    }

    pub fn values(&self) -> Vec<Value> {
        self.entries.iter().map(|(_, v)| v.clone()).collect()
    }

    pub fn items(&self) -> &[(Value, Value)] {
        &self.entries
    }
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(items)))
    }

    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(items.into())
    }

    /// The name `type(v).__name__` gives, used in error messages.
    pub fn type_name(&self) -> String {
        match self {
            Value::Instance(i) => i.class().name.clone(),
            other => other.builtin_type_name().to_string(),
        }
    }

    pub fn builtin_type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Dict(_) => "dict",
            Value::Set(_) => "set",
            Value::Range(..) => "range",
            Value::Slice(_) => "slice",
            Value::Function(_) => "function",
            Value::Builtin(_) | Value::NativeMethod(_) => "builtin_function_or_method",
            Value::BoundMethod(_) => "method",
            Value::Class(_) => "type",
            Value::Instance(_) => "object",
            Value::Module(_) => "module",
            Value::Super(_) => "super",
            Value::Tensor(_) => "Tensor",
            Value::Size(_) => "Size",
            Value::Device(_) => "device",
            Value::DType(_) => "dtype",
            Value::TorchContext(c) => c.name(),
            Value::Random(_) => "Random",
            Value::NotImplemented => "NotImplementedType",
            Value::Iterator(_) => "iterator",
            Value::Descriptor(d) => match **d {
                Descriptor::Property { .. } => "property",
                Descriptor::StaticMethod(_) => "staticmethod",
                Descriptor::ClassMethod(_) => "classmethod",
            },
        }
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

    /// An int (or bool) as `i64`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Bool(b) => Some(*b as i64),
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// Object identity, for `is`.
    pub fn is(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::NotImplemented, Value::NotImplemented) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            // dtypes are singletons in PyTorch: `x.dtype is torch.float32`.
            (Value::DType(a), Value::DType(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => match (self.identity(), other.identity()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }

    /// The object's address, for values that are objects (containers and so on).
    pub fn identity(&self) -> Option<usize> {
        Some(match self {
            Value::List(l) => Rc::as_ptr(l) as *const u8 as usize,
            Value::Dict(d) | Value::Set(d) => Rc::as_ptr(d) as *const u8 as usize,
            Value::Tuple(t) => t.as_ptr() as usize,
            Value::Function(f) => Rc::as_ptr(f) as usize,
            Value::Class(c) => Rc::as_ptr(c) as usize,
            Value::Instance(i) => Rc::as_ptr(i) as usize,
            Value::Module(m) => Rc::as_ptr(m) as usize,
            Value::Random(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Iterator(i) => Rc::as_ptr(i) as *const u8 as usize,
            Value::Descriptor(d) => Rc::as_ptr(d) as *const u8 as usize,
            Value::Tensor(t) => t.identity(),
            Value::Builtin(name) => name.as_ptr() as usize,
            _ => return None,
        })
    }

    /// The dict key for this value, or `None` if it is unhashable.
    pub fn hash_key(&self) -> Option<HashKey> {
        Some(match self {
            Value::None => HashKey::None,
            Value::Bool(b) => HashKey::Int(*b as i64),
            Value::Int(i) => HashKey::Int(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => HashKey::Int(*f as i64),
            Value::Float(f) => HashKey::Float(f.to_bits()),
            Value::Str(s) => HashKey::Str(s.clone()),
            Value::Tuple(items) => {
                HashKey::Tuple(items.iter().map(Value::hash_key).collect::<Option<_>>()?)
            }
            Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Slice(_) => return None,
            Value::DType(d) => HashKey::Value("dtype", d.torch_name().to_string()),
            Value::Device(d) => HashKey::Value("device", d.to_string()),
            Value::Size(dims) => {
                HashKey::Tuple(dims.iter().map(|&d| HashKey::Int(d as i64)).collect())
            }
            Value::Range(a, b, c) => HashKey::Value("range", format!("{a}:{b}:{c}")),
            Value::TorchContext(c) => HashKey::Value("context", format!("{c:?}")),
            Value::NotImplemented => HashKey::Value("NotImplemented", String::new()),
            other => HashKey::Id(other.identity().unwrap_or(0)),
        })
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
