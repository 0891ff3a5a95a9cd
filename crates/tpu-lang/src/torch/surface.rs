//! What `import torch` gives a program, described as data: every public
//! function, method and class of the torch namespaces this project has, with
//! its parameters (names, kinds, defaults). The inventory test
//! (`tests/inventory.rs`) compares it with what PyTorch 2.15 recorded about
//! itself (`tests/inventory/torch-2.15.json`), and the README's coverage table
//! is generated from the two.
//!
//! Functions written in Python (the prelude) are described from their `def`;
//! the few written in Rust declare their signature in `NATIVE_SIGNATURES`,
//! which states the keywords their Rust argument parsing accepts.

use crate::python::interp::{Interpreter, PyResult};
use crate::python::source::SourceFile;
use crate::python::value::{Class, Function, FunctionCode, Value};
use crate::torch::tensor::TENSOR_METHODS;
use std::rc::Rc;
use tpu_runtime::Runtime;

/// How a parameter can be passed, in `inspect.Parameter`'s terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Positional,
    Either,
    Keyword,
    VarArgs,
    VarKeywords,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    /// The default's `repr`, or `None` when the parameter is required.
    pub default: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Function,
    Class,
    /// A tensor attribute or a module constant (`shape`, `torch.float32`).
    Value,
}

/// One public name of a torch namespace (`torch`, `torch.nn.functional`,
/// `torch.nn.init`, `torch.nn`, `torch.optim`, `torch.optim.lr_scheduler`,
/// `torch.utils.data`) or of `Tensor`.
#[derive(Clone, Debug)]
pub struct SurfaceItem {
    pub namespace: String,
    pub name: String,
    pub kind: ItemKind,
    /// The parameters (of `__init__` for a class, without `self`), when known.
    pub params: Option<Vec<Param>>,
    /// A prelude function that only raises `NotImplementedError` (a stub
    /// naming what is missing): present, but not supported.
    pub refuses: bool,
}

/// The signatures of the functions and methods written in Rust, as their
/// argument parsing accepts them (`torch/module.rs`, `torch/tensor.rs`).
const NATIVE_SIGNATURES: &[(&str, &str)] = &[
    (
        "torch.full",
        "size, fill_value, *, dtype=None, device=None, requires_grad=False",
    ),
    (
        "torch.tensor",
        "data, *, dtype=None, device=None, requires_grad=False",
    ),
    ("torch.is_tensor", "obj"),
    ("torch.abs", "input, *, out=None"),
    ("torch.neg", "input, *, out=None"),
    ("torch.relu", "input, *, out=None"),
    ("torch.exp", "input, *, out=None"),
    ("torch.log", "input, *, out=None"),
    ("torch.sqrt", "input, *, out=None"),
    ("torch.tanh", "input, *, out=None"),
    ("torch.sigmoid", "input, *, out=None"),
    ("torch.sin", "input, *, out=None"),
    ("torch.cos", "input, *, out=None"),
    ("torch.manual_seed", "seed"),
    ("torch.initial_seed", ""),
    ("torch.is_inference_mode_enabled", ""),
    (
        "torch.rand",
        "*size, generator=None, dtype=None, device=None, requires_grad=False",
    ),
    (
        "torch.randn",
        "*size, generator=None, dtype=None, device=None, requires_grad=False",
    ),
    (
        "torch.empty",
        "*size, dtype=None, device=None, requires_grad=False",
    ),
    ("Tensor.item", ""),
    ("Tensor.cpu", ""),
    ("Tensor.to", "*args, **kwargs"),
    ("Tensor.size", "dim=None"),
    ("Tensor.dim", ""),
    ("Tensor.numel", ""),
    ("Tensor.tolist", ""),
    ("Tensor.float", ""),
    ("Tensor.long", ""),
    ("Tensor.bool", ""),
    ("Tensor.bfloat16", ""),
    ("Tensor.double", ""),
    ("Tensor.int", ""),
    ("Tensor.abs", ""),
    ("Tensor.neg", ""),
    ("Tensor.relu", ""),
    ("Tensor.exp", ""),
    ("Tensor.log", ""),
    ("Tensor.sqrt", ""),
    ("Tensor.tanh", ""),
    ("Tensor.sigmoid", ""),
    ("Tensor.sin", ""),
    ("Tensor.cos", ""),
    ("Tensor.erf", ""),
    ("Tensor.floor", ""),
    ("Tensor.ceil", ""),
    ("Tensor.sign", ""),
];

