//! Advanced indexing on the device: `gather` (`out[i] = a[index[i]]`) and
//! `scatter` (`base` with `base[index[i]] = values[i]`, or `+=`). The index
//! is int64 flat positions the runtime computed and bounds-checked on the
//! host (`views/index.rs`); a kernel still skips a position past its buffer.
//!
//! A scatter runs in phases over one pipeline (`params[PHASE]`): the copy of
//! `base`, then the writes. Where two values go to one position the last
//! wins, as on the reference (and PyTorch's CPU): a phase marks each
//! position with the highest `i + 1` writing it (`atomicMax` into a scratch
//! buffer of marks), and only that `i` writes. An accumulating scatter adds
//! its values in index order in one invocation, so float sums round as the
//! reference's; it takes at most `SEQUENTIAL_MAX` values.
//! `params`: gather `[count]`; scatter `[count, phase, base_len]`.

use super::int64::{self, storage};
use super::{COUNT, Launch, elementwise_grid};
use tpu_ir::DType;
use tpu_runtime::BackendError;

const PHASE: usize = COUNT + 1;
const BASE_LEN: usize = PHASE + 1;

/// The most values an accumulating scatter adds (one invocation adds them
/// all, in order): lavapipe stops a loop past 65,535 iterations.
pub(crate) const SEQUENTIAL_MAX: usize = 65_000;

pub(super) fn gather(dtype: DType) -> String {
    let t = storage(dtype);
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<{t}>;
@group(0) @binding(2) var<storage, read> index: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> out: array<{t}>;
{}
    let p = index[i].x;
    if (index[i].y == 0u && p < arrayLength(&a)) {{
        out[i] = a[p];
    }}
}}
",
        super::per_op_index()
    )
}

pub(super) fn gather_launch(count: usize) -> Launch {
    Launch {
        params: vec![count as u32],
        workgroups: elementwise_grid(count),
    }
}

/// The phases: 0 copies `base` (and clears the marks), 1 marks, 2 writes
/// (or, accumulating, 1 adds every value in one invocation).
pub(super) fn scatter(dtype: DType, accumulate: bool) -> String {
    let t = storage(dtype);
    let add = match dtype {
        DType::Int32 | DType::Int64 => int64::store(
            dtype,
            &format!(
                "i64_add({}, {})",
                int64::load(dtype, "out[p]"),
                int64::load(dtype, "values[j]")
            ),
        ),
        _ => "out[p] + values[j]".to_string(),
    };
    let lib = if matches!(dtype, DType::Int32 | DType::Int64) {
        int64::LIB
    } else {
        ""
    };
    let writes = if accumulate {
        format!(
            "    if (i == 0u) {{
        let n = params[{COUNT}];
        for (var j = 0u; j < n; j = j + 1u) {{
            let p = index[j].x;
            if (index[j].y == 0u && p < base_len) {{
                out[p] = {add};
            }}
        }}
    }}"
        )
    } else {
        "    let p = index[i].x;
    if (index[i].y != 0u || p >= base_len) {
        return;
    }
    if (phase == 1u) {
        atomicMax(&marks[p], i + 1u);
    } else if (atomicLoad(&marks[p]) == i + 1u) {
        out[p] = values[i];
    }"
        .to_string()
    };
    let marks = if accumulate {
        String::new()
    } else {
        "@group(0) @binding(5) var<storage, read_write> marks: array<atomic<u32>>;\n".into()
    };
    let clear = if accumulate {
        ""
    } else {
        "\n        atomicStore(&marks[i], 0u);"
    };
    format!(
        "{lib}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> base: array<{t}>;
@group(0) @binding(2) var<storage, read> index: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> values: array<{t}>;
@group(0) @binding(4) var<storage, read_write> out: array<{t}>;
{marks}
@compute @workgroup_size({wg})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {{
    let i = gid.y * groups.x * {wg}u + gid.x;
    let phase = params[{PHASE}];
    let base_len = params[{BASE_LEN}];
    if (phase == 0u) {{
        if (i < base_len) {{
            out[i] = base[i];{clear}
        }}
        return;
    }}
    if (i >= params[{COUNT}]) {{
        return;
    }}
{writes}
}}
",
        wg = super::WORKGROUP_SIZE,
    )
}

/// The phases of a scatter of `count` values into `base_len` elements.
pub(super) fn scatter_launches(
    count: usize,
    base_len: usize,
    accumulate: bool,
) -> Result<Vec<Launch>, BackendError> {
    if accumulate && count > SEQUENTIAL_MAX {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: format!(
                "index_put_ with accumulate of more than {SEQUENTIAL_MAX} values yet (added in order in one invocation)"
            ),
        });
    }
    let phase = |phase: u32, threads: usize| Launch {
        params: vec![count as u32, phase, base_len as u32],
        workgroups: elementwise_grid(threads),
    };
    let mut launches = vec![phase(0, base_len)];
    if accumulate {
        launches.push(phase(1, 1));
    } else if count > 0 {
        launches.push(phase(1, count));
        launches.push(phase(2, count));
    }
    Ok(launches)
}
