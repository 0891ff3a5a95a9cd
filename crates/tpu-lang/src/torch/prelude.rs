//! The Python prelude: `import torch` builds the `torch` module from its Rust
//! part (`module`, with `torch._C` from `native`) and then runs `prelude/tensor.py`
//! and `prelude/torch.py` as that module's body (one namespace), so the Python definitions join the Rust ones; the
//! submodules (`torch.nn`, `torch.nn.functional`, `torch.nn.init`, `torch.nn.utils`,
//! `torch.optim`, `torch.optim.lr_scheduler`, `torch.utils.data`, `torch.autograd`
//! with `grad_mode`, `torch.random` with its Rust `fork_rng`) are Python files
//! alone, one or more per module (run in one namespace, as one file). A name has one home: the tests below
//! fail if the prelude defines a name that Rust also registers, since the Rust
//! one would be dead code shadowed at import.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::modules::{functions, module};
use crate::python::source::SourceFile;
use crate::python::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

const PRELUDE_TENSOR: &str = include_str!("prelude/tensor.py");
const PRELUDE_TORCH: &str = include_str!("prelude/torch.py");
const PRELUDE_SORTING: &str = include_str!("prelude/sorting.py");
const PRELUDE_MATHOPS: &str = include_str!("prelude/mathops.py");
const PRELUDE_SHAPES: &str = include_str!("prelude/shapes.py");
const PRELUDE_PRODUCTS: &str = include_str!("prelude/products.py");
const PRELUDE_FORMS: &str = include_str!("prelude/forms.py");
const PRELUDE_COMPILE: &str = include_str!("prelude/compile.py");

/// The files run, in this order, as the `torch` module's body (one namespace):
/// the `Tensor` class first, then the torch functions, then the families split
/// from torch.py at their seams, which add their `Tensor` methods by assignment.
const PRELUDE_TORCH_FILES: &[(&str, &str)] = &[
    ("tensor.py", PRELUDE_TENSOR),
    ("torch.py", PRELUDE_TORCH),
    ("sorting.py", PRELUDE_SORTING),
    ("mathops.py", PRELUDE_MATHOPS),
    ("shapes.py", PRELUDE_SHAPES),
    ("products.py", PRELUDE_PRODUCTS),
    ("forms.py", PRELUDE_FORMS),
    ("compile.py", PRELUDE_COMPILE),
];
const PRELUDE_NN: &str = include_str!("prelude/nn.py");
const PRELUDE_FUNCTIONAL: &str = include_str!("prelude/functional.py");
const PRELUDE_UTILS: &str = include_str!("prelude/utils.py");
const PRELUDE_OPTIM: &str = include_str!("prelude/optim.py");
const PRELUDE_OPTIM_MORE: &str = include_str!("prelude/optim_more.py");
const PRELUDE_LR_SCHEDULER: &str = include_str!("prelude/lr_scheduler.py");
const PRELUDE_NN_INIT: &str = include_str!("prelude/nn_init.py");
const PRELUDE_NN_LOSS: &str = include_str!("prelude/nn_loss.py");
const PRELUDE_NN_LAYERS: &str = include_str!("prelude/nn_layers.py");
const PRELUDE_NN_CNN: &str = include_str!("prelude/nn_cnn.py");
const PRELUDE_FUNCTIONAL_CNN: &str = include_str!("prelude/functional_cnn.py");
const PRELUDE_DATA: &str = include_str!("prelude/data.py");
const PRELUDE_AUTOGRAD: &str = include_str!("prelude/autograd.py");
const PRELUDE_GRAD_MODE: &str = include_str!("prelude/grad_mode.py");
const PRELUDE_RANDOM: &str = include_str!("prelude/random.py");
const PRELUDE_DISTRIBUTED: &str = include_str!("prelude/distributed.py");
const PRELUDE_PARALLEL: &str = include_str!("prelude/parallel.py");
const PRELUDE_DEVICE_MESH: &str = include_str!("prelude/device_mesh.py");
const PRELUDE_DTENSOR: &str = include_str!("prelude/dtensor.py");
const PRELUDE_DTENSOR_REDISTRIBUTE: &str = include_str!("prelude/dtensor_redistribute.py");
const PRELUDE_DTENSOR_OPS: &str = include_str!("prelude/dtensor_ops.py");
const PRELUDE_DTENSOR_VIEWS: &str = include_str!("prelude/dtensor_views.py");
const PRELUDE_FSDP: &str = include_str!("prelude/fsdp.py");
const PRELUDE_DTENSOR_DEBUG: &str = include_str!("prelude/dtensor_debug.py");
const PRELUDE_OPTIMIZER: &str = include_str!("prelude/optimizer.py");
const PRELUDE_FUNCTION: &str = include_str!("prelude/function.py");
const PRELUDE_DYNAMO: &str = include_str!("prelude/dynamo.py");
const PRELUDE_COMPILER: &str = include_str!("prelude/compiler.py");
const PRELUDE_DYNAMO_UTILS: &str = include_str!("prelude/dynamo_utils.py");
const PRELUDE_JAX: &str = include_str!("prelude/jax.py");
const PRELUDE_JAX_NUMPY: &str = include_str!("prelude/jax_numpy.py");
const PRELUDE_JAX_LAX: &str = include_str!("prelude/jax_lax.py");
const PRELUDE_PALLAS: &str = include_str!("prelude/pallas.py");

