//! The JavaScript contract: the TypeScript declarations of the Report and of
//! the chip presets, generated from the Rust types (the `ts-rs` derives, on
//! only in tests, so the wasm build does not carry them) and committed as
//! `web/src/generated/report.ts`. The test fails when the committed file
//! differs from what the types generate, so a change to the Report that is
//! not regenerated cannot pass; `UPDATE_EXPECT=1 cargo test -p tpu-runtime
//! typescript` rewrites it.

use std::any::TypeId;
use std::collections::{BTreeMap, HashSet};
use ts_rs::{Config, TS, TypeVisitor};

/// Collects the declarations of a type and everything it refers to, each
/// once, by name.
struct Declarations {
    config: Config,
    seen: HashSet<TypeId>,
    by_name: BTreeMap<String, String>,
}

impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Only declared types have an output path; primitives and wrappers
        // (`Vec`, `Option`, tuples) are written inline where they are used.
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        let docs = T::docs()
            .map(|d| format!("{}\n", d.trim_end()))
            .unwrap_or_default();
        let declaration = format!("{docs}export {}", T::decl(&self.config));
        self.by_name.insert(T::ident(&self.config), declaration);
        T::visit_dependencies(self);
    }
}

/// The generated file: every type the page receives from the runtime. Its
/// first line says it is generated, by what, and how to regenerate it (the
/// project's rule for a file past 600 lines), all on one line.
fn generate() -> String {
    let mut declarations = Declarations {
        // serde writes the u64 counters as plain JSON numbers.
        config: Config::new().with_large_int("number"),
        seen: HashSet::new(),
        by_name: BTreeMap::new(),
    };
    declarations.visit::<crate::Report>();
    declarations.visit::<tpu_device::Chip>();
    // The derives list a type's dependencies in no fixed order (it changes
    // from one compilation to the next), so the two roots come first and
    // the rest follows by name.
    let mut by_name = declarations.by_name;
    let roots = ["Report", "ChipPreset"].map(|name| by_name.remove(name).expect("a root"));
    let text: Vec<String> = roots.into_iter().chain(by_name.into_values()).collect();
    format!(
        "// Generated (hence its length) from the Rust types by `crates/tpu-runtime/src/report/typescript.rs`; do not edit, regenerate with `UPDATE_EXPECT=1 cargo test -p tpu-runtime typescript`.\n\n{}\n",
        text.join("\n\n")
    )
}

#[test]
fn typescript_declarations_match_the_rust_types() {
    expect_test::expect_file!["../../../../web/src/generated/report.ts"].assert_eq(&generate());
}
