//! `concat`: `torch.cat` of up to `MAX_CONCAT_PARTS` dense tensors along an
//! axis, one thread per 32-bit word of the output. A tensor of any dtype the
//! device holds is copied as its words (an int64's two, a bool's one), so one
//! kernel per count of parts serves every dtype. Seen as rows (the dimensions
//! before the axis) of runs (the rest), the output's row is each part's run
//! in turn. `params`: `[count, row, ends[6], runs[6]]` in words: `ends[k]` is
//! where part `k`'s run ends in an output row, `runs[k]` its length.

use super::{COUNT, Launch, elementwise_grid, int64, per_op_index};
use tpu_ir::{DType, MAX_CONCAT_PARTS, Shape};
use tpu_runtime::{BackendError, Operand};

const ROW: usize = COUNT + 1;
const ENDS: usize = ROW + 1;
const RUNS: usize = ENDS + MAX_CONCAT_PARTS;
const WORDS: usize = RUNS + MAX_CONCAT_PARTS;

/// The kernel joining `parts` tensors.
pub(super) fn source(parts: usize) -> String {
    let mut bindings = String::new();
    let mut picks = String::new();
    for k in 0..parts {
        bindings.push_str(&format!(
            "@group(0) @binding({}) var<storage, read> p{k}: array<u32>;\n",
            k + 1
        ));
        let start = if k == 0 {
            "0u".to_string()
        } else {
            format!("params[{}]", ENDS + k - 1)
        };
        picks.push_str(&format!(
            "    if (j < params[{end}]) {{
        out[i] = p{k}[o * params[{run}] + j - {start}];
        return;
    }}
",
            end = ENDS + k,
            run = RUNS + k,
        ));
    }
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
{bindings}@group(0) @binding({out}) var<storage, read_write> out: array<u32>;
{index}
    let row = params[{ROW}];
    let o = i / row;
    let j = i % row;
{picks}}}
",
        out = parts + 1,
        index = per_op_index(),
    )
}

/// The launch joining `inputs` (of `dtype` as the device holds it) along
/// `axis` into `out`.
pub(super) fn launch(
    inputs: &[Operand<'_>],
    axis: usize,
    out: &Shape,
    dtype: DType,
) -> Result<Launch, BackendError> {
    if inputs.is_empty() || inputs.len() > MAX_CONCAT_PARTS {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: format!("a concatenation of {} tensors", inputs.len()),
        });
    }
    let words = (int64::element_bytes(dtype) / 4) as usize;
    let run = |shape: &Shape| shape.dims()[axis..].iter().product::<usize>() * words;
    let mut params = vec![0u32; WORDS];
    let count = out.numel() * words;
    params[COUNT] = count as u32;
    params[ROW] = run(out).max(1) as u32;
    let mut end = 0;
    for (k, input) in inputs.iter().enumerate() {
        end += run(input.shape);
        params[ENDS + k] = end as u32;
        params[RUNS + k] = run(input.shape) as u32;
    }
    Ok(Launch {
        params,
        workgroups: elementwise_grid(count),
    })
}
