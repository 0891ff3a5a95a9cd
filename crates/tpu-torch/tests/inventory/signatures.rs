//! How a signature of ours is compared with PyTorch's recorded overloads
//! (part of the inventory test, `tests/inventory.rs`): PyTorch's parameters
//! merged over its overloads, the stated exceptions, and the rule for
//! defaults.

use crate::surface::{Param, ParamKind};
use serde_json::Value as Json;
use std::collections::BTreeSet;

pub fn str_of(v: &Json) -> &str {
    v.as_str().unwrap_or_default()
}

/// Parameters whose absence is a stated limit rather than a gap: results are
/// always new dense tensors (`out`, `layout`, `memory_format`), there is no
/// pinned host memory (`pin_memory`), named tensors are a PyTorch prototype
/// (`names`), and `size_average`/`reduce` are the loss functions' deprecated
/// spellings of `reduction` (which the losses take). Passing one of the first
/// five to a prelude function that lacks it is a `NotImplementedError` naming it
/// (`src/serve.rs`, checked by `an_exempt_keyword_is_refused_by_name`).
pub const EXEMPT: &[&str] = &[
    "out",
    "layout",
    "memory_format",
    "pin_memory",
    "names",
    "size_average",
    "reduce",
];

/// Functions whose overloads put different names in the same position
/// (`arange(end)` and `arange(start, end, step)`): a Python signature can only
/// merge them with defaults that stand for "absent", so only their names are
/// compared.
/// The same holds where an overload's parameter is named for its type
/// (`tensor_split(input, sections)`, `tensor_split(input, indices)`), which
/// PyTorch documents as one (`indices_or_sections`).
const MERGED_POSITIONAL_OVERLOADS: &[&str] = &[
    "torch.arange",
    "torch.randint",
    "torch.repeat_interleave",
    "Tensor.repeat_interleave",
    "torch.result_type",
    "torch.tensor_split",
    "Tensor.tensor_split",
    "torch.hsplit",
    "Tensor.hsplit",
    "torch.vsplit",
    "Tensor.vsplit",
    "torch.dsplit",
    "Tensor.dsplit",
    "torch.isin",
    "torch.ldexp",
    "torch.randint_like",
];

/// Keywords PyTorch's hand-written Python bindings take that neither a schema
/// nor the method's docstring names (`x.nonzero(as_tuple=True)` works).
const UNDOCUMENTED_KEYWORDS: &[(&str, &str)] = &[
    ("Tensor.nonzero", "as_tuple"),
    ("Tensor.hsplit", "indices_or_sections"),
    ("Tensor.vsplit", "indices_or_sections"),
    // `torch.is_autocast_enabled("cpu")` works in PyTorch 2.15; the recorded
    // binding lists only the overload without it.
    ("torch.is_autocast_enabled", "device_type"),
];

/// Parameters of overloads that only TorchScript registers (PyTorch's Python
/// bindings do not accept them), by function.
const TORCHSCRIPT_ONLY: &[(&str, &str)] = &[
    ("Tensor.copy_", "other"),
    ("torch.select", "list"),
    ("torch.select", "idx"),
    ("torch.mul", "l"),
    ("torch.mul", "n"),
];

/// Defaults that are a module PyTorch imports with torch (`torch.save`'s
/// `pickle_module=pickle`): here `None`, standing for the same module
/// imported on first use, since importing it would cost every program's
/// start.
const DEFERRED_MODULE_DEFAULTS: &[(&str, &str)] = &[("torch.save", "pickle_module")];

/// A default as a comparable value: numbers by value, the rest by text.
fn normalise(default: &str) -> String {
    let d = default.trim();
    if let Ok(x) = d.parse::<f64>() {
        return format!("{x:e}");
    }
    match d {
        "True" | "true" => "True".into(),
        "False" | "false" => "False".into(),
        "[]" | "()" => "()".into(),
        _ => d.replace('"', "'"),
    }
}

struct Theirs {
    name: String,
    is_int_list: bool,
    /// Present in every overload.
    always: bool,
    /// Its defaults over the overloads that have it (`None` = required).
    defaults: BTreeSet<Option<String>>,
}

/// The union of PyTorch's overloads: each parameter once, in first-seen order.
fn their_params(entry: &Json) -> Vec<Theirs> {
    let overloads = entry["signatures"].as_array().unwrap();
    let mut params: Vec<Theirs> = Vec::new();
    for sig in overloads {
        for p in sig.as_array().unwrap() {
            let name = str_of(&p["name"]).to_string();
            if name.starts_with('_') {
                continue;
            }
            let kind = str_of(&p["kind"]);
            if kind == "*args" || kind == "**kwargs" {
                continue;
            }
            let ty = str_of(&p["type"]);
            let default = p["default"].as_str().map(normalise);
            match params.iter_mut().find(|t| t.name == name) {
                Some(t) => {
                    t.defaults.insert(default);
                }
                None => params.push(Theirs {
                    is_int_list: ty.contains("List[int]") || ty.contains("int[]"),
                    name,
                    always: true,
                    defaults: BTreeSet::from([default]),
                }),
            }
        }
    }
    for t in &mut params {
        t.always = overloads.iter().all(|sig| {
            sig.as_array()
                .unwrap()
                .iter()
                .any(|p| str_of(&p["name"]) == t.name)
        });
    }
    params
}

