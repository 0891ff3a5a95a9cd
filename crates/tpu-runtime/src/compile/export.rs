//! Graphs with their values, for `tpu run --emit-stablehlo`, and each
//! recorded graph's lowering.

use super::{Capture, Graph, GraphRecord, TensorType, Typed, sanitize, stablehlo};
use crate::data::HostData;
use tpu_ir::DType;

/// A graph with the values of one call, for `--emit-stablehlo`.
#[derive(Clone, Debug)]
pub struct ExportedGraph {
    pub name: String,
    pub stablehlo: String,
    pub inputs: Vec<HostData>,
    pub input_shapes: Vec<Vec<usize>>,
    pub outputs: Vec<HostData>,
    pub output_shapes: Vec<Vec<usize>>,
}

impl ExportedGraph {
    /// The parameters' values in the JSON form `tools/xla_check.py` (and
    /// `run_stablehlo.py`) read: a list of `{"dtype", "shape", "data"}`.
    pub fn inputs_json(&self) -> String {
        values_json(&self.inputs, &self.input_shapes)
    }

    /// The results as this runtime computed them, in the same form.
    pub fn outputs_json(&self) -> String {
        values_json(&self.outputs, &self.output_shapes)
    }
}

fn values_json(values: &[HostData], shapes: &[Vec<usize>]) -> String {
    use std::fmt::Write;
    let number = |v: f64| {
        if v.is_nan() {
            "NaN".to_string()
        } else if v.is_infinite() {
            (if v > 0.0 { "Infinity" } else { "-Infinity" }).to_string()
        } else {
            format!("{v:?}")
        }
    };
    let mut out = String::from("[");
    for (i, (data, shape)) in values.iter().zip(shapes).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let dtype = match data.dtype() {
            DType::Float32 => "f32",
            DType::Float64 => "f64",
            DType::BFloat16 => "bf16",
            DType::Float16 => "f16",
            DType::UInt8 => "ui8",
            DType::Int32 => "i32",
            DType::Int64 => "i64",
            DType::Bool => "i1",
        };
        let items: Vec<String> = match data {
            HostData::I64(v) => v.iter().map(|x| x.to_string()).collect(),
            HostData::I32(v) => v.iter().map(|x| x.to_string()).collect(),
            HostData::U8(v) => v.iter().map(|x| x.to_string()).collect(),
            HostData::Bool(v) => v
                .iter()
                .map(|&x| if x { "1" } else { "0" }.into())
                .collect(),
            other => other.to_f64().into_iter().map(number).collect(),
        };
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let _ = write!(
            out,
            "{{\"dtype\": \"{dtype}\", \"shape\": [{}], \"data\": [{}]}}",
            dims.join(", "),
            items.join(", ")
        );
    }
    out.push(']');
    out
}

impl crate::Runtime {
    /// Each of `built`'s graphs lowered and recorded (and exported with its
    /// values when graphs are exported; `suffix` names a backward's).
    pub(super) fn graph_records(
        &mut self,
        capture: &Capture,
        built: &[Graph],
        suffix: &str,
    ) -> Vec<GraphRecord> {
        let (function, compile) = (capture.function, capture.compile);
        let f = &self.compiled.functions[function];
        let mut name = format!("{}_{function}_{compile}", sanitize(&f.name));
        if !suffix.is_empty() {
            name = format!("{name}_{suffix}");
        }
        let count = built.len();
        let mut records = Vec::with_capacity(count);
        for (g, graph) in built.iter().enumerate() {
            let lowered = stablehlo::lower(graph);
            let types = |vs: &[Typed]| {
                vs.iter()
                    .map(|(_, s, d)| TensorType {
                        shape: s.dims().to_vec(),
                        dtype: *d,
                    })
                    .collect()
            };
            if self.compiled.export
                && let Ok(text) = &lowered
            {
                let values = |vs: &[Typed]| -> Option<Vec<HostData>> {
                    vs.iter()
                        .map(|(id, _, _)| capture.values.get(id).cloned())
                        .collect()
                };
                if let (Some(inputs), Some(outputs)) =
                    (values(&graph.inputs), values(&graph.outputs))
                {
                    let graph_name = if count == 1 {
                        name.clone()
                    } else {
                        format!("{name}_graph{g}")
                    };
                    self.compiled.exported.push(ExportedGraph {
                        name: graph_name,
                        stablehlo: text.clone(),
                        inputs,
                        input_shapes: graph.inputs.iter().map(|i| i.1.dims().to_vec()).collect(),
                        outputs,
                        output_shapes: graph.outputs.iter().map(|o| o.1.dims().to_vec()).collect(),
                    });
                }
            }
            records.push(GraphRecord {
                ops: graph.nodes.iter().map(|n| n.op_index).collect(),
                kernels: capture.kernels.get(g).map_or(0, |r| r.len()),
                kernel_indices: capture
                    .kernels
                    .get(g)
                    .cloned()
                    .unwrap_or_default()
                    .collect(),
                simulated_us: 0.0,
                host_steps: capture.host_steps.get(g).copied().unwrap_or(0),
                inputs: types(&graph.inputs),
                outputs: types(&graph.outputs),
                lowering_error: lowered.as_ref().err().cloned(),
                stablehlo: lowered.ok(),
            });
        }
        records
    }
}
