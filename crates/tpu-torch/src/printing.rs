//! `torch._C.set_printoptions`: the run's print options, kept by the runtime, applied as
//! `torch/_tensor_str.py` applies them.

use crate::args::{Args, as_int, scalar_kind};
use crate::runtime::with_runtime;
use rustpython_vm::PyResult;
use rustpython_vm::builtins::{PyFloat, PyStr};
use tpu_runtime::format::PrintOptions;

/// `set_printoptions(precision, threshold, edgeitems, linewidth, profile,
/// sci_mode)`: the profile first, then each option given; `sci_mode` is
/// always assigned, so leaving it out returns to the automatic choice.
pub(crate) fn set_printoptions(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let mut opts = with_runtime(vm, async |rt| Ok(rt.print_options_mut().clone()))?;
    if let Some(profile) = a.values.get(4).and_then(|v| v.downcast_ref::<PyStr>())
        && let Some(p) = PrintOptions::profile(profile.as_ref())
    {
        opts = PrintOptions {
            sci_mode: opts.sci_mode,
            ..p
        };
    }
    let count = |i: usize| -> PyResult<Option<usize>> {
        if a.is_none(i) {
            return Ok(None);
        }
        let v = a.get(i)?;
        if let Some(f) = v.downcast_ref::<PyFloat>() {
            let f = f.to_f64();
            if f.is_infinite() && f > 0.0 {
                // `threshold=float("inf")` prints every element.
                return Ok(Some(usize::MAX));
            }
            if f >= 0.0 {
                return Ok(Some(f as usize));
            }
        }
        // Saturating: on wasm32 `2**40 as usize` would wrap to 0.
        let n = as_int(v, vm).map_or_else(|| a.int(i), Ok)?;
        Ok(Some(usize::try_from(n.max(0)).unwrap_or(usize::MAX)))
    };
    if let Some(precision) = count(0)? {
        opts.precision = precision;
    }
    if let Some(threshold) = count(1)? {
        opts.threshold = threshold;
    }
    if let Some(edgeitems) = count(2)? {
        opts.edgeitems = edgeitems;
    }
    if let Some(linewidth) = count(3)? {
        opts.linewidth = linewidth;
    }
    opts.sci_mode = if a.is_none(5) {
        None
    } else {
        let v = a.get(5)?;
        let (x, _) = scalar_kind(v, vm).ok_or_else(|| {
            vm.new_type_error(format!(
                "sci_mode must be a bool or None, not {}",
                v.class().name()
            ))
        })?;
        Some(x != 0.0)
    };
    with_runtime(vm, async |rt| {
        *rt.print_options_mut() = opts;
        Ok(())
    })?;
    Ok(vm.ctx.none())
}

/// `complex_repr(pairs, double, suffixes)`: `repr` of the complex tensor
/// whose real and imaginary parts are `pairs`' last dimension (its
/// `view_as_real` form), with `suffixes` (`requires_grad=True`, a
/// `grad_fn`) after the device's.
pub(crate) fn complex_repr(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let pairs = a.tensor(0)?;
    let double = a.bool(1)?;
    let suffixes: Vec<String> = crate::args::items(a.get(2)?)
        .unwrap_or_default()
        .iter()
        .map(|s| s.str(vm).map(|s| s.to_string()))
        .collect::<PyResult<_>>()?;
    let text = with_runtime(vm, async |rt| {
        rt.set_sync_reason("print / repr");
        rt.complex_repr(&pairs, double, &suffixes).await
    })?;
    Ok(vm.ctx.new_str(text).into())
}
