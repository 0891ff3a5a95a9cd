//! The wgpu backend: TPU tensors live in GPU storage buffers and every op runs as a
//! WGSL compute shader, on WebGPU in a browser and on Vulkan natively (lavapipe on
//! machines without a GPU). This is the only crate that imports wgpu.
//!
//! `select_backend` is how front ends pick the backend for `tpu` tensors: wgpu when
//! an adapter exists, the reference backend otherwise, or whichever is forced.
//! `wgpu_for_tests` is every test suite's rule for when a missing adapter is a
//! skip and when it is a failure.
//!
//! `backend.rs` holds buffers, pipelines and dispatch; `kernels/` the per-op
//! kernels, one module per family with its WGSL and its parameter packing;
//! `codegen.rs` the WGSL of fusion groups; `edge_values.rs` the float32
//! edge-value check that the native and the browser tests share.

mod backend;
pub mod codegen;
pub mod edge_values;
mod kernels;
mod testing;

pub use backend::{WgpuBackend, WgpuInitError};
pub use testing::{REQUIRE_GPU, wgpu_for_tests};

use tpu_runtime::{Backend, ReferenceBackend};

/// Which backend runs `tpu` tensors (`--backend auto|cpu|wgpu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BackendChoice {
    #[default]
    Auto,
    Reference,
    Wgpu,
}

impl std::str::FromStr for BackendChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(BackendChoice::Auto),
            "cpu" | "reference" => Ok(BackendChoice::Reference),
            "wgpu" | "gpu" => Ok(BackendChoice::Wgpu),
            other => Err(format!(
                "unknown backend '{other}': expected auto, cpu or wgpu"
            )),
        }
    }
}

/// The chosen backend, and why `auto` fell back to the reference if it did.
pub struct SelectedBackend {
    pub backend: Box<dyn Backend>,
    pub fallback_reason: Option<String>,
}

pub async fn select_backend(choice: BackendChoice) -> Result<SelectedBackend, WgpuInitError> {
    match choice {
        BackendChoice::Reference => Ok(SelectedBackend {
            backend: Box::new(ReferenceBackend::new()),
            fallback_reason: None,
        }),
        BackendChoice::Wgpu => Ok(SelectedBackend {
            backend: Box::new(WgpuBackend::new().await?),
            fallback_reason: None,
        }),
        BackendChoice::Auto => match WgpuBackend::new().await {
            Ok(wgpu) => Ok(SelectedBackend {
                backend: Box::new(wgpu),
                fallback_reason: None,
            }),
            Err(e) => Ok(SelectedBackend {
                backend: Box::new(ReferenceBackend::new()),
                fallback_reason: Some(e.to_string()),
            }),
        },
    }
}
