//! What the Report keeps of each compiled function: its compiles with their
//! guards and reasons, breaks and graphs (costed on the chosen TPU once the
//! run's kernels are), and what `torch._dynamo.explain` and
//! `torch_tpu.stablehlo` read back of the latest compile.

use serde::{Deserialize, Serialize};
use tpu_ir::DType;

/// The type of a graph's parameter or result, as the Report shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TensorType {
    pub shape: Vec<usize>,
    pub dtype: DType,
}

/// Where Dynamo would have broken the graph, and why.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GraphBreak {
    /// Dynamo's reason (`Tensor.item`, `print`, `data-dependent branching`).
    pub reason: String,
    pub line: Option<u32>,
}

/// One captured graph of a compile (a compile with `k` breaks has `k + 1`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GraphRecord {
    /// Indices into the Report's `ops` of this graph's ops (first call).
    pub ops: Vec<usize>,
    /// Kernels launched to run it on its first call.
    pub kernels: usize,
    /// Those kernels, as indices into the Report's `kernels`.
    #[serde(default)]
    pub kernel_indices: Vec<usize>,
    /// What those kernels take on the chosen TPU (simulated, not measured).
    #[serde(default)]
    pub simulated_us: f64,
    /// Reads the runtime made inside the graph (a host fallback's operands,
    /// an index), which a TPU compiler would have kept on the device.
    pub host_steps: usize,
    pub inputs: Vec<TensorType>,
    pub outputs: Vec<TensorType>,
    /// The graph as a StableHLO module (MLIR text), when it lowers.
    pub stablehlo: Option<String>,
    /// Why it does not lower, when it does not.
    pub lowering_error: Option<String>,
}

/// One compile of a function: the guards its graphs are valid under.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CompileRecord {
    /// What a call must match to reuse this compile, one guard per line.
    pub guards: Vec<String>,
    /// Why it was compiled again (none for the first compile): the first
    /// guard of the previous compile that the call failed, in Dynamo's words.
    pub reason: Option<String>,
    /// Dimensions compiled as dynamic (`x.size(0)`), by automatic dynamic
    /// shapes or `dynamic=True`.
    pub dynamic_dims: Vec<String>,
    pub line: Option<u32>,
    /// Calls this compile served.
    pub calls: usize,
    pub graphs: Vec<GraphRecord>,
    pub breaks: Vec<GraphBreak>,
    /// The compiled backward: the first backward through this compile's
    /// graphs, captured and planned as one graph (AOTAutograd's
    /// `CompiledFunctionBackward`).
    #[serde(default)]
    pub backward: Vec<GraphRecord>,
    /// Backward passes through this compile's graphs.
    #[serde(default)]
    pub backward_calls: usize,
    /// How a dynamic compile's calls ran: padded to a bound, or at their
    /// own sizes and why.
    #[serde(default)]
    pub padding: Option<PaddingRecord>,
}

/// Bounded dynamic shapes: a dynamic compile's graph run padded to a bound
/// for each dynamic size, so that every size under the bound reuses one set
/// of kernels (the compilation cache keys on shapes).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PaddingRecord {
    /// Each dynamic size (`x.size(1)`) with the bound it is padded to, as
    /// last set.
    pub bounds: Vec<(String, usize)>,
    /// Calls run padded.
    pub padded_calls: usize,
    /// Calls run at their own sizes (the first call of a size needs another
    /// capture to fit the graph's sizes to the dynamic ones; see `notes`).
    pub exact_calls: usize,
    /// Padded plans made: one when the sizes were first fitted, one more
    /// each time a size passed its bound or the fit stopped holding.
    pub plans: usize,
    /// Elements the padded runs' values held, and of those the elements
    /// the exact sizes needed: the waste is `1 - exact / padded`.
    pub padded_elements: u64,
    pub exact_elements: u64,
    /// Why calls ran unpadded, each reason once.
    pub notes: Vec<String>,
}

/// A function or module given to `torch.compile`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CompiledFunction {
    pub name: String,
    /// Where `torch.compile` was called.
    pub line: Option<u32>,
    pub fullgraph: bool,
    /// `dynamic=` as given (`None`: automatic dynamic shapes).
    pub dynamic: Option<bool>,
    pub calls: usize,
    /// Calls run eagerly, past `torch._dynamo.config.cache_size_limit`.
    pub eager_calls: usize,
    pub compiles: Vec<CompileRecord>,
    /// What else happened to it (the cache size limit reached).
    pub notes: Vec<String>,
}

impl crate::Runtime {
    /// The StableHLO of compiled function `function`'s latest compile, one
    /// module per graph (for a graph that does not lower, why).
    pub fn compiled_stablehlo(&self, function: usize) -> Vec<String> {
        let Some(c) = self
            .compiled
            .functions
            .get(function)
            .and_then(|f| f.compiles.last())
        else {
            return Vec::new();
        };
        c.graphs
            .iter()
            .map(|g| match (&g.stablehlo, &g.lowering_error) {
                (Some(text), _) => text.clone(),
                (None, e) => format!(
                    "// this graph does not lower to StableHLO: {}",
                    e.as_deref().unwrap_or("unknown")
                ),
            })
            .collect()
    }

    /// Of compiled function `function`'s latest compile: its graphs, its
    /// breaks (reason, line) and its ops (`torch._dynamo.explain`).
    pub fn compile_info(&self, function: usize) -> (usize, Vec<(String, Option<u32>)>, usize) {
        let Some(c) = self
            .compiled
            .functions
            .get(function)
            .and_then(|f| f.compiles.last())
        else {
            return (0, Vec::new(), 0);
        };
        (
            c.graphs.len(),
            c.breaks
                .iter()
                .map(|b| (b.reason.clone(), b.line))
                .collect(),
            c.graphs.iter().map(|g| g.ops.len()).sum(),
        )
    }

    /// Each graph's simulated time on the chosen TPU, once the Report's
    /// kernels are costed.
    pub(crate) fn cost_graphs(report: &mut crate::Report) {
        let kernels = &report.kernels;
        for f in &mut report.compiled {
            for c in &mut f.compiles {
                for g in c.graphs.iter_mut().chain(c.backward.iter_mut()) {
                    g.simulated_us = g
                        .kernel_indices
                        .iter()
                        .filter_map(|&i| kernels.get(i).and_then(|k| k.cost.as_ref()))
                        .map(|cost| cost.simulated_us)
                        .sum();
                }
            }
        }
    }

    /// The compiled functions of this run, for the Report.
    pub fn take_compiled(&mut self) -> Vec<CompiledFunction> {
        std::mem::take(&mut self.compiled.functions)
    }
}
