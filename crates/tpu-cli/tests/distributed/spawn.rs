//! Processes a program starts itself (`torch.multiprocessing.spawn`,
//! `mp.Process`) where real PyTorch has nothing to record: a deadlock among
//! them (PyTorch hangs), the Report of such a run, a spawn without the main
//! guard, and a process that tries to start processes of its own. (The
//! programs PyTorch runs to the end are corpus programs, `single/mp_*.py`.)

use super::tpu;

/// Writes `source` to a fresh file and returns its path.
fn program(name: &str, source: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tpu-spawn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path
}

const DEADLOCK: &str = r#"import os
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

def work(rank):
    dist.init_process_group("gloo", rank=rank, world_size=2)
    t = torch.ones(2, device="tpu")
    if rank == 0:
        dist.all_reduce(t)
    else:
        dist.broadcast(t, src=0)
    print("unreachable")

if __name__ == "__main__":
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "29500"
    print("before")
    mp.spawn(work, nprocs=2)
"#;

#[test]
fn a_deadlock_among_spawned_processes_is_the_parents_error_naming_each_line() {
    let path = program("deadlock.py", DEADLOCK);
    let report = path.with_extension("json");
    let (code, stdout, stderr) = tpu(&[
        "run",
        "--backend",
        "cpu",
        "--report",
        report.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "before\n");
    assert!(
        stderr.contains("line 19, in <module>")
            && stderr
                .contains("RuntimeError: the processes torch.multiprocessing started deadlocked")
            && stderr.contains("rank 0: waits in all_reduce")
            && stderr.contains("at line 10")
            && stderr.contains("rank 1: waits in broadcast")
            && stderr.contains("at line 12"),
        "{stderr}"
    );
    // The processes stopped quietly: the parent's error says it once.
    assert!(!stderr.contains("DistStopped"), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(report["world"]["nproc"], 2);
    assert!(
        report["world"]["deadlock"].is_object(),
        "{}",
        report["world"]
    );
}

#[test]
fn a_spawning_runs_report_is_its_worlds() {
    let source = r#"import os
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

def work(rank, n):
    dist.init_process_group("gloo", rank=rank, world_size=n)
    t = torch.full((4,), float(rank), device="tpu") + 1
    dist.all_reduce(t)
    if rank == 2:
        print("sum", t.tolist())

if __name__ == "__main__":
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "29500"
    mp.spawn(work, args=(3,), nprocs=3)
    print("parent done")
"#;
    let path = program("world.py", source);
    let report = path.with_extension("json");
    let (code, stdout, stderr) = tpu(&[
        "run",
        "--backend",
        "cpu",
        "--chip",
        "v5e",
        "--report",
        report.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "sum [6.0, 6.0, 6.0, 6.0]\nparent done\n");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let world = &report["world"];
    assert_eq!(world["nproc"], 3);
    let ranks = world["ranks"].as_array().unwrap();
    assert_eq!(ranks.len(), 3);
    assert!(
        ranks.iter().all(|r| r["ops"].as_u64().unwrap() > 0),
        "{world}"
    );
    let collectives = world["collectives"].as_array().unwrap();
    assert!(
        collectives.iter().any(|c| c["name"] == "all_reduce"),
        "{world}"
    );
    assert_eq!(report["stdout"], stdout.as_str());
}

#[test]
fn a_spawn_without_the_main_guard_fails_in_each_process_as_under_cpython() {
    let source = "import torch.multiprocessing as mp\n\ndef f(rank):\n    print('hi', rank)\n\nmp.spawn(f, nprocs=2)\n";
    let path = program("noguard.py", source);
    let (code, stdout, stderr) = tpu(&["run", "--backend", "cpu", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("current process has finished its bootstrapping phase")
            && stderr.contains("ProcessExitedException: process 0 terminated with exit code 1"),
        "{stderr}"
    );
}

#[test]
fn a_spawned_process_cannot_spawn_its_own() {
    let source = r#"import torch.multiprocessing as mp

def inner(rank):
    pass

def outer(rank):
    mp.spawn(inner, nprocs=2)

if __name__ == "__main__":
    mp.spawn(outer, nprocs=2)
"#;
    let path = program("nested.py", source);
    let (code, _, stderr) = tpu(&["run", "--backend", "cpu", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("-- Process 0 terminated with the following error:")
            && stderr.contains(
                "a process started by torch.multiprocessing cannot start processes of its own here"
            )
            && stderr.contains("line 7, in outer"),
        "{stderr}"
    );
}
