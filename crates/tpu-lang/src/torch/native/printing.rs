//! `torch._C.set_printoptions`: the print options of the run, kept by the
//! runtime (which formats tensors) and reset at the start of every run. The
//! prelude's `torch.set_printoptions` passes its arguments through in order.

use super::args::Args;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_runtime::format::PrintOptions;

impl Interpreter<'_> {
    /// `set_printoptions(precision, threshold, edgeitems, linewidth, profile,
    /// sci_mode)` as `torch/_tensor_str.py` applies them: the profile first,
    /// then each option given; `sci_mode` is always assigned, so leaving it
    /// out returns to the automatic choice.
    pub(super) fn native_set_printoptions(&mut self, a: Args<'_>) -> PyResult<Value> {
        let mut opts = self.runtime.print_options_mut().clone();
        if let Value::Str(profile) = a.get(4)?
            && let Some(p) = PrintOptions::profile(profile)
        {
            opts = PrintOptions {
                sci_mode: opts.sci_mode,
                ..p
            };
        }
        let count = |i: usize| -> PyResult<Option<usize>> {
            match a.get(i)? {
                Value::None => Ok(None),
                // `threshold=float("inf")` prints every element.
                Value::Float(f) if f.is_infinite() && *f > 0.0 => Ok(Some(usize::MAX)),
                Value::Float(f) if *f >= 0.0 => Ok(Some(*f as usize)),
                // Saturating: on wasm32 `2**40 as usize` would wrap to 0.
                _ => Ok(Some(
                    usize::try_from(a.int(i)?.max(0)).unwrap_or(usize::MAX),
                )),
            }
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
        opts.sci_mode = match a.get(5)? {
            Value::None => None,
            other => Some(
                other.as_number().ok_or_else(|| {
                    PyErr::type_error(format!(
                        "sci_mode must be a bool or None, not {}",
                        other.type_name()
                    ))
                })? != 0.0,
            ),
        };
        *self.runtime.print_options_mut() = opts;
        Ok(Value::None)
    }
}
