//! The Python prelude as data: the torch API written in Python
//! (`crates/tpu-torch/prelude/torch/`, JAX as Pallas uses it at `prelude/jax/`,
//! `numpy`'s subset, `torch_tpu.pallas`), found by the table `build.rs`
//! generates from that tree (a module's files are at the path of its name; a
//! package's body is its `__init__.py`, then the `_*.py` parts its `# parts:`
//! lines name, in that order, in one namespace). Beside it, what is Rust about
//! it: the built-ins the prelude shadows, the submodules a package imports with
//! it, PyTorch's modules and names this project lacks, and the dtypes `torch`
//! names. `serve` turns all of it into importable modules.

use tpu_ir::DType;

/// A module written in Python: its dotted name and its files, in the order
/// they run as its body, each as (path under `prelude/`, source).
pub(crate) struct LibraryModule {
    pub name: &'static str,
    pub files: &'static [(&'static str, &'static str)],
}

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The files of the module named `name` (`"torch.nn"`), in the order they run
/// as its body, if the tree has it.
pub(crate) fn library_files(name: &str) -> Option<&'static [(&'static str, &'static str)]> {
    LIBRARY
        .binary_search_by(|m| m.name.cmp(name))
        .ok()
        .map(|i| LIBRARY[i].files)
}

/// A prelude file's source, by its path under `prelude/`.
pub(crate) fn prelude_source(path: &str) -> Option<&'static str> {
    LIBRARY
        .iter()
        .flat_map(|m| m.files)
        .find(|(p, _)| *p == path)
        .map(|(_, source)| *source)
}

/// Python's built-ins that the prelude shadows with torch functions of the
/// same name (`sum`, `max`, `float`, ...), bound as `_py_sum`, `_py_max`, ...
/// in every prelude module so that its code can still reach them.
pub(crate) const SHADOWED_BUILTINS: &[&str] = &[
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
    "complex",
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

/// The modules a package imports once its body has run, in order, as
/// PyTorch's `torch/__init__.py` and JAX's `jax/__init__.py` do. A module's
/// parent comes first (`torch.nn` itself imports `torch.nn.functional` and
/// `torch.nn.init`).
const IMPORTED_WITH: &[(&str, &[&str])] = &[
    (
        "torch",
        &[
            "torch.nn",
            "torch.nn.functional",
            "torch.nn.init",
            "torch.nn.utils",
            "torch.nn.utils.rnn",
            "torch.optim",
            "torch.optim.lr_scheduler",
            "torch.utils",
            "torch.utils.data",
            "torch.autograd",
            "torch.autograd.grad_mode",
            "torch.random",
            "torch.distributed",
            "torch.nn.parallel",
            "torch._dynamo",
            "torch._dynamo.utils",
            "torch.compiler",
            "torch.cuda",
            "torch.backends",
            "torch.backends.cuda",
            "torch.backends.cudnn",
            "torch.backends.mps",
            "torch.accelerator",
            "torch.amp",
        ],
    ),
    ("jax", &["jax.numpy", "jax.lax"]),
];

/// The modules importing `name` imports after its body (empty for most).
pub(crate) fn imported_with(name: &str) -> &'static [&'static str] {
    IMPORTED_WITH
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |(_, modules)| modules)
}

/// PyTorch's submodules that this project does not have (yet): importing one
/// is a `NotImplementedError` naming it, not a `ModuleNotFoundError` that reads
/// like a typo.
const PYTORCH_SUBMODULES: &[&str] = &[
    "torch.ao",
    "torch.distributed.checkpoint",
    "torch.distributed.elastic",
    "torch.distributed.pipelining",
    "torch.distributed.rpc",
    "torch.distributions",
    "torch.export",
    "torch.fft",
    "torch.func",
    "torch.hub",
    "torch.jit",
    "torch.linalg",
    "torch.nn.attention",
    "torch.onnx",
    "torch.overrides",
    "torch.profiler",
    "torch.sparse",
    "torch.special",
    "torch.testing",
    "torch.utils.checkpoint",
    "torch.utils.tensorboard",
];

/// Whether `name` (`"torch.fft"`) is a PyTorch submodule this project does
/// not have, so that `torch.fft.fft` names what is missing.
pub(crate) fn is_missing_submodule(name: &str) -> bool {
    PYTORCH_SUBMODULES.contains(&name)
}

/// The public names PyTorch 2.15 has in the namespaces this project mirrors
/// (`torch`, `torch.nn.functional`, `torch.nn.init`, `torch.nn`,
/// `torch.optim`, `torch.optim.lr_scheduler`, `Tensor`), one `namespace name`
/// per line, so that a program reaching for one we do not have gets
/// `NotImplementedError` naming it rather than an `AttributeError` that reads
/// like a typo. Generated from the recorded inventory by the inventory test
/// (`tests/inventory.rs`), which fails while it is stale.
const PYTORCH_NAMES: &str = include_str!("pytorch_names.txt");

/// Whether PyTorch has `namespace.name` (`"torch"`, `"conv2d"`; `"Tensor"`, `"stft"`).
pub(crate) fn is_pytorch_name(namespace: &str, name: &str) -> bool {
    PYTORCH_NAMES.lines().any(|line| {
        line.split_once(' ')
            .is_some_and(|(ns, n)| ns == namespace && n == name)
    })
}

