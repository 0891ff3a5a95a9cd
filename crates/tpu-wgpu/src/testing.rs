//! The test suites' policy for wgpu, in one place: a test that needs an
//! adapter asks `wgpu_for_tests`, which gives it a backend, or skips it (with
//! a line on stderr) where none exists, unless `TPU_REQUIRE_GPU` is set, as
//! the project's test command sets it (`cargo xtask test`, with lavapipe):
//! then a missing adapter is a failure, so the wgpu tests can never pass
//! without having run.

use crate::WgpuBackend;

/// The environment variable that makes a missing adapter a test failure.
pub const REQUIRE_GPU: &str = "TPU_REQUIRE_GPU";

/// A wgpu backend for a test, or `None` (the test skips) when no adapter
/// exists and `TPU_REQUIRE_GPU` is unset.
///
/// # Panics
///
/// When `TPU_REQUIRE_GPU` is set and no adapter or device can be had.
pub async fn wgpu_for_tests() -> Option<WgpuBackend> {
    match WgpuBackend::new().await {
        Ok(backend) => Some(backend),
        Err(e) if std::env::var_os(REQUIRE_GPU).is_some() => {
            panic!("{REQUIRE_GPU} is set but {e}")
        }
        Err(e) => {
            eprintln!("skipping the wgpu part: {e} (set {REQUIRE_GPU}=1 to make this a failure)");
            None
        }
    }
}