/// Where our signature departs from PyTorch's: missing or extra keyword names,
/// and defaults that differ.
pub fn compare_signature(function: &str, ours: &[Param], entry: &Json) -> Vec<String> {
    let mut theirs = their_params(entry);
    theirs.retain(|t| !TORCHSCRIPT_ONLY.contains(&(function, t.name.as_str())));
    let names_only = MERGED_POSITIONAL_OVERLOADS.contains(&function);
    let has_varargs = ours.iter().any(|p| p.kind == ParamKind::VarArgs);
    let has_varkw = ours.iter().any(|p| p.kind == ParamKind::VarKeywords);
    let python_defined = str_of(&entry["source"]) == "python";
    let mut problems = Vec::new();
    for t in &theirs {
        if EXEMPT.contains(&t.name.as_str()) {
            continue;
        }
        if names_only && !t.always {
            // An alternative positional name: ours spells the merged one.
            continue;
        }
        let Some(ours) = ours.iter().find(|p| p.name == t.name) else {
            let taken_by_varargs = has_varargs && (t.is_int_list || !python_defined);
            if !(taken_by_varargs || has_varkw) {
                problems.push(format!("lacks parameter `{}`", t.name));
            }
            continue;
        };
        if ours.kind == ParamKind::VarArgs || names_only {
            continue;
        }
        let our_default = ours.default.as_deref().map(normalise);
        if DEFERRED_MODULE_DEFAULTS.contains(&(function, t.name.as_str()))
            && our_default.as_deref() == Some("None")
        {
            continue;
        }
        let required_everywhere = t.always && t.defaults.iter().all(Option::is_none);
        let agrees = if required_everywhere {
            our_default.is_none()
        } else if !t.always && t.defaults.iter().all(Option::is_none) {
            // Required where present and absent elsewhere: the default is
            // ours to choose, standing for "absent" (`round(decimals=0)`).
            true
        } else {
            let mut allowed: BTreeSet<Option<String>> =
                t.defaults.iter().filter(|d| d.is_some()).cloned().collect();
            if !t.always || t.defaults.contains(&None) {
                // Merged overloads: optional here, absent (or required) there.
                allowed.insert(Some("None".into()));
            }
            allowed.contains(&our_default)
        };
        if !agrees {
            problems.push(format!(
                "`{}` defaults to {} where PyTorch has {}",
                t.name,
                ours.default.as_deref().unwrap_or("nothing (required)"),
                t.defaults
                    .iter()
                    .map(|d| d.clone().unwrap_or_else(|| "required".into()))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
    }
    // PyTorch's `def f(*args, **kwargs)` (`unique_consecutive`) names nothing
    // to compare with.
    let theirs_open = entry["signatures"].as_array().is_some_and(|sigs| {
        sigs.iter().any(|sig| {
            sig.as_array()
                .unwrap()
                .iter()
                .any(|p| str_of(&p["kind"]) == "**kwargs")
        })
    });
    // A private parameter PyTorch also has (`softmin(_stacklevel=3)`) is
    // left out of `theirs` above, and so out of this comparison.
    let theirs_private = |name: &str| {
        name.starts_with('_')
            && entry["signatures"].as_array().is_some_and(|sigs| {
                sigs.iter().any(|sig| {
                    sig.as_array()
                        .unwrap()
                        .iter()
                        .any(|q| str_of(&q["name"]) == name)
                })
            })
    };
    for p in ours {
        if matches!(p.kind, ParamKind::VarArgs | ParamKind::VarKeywords)
            || EXEMPT.contains(&p.name.as_str())
            || theirs_private(&p.name)
            || theirs_open
            || UNDOCUMENTED_KEYWORDS.contains(&(function, p.name.as_str()))
        {
            continue;
        }
        // Manual Python bindings (`nonzero(input, *, as_tuple=False)`) take
        // keywords that no schema has; their docstrings name them.
        let documented = entry["doc"].as_array().is_some_and(|docs| {
            docs.iter().any(|d| {
                str_of(d)
                    .split([',', ' ', '(', ')', '=', '*'])
                    .any(|w| w == p.name)
            })
        });
        if !theirs.iter().any(|t| t.name == p.name) && !documented {
            problems.push(format!(
                "has parameter `{}`, which PyTorch does not",
                p.name
            ));
        }
    }
    problems
}
