//! Binding call arguments to a Python function's parameters exactly as CPython
//! does: positional, keyword, defaults, `*args`, `**kwargs`, keyword-only and
//! positional-only parameters, with CPython's `TypeError` wording for missing,
//! surplus, duplicate and unexpected arguments.

use crate::python::env::Env;
use crate::python::error::PyErr;
use crate::python::interp::PyResult;
use crate::python::value::{Dict, Function, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// PyTorch keywords that the prelude's torch functions do not take, by design:
/// results are new dense tensors (`out`, `layout`, `memory_format`), there is
/// no pinned memory (`pin_memory`), and named tensors are not modelled
/// (`names`). `tests/inventory.rs` exempts the same names from its signature
/// check.
pub const UNSUPPORTED_TORCH_KEYWORDS: &[&str] =
    &["out", "layout", "memory_format", "pin_memory", "names"];

/// Binds call arguments to a function's parameters in `scope`.
pub fn bind_arguments(
    f: &Function,
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
    scope: &Rc<Env>,
) -> PyResult<()> {
    let name = &f.name;
    let Some(params) = f.parameters() else {
        if !args.is_empty() || !kwargs.is_empty() {
            return Err(PyErr::type_error(format!(
                "{name}() takes 0 positional arguments but {} were given",
                args.len()
            )));
        }
        return Ok(());
    };
    let positional: Vec<&str> = params
        .posonlyargs
        .iter()
        .chain(&params.args)
        .map(|p| p.parameter.name.as_str())
        .collect();
    let mut vars = scope.vars.borrow_mut();
    let given = args.len();
    let mut extra = Vec::new();
    for (i, value) in args.into_iter().enumerate() {
        match positional.get(i) {
            Some(p) => {
                vars.insert(p.to_string(), value);
            }
            None => extra.push(value),
        }
    }
    match &params.vararg {
        Some(v) => {
            vars.insert(v.name.to_string(), Value::tuple(extra));
        }
        None if !extra.is_empty() => {
            let n = positional.len();
            return Err(PyErr::type_error(format!(
                "{name}() takes {n} positional argument{} but {given} were given",
                if n == 1 { "" } else { "s" }
            )));
        }
        None => {}
    }
    let kwonly: Vec<&str> = params
        .kwonlyargs
        .iter()
        .map(|p| p.parameter.name.as_str())
        .collect();
    let posonly: Vec<&str> = params
        .posonlyargs
        .iter()
        .map(|p| p.parameter.name.as_str())
        .collect();
    let mut rest = Dict::default();
    for (key, value) in kwargs {
        let named = (positional.contains(&key.as_str()) && !posonly.contains(&key.as_str()))
            || kwonly.contains(&key.as_str());
        if named {
            if vars.contains_key(&key) {
                return Err(PyErr::type_error(format!(
                    "{name}() got multiple values for argument '{key}'"
                )));
            }
            vars.insert(key, value);
        } else if params.kwarg.is_some() {
            rest.insert(
                crate::python::value::HashKey::Str(Rc::from(key.as_str())),
                Value::str(&key),
                value,
            );
        } else if f.file.is_library && UNSUPPORTED_TORCH_KEYWORDS.contains(&key.as_str()) {
            // A PyTorch keyword the torch surface states it does not take
            // (the inventory test's exceptions): named, not a typo's TypeError.
            return Err(PyErr::not_implemented(format!(
                "{name}(): the {key}= argument is not supported in this playground"
            )));
        } else {
            return Err(PyErr::type_error(format!(
                "{name}() got an unexpected keyword argument '{key}'"
            )));
        }
    }
    if let Some(k) = &params.kwarg {
        vars.insert(k.name.to_string(), Value::Dict(Rc::new(RefCell::new(rest))));
    }
    let mut missing = Vec::new();
    for p in positional.iter().chain(&kwonly) {
        if !vars.contains_key(*p) {
            match f.defaults.get(*p) {
                Some(d) => {
                    vars.insert(p.to_string(), d.clone());
                }
                None => missing.push(format!("'{p}'")),
            }
        }
    }
    if !missing.is_empty() {
        let list = match missing.len() {
            1 => missing[0].clone(),
            n => format!("{} and {}", missing[..n - 1].join(", "), missing[n - 1]),
        };
        return Err(PyErr::type_error(format!(
            "{name}() missing {} required positional argument{}: {list}",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}
