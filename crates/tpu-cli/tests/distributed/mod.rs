//! torch.distributed through `tpu run --nproc-per-node N` (the distributed
//! corpora themselves run as generated tests, `corpus.rs`): the deadlocks real
//! PyTorch hangs on (`tests/corpus/distributed/deadlock_*.py` and the shared
//! corpus's `mismatch_deadlock.py`, which have no `.expected`), each named
//! rank by rank at its line; the launcher's errors; and the Report's sharding
//! record. (A module of the corpus test binary, so that it costs no link of
//! its own.)

mod sharding;
mod spawn;

use super::support;
use std::process::Command;

/// `tpu run --backend cpu --nproc-per-node 4 --report ...` of `path`:
/// (exit status, stderr, the Report as JSON).
fn report_of(path: &std::path::Path) -> (i32, String, serde_json::Value) {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let report = std::env::temp_dir().join(format!("report-{name}-{}.json", std::process::id()));
    let (code, _, stderr) = tpu(&[
        "run",
        "--backend",
        "cpu",
        "--nproc-per-node",
        "4",
        "--report",
        report.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let _ = std::fs::remove_file(&report);
    (code, stderr, serde_json::from_str(&text).unwrap())
}

/// Runs `tpu run` with `args`, returning (exit status, stdout, stderr).
fn tpu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
#[cfg_attr(
    not(tpu_shared),
    ignore = "the shared corpus is absent: ../shared/conformance (set TPU_SHARED_DIR to its folder)"
)]
fn a_mismatched_collective_is_a_deadlock_named_rank_by_rank() {
    let path = support::shared("distributed/mismatch_deadlock.py");
    let path = path.to_str().unwrap();
    for mode in support::MODES {
        let (code, stdout, stderr) = tpu(&[
            "run",
            "--backend",
            "cpu",
            "--mode",
            mode,
            "--nproc-per-node",
            "4",
            path,
        ]);
        assert_eq!(code, 1, "{stderr}");
        // The first print still reaches stdout, on every rank.
        for rank in 0..4 {
            assert!(
                stdout.contains(&format!(
                    "[rank{rank}]:first all_reduce [6.0, 6.0, 6.0, 6.0]"
                )),
                "{stdout}"
            );
        }
        assert!(!stdout.contains("unreachable"), "{stdout}");
        assert!(
            stderr.contains("rank 0: waits in all_reduce (default group, collective #2")
                && stderr.contains("at line 14"),
            "{stderr}"
        );
        for rank in 1..4 {
            assert!(
                stderr.contains(&format!(
                    "rank {rank}: waits in broadcast (default group, collective #2, shape [4], float32) at line 16"
                )),
                "{stderr}"
            );
        }
    }
}