/// The attributes of a tensor that are values, not methods (`tensor.rs`'s
/// `tensor_attribute`).
pub const TENSOR_ATTRIBUTES: &[&str] = &[
    "shape",
    "device",
    "dtype",
    "ndim",
    "is_leaf",
    "requires_grad",
    "grad",
    "grad_fn",
    "data",
    "is_cuda",
    "T",
    "mT",
];

/// The namespaces described, as modules of the running interpreter.
const MODULES: &[&str] = &[
    "torch",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.utils.data",
];

/// Parses a declared signature (`"input, *, dim=None"`) into parameters.
fn parse_signature(text: &str) -> Vec<Param> {
    let mut params = Vec::new();
    let mut keyword_only = false;
    for part in text.split(", ").filter(|p| !p.is_empty()) {
        if part == "*" {
            keyword_only = true;
            continue;
        }
        let (kind, name) = if let Some(rest) = part.strip_prefix("**") {
            (ParamKind::VarKeywords, rest)
        } else if let Some(rest) = part.strip_prefix('*') {
            keyword_only = true;
            (ParamKind::VarArgs, rest)
        } else if keyword_only {
            (ParamKind::Keyword, part)
        } else {
            (ParamKind::Either, part)
        };
        let (name, default) = match name.split_once('=') {
            Some((n, d)) => (n, Some(d.to_string())),
            None => (name, None),
        };
        params.push(Param {
            name: name.to_string(),
            kind,
            default,
        });
    }
    params
}

fn native_signature(qualified: &str) -> Option<Vec<Param>> {
    NATIVE_SIGNATURES
        .iter()
        .find(|(name, _)| *name == qualified)
        .map(|(_, sig)| parse_signature(sig))
}

/// Whether a prelude function only says it is not supported: its body
/// starts with `raise NotImplementedError(...)`. Such a name is PyTorch's but
/// not supported, and is counted so.
fn only_refuses(f: &Function) -> bool {
    use ruff_python_ast::{Expr, Stmt};
    let FunctionCode::Def(def) = &f.code else {
        return false;
    };
    let Some(Stmt::Raise(raise)) = def.body.first() else {
        return false;
    };
    let Some(exc) = raise.exc.as_deref() else {
        return false;
    };
    let callee = match exc {
        Expr::Call(call) => &*call.func,
        other => other,
    };
    matches!(callee, Expr::Name(n) if n.id.as_str() == "NotImplementedError")
}

/// A namespace's public names (no leading `_`) and values, sorted by name.
fn public_names(attrs: &std::collections::HashMap<String, Value>) -> Vec<(String, Value)> {
    let mut names: Vec<(String, Value)> = attrs
        .iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    names
}

