//! The Report's sharding record for DTensor and FSDP2 programs run as four
//! ranks: the mesh with the torus axis of each of its dimensions, every
//! rank's DTensors with their placements and blocks (the expected blocks are
//! computed here from the mesh coordinates, as torch.chunk cuts), and the
//! collectives tied to the line and the placement change or FSDP step that
//! caused them.

use crate::support;
use serde_json::Value;
use std::process::Command;

/// `tpu run --backend cpu --nproc-per-node 4 --report ...` of a corpus
/// program: its source and the Report's `world`.
fn world_of(relative: &str) -> (String, Value) {
    let path = support::corpus_dir(relative);
    let source = std::fs::read_to_string(&path).unwrap();
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let report = std::env::temp_dir().join(format!("sharding-{name}-{}.json", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args([
            "run",
            "--backend",
            "cpu",
            "--nproc-per-node",
            "4",
            "--report",
        ])
        .arg(&report)
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&report).unwrap();
    let _ = std::fs::remove_file(&report);
    let mut json: Value = serde_json::from_str(&text).unwrap();
    (source, json["world"].take())
}

/// The 1-based line of the first source line containing `needle`.
fn line_of(source: &str, needle: &str) -> u64 {
    source.lines().position(|l| l.contains(needle)).unwrap() as u64 + 1
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect()
}

#[test]
fn every_ranks_dtensors_are_recorded_with_their_blocks_and_the_mesh_with_its_torus_axes() {
    let (source, world) = world_of("tests/conformance/distributed/dtensor_basics.py");
    let meshes = world["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 1, "{meshes:?}");
    let mesh = &meshes[0];
    assert_eq!(numbers(&mesh["shape"]), [2, 2]);
    assert_eq!(strings(&mesh["dim_names"]), ["dp", "tp"]);
    // Four ranks on a v5e 2x2 slice: each mesh dimension's pairs are
    // neighbours along one axis, a different one for each dimension.
    let axes = mesh["torus_axes"].as_array().unwrap();
    assert!(axes.iter().all(Value::is_string), "{axes:?}");
    assert_ne!(axes[0], axes[1]);

    let tensors = world["dtensors"].as_array().unwrap();
    for rank in 0..4u64 {
        let of = |name: &str| {
            tensors
                .iter()
                .find(|t| t["rank"] == rank && t["name"] == name)
                .unwrap_or_else(|| panic!("rank {rank} has no DTensor {name}: {tensors:?}"))
        };
        let (dp, tp) = (rank / 2, rank % 2);
        // e: the 8x4 tensor as (Shard(0), Shard(1)): rows cut by dp, columns by tp.
        let e = of("e");
        assert_eq!(strings(&e["placements"]), ["Shard(dim=0)", "Shard(dim=1)"]);
        assert_eq!(numbers(&e["shape"]), [8, 4]);
        assert_eq!(numbers(&e["local_shape"]), [4, 2]);
        assert_eq!(numbers(&e["offsets"]), [4 * dp, 2 * tp]);
        assert_eq!(e["local_bytes"], 4 * 2 * 4);
        assert_eq!(e["line"], line_of(&source, "e = d.redistribute"));
        let d = of("d");
        assert_eq!(strings(&d["placements"]), ["Shard(dim=0)", "Replicate()"]);
        assert_eq!(numbers(&d["offsets"]), [4 * dp, 0]);
        assert_eq!(
            strings(&of("s")["placements"]),
            ["Partial(sum)", "Partial(sum)"]
        );
        assert_eq!(
            strings(&of("z")["placements"]),
            ["Replicate()", "Partial(sum)"]
        );
    }

    // f = e.redistribute(R, R): Shard(1) undone in each tp pair, then
    // Shard(0) in each dp pair, every member at the line that asked.
    let line = line_of(&source, "f = e.redistribute");
    let collectives = world["collectives"].as_array().unwrap();
    for (cause, groups) in [
        (
            "DTensor redistribute S(1)->R on mesh dim 'tp'",
            [[0, 1], [2, 3]],
        ),
        (
            "DTensor redistribute S(0)->R on mesh dim 'dp'",
            [[0, 2], [1, 3]],
        ),
    ] {
        for group in groups {
            let c = collectives
                .iter()
                .find(|c| c["cause"] == cause && numbers(&c["ranks"]) == group)
                .unwrap_or_else(|| panic!("no {cause} in {group:?}"));
            assert_eq!(c["name"], "all_gather_into_tensor");
            assert!(
                c["arrivals"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|a| a["line"] == line),
                "{c:?}"
            );
        }
    }
}

#[test]
fn each_fsdp2_group_gathers_before_forward_and_backward_and_reduce_scatters_once_per_step() {
    let (source, world) = world_of("tests/conformance/distributed/fsdp2_train.py");
    let steps = 4;
    let collectives = world["collectives"].as_array().unwrap();
    let count = |needle: &str| {
        collectives
            .iter()
            .filter(|c| c["cause"].as_str().is_some_and(|s| s.contains(needle)))
            .count()
    };
    // The two Linear layers are resharded after forward (non-root); the
    // root (its LayerNorm's parameters) is not, so it is not gathered again
    // before backward.
    for group in ["of 0 (Linear)", "of 2 (Linear)"] {
        assert_eq!(count(&format!("all-gather (forward) {group}")), steps);
        assert_eq!(count(&format!("all-gather (pre-backward) {group}")), steps);
        assert_eq!(count(&format!("bytes) {group}")), steps);
    }
    assert_eq!(
        count("reduce-scatter of gradients (2 gradients, "),
        3 * steps
    );
    assert_eq!(count("all-gather (forward) of root (Sequential)"), steps);
    assert_eq!(count("all-gather (pre-backward) of root"), 0);
    // An all-gather moves the group's whole parameters: Linear(8, 16) has
    // 16 * 8 + 16 float32 values, each rank holding a quarter.
    let first = collectives
        .iter()
        .find(|c| {
            c["cause"]
                .as_str()
                .is_some_and(|s| s.contains("(forward) of 0 (Linear)"))
        })
        .unwrap();
    assert_eq!(first["bytes"], (16 * 8 + 16) * 4);
    assert_eq!(numbers(&first["ranks"]), [0, 1, 2, 3]);
    // In one step, PyTorch 2.15's order (traced under torchrun, in
    // tests/distributed/DTENSOR_NOTES.md): forward root, 0, 2; backward 2
    // then 0 gathered again; reduce-scatters 2, the root, 0.
    let order: Vec<&str> = collectives
        .iter()
        .take(8)
        .map(|c| c["cause"].as_str().unwrap())
        .collect();
    let expected = [
        "(forward) of root",
        "(forward) of 0 ",
        "(forward) of 2 ",
        "(pre-backward) of 2 ",
        "(pre-backward) of 0 ",
        "bytes) of 2 ",
        "bytes) of root",
        "bytes) of 0 ",
    ];
    for (got, want) in order.iter().zip(expected) {
        assert!(got.contains(want), "{order:#?}");
    }
    // Every rank ends with the sharded parameters as DTensors, each holding
    // its quarter of the rows.
    let tensors = world["dtensors"].as_array().unwrap();
    for rank in 0..4u64 {
        let w = tensors
            .iter()
            .find(|t| t["rank"] == rank && t["name"] == "model.2.weight")
            .unwrap_or_else(|| panic!("{tensors:?}"));
        assert_eq!(strings(&w["placements"]), ["Shard(dim=0)"]);
        assert_eq!(numbers(&w["local_shape"]), [2, 16]);
        assert_eq!(numbers(&w["offsets"]), [2 * rank, 0]);
        assert_eq!(w["line"], line_of(&source, "fully_shard(layer, mesh=mesh)"));
    }
}
