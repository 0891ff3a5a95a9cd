//! The torch surface against PyTorch's own description of itself
//! (`tests/inventory/torch-2.15.json`, written by `tests/inventory/record.py`
//! from an installed PyTorch 2.15). For every op this project has in any form,
//! every form PyTorch has (function, method, in-place method) exists, and its
//! keyword names and defaults are PyTorch's; every PyTorch name it does not
//! have raises `NotImplementedError` naming it; module reprs, `grad_fn` names,
//! type promotion and dtype printing equal what PyTorch printed. The README's
//! coverage table and the list of PyTorch's names the interpreter knows
//! (`src/torch/pytorch_names.txt`) are generated here: `UPDATE_EXPECT=1`
//! rewrites them, and the test fails while either is stale.

use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use tpu_lang::surface::{ItemKind, Param, ParamKind, SurfaceItem, torch_surface};
use tpu_lang::{RunOptions, run};
use tpu_runtime::{ReferenceBackend, Runtime};

/// Parameters whose absence is a stated limit rather than a gap: results are
/// always new dense tensors (`out`, `layout`, `memory_format`), there is no
/// pinned host memory (`pin_memory`), named tensors are a PyTorch prototype
/// (`names`), and `size_average`/`reduce` are the loss functions' deprecated
/// spellings of `reduction`. Passing any of them to a function that lacks it is
/// a `NotImplementedError` naming it (`tests::exempt_keywords_are_named`).
const EXEMPT: &[&str] = &[
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
];

/// Keywords PyTorch's hand-written Python bindings take that neither a schema
/// nor the method's docstring names (`x.nonzero(as_tuple=True)` works).
const UNDOCUMENTED_KEYWORDS: &[(&str, &str)] = &[
    ("Tensor.nonzero", "as_tuple"),
    ("Tensor.hsplit", "indices_or_sections"),
    ("Tensor.vsplit", "indices_or_sections"),
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

/// The function namespaces compared, as the inventory names them.
const FUNCTION_NAMESPACES: &[&str] = &["torch", "Tensor", "torch.nn.functional", "torch.nn.init"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn inventory() -> Json {
    let path = repo().join("tests/inventory/torch-2.15.json");
    let text = std::fs::read_to_string(&path).expect("the recorded inventory");
    serde_json::from_str(&text).expect("the inventory is JSON")
}

fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn surface() -> Vec<SurfaceItem> {
    on_big_stack(|| {
        let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
        pollster::block_on(torch_surface(&mut runtime)).expect("import torch")
    })
}

/// Runs a program and returns what it printed, or its traceback.
fn run_program(source: String) -> String {
    on_big_stack(move || {
        let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
        let options = RunOptions {
            fuel: u64::MAX / 4,
            ..RunOptions::default()
        };
        let report = pollster::block_on(run(&source, &mut runtime, &options));
        match report.diagnostics.first() {
            None => report.stdout,
            Some(d) => format!("{}\n{}", report.stdout, d.traceback),
        }
    })
}

fn str_of(v: &Json) -> &str {
    v.as_str().unwrap_or_default()
}

/// PyTorch's functions, by (namespace, name).
fn pytorch_functions(inv: &Json) -> BTreeMap<(String, String), &Json> {
    inv["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                (
                    str_of(&f["namespace"]).to_string(),
                    str_of(&f["name"]).to_string(),
                ),
                f,
            )
        })
        .collect()
}

