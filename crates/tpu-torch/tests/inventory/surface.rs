//! What `import torch` gives a program, as data: `surface.py` describes it
//! from inside a run (with `inspect`, as a user would), and this turns its
//! JSON into items. The few functions written in Rust whose signature
//! `inspect` cannot see declare it in `NATIVE_SIGNATURES`, as their argument
//! parsing accepts it.

use serde_json::Value as Json;

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

/// The describing program.
pub const SCRIPT: &str = include_str!("surface.py");

/// The signatures `inspect` cannot see (functions written in Rust), as their
/// argument parsing accepts them (`src/torch_c.rs`).
const NATIVE_SIGNATURES: &[(&str, &str)] = &[(
    "torch.full",
    "size, fill_value, *, dtype=None, device=None, requires_grad=False",
)];

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

fn param(p: &Json) -> Param {
    let kind = match p[1].as_str() {
        Some("positional") => ParamKind::Positional,
        Some("either") => ParamKind::Either,
        Some("keyword") => ParamKind::Keyword,
        Some("varargs") => ParamKind::VarArgs,
        Some("varkeywords") => ParamKind::VarKeywords,
        other => panic!("surface.py printed a parameter kind {other:?}"),
    };
    Param {
        name: p[0].as_str().unwrap_or_default().to_string(),
        kind,
        default: p[2].as_str().map(str::to_string),
    }
}

/// The items of what `SCRIPT` printed.
pub fn parse(printed: &str) -> Vec<SurfaceItem> {
    let rows: Vec<Json> = serde_json::from_str(printed.trim())
        .unwrap_or_else(|e| panic!("surface.py printed no JSON list ({e}):\n{printed}"));
    rows.iter()
        .map(|row| {
            let (namespace, name) = (row[0].as_str().unwrap(), row[1].as_str().unwrap());
            let kind = match row[2].as_str() {
                Some("function") => ItemKind::Function,
                Some("class") => ItemKind::Class,
                _ => ItemKind::Value,
            };
            let params = match row[3].as_array() {
                Some(list) => Some(list.iter().map(param).collect()),
                None => NATIVE_SIGNATURES
                    .iter()
                    .find(|(q, _)| *q == format!("{namespace}.{name}"))
                    .map(|(_, sig)| parse_signature(sig)),
            };
            SurfaceItem {
                namespace: namespace.to_string(),
                name: name.to_string(),
                kind,
                params,
                refuses: row[4].as_bool().unwrap_or(false),
            }
        })
        .collect()
}
