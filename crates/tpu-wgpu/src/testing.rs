//! The test suites' policy for wgpu, in one place: a test that needs an
//! adapter is `#[cfg_attr(not(tpu_gpu), ignore = ...)]` (`build.rs` sets
//! `tpu_gpu` when `TPU_REQUIRE_GPU` is set, as the project's test command sets
//! it, with lavapipe), and asks `wgpu_for_tests` for its backend, which fails
//! the test where no adapter exists: a wgpu test is either ignored, with its
//! reason, or it ran.

use crate::WgpuBackend;

/// The environment variable that makes a missing adapter a test failure.
pub const REQUIRE_GPU: &str = "TPU_REQUIRE_GPU";

/// A wgpu backend for a test that needs one (and is ignored where it is not
/// required).
///
/// # Panics
///
/// When no adapter or device can be had: the test ran and could not pass.
pub async fn wgpu_for_tests() -> WgpuBackend {
    match WgpuBackend::new().await {
        Ok(backend) => backend,
        Err(e) => panic!(
            "this test needs a wgpu adapter, but {e} (without {REQUIRE_GPU} set when the tests are built, it is ignored)"
        ),
    }
}