/// Each kind of mismatch real PyTorch hangs on (or aborts on), with what
/// `tests/corpus/distributed/README.md` says every rank must be reported waiting
/// in, or where it finished.
#[test]
fn every_kind_of_mismatch_is_named_at_each_ranks_line() {
    let cases: &[(&str, &[&str])] = &[
        (
            "deadlock_different_collectives",
            &[
                "rank 0: waits in all_gather_into_tensor (default group, collective #2, shape [2], float32) at line 16",
                "rank 1: waits in reduce_scatter_tensor (default group, collective #2, shape [4], float32, SUM) at line 19",
                "rank 2: waits in all_gather_into_tensor",
                "rank 3: waits in reduce_scatter_tensor",
                "ranks 0, 2 call all_gather_into_tensor",
            ],
        ),
        (
            "deadlock_shapes",
            &[
                "rank 0: waits in all_reduce (default group, collective #2, shape [4, 3], float32, SUM) at line 19",
                "rank 1: waits in all_reduce (default group, collective #2, shape [3, 4, 2], float32, SUM) at line 19",
            ],
        ),
        (
            "deadlock_dtypes",
            &[
                "rank 2: waits in all_reduce (default group, collective #1, shape [3], float32, SUM) at line 16",
                "rank 3: waits in all_reduce (default group, collective #1, shape [3], int64, SUM) at line 16",
                "ranks 0, 1, 2 call all_reduce",
            ],
        ),
        (
            "deadlock_early_return",
            &[
                "rank 0: waits in all_reduce (default group, collective #3, shape [2], float32, SUM) at line 21",
                "rank 6: finished at line 27",
                "rank 7: waits in all_reduce (default group, collective #3",
            ],
        ),
        (
            "deadlock_recv_unmatched",
            &[
                "rank 0: waits in barrier (default group, collective #2) at line 18",
                "rank 1: waits in recv from rank 0 (tag 0, shape [1], float32) at line 17",
            ],
        ),
    ];
    for (name, expected) in cases {
        let path = support::corpus_dir(&format!("tests/corpus/distributed/{name}.py"));
        let source = std::fs::read_to_string(&path).unwrap();
        let nproc = support::nproc_of(&source, None).expect("a # nproc: line");
        let (code, _, stderr) = tpu(&[
            "run",
            "--backend",
            "cpu",
            "--nproc-per-node",
            &nproc.to_string(),
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{name}: {stderr}");
        assert!(
            stderr.starts_with("DistDeadlockError: no rank can proceed"),
            "{name}: {stderr}"
        );
        for line in *expected {
            assert!(
                stderr.contains(line),
                "{name}: expected {line:?} in\n{stderr}"
            );
        }
    }
}

#[test]
fn a_slice_with_fewer_chips_than_ranks_is_refused_naming_both() {
    let path = support::corpus_dir("tests/corpus/distributed/all_to_all.py");
    let (code, _, stderr) = tpu(&[
        "run",
        "--nproc-per-node",
        "8",
        "--slice",
        "2x2",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the 2x2 slice of TPU v5e has 4 chips, fewer than the 8 ranks"),
        "{stderr}"
    );
    let (code, _, stderr) = tpu(&["run", "--nproc-per-node", "65", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("between 1 and 64"), "{stderr}");
}

/// The Report of a mismatch lists the collective as each rank called it, and
/// nothing as having run: no link schedule, no traffic, no simulated time
/// (the page's Torus draws from this).
#[test]
fn a_mismatched_collective_is_reported_as_each_rank_called_it_and_never_run() {
    let path = support::corpus_dir("tests/corpus/distributed/deadlock_different_collectives.py");
    let (code, stderr, json) = report_of(&path);
    assert_eq!(code, 1, "{stderr}");
    let collectives = json["world"]["collectives"].as_array().unwrap();
    // The first all_reduce ran; the second collective is the mismatch.
    assert_eq!(collectives.len(), 2, "{collectives:#?}");
    let ran = &collectives[0];
    assert_eq!(ran["complete"], true);
    assert!(ran["simulation"].is_object() && ran["simulated_us"].as_f64().unwrap() > 0.0);
    assert!(
        ran["arrivals"][0]["called"]
            .as_str()
            .unwrap()
            .starts_with("all_reduce (default group, collective #1")
    );
    let stuck = &collectives[1];
    assert_eq!(stuck["complete"], false);
    assert!(stuck["simulation"].is_null(), "{stuck:#?}");
    assert_eq!(stuck["simulated_us"], 0.0);
    assert!(stuck["traffic"].as_array().unwrap().is_empty());
    assert!(
        stuck["mismatch"]
            .as_str()
            .unwrap()
            .starts_with("the ranks disagree"),
        "{stuck:#?}"
    );
    for a in stuck["arrivals"].as_array().unwrap() {
        let (rank, called) = (a["rank"].as_u64().unwrap(), a["called"].as_str().unwrap());
        let (name, line) = if rank % 2 == 0 {
            ("all_gather_into_tensor", 16)
        } else {
            ("reduce_scatter_tensor", 19)
        };
        assert!(called.starts_with(name), "rank {rank}: {called}");
        assert_eq!(a["line"], line, "rank {rank}");
        assert_eq!(a["arrived"], true);
    }
}
