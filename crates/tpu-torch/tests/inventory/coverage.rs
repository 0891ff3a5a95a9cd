//! The README's coverage table, computed from the recorded inventory and the
//! surface (part of the inventory test, `tests/inventory.rs`).

use crate::surface::SurfaceItem;
use serde_json::Value as Json;
use std::collections::HashMap;

use crate::signatures::str_of;

/// The supported names (a stub that only refuses is not one).
pub fn ours_by_key(items: &[SurfaceItem]) -> HashMap<(String, String), &SurfaceItem> {
    items
        .iter()
        .filter(|i| !i.refuses)
        .map(|i| ((i.namespace.clone(), i.name.clone()), i))
        .collect()
}

/// The README's coverage table: per namespace, how many of PyTorch 2.15's
/// public names this project has.
pub fn coverage_table(inv: &Json, items: &[SurfaceItem]) -> String {
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
