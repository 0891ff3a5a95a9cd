//! The Report's sharding record for DTensor and FSDP2 programs run as four
//! ranks: the mesh with the torus axis of each of its dimensions, every
//! rank's DTensors with their placements and blocks (the expected blocks are
//! computed here from the mesh coordinates, as torch.chunk cuts), and the
//! collectives tied to the line and the placement change or FSDP step that
//! caused them, and what each rank's chip holds at each FSDP phase (the
//! expected bytes computed here from the model's shapes).

use crate::support;
use serde_json::Value;

/// `tpu run --backend cpu --nproc-per-node 4 --report ...` of a corpus
/// program: its source and the Report's `world`.
fn world_of(path: std::path::PathBuf) -> (String, Value) {
    let source = std::fs::read_to_string(&path).unwrap();
    let (code, stderr, mut json) = super::report_of(&path);
    assert_eq!(code, 0, "{stderr}");
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
#[cfg_attr(
    not(tpu_shared),
    ignore = "the shared corpus is absent: ../shared/conformance (set TPU_SHARED_DIR to its folder)"
)]
fn every_ranks_dtensors_are_recorded_with_their_blocks_and_the_mesh_with_its_torus_axes() {
    let (source, world) = world_of(support::shared("distributed/dtensor_basics.py"));
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
#[cfg_attr(
    not(tpu_shared),
    ignore = "the shared corpus is absent: ../shared/conformance (set TPU_SHARED_DIR to its folder)"
)]
fn each_fsdp2_group_gathers_before_forward_and_backward_and_reduce_scatters_once_per_step() {
    let (source, world) = world_of(support::shared("distributed/fsdp2_train.py"));
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
    // tests/corpus/distributed/DTENSOR_NOTES.md): forward root, 0, 2; backward 2
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
        // Every parameter and its gradient, on every rank (a gradient is a
        // new DTensor each time it is read; none may be mistaken for another).
        for module in ["model.0", "model.2", "model.3"] {
            for name in ["weight", "bias"] {
                for suffix in ["", ".grad"] {
                    let mut full = format!("{module}.{name}{suffix}");
                    // The program's own variables (`w`, `g`) name the first
                    // weight and its gradient.
                    if full == "model.0.weight" {
                        full = "w".into();
                    } else if full == "model.0.weight.grad" {
                        full = "g".into();
                    }
                    assert!(
                        tensors
                            .iter()
                            .any(|t| t["rank"] == rank && t["name"] == full.as_str()),
                        "rank {rank} lacks {full}"
                    );
                }
            }
        }
    }
}

/// Bytes of this rank's `torch.chunk` block of dim 0 of a float32 tensor.
fn shard_bytes(shape: &[u64], ranks: u64, rank: u64) -> u64 {
    let chunk = shape[0].div_ceil(ranks);
    let rows = shape[0].saturating_sub(rank * chunk).min(chunk);
    rows * shape[1..].iter().product::<u64>() * 4
}

