//! The prelude's names have one home: the `torch` module's Python body
//! (`prelude/torch/`) defines no function and no `Tensor` method that Rust
//! registers too, since the Rust one would be found first or shadowed.

use crate::python::library::library_module;
use crate::torch::module::torch_module_attributes;
use crate::torch::tensor::TENSOR_METHODS;
use ruff_python_ast::{Expr, Stmt};

/// The names a module body binds at its top level.
fn bound_names(body: &[Stmt]) -> Vec<String> {
    let mut names = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) => names.push(f.name.to_string()),
            Stmt::ClassDef(c) => names.push(c.name.to_string()),
            Stmt::Assign(a) => names.extend(a.targets.iter().filter_map(|t| match t {
                Expr::Name(n) => Some(n.id.to_string()),
                _ => None,
            })),
            Stmt::AnnAssign(a) => {
                if let Expr::Name(n) = &*a.target {
                    names.push(n.id.to_string());
                }
            }
            Stmt::Import(i) => names.extend(
                i.names
                    .iter()
                    .map(|a| a.asname.as_ref().unwrap_or(&a.name).to_string()),
            ),
            Stmt::ImportFrom(i) => names.extend(
                i.names
                    .iter()
                    .map(|a| a.asname.as_ref().unwrap_or(&a.name).to_string()),
            ),
            _ => {}
        }
    }
    names
}

/// The statements of the `torch` module's body: `prelude/torch/__init__.py`
/// and its parts, in order.
fn prelude_torch() -> Vec<Stmt> {
    library_module("torch")
        .expect("the prelude has torch")
        .files
        .iter()
        .flat_map(|(_, source)| {
            let parsed = ruff_python_parser::parse_module(source).expect("the prelude parses");
            parsed.into_syntax().body
        })
        .collect()
}

#[test]
fn the_prelude_redefines_no_function_the_rust_torch_module_registers() {
    let rust = torch_module_attributes();
    let shadowed: Vec<String> = bound_names(&prelude_torch())
        .into_iter()
        .filter(|name| rust.contains_key(name) || name == "_C")
        .collect();
    assert!(
        shadowed.is_empty(),
        "the torch prelude redefines {shadowed:?}, which torch/module.rs (or torch._C) also \
         registers; keep one of the two"
    );
}

#[test]
fn the_prelude_tensor_class_redefines_no_rust_tensor_method() {
    let body = prelude_torch();
    let tensor = body
        .iter()
        .find_map(|stmt| match stmt {
            Stmt::ClassDef(c) if c.name.as_str() == "Tensor" => Some(c),
            _ => None,
        })
        .expect("the torch prelude defines class Tensor");
    // Methods added later by assignment (`Tensor.sort = sort`) count too.
    let assigned = body.iter().filter_map(|stmt| {
        match stmt {
        Stmt::Assign(a) => a.targets.iter().find_map(|t| match t {
            Expr::Attribute(at)
                if matches!(&*at.value, Expr::Name(n) if n.id.as_str() == "Tensor") =>
            {
                Some(at.attr.to_string())
            }
            _ => None,
        }),
        _ => None,
    }
    });
    let shadowed: Vec<String> = bound_names(&tensor.body)
        .into_iter()
        .chain(assigned)
        .filter(|name| TENSOR_METHODS.contains(&name.as_str()))
        .collect();
    // Rust methods are found first (`tensor_attribute`), so a Python one of
    // the same name would never run.
    assert!(
        shadowed.is_empty(),
        "the prelude's Tensor defines {shadowed:?}, which TENSOR_METHODS also lists"
    );
}