/// The names of `torch` written in Rust (`torch_c.rs`), which the `torch`
/// module starts from before its Python body runs. A name has one home: the
/// body defines none of them (`tests` below), since its definition would
/// shadow the Rust one at import.
pub(crate) const RUST_TORCH_NAMES: &[&str] = &[
    "_TensorBase",
    "dtype",
    "device",
    "full",
    "tensor",
    "manual_seed",
    "initial_seed",
    "rand",
    "randn",
    "empty",
    "is_tensor",
];

/// The dtypes `torch` has, by every name it gives them.
pub(crate) const TORCH_DTYPES: &[(&str, DType)] = &[
    ("float32", DType::Float32),
    ("float", DType::Float32),
    ("float64", DType::Float64),
    ("double", DType::Float64),
    ("bfloat16", DType::BFloat16),
    ("float16", DType::Float16),
    ("half", DType::Float16),
    ("uint8", DType::UInt8),
    ("int32", DType::Int32),
    ("int", DType::Int32),
    ("int64", DType::Int64),
    ("long", DType::Int64),
    ("bool", DType::Bool),
];

#[cfg(test)]
mod tests {
    use super::{LIBRARY, RUST_TORCH_NAMES, TORCH_DTYPES, library_files, prelude_source};

    #[test]
    fn the_table_is_sorted_so_that_lookups_can_bisect() {
        let names: Vec<&str> = LIBRARY.iter().map(|m| m.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }

    #[test]
    fn a_module_is_found_at_the_path_of_its_name() {
        for m in LIBRARY {
            let (first, _) = m.files.first().expect("a module has a file");
            let path = m.name.replace('.', "/");
            assert!(
                *first == format!("{path}.py") || *first == format!("{path}/__init__.py"),
                "{} starts with {first}",
                m.name
            );
            assert_eq!(library_files(m.name).map(<[_]>::len), Some(m.files.len()));
            for (file, source) in m.files {
                assert_eq!(prelude_source(file), Some(*source));
            }
        }
        assert!(library_files("torch.nonexistent").is_none());
        assert_eq!(prelude_source("torch/nonexistent.py"), None);
    }

    /// The names a file binds at its top level (`def f`, `class C`, `x =`).
    fn top_level_names(source: &str) -> Vec<String> {
        let mut names = Vec::new();
        for line in source.lines() {
            let name_of = |rest: &str| {
                rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or_default()
                    .to_string()
            };
            if let Some(rest) = line
                .strip_prefix("def ")
                .or_else(|| line.strip_prefix("class "))
            {
                names.push(name_of(rest));
            } else if let Some((target, _)) = line.split_once(" = ")
                && !target.starts_with(' ')
                && target.chars().all(|c| c.is_alphanumeric() || c == '_')
            {
                names.push(target.to_string());
            }
        }
        names
    }

    #[test]
    fn the_torch_body_redefines_no_name_rust_gives_it() {
        let rust: Vec<&str> = RUST_TORCH_NAMES
            .iter()
            .copied()
            .chain(TORCH_DTYPES.iter().map(|(name, _)| *name))
            .chain(["_C"])
            .collect();
        for (path, source) in library_files("torch").expect("the prelude has torch") {
            let shadowed: Vec<String> = top_level_names(source)
                .into_iter()
                .filter(|name| rust.contains(&name.as_str()))
                .collect();
            assert!(
                shadowed.is_empty(),
                "{path} defines {shadowed:?}, which torch_c.rs also gives the torch module; keep one"
            );
        }
    }

    /// The module carries the prelude without comments (`build/strip.rs`):
    /// every file keeps its lines, and parses to the same tree as the file
    /// in the source folder, by Python's own `ast`.
    #[test]
    fn the_prelude_without_comments_is_the_same_code_on_the_same_lines() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("prelude");
        let mut paths = Vec::new();
        for m in LIBRARY {
            for (file, stripped) in m.files {
                let original = std::fs::read_to_string(root.join(file)).expect("a prelude file");
                assert_eq!(original.lines().count(), stripped.lines().count(), "{file}");
                assert!(stripped.len() <= original.len(), "{file}");
                paths.push((
                    root.join(file),
                    std::path::Path::new(env!("OUT_DIR"))
                        .join("prelude")
                        .join(file),
                ));
            }
        }
        let pairs: Vec<String> = paths
            .iter()
            .map(|(a, b)| {
                format!(
                    "({:?}, {:?})",
                    a.display().to_string(),
                    b.display().to_string()
                )
            })
            .collect();
        let source = format!(
            "import ast\nfor a, b in [{}]:\n    \
             if ast.dump(ast.parse(open(a).read())) != ast.dump(ast.parse(open(b).read())):\n        \
             print('differs:', a)\nprint('compared', {})\n",
            pairs.join(", "),
            pairs.len()
        );
        let outcome = std::thread::Builder::new()
            .stack_size(tpu_python::STACK_BYTES)
            .spawn(move || tpu_python::run(&source, tpu_python::Options::default()))
            .expect("a thread starts")
            .join()
            .expect("the run does not panic");
        assert_eq!(
            outcome.stdout,
            format!("compared {}\n", paths.len()),
            "{}",
            outcome.stderr
        );
    }
}