/// The supported names (a stub that only refuses is not one).
fn ours_by_key(items: &[SurfaceItem]) -> HashMap<(String, String), &SurfaceItem> {
    items
        .iter()
        .filter(|i| !i.refuses)
        .map(|i| ((i.namespace.clone(), i.name.clone()), i))
        .collect()
}

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
fn compare_signature(function: &str, ours: &[Param], entry: &Json) -> Vec<String> {
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
    for p in ours {
        if matches!(p.kind, ParamKind::VarArgs | ParamKind::VarKeywords)
            || EXEMPT.contains(&p.name.as_str())
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

fn qualified(namespace: &str, name: &str) -> String {
    format!("{namespace}.{name}")
}

#[test]
fn every_form_pytorch_has_of_a_supported_op_exists_with_its_signature() {
    let inv = inventory();
    let theirs = pytorch_functions(&inv);
    let items = surface();
    let ours = ours_by_key(&items);
    let mut problems = Vec::new();

    // Forms: torch.f, torch.f_, Tensor.f, Tensor.f_ are one family.
    let mut families: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (ns, name) in theirs.keys() {
        if ns == "torch" || ns == "Tensor" {
            let base = name.strip_suffix('_').unwrap_or(name).to_string();
            families
                .entry(base)
                .or_default()
                .push((ns.clone(), name.clone()));
        }
    }
    for (base, forms) in &families {
        let have: Vec<&(String, String)> = forms.iter().filter(|k| ours.contains_key(*k)).collect();
        if have.is_empty() {
            continue;
        }
        for form in forms {
            if !ours.contains_key(form) {
                problems.push(format!(
                    "{}: PyTorch has it and this project has {} ({base}'s family)",
                    qualified(&form.0, &form.1),
                    have.iter()
                        .map(|k| qualified(&k.0, &k.1))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }

    // Signatures.
    for item in items.iter().filter(|i| !i.refuses) {
        if !FUNCTION_NAMESPACES.contains(&item.namespace.as_str())
            || item.kind != ItemKind::Function
        {
            continue;
        }
        let key = (item.namespace.clone(), item.name.clone());
        let Some(entry) = theirs.get(&key) else {
            continue;
        };
        let Some(params) = &item.params else {
            problems.push(format!("{}: no signature known", qualified(&key.0, &key.1)));
            continue;
        };
        if entry["signatures"].as_array().is_none_or(|s| s.is_empty()) {
            continue;
        }
        for p in compare_signature(&qualified(&key.0, &key.1), params, entry) {
            problems.push(format!("{}: {p}", qualified(&key.0, &key.1)));
        }
    }
    assert!(
        problems.is_empty(),
        "{} differences from PyTorch 2.15:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Compares generated text with the committed file; `UPDATE_EXPECT=1` writes it.
fn check_generated(path: PathBuf, generated: &str) {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run `UPDATE_EXPECT=1 cargo test -p tpu-lang --test inventory`",
        path.display()
    );
}

/// Every public name of the inventory, as `namespace name` lines.
fn pytorch_names(inv: &Json) -> BTreeSet<(String, String)> {
    let mut names = BTreeSet::new();
    for f in inv["functions"].as_array().unwrap() {
        names.insert((
            str_of(&f["namespace"]).to_string(),
            str_of(&f["name"]).to_string(),
        ));
    }
    for c in inv["classes"].as_array().unwrap() {
        names.insert((
            str_of(&c["namespace"]).to_string(),
            str_of(&c["name"]).to_string(),
        ));
    }
    for a in inv["tensor_attributes"].as_array().unwrap() {
        names.insert(("Tensor".into(), str_of(a).to_string()));
    }
    for (ns, list) in inv["constants"].as_object().unwrap() {
        for n in list.as_array().unwrap() {
            names.insert((ns.clone(), str_of(n).to_string()));
        }
    }
    names
}

#[test]
fn the_interpreter_knows_every_pytorch_name() {
    let inv = inventory();
    let text: String = pytorch_names(&inv)
        .iter()
        .map(|(ns, n)| format!("{ns} {n}\n"))
        .collect();
    check_generated(
        repo().join("crates/tpu-lang/src/torch/pytorch_names.txt"),
        &text,
    );
}

/// How a namespace is reached from a program.
fn access(namespace: &str, name: &str) -> String {
    match namespace {
        "Tensor" => format!("getattr(torch.zeros(1), {name:?})"),
        ns => format!("getattr({ns}, {name:?})"),
    }
}

#[test]
fn every_pytorch_name_this_project_lacks_raises_not_implemented_error_naming_it() {
    let inv = inventory();
    let items = surface();
    let ours = ours_by_key(&items);
    // A stub that only raises NotImplementedError when called is checked by
    // its body (`surface::only_refuses`), not reached here.
    let stubs: BTreeSet<(String, String)> = items
        .iter()
        .filter(|i| i.refuses)
        .map(|i| (i.namespace.clone(), i.name.clone()))
        .collect();
    let missing: Vec<(String, String)> = pytorch_names(&inv)
        .into_iter()
        .filter(|k| !ours.contains_key(k) && !stubs.contains(k))
        .collect();
    // A namespace this project lacks altogether must refuse its import the
    // same way; its names are then out of reach.
    let namespaces: BTreeSet<&str> = missing
        .iter()
        .map(|(ns, _)| ns.as_str())
        .filter(|ns| *ns != "Tensor")
        .collect();
    let mut source = String::from("import torch\n");
    let mut absent = BTreeSet::new();
    for ns in namespaces {
        if items.iter().any(|i| i.namespace == ns) || ns == "torch" {
            source.push_str(&format!("import {ns}\n"));
        } else {
            absent.insert(ns.to_string());
            source.push_str(&format!(
                "try:\n    import {ns}\n    print({ns:?}, 'imports')\n\
                 except NotImplementedError as e:\n    if {ns:?} not in str(e):\n        print({ns:?}, 'unnamed', e)\n"
            ));
        }
    }
    for (ns, name) in missing.iter().filter(|(ns, _)| !absent.contains(ns)) {
        let label = format!("{ns}.{name}");
        source.push_str(&format!(
            "try:\n    {}\n    print({label:?}, 'exists')\nexcept NotImplementedError as e:\n    \
             if {name:?} not in str(e):\n        print({label:?}, 'unnamed', e)\n\
             except Exception as e:\n    print({label:?}, type(e).__name__, e)\n",
            access(ns, name)
        ));
    }
    let output = run_program(source);
    assert!(
        output.trim().is_empty(),
        "of {} PyTorch names this project lacks, these do not raise NotImplementedError naming them:\n{output}",
        missing.len()
    );
}

/// Runs `exprs` in one program, each printed by `show` or as its error, and
/// returns one result per expression.
fn evaluate(setup: &str, exprs: &[&str], show: &str) -> Vec<Result<String, String>> {
    let mut source =
        format!("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n{setup}\n");
    for expr in exprs {
        source.push_str(&format!(
            "try:\n    print({show})\nexcept Exception as e:\n    print('@error', type(e).__name__, e)\nprint('@@@')\n",
            show = show.replace("EXPR", expr)
        ));
    }
    let output = run_program(source);
    let mut results: Vec<Result<String, String>> = output
        .split("@@@\n")
        .map(|chunk| {
            let chunk = chunk.trim_end_matches('\n');
            match chunk.strip_prefix("@error ") {
                Some(e) => Err(e.to_string()),
                None => Ok(chunk.to_string()),
            }
        })
        .collect();
    assert!(
        results.len() > exprs.len(),
        "the program stopped early:\n{output}"
    );
    results.truncate(exprs.len());
    results
}

#[test]
fn module_reprs_are_pytorchs() {
    let inv = inventory();
    let items = surface();
    let ours: BTreeSet<String> = items
        .iter()
        .filter(|i| i.namespace == "torch.nn" && i.kind == ItemKind::Class)
        .map(|i| i.name.clone())
        .collect();
    let entries: Vec<&Json> = inv["module_reprs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            // Every module the constructor names must exist here.
            str_of(&e["expr"])
                .split("nn.")
                .skip(1)
                .all(|rest| ours.contains(rest.split('(').next().unwrap()))
        })
        .collect();
    let exprs: Vec<&str> = entries.iter().map(|e| str_of(&e["expr"])).collect();
    let results = evaluate("torch.manual_seed(0)", &exprs, "repr(EXPR)");
    let mut problems = Vec::new();
    for (entry, ours) in entries.iter().zip(results) {
        let expected = match entry["repr"].as_str() {
            Some(r) => Ok(r.to_string()),
            None => Err(str_of(&entry["error"]).to_string()),
        };
        match (&expected, &ours) {
            (Ok(e), Ok(o)) if e == o => {}
            (Err(_), Err(_)) => {}
            (_, Err(e)) if e.starts_with("NotImplementedError") => {}
            _ => problems.push(format!(
                "{}:\n  PyTorch: {expected:?}\n  here:    {ours:?}",
                str_of(&entry["expr"])
            )),
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} module reprs differ:\n{}",
        problems.len(),
        entries.len(),
        problems.join("\n")
    );
}

#[test]
fn grad_fn_names_are_pytorchs() {
    let inv = inventory();
    let entries: Vec<&Json> = inv["grad_fns"].as_array().unwrap().iter().collect();
    let exprs: Vec<&str> = entries.iter().map(|e| str_of(&e["expr"])).collect();
    let setup = "torch.manual_seed(0)\nx = torch.randn(2, 3, requires_grad=True)\n\
                 y = torch.randn(2, 3, requires_grad=True)\n\
                 i = torch.tensor([[0, 1, 2], [2, 1, 0]])\n\
                 m = torch.tensor([[True, False, True], [False, True, False]])";
    let results = evaluate(setup, &exprs, "str((EXPR).grad_fn)");
    let mut problems = Vec::new();
    let mut compared = 0;
    for (entry, ours) in entries.iter().zip(results) {
        let expected = entry["grad_fn"].as_str();
        match ours {
            Err(e) if e.starts_with("NotImplementedError") => {}
            Err(e) if entry.get("error").is_some() => {
                let _ = e;
            }
            Err(e) => problems.push(format!("{}: raised {e}", str_of(&entry["expr"]))),
            Ok(text) => {
                compared += 1;
                // PyTorch prints `<AddBackward0 object at 0x...>`.
                let name = text
                    .trim_start_matches('<')
                    .split([' ', '>'])
                    .next()
                    .unwrap_or_default();
                let name = (name != "None").then_some(name);
                if name != expected {
                    problems.push(format!(
                        "{}: PyTorch names it {expected:?}, here {name:?}",
                        str_of(&entry["expr"])
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {compared} grad_fn names differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The dtypes this project has, by the name `torch` gives them.
const OUR_DTYPES: &[&str] = &["bool", "int32", "int64", "bfloat16", "float32", "float64"];

#[test]
fn type_promotion_and_dtype_printing_are_pytorchs() {
    let inv = inventory();
    let mut exprs = Vec::new();
    let mut expected = Vec::new();
    for pair in inv["promotion"]["pairs"].as_array().unwrap() {
        let [a, b, r] = [0, 1, 2].map(|k| str_of(&pair[k]).to_string());
        if OUR_DTYPES.contains(&a.as_str()) && OUR_DTYPES.contains(&b.as_str()) {
            exprs.push(format!(
                "(torch.ones(2, dtype=torch.{a}) + torch.ones(2, dtype=torch.{b})).dtype"
            ));
            expected.push(format!("torch.{r}"));
        }
    }
    for row in inv["promotion"]["scalars"].as_array().unwrap() {
        let [a, kind, r] = [0, 1, 2].map(|k| str_of(&row[k]).to_string());
        if OUR_DTYPES.contains(&a.as_str()) {
            let scalar = match kind.as_str() {
                "bool" => "True",
                "int" => "2",
                _ => "2.5",
            };
            exprs.push(format!("(torch.ones(2, dtype=torch.{a}) + {scalar}).dtype"));
            expected.push(format!("torch.{r}"));
        }
    }
    for d in inv["dtypes"]["dtypes"].as_array().unwrap() {
        let name = str_of(&d["dtype"]);
        if !OUR_DTYPES.contains(&name) {
            exprs.push(format!("torch.{name}"));
            expected.push("NotImplementedError".into());
            continue;
        }
        exprs.push(format!("torch.{name}"));
        expected.push(str_of(&d["str"]).to_string());
        let repr = str_of(&d["repr"]);
        let values = repr
            .trim_start_matches("tensor(")
            .split(']')
            .next()
            .unwrap()
            .to_string()
            + "]";
        exprs.push(format!("repr(torch.tensor({values}, dtype=torch.{name}))"));
        expected.push(repr.to_string());
    }
    let refs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    let results = evaluate("", &refs, "EXPR");
    let mut problems = Vec::new();
    for ((expr, want), got) in exprs.iter().zip(&expected).zip(results) {
        let got = match got {
            Ok(text) => text,
            Err(e) => e.split(' ').next().unwrap_or_default().to_string(),
        };
        if &got != want {
            problems.push(format!("{expr}: PyTorch {want:?}, here {got:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The README's coverage table: per namespace, how many of PyTorch 2.15's
/// public names this project has.
fn coverage_table(inv: &Json, items: &[SurfaceItem]) -> String {
    let ours = ours_by_key(items);
    let mut rows: Vec<(String, usize, usize)> = Vec::new();
    let mut count = |label: &str, keys: Vec<(String, String)>| {
        let have = keys.iter().filter(|k| ours.contains_key(*k)).count();
        rows.push((label.to_string(), have, keys.len()));
    };
    let functions = |ns: &str| -> Vec<(String, String)> {
        inv["functions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| str_of(&f["namespace"]) == ns)
            .map(|f| (ns.to_string(), str_of(&f["name"]).to_string()))
            .collect()
    };
    let classes = |ns: &str| -> Vec<(String, String)> {
        inv["classes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| str_of(&c["namespace"]) == ns)
            .map(|c| (ns.to_string(), str_of(&c["name"]).to_string()))
            .collect()
    };
    count("`torch` functions", functions("torch"));
    count(
        "`Tensor` methods (in-place `_` forms included)",
        functions("Tensor"),
    );
    count(
        "`Tensor` attributes",
        inv["tensor_attributes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| ("Tensor".to_string(), str_of(a).to_string()))
            .collect(),
    );
    count(
        "`torch` constants and dtypes",
        inv["constants"]["torch"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| ("torch".to_string(), str_of(a).to_string()))
            .collect(),
    );
    count("`torch` classes", classes("torch"));
    count("`torch.nn.functional`", functions("torch.nn.functional"));
    count("`torch.nn.init`", functions("torch.nn.init"));
    count("`torch.nn` modules", classes("torch.nn"));
    count("`torch.optim` optimisers", classes("torch.optim"));
    count(
        "`torch.optim.lr_scheduler`",
        classes("torch.optim.lr_scheduler"),
    );
    let mut text =
        String::from("| namespace | here | PyTorch 2.15 | share |\n|---|---:|---:|---:|\n");
    for (label, have, total) in rows {
        text.push_str(&format!(
            "| {label} | {have} | {total} | {:.0}% |\n",
            100.0 * have as f64 / total.max(1) as f64
        ));
    }
    text
}

#[test]
fn the_readme_coverage_table_is_generated_from_the_inventory() {
    let inv = inventory();
    let items = surface();
    let table = coverage_table(&inv, &items);
    let path = repo().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (start, end) = ("<!-- coverage:start -->\n", "<!-- coverage:end -->");
    let (Some(a), Some(b)) = (readme.find(start), readme.find(end)) else {
        panic!("README.md has no {start:?} ... {end:?} section");
    };
    let updated = format!("{}{start}{table}{}", &readme[..a], &readme[b..]);
    check_generated(path, &updated);
}

#[test]
fn the_coverage_list_is_generated_from_the_inventory() {
    let inv = inventory();
    let items = surface();
    let ours = ours_by_key(&items);
    let mut by_namespace: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for (ns, name) in pytorch_names(&inv) {
        let entry = by_namespace.entry(ns.clone()).or_default();
        if ours.contains_key(&(ns, name.clone())) {
            entry.0.push(name);
        } else {
            entry.1.push(name);
        }
    }
    let mut text = String::from(
        "# Coverage of PyTorch 2.15's public names\n\n\
         Generated by `crates/tpu-lang/tests/inventory.rs` from the recorded inventory\n\
         (`tests/inventory/torch-2.15.json`); do not edit. A name under \"not yet\"\n\
         raises `NotImplementedError` naming it.\n",
    );
    for (ns, (have, lack)) in by_namespace {
        text.push_str(&format!(
            "\n## `{ns}`\n\n**Supported ({}):** {}\n\n**Not yet ({}):** {}\n",
            have.len(),
            have.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" "),
            lack.len(),
            lack.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" "),
        ));
    }
    check_generated(repo().join("docs/coverage.md"), &text);
}