/// A submodule `import torch` loads: its name and its prelude files, by file
/// name, run in order in one namespace.
type Submodule = (&'static str, &'static [(&'static str, &'static str)]);

/// The submodules `import torch` loads, in order: a module's parent comes
/// first (`torch.nn` imports `torch.nn.functional` and `torch.nn.init` itself).
const SUBMODULES: &[Submodule] = &[
    (
        "torch.nn",
        &[
            ("nn.py", PRELUDE_NN),
            ("nn_loss.py", PRELUDE_NN_LOSS),
            ("nn_layers.py", PRELUDE_NN_LAYERS),
            ("nn_cnn.py", PRELUDE_NN_CNN),
        ],
    ),
    (
        "torch.nn.functional",
        &[
            ("functional.py", PRELUDE_FUNCTIONAL),
            ("functional_cnn.py", PRELUDE_FUNCTIONAL_CNN),
        ],
    ),
    ("torch.nn.init", &[("nn_init.py", PRELUDE_NN_INIT)]),
    ("torch.nn.utils", &[("utils.py", PRELUDE_UTILS)]),
    (
        "torch.optim",
        &[
            ("optim.py", PRELUDE_OPTIM),
            ("optim_more.py", PRELUDE_OPTIM_MORE),
        ],
    ),
    (
        "torch.optim.lr_scheduler",
        &[("lr_scheduler.py", PRELUDE_LR_SCHEDULER)],
    ),
    ("torch.utils", &[]),
    ("torch.utils.data", &[("data.py", PRELUDE_DATA)]),
    ("torch.autograd", &[("autograd.py", PRELUDE_AUTOGRAD)]),
    (
        "torch.autograd.grad_mode",
        &[("grad_mode.py", PRELUDE_GRAD_MODE)],
    ),
    ("torch.random", &[("random.py", PRELUDE_RANDOM)]),
    (
        "torch.distributed",
        &[("distributed.py", PRELUDE_DISTRIBUTED)],
    ),
    ("torch.nn.parallel", &[("parallel.py", PRELUDE_PARALLEL)]),
    ("torch._dynamo", &[("dynamo.py", PRELUDE_DYNAMO)]),
    (
        "torch._dynamo.utils",
        &[("dynamo_utils.py", PRELUDE_DYNAMO_UTILS)],
    ),
    ("torch.compiler", &[("compiler.py", PRELUDE_COMPILER)]),
];

/// Submodules loaded only when a program imports them, as PyTorch loads
/// them: most programs never do, and `import torch` stays as quick as it was.
const ON_DEMAND: &[Submodule] = &[
    (
        "torch.distributed.device_mesh",
        &[("device_mesh.py", PRELUDE_DEVICE_MESH)],
    ),
    (
        "torch.distributed.tensor",
        &[
            ("dtensor.py", PRELUDE_DTENSOR),
            ("dtensor_redistribute.py", PRELUDE_DTENSOR_REDISTRIBUTE),
            ("dtensor_ops.py", PRELUDE_DTENSOR_OPS),
            ("dtensor_views.py", PRELUDE_DTENSOR_VIEWS),
        ],
    ),
    (
        "torch.distributed.tensor.debug",
        &[("dtensor_debug.py", PRELUDE_DTENSOR_DEBUG)],
    ),
    ("torch.distributed.fsdp", &[("fsdp.py", PRELUDE_FSDP)]),
    (
        "torch.optim.optimizer",
        &[("optimizer.py", PRELUDE_OPTIMIZER)],
    ),
    (
        "torch.autograd.function",
        &[("function.py", PRELUDE_FUNCTION)],
    ),
];

