//! The torch surface against PyTorch's own description of itself
//! (`tests/inventory/torch-2.15.json`, written by `tools/record/inventory.py`
//! from an installed PyTorch 2.15). For every op this project has in any form,
//! every form PyTorch has (function, method, in-place method) exists, and its
//! keyword names and defaults are PyTorch's; every PyTorch name it does not
//! have raises `NotImplementedError` naming it; module reprs, `grad_fn` names,
//! type promotion and dtype printing equal what PyTorch printed. The README's
//! coverage table, `docs/coverage.md` and the list of PyTorch's names the
//! runtime knows (`src/pytorch_names.txt`) are generated here:
//! `UPDATE_EXPECT=1` rewrites them, and the test fails while one is stale.
//!
//! What this project has is described from inside a run, with `inspect`
//! (`inventory/surface.py`), as a user would see it.

use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use tpu_runtime::{EagerMode, ReferenceBackend, Runtime};

#[path = "inventory/coverage.rs"]
mod coverage;
#[path = "inventory/signatures.rs"]
mod signatures;
#[path = "inventory/surface.rs"]
mod surface;
use coverage::{coverage_table, ours_by_key};
use signatures::compare_signature;
use signatures::str_of;
use surface::{ItemKind, SurfaceItem};

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

/// Runs a program and returns what it printed, or that and its traceback.
fn run_program(source: String) -> String {
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            let options = tpu_python::Options {
                path: "inventory.py".into(),
                ..tpu_python::Options::default()
            };
            let report = tpu_torch::run_report(&source, &mut runtime, options, EagerMode::Strict).0;
            match report.diagnostics.first() {
                None => report.stdout,
                Some(d) => format!("{}\n{}", report.stdout, d.traceback),
            }
        })
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

fn surface() -> Vec<SurfaceItem> {
    surface::parse(&run_program(surface::SCRIPT.to_string()))
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
        "{} is stale: run `UPDATE_EXPECT=1 cargo test -p tpu-torch --test inventory`",
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
    check_generated(repo().join("crates/tpu-torch/src/pytorch_names.txt"), &text);
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
    // its body (`inventory/surface.py`), not reached here.
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
const OUR_DTYPES: &[&str] = &[
    "bool", "uint8", "int32", "int64", "bfloat16", "float16", "float32", "float64",
];

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
         Generated by `crates/tpu-torch/tests/inventory.rs` from the recorded inventory\n\
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

#[test]
fn an_exempt_keyword_is_refused_by_name() {
    let output = run_program(
        "import torch\nx = torch.ones(2)\ntry:\n    torch.softmax(x, 0, out=x)\n\
         except NotImplementedError as e:\n    print(e)\n"
            .to_string(),
    );
    assert_eq!(
        output,
        "softmax(): the out= argument is not supported in this playground\n"
    );
}