impl Interpreter<'_> {
    /// A Python function's parameters, defaults as their `repr`.
    async fn function_params(&mut self, f: &Function, skip_self: bool) -> PyResult<Vec<Param>> {
        let Some(parameters) = f.parameters() else {
            return Ok(Vec::new());
        };
        let mut params = Vec::new();
        let groups = [
            (&parameters.posonlyargs, ParamKind::Positional),
            (&parameters.args, ParamKind::Either),
        ];
        for (list, kind) in groups {
            for p in list.iter() {
                params.push((p.parameter.name.to_string(), kind));
            }
        }
        if let Some(v) = &parameters.vararg {
            params.push((v.name.to_string(), ParamKind::VarArgs));
        }
        for p in parameters.kwonlyargs.iter() {
            params.push((p.parameter.name.to_string(), ParamKind::Keyword));
        }
        if let Some(v) = &parameters.kwarg {
            params.push((v.name.to_string(), ParamKind::VarKeywords));
        }
        if skip_self && !params.is_empty() {
            params.remove(0);
        }
        let mut out = Vec::new();
        for (name, kind) in params {
            let default = match f.defaults.get(&name) {
                Some(v) => Some(self.repr_of(&v.clone()).await?),
                None => None,
            };
            out.push(Param {
                name,
                kind,
                default,
            });
        }
        Ok(out)
    }

    async fn class_params(&mut self, class: &Rc<Class>) -> PyResult<Option<Vec<Param>>> {
        match class.lookup("__init__") {
            Some(Value::Function(f)) => Ok(Some(self.function_params(&f, true).await?)),
            _ => Ok(Some(Vec::new())),
        }
    }

    async fn describe(
        &mut self,
        namespace: &str,
        name: &str,
        value: &Value,
    ) -> PyResult<SurfaceItem> {
        let (kind, params) = match value {
            Value::Function(f) => (
                ItemKind::Function,
                Some(self.function_params(f, false).await?),
            ),
            // `torch.Size` is a class (a tuple subclass) built in Rust.
            Value::Builtin("torch.Size") => (ItemKind::Class, None),
            Value::Builtin(q) => (ItemKind::Function, native_signature(q)),
            Value::Class(c) => (ItemKind::Class, self.class_params(c).await?),
            Value::TorchContext(_) => (ItemKind::Class, None),
            _ => (ItemKind::Value, None),
        };
        Ok(SurfaceItem {
            namespace: namespace.to_string(),
            name: name.to_string(),
            kind,
            params,
            refuses: false,
        })
    }

    async fn describe_surface(&mut self) -> PyResult<Vec<SurfaceItem>> {
        self.import("torch").await?;
        let mut items = Vec::new();
        for &namespace in MODULES {
            let Some(Value::Module(m)) = self.modules.get(namespace).cloned() else {
                continue;
            };
            let names = public_names(&m.attrs.borrow());
            for (name, value) in names {
                if matches!(value, Value::Module(_)) {
                    continue;
                }
                let mut item = self.describe(namespace, &name, &value).await?;
                item.refuses = match &value {
                    Value::Function(f) => only_refuses(f),
                    Value::Class(c) => {
                        matches!(c.lookup("__init__"), Some(Value::Function(f)) if only_refuses(&f))
                    }
                    _ => false,
                };
                items.push(item);
            }
        }
        for &name in TENSOR_METHODS {
            items.push(SurfaceItem {
                namespace: "Tensor".into(),
                name: name.into(),
                kind: ItemKind::Function,
                params: native_signature(&format!("Tensor.{name}")),
                refuses: false,
            });
        }
        for &name in TENSOR_ATTRIBUTES {
            items.push(SurfaceItem {
                namespace: "Tensor".into(),
                name: name.into(),
                kind: ItemKind::Value,
                params: None,
                refuses: false,
            });
        }
        if let Some(tensor) = self.tensor_class.clone() {
            let names = public_names(&tensor.attrs.borrow());
            for (name, value) in names {
                let refuses = matches!(&value, Value::Function(f) if only_refuses(f));
                let item = match &value {
                    Value::Function(f) => SurfaceItem {
                        namespace: "Tensor".into(),
                        name,
                        kind: ItemKind::Function,
                        params: Some(self.function_params(f, true).await?),
                        refuses,
                    },
                    _ => SurfaceItem {
                        namespace: "Tensor".into(),
                        name,
                        kind: ItemKind::Value,
                        params: None,
                        refuses,
                    },
                };
                items.push(item);
            }
        }
        Ok(items)
    }
}

/// Imports torch in a fresh interpreter and describes what it holds.
pub async fn torch_surface(runtime: &mut Runtime) -> Result<Vec<SurfaceItem>, String> {
    let file = Rc::new(SourceFile::new("<surface>", ""));
    let mut interp = Interpreter::new(runtime, file, u64::MAX / 4);
    let result = interp.describe_surface().await;
    interp.teardown();
    result.map_err(|e| format!("{e:?}"))
}