/// JAX as Pallas kernels use it, and `torch_tpu.pallas` (TorchTPU's
/// `custom_jax_kernel`), loaded when a program first imports one: `jax`
/// brings `jax.numpy` and `jax.lax` with it, as JAX's `__init__` does.
const JAX_MODULES: &[Submodule] = &[
    ("jax", &[("jax.py", PRELUDE_JAX)]),
    ("jax.numpy", &[("jax_numpy.py", PRELUDE_JAX_NUMPY)]),
    ("jax.lax", &[("jax_lax.py", PRELUDE_JAX_LAX)]),
    ("jax.experimental", &[]),
    ("jax.experimental.pallas", &[("pallas.py", PRELUDE_PALLAS)]),
    ("torch_tpu.pallas", &[]),
];

/// Whether `name` is one of `JAX_MODULES`.
pub fn is_jax_module(name: &str) -> bool {
    JAX_MODULES.iter().any(|(n, _)| *n == name)
}

/// PyTorch's submodules that this project does not have (yet): importing one
/// is a `NotImplementedError` naming it, not a `ModuleNotFoundError` that reads
/// like a typo.
const PYTORCH_SUBMODULES: &[&str] = &[
    "torch.amp",
    "torch.ao",
    "torch.backends",
    "torch.cuda",
    "torch.distributed.checkpoint",
    "torch.distributed.elastic",
    "torch.distributed.pipelining",
    "torch.distributed.rpc",
    "torch.distributions",
    "torch.export",
    "torch.fft",
    "torch.func",
    "torch.jit",
    "torch.linalg",
    "torch.nn.attention",
    "torch.onnx",
    "torch.profiler",
    "torch.sparse",
    "torch.special",
    "torch.testing",
];

/// Whether `name` (`"torch.autograd"`) is a PyTorch submodule this project
/// does not have, so that `torch.autograd.grad` names what is missing.
pub fn is_missing_submodule(name: &str) -> bool {
    PYTORCH_SUBMODULES.contains(&name)
}

/// The module whose body a prelude file is part of (`nn_loss.py` is in
/// `torch.nn`); `torch` for tensor.py, torch.py and any other name.
pub fn module_of_file(file: &str) -> &'static str {
    SUBMODULES
        .iter()
        .chain(ON_DEMAND)
        .chain(JAX_MODULES)
        .find(|(_, files)| files.iter().any(|(f, _)| *f == file))
        .map_or("torch", |(name, _)| name)
}

/// Python's built-ins that the prelude shadows with torch functions of the same
/// name (`sum`, `max`, `float`, ...), bound as `_py_sum`, `_py_max`, ... in every
/// prelude module so that its code can still reach them.
const SHADOWED_BUILTINS: &[&str] = &[
    "sum",
    "max",
    "min",
    "abs",
    "all",
    "any",
    "round",
    "len",
    "isinstance",
    "float",
    "int",
    "bool",
    "range",
    "list",
    "tuple",
    "sorted",
    "enumerate",
    "zip",
    "str",
    "repr",
    "type",
    "iter",
    "getattr",
    "setattr",
    "hasattr",
];

