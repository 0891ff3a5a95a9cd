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
//! the values to each position in index order, so float sums round as the
//! reference's: where each value stays in its column of the values' last
//! dimension (an embedding's gradient: whole rows added to rows), one
//! invocation per column adds its column's values row by row; otherwise one
//! invocation adds them all, in launches of `SEQUENTIAL_MAX`.
//! `params`: gather `[count]`; scatter `[count, phase, base_len, width,
//! start, end]`.

use super::int64::{self, storage};
use super::{COUNT, Launch, elementwise_grid};
use tpu_ir::DType;
use tpu_runtime::BackendError;

const PHASE: usize = COUNT + 1;
const BASE_LEN: usize = PHASE + 1;
const WIDTH: usize = BASE_LEN + 1;
const START: usize = WIDTH + 1;
const END: usize = START + 1;

/// The most iterations one invocation of an accumulating scatter loops:
/// lavapipe stops a loop past 65,535.
pub(crate) const SEQUENTIAL_MAX: usize = 65_000;
/// The most launches that add an accumulating scatter's values in order
/// (about 16.6 million values); past it the scatter runs on the host.
const MAX_IN_ORDER_LAUNCHES: usize = 256;

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

/// The phases: 0 copies `base` (and clears the marks), 1 marks, 2 writes.
/// Accumulating: 0 copies `base` and clears the flag, 1 sets the flag unless
/// every value `j` goes to a position `p` with `p % width == j % width`,
/// 2 (flag clear) adds rows `[start, end)` of the values with one invocation
/// per column, 3 (flag set) adds values `[start, end)` in one invocation.
pub(super) fn scatter(dtype: DType, accumulate: bool) -> String {
    let t = storage(dtype);
    let integer = matches!(dtype, DType::UInt8 | DType::Int32 | DType::Int64);
    let add = if integer {
        int64::store(
            dtype,
            &format!(
                "i64_add({}, {})",
                int64::load(dtype, "out[p]"),
                int64::load(dtype, "values[j]")
            ),
        )
    } else {
        "out[p] + values[j]".to_string()
    };
    let lib = if integer { int64::LIB } else { "" };
    // Adds value `j` where its index says, unless that is past the base.
    let add_j = format!(
        "let p = index[j].x;
            if (index[j].y == 0u && p < base_len) {{
                out[p] = {add};
            }}"
    );
    let writes = if accumulate {
        format!(
            "    let width = params[{WIDTH}];
    if (phase == 1u) {{
        let p = index[i].x;
        if (index[i].y == 0u && p < base_len && p % width != i % width) {{
            atomicStore(&marks[0], 1u);
        }}
        return;
    }}
    let rows = atomicLoad(&marks[0]) == 0u;
    if (phase == 2u && rows && i < width) {{
        for (var r = params[{START}]; r < params[{END}]; r = r + 1u) {{
            let j = r * width + i;
            {add_j}
        }}
    }}
    if (phase == 3u && !rows && i == 0u) {{
        for (var j = params[{START}]; j < params[{END}]; j = j + 1u) {{
            {add_j}
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
    let clear = if accumulate {
        "\n        if (i == 0u) {\n            atomicStore(&marks[0], 0u);\n        }"
    } else {
        "\n        atomicStore(&marks[i], 0u);"
    };
    let count = if accumulate {
        // Phases 2 and 3 run past the count: their threads are columns.
        format!("params[{COUNT}] && phase == 1u")
    } else {
        format!("params[{COUNT}]")
    };
    format!(
        "{lib}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> base: array<{t}>;
@group(0) @binding(2) var<storage, read> index: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> values: array<{t}>;
@group(0) @binding(4) var<storage, read_write> out: array<{t}>;
@group(0) @binding(5) var<storage, read_write> marks: array<atomic<u32>>;

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
    if (i >= {count}) {{
        return;
    }}
{writes}
}}
",
        wg = super::WORKGROUP_SIZE,
    )
}

/// The phases of a scatter of `count` values, rows of `width`, into
/// `base_len` elements. Accumulating, both ways of adding are launched and
/// the flag phase 1 sets picks one: by rows (one invocation per column) when
/// every value stays in its column, else one invocation in order; each
/// launch loops at most `SEQUENTIAL_MAX` times.
pub(super) fn scatter_launches(
    count: usize,
    width: usize,
    base_len: usize,
    accumulate: bool,
) -> Result<Vec<Launch>, BackendError> {
    let width = width.max(1);
    let in_order = count.div_ceil(SEQUENTIAL_MAX);
    if accumulate && in_order > MAX_IN_ORDER_LAUNCHES {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: format!(
                "index_put_ with accumulate of more than {} values yet (added in order)",
                SEQUENTIAL_MAX * MAX_IN_ORDER_LAUNCHES
            ),
        });
    }
    let phase = |phase: u32, threads: usize, start: usize, end: usize| Launch {
        params: vec![
            count as u32,
            phase,
            base_len as u32,
            width as u32,
            start as u32,
            end as u32,
        ],
        workgroups: elementwise_grid(threads),
    };
    let mut launches = vec![phase(0, base_len, 0, 0)];
    if accumulate && count > 0 {
        launches.push(phase(1, count, 0, 0));
        let rows = count.div_ceil(width);
        for start in (0..rows).step_by(SEQUENTIAL_MAX) {
            launches.push(phase(2, width, start, (start + SEQUENTIAL_MAX).min(rows)));
        }
        for start in (0..count).step_by(SEQUENTIAL_MAX) {
            launches.push(phase(3, 1, start, (start + SEQUENTIAL_MAX).min(count)));
        }
    } else if count > 0 {
        launches.push(phase(1, count, 0, 0));
        launches.push(phase(2, count, 0, 0));
    }
    Ok(launches)
}