#[test]
#[cfg_attr(
    not(tpu_shared),
    ignore = "the shared corpus is absent: ../shared/conformance (set TPU_SHARED_DIR to its folder)"
)]
fn each_fsdp2_phase_notes_what_the_chip_holds_by_kind() {
    let (source, world) = world_of(support::shared("distributed/fsdp2_train.py"));
    // Linear(8, 16), Linear(16, 8), LayerNorm(8): weights and biases.
    let linear0: [&[u64]; 2] = [&[16, 8], &[16]];
    let linear2: [&[u64]; 2] = [&[8, 16], &[8]];
    let norm: [&[u64]; 2] = [&[8], &[8]];
    let whole =
        |params: &[&[u64]]| -> u64 { params.iter().map(|s| s.iter().product::<u64>() * 4).sum() };
    let points = world["memory"].as_array().unwrap();
    assert_eq!(world["memory_dropped"], 0);
    let line_of_step = line_of(&source, "opt.step()");
    for rank in 0..4u64 {
        let mine: Vec<&Value> = points.iter().filter(|p| p["rank"] == rank).collect();
        let shards: u64 = [linear0, linear2, norm]
            .iter()
            .flat_map(|g| g.iter())
            .map(|s| shard_bytes(s, 4, rank))
            .sum();
        let at = |phase: &str, module: Option<&str>, step: u64| {
            mine.iter()
                .find(|p| {
                    p["phase"] == phase && p["step"] == step && p["module"].as_str() == module
                })
                .unwrap_or_else(|| panic!("no {phase} {module:?} {step}: {mine:#?}"))
        };
        for p in &mine {
            assert_eq!(p["parameters"], shards, "{p}");
        }
        // No optimiser state before the first step; AdamW's two moments
        // (its step counts live on the host) after it.
        let first = at("before forward", Some("root (Sequential)"), 0);
        assert_eq!(first["optimizer_state"], 0);
        assert_eq!(first["gradients"], 0);
        assert_eq!(first["gathered_parameters"], 0);
        let stepped = at("after optimizer step", None, 1);
        assert_eq!(stepped["optimizer_state"], 2 * shards);
        assert_eq!(stepped["gradients"], shards);
        assert_eq!(stepped["line"], line_of_step);
        // Gathering a group adds its whole parameters; the non-root groups
        // are freed after their forward, the root's (the LayerNorm) stays.
        let gathered = |phase, module| {
            at(phase, Some(module), 1)["gathered_parameters"]
                .as_u64()
                .unwrap()
        };
        assert_eq!(
            gathered("after all-gather (forward)", "root (Sequential)"),
            whole(&norm)
        );
        assert_eq!(
            gathered("after all-gather (forward)", "0 (Linear)"),
            whole(&norm) + whole(&linear0)
        );
        assert_eq!(gathered("after forward", "0 (Linear)"), whole(&norm));
        assert_eq!(
            at("backward start", None, 1)["gathered_parameters"],
            whole(&norm) + whole(&linear0) + whole(&linear2)
        );
        // Backward made whole gradients; each reduce-scatter leaves the
        // rank's shard of its group's.
        let end = at("backward end", None, 1);
        assert_eq!(
            end["gradients"],
            whole(&norm) + whole(&linear0) + whole(&linear2)
        );
        let last = at("after reduce-scatter", Some("0 (Linear)"), 1);
        assert_eq!(
            (&last["gradients"], &last["gathered_parameters"]),
            (&shards.into(), &0.into())
        );
        // Nothing else piles up from one step to the next: the chip holds
        // the same after every optimiser step.
        let others: Vec<&Value> = mine
            .iter()
            .filter(|p| p["phase"] == "after optimizer step")
            .map(|p| &p["other"])
            .collect();
        assert_eq!(others.len(), 4);
        assert!(others.iter().all(|o| *o == others[0]), "{others:?}");
    }
}

#[test]
fn reshard_after_forward_int_gathers_back_in_groups_of_that_size() {
    let (_, world) = world_of(support::corpus_dir(
        "tests/corpus/distributed/fsdp2_reshard_int.py",
    ));
    let collectives = world["collectives"].as_array().unwrap();
    let ranks_of = |needle: &str| -> Vec<Vec<u64>> {
        collectives
            .iter()
            .filter(|c| c["cause"].as_str().is_some_and(|s| s.contains(needle)))
            .map(|c| numbers(&c["ranks"]))
            .collect()
    };
    // PyTorch's post-forward mesh is the shard group's ranks in rows of
    // `reshard_after_forward` (2 of 4 here): {0, 1} and {2, 3}; the
    // forward's all-gathers span all four.
    let backward = ranks_of("all-gather (pre-backward)");
    assert!(!backward.is_empty());
    for ranks in &backward {
        assert!(ranks == &[0, 1] || ranks == &[2, 3], "{ranks:?}");
    }
    for ranks in ranks_of("all-gather (forward)") {
        assert_eq!(ranks, [0, 1, 2, 3]);
    }
    // Each rank holds half of each layer's whole parameters between forward
    // and backward: Linear(8, 16) and Linear(16, 8), float32.
    let whole = (16 * 8 + 16 + 8 * 16 + 8) * 4;
    let start = world["memory"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            p["rank"] == 0 && p["phase"] == "after forward" && p["module"] == "root (Sequential)"
        })
        .unwrap();
    assert_eq!(start["gathered_parameters"], whole / 2);
}