impl Interpreter<'_> {
    /// `import torch` or one of its submodules, which the caller has not built
    /// yet in this run. Importing a submodule imports `torch` first, and `torch`
    /// imports every submodule, as PyTorch's `__init__` does.
    pub async fn import_torch(&mut self, name: &str) -> PyResult<Value> {
        if name == "torch" {
            let mut attrs = crate::torch::module::torch_module_attributes();
            let c = module(
                "torch._C",
                functions(crate::torch::native::NATIVE_FUNCTIONS),
            );
            attrs.insert("_C".into(), c);
            let torch = module("torch", attrs);
            self.modules.insert("torch".into(), torch.clone());
            self.exec_library(&torch, PRELUDE_TORCH_FILES).await?;
            if let Value::Module(m) = &torch
                && let Some(Value::Class(c)) = m.attrs.borrow().get("Tensor")
            {
                self.tensor_class = Some(c.clone());
            }
            for (sub, _) in SUBMODULES {
                self.import(sub).await?;
            }
            return Ok(torch);
        }
        let Some(&(_, files)) = SUBMODULES.iter().chain(ON_DEMAND).find(|(n, _)| *n == name) else {
            if PYTORCH_SUBMODULES.contains(&name) {
                return Err(PyErr::not_implemented(format!(
                    "{name} is not supported yet (it is part of PyTorch 2.15, but not of this playground)"
                )));
            }
            return Err(PyErr::new(
                "ModuleNotFoundError",
                format!("No module named '{name}'"),
            ));
        };
        let mut attrs = HashMap::new();
        if name == "torch.random" {
            attrs.insert("fork_rng".into(), Value::Builtin("torch.random.fork_rng"));
        }
        let value = module(name, attrs);
        self.modules.insert(name.to_string(), value.clone());
        let (parent, child) = name.rsplit_once('.').unwrap_or(("", name));
        let parent = self.import(parent).await?;
        self.set_attribute(&parent, child, value.clone()).await?;
        self.exec_library(&value, files).await?;
        if name == "torch.nn"
            && let Value::Module(m) = &value
            && let Some(Value::Class(c)) = m.attrs.borrow().get("Parameter")
        {
            self.parameter_class = Some(c.clone());
        }
        Ok(value)
    }

    /// `import jax`, one of its modules, or `torch_tpu.pallas` (whose one
    /// name, `custom_jax_kernel`, lives in `pallas.py` with the rest of
    /// Pallas). A module is registered before its body runs, so the bodies
    /// may import each other.
    pub async fn import_jax(&mut self, name: &str) -> PyResult<Value> {
        if name == "torch_tpu.pallas" {
            let pallas = self.import("jax.experimental.pallas").await?;
            let kernel = self.get_attribute(&pallas, "custom_jax_kernel").await?;
            let value = module(
                name,
                HashMap::from([("custom_jax_kernel".to_string(), kernel)]),
            );
            let parent = self.import("torch_tpu").await?;
            self.set_attribute(&parent, "pallas", value.clone()).await?;
            self.modules.insert(name.to_string(), value.clone());
            return Ok(value);
        }
        let Some(&(_, files)) = JAX_MODULES.iter().find(|(n, _)| *n == name) else {
            return Err(PyErr::new(
                "ModuleNotFoundError",
                format!("No module named '{name}'"),
            ));
        };
        self.import("torch").await?;
        let value = module(name, HashMap::new());
        self.modules.insert(name.to_string(), value.clone());
        if let Some((parent, child)) = name.rsplit_once('.') {
            let parent = self.import(parent).await?;
            self.set_attribute(&parent, child, value.clone()).await?;
        }
        self.exec_library(&value, files).await?;
        if name == "jax" {
            self.import("jax.numpy").await?;
            self.import("jax.lax").await?;
        }
        Ok(value)
    }

    /// Runs prelude files, in order, as the body of `module`, whose attributes
    /// they start from and end as, so the Python definitions can call the Rust
    /// ones. The files share one namespace, as if they were one file.
    pub(crate) async fn exec_library(
        &mut self,
        module: &Value,
        files: &[(&str, &str)],
    ) -> PyResult<()> {
        let Value::Module(m) = module else {
            return Ok(());
        };
        let env = Env::new(ScopeKind::Module, None);
        for &builtin in SHADOWED_BUILTINS {
            env.set(&format!("_py_{builtin}"), Value::Builtin(builtin));
        }
        for (k, v) in m.attrs.borrow().iter() {
            env.set(k, v.clone());
        }
        self.library_envs.push(env.clone());
        for &(file_name, source) in files {
            let parsed = ruff_python_parser::parse_module(source).map_err(|e| {
                PyErr::new(
                    "SystemError",
                    format!("the runtime's {file_name} does not parse: {}", e.error),
                )
            })?;
            let mut file = SourceFile::new(&format!("<tpu-playground>/{file_name}"), source);
            file.is_library = true;
            let outer_env = std::mem::replace(&mut self.env, env.clone());
            let outer_file = std::mem::replace(&mut self.file, Rc::new(file));
            let result = self.exec_block(&parsed.syntax().body).await;
            self.env = outer_env;
            self.file = outer_file;
            result?;
        }
        let mut attrs = m.attrs.borrow_mut();
        for (k, v) in env.vars.borrow().iter() {
            attrs.insert(k.clone(), v.clone());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::PRELUDE_TORCH_FILES;
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

    /// The statements of the `torch` module's body: tensor.py, torch.py, then
    /// the files split from it.
    fn prelude_torch() -> Vec<Stmt> {
        PRELUDE_TORCH_FILES
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
            "torch.py redefines {shadowed:?}, which torch/module.rs (or torch._C) also \
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
            .expect("torch.py defines class Tensor");
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
            "torch.py's Tensor defines {shadowed:?}, which TENSOR_METHODS also lists"
        );
    }
}
