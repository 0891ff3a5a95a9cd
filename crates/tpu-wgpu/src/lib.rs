//! The wgpu backend: TPU tensors live in GPU storage buffers and every op runs as a
//! WGSL compute shader, on WebGPU in a browser and on Vulkan natively (lavapipe on
//! machines without a GPU). This is the only crate that imports wgpu.
//!
//! `select_backend` is how front ends pick the backend for `tpu` tensors: wgpu when
//! an adapter exists, the reference backend otherwise, or whichever is forced.
//! `wgpu_for_tests` gives a test its adapter or fails it; where an adapter is
//! not required (`TPU_REQUIRE_GPU` unset when tests are built), wgpu tests are
//! ignored with the reason (`build.rs`).
//!
//! `backend.rs` holds buffers, pipelines and dispatch, `batch.rs` the commands
//! recorded since the last submission; `kernels/` the per-op
//! kernels, one module per family with its WGSL and its parameter packing;
//! `codegen.rs` the WGSL of fusion groups; `edge_values.rs` the float32
//! edge-value check that the native and the browser tests share.

mod backend;
mod batch;
pub mod codegen;
pub mod edge_values;
mod kernels;
pub mod library;
mod pallas;
mod testing;
mod timing;

pub use backend::{WgpuBackend, WgpuInitError};
pub use kernels::MatmulKernel;
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
                "unknown backend '{other}': expected auto, cpu (or reference) or wgpu"
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

/// What a person is shown for an adapter: `WebGPU (<name>)` in a browser,
/// `Vulkan (<name>)` natively, with `, software` when the adapter runs on the
/// CPU. Browsers report a CPU adapter as a fallback adapter (wgpu's
/// `DeviceType::Cpu`); natively lavapipe reports `Cpu` too, and the names of
/// the known software rasterisers are checked as well in case a driver does
/// not. The name may be empty: browsers hide an adapter's description.
pub fn adapter_label(info: &wgpu::AdapterInfo) -> tpu_runtime::BackendLabel {
    let api = match info.backend {
        wgpu::Backend::BrowserWebGpu => "WebGPU".to_string(),
        other => format!("{other:?}"),
    };
    label_for(&api, &info.name, info.device_type == wgpu::DeviceType::Cpu)
}

/// `adapter_label` from its parts: the API (`WebGPU`, `Vulkan`), the
/// adapter's name (empty if unknown) and whether it says it runs on the CPU.
/// The page's crate calls it with what the browser's `GPUAdapterInfo` says
/// when wgpu's copy of it has no name.
pub fn label_for(api: &str, name: &str, cpu: bool) -> tpu_runtime::BackendLabel {
    let lower = name.to_lowercase();
    let known_software = ["swiftshader", "llvmpipe", "lavapipe", "warp", "softpipe"]
        .into_iter()
        .find(|n| lower.contains(n));
    let software = cpu || known_software.is_some();
    // A software rasteriser is called by its short name (SwiftShader's
    // description carries its version and JIT besides).
    let name = match known_software {
        Some("swiftshader") => "SwiftShader",
        Some("llvmpipe") => "llvmpipe",
        _ => name.trim(),
    };
    let details: Vec<&str> = [name, if software { "software" } else { "" }]
        .into_iter()
        .filter(|d| !d.is_empty())
        .collect();
    let text = if details.is_empty() {
        api.to_string()
    } else {
        format!("{api} ({})", details.join(", "))
    };
    tpu_runtime::BackendLabel { text, software }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(
        name: &str,
        device_type: wgpu::DeviceType,
        backend: wgpu::Backend,
    ) -> wgpu::AdapterInfo {
        wgpu::AdapterInfo {
            name: name.into(),
            vendor: 0,
            device: 0,
            device_type,
            device_pci_bus_id: String::new(),
            driver: String::new(),
            driver_info: String::new(),
            backend,
            subgroup_min_size: 0,
            subgroup_max_size: 0,
            transient_saves_memory: None,
            limit_bucket: None,
        }
    }

    #[test]
    fn software_adapters_are_labelled_as_such() {
        use wgpu::{Backend::*, DeviceType::*};
        let label = |name, ty, backend| {
            let l = adapter_label(&info(name, ty, backend));
            (l.text, l.software)
        };
        assert_eq!(
            label("", Cpu, BrowserWebGpu),
            ("WebGPU (software)".to_string(), true)
        );
        assert_eq!(
            label("SwiftShader Device (Subzero)", Other, BrowserWebGpu),
            ("WebGPU (SwiftShader, software)".to_string(), true)
        );
        assert_eq!(
            label("llvmpipe (LLVM 19.1.7, 256 bits)", Cpu, Vulkan),
            ("Vulkan (llvmpipe, software)".to_string(), true)
        );
        assert_eq!(
            label("NVIDIA GeForce RTX 4090", DiscreteGpu, Vulkan),
            ("Vulkan (NVIDIA GeForce RTX 4090)".to_string(), false)
        );
        assert_eq!(
            label("", Other, BrowserWebGpu),
            ("WebGPU".to_string(), false)
        );
    }
}
