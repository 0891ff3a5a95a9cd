//! `torch.Generator` objects and the draws the prelude makes in Python: a
//! generator is a handle into this thread's list; swapping one with the runtime's default
//! makes a draw come from it. `rng_save`/`rng_restore` are
//! `torch.random.fork_rng`'s; `rng_get_state`/`rng_set_state` are
//! `torch.get_rng_state`'s and `Generator.get_state`'s, in PyTorch's bytes.

use crate::args::Args;
use crate::runtime::with_runtime;
use rustpython_vm::PyResult;
use std::cell::RefCell;
use tpu_ir::DType;
use tpu_runtime::rng::Generator;

thread_local! {
    static GENERATORS: RefCell<Vec<Generator>> = const { RefCell::new(Vec::new()) };
    /// `fork_rng`'s saved default generators and seeds, innermost last.
    static SAVED: RefCell<Vec<(Generator, u64)>> = const { RefCell::new(Vec::new()) };
}

/// Forgets an earlier run's generators on this thread.
pub(crate) fn reset() {
    GENERATORS.with(|g| g.borrow_mut().clear());
    SAVED.with(|s| s.borrow_mut().clear());
}

/// This thread's generators, taken off it while the run is parked
/// (`ranks.rs`).
#[cfg(target_arch = "wasm32")]
pub(crate) type Parked = (Vec<Generator>, Vec<(Generator, u64)>);

#[cfg(target_arch = "wasm32")]
pub(crate) fn park() -> Parked {
    (
        GENERATORS.with(|g| std::mem::take(&mut *g.borrow_mut())),
        SAVED.with(|s| std::mem::take(&mut *s.borrow_mut())),
    )
}

#[cfg(target_arch = "wasm32")]
pub(crate) fn resume((generators, saved): Parked) {
    GENERATORS.with(|g| *g.borrow_mut() = generators);
    SAVED.with(|s| *s.borrow_mut() = saved);
}

/// Swaps the generator `handle` names with the runtime's default one: a draw
/// between two swaps comes from it.
pub(crate) fn swap_with_default(handle: i64, vm: &rustpython_vm::VirtualMachine) -> PyResult<()> {
    let mut engine = GENERATORS.with(|g| {
        g.borrow()
            .get(handle as usize)
            .cloned()
            .ok_or_else(|| vm.new_value_error(format!("no torch.Generator with handle {handle}")))
    })?;
    with_runtime(vm, async |rt| {
        std::mem::swap(&mut engine, &mut rt.generator);
        Ok(())
    })?;
    GENERATORS.with(|g| g.borrow_mut()[handle as usize] = engine);
    Ok(())
}

pub(crate) fn call(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let slot_error =
        |handle: i64| vm.new_value_error(format!("no torch.Generator with handle {handle}"));
    match a.name {
        "generator_new" => {
            let n = GENERATORS.with(|g| {
                let mut g = g.borrow_mut();
                g.push(Generator::default());
                g.len() - 1
            });
            Ok(vm.ctx.new_int(n).into())
        }
        "generator_seed" => {
            let (handle, seed) = (a.int(0)?, a.int(1)?);
            GENERATORS.with(|g| {
                let mut g = g.borrow_mut();
                let slot = g
                    .get_mut(handle as usize)
                    .ok_or_else(|| slot_error(handle))?;
                *slot = Generator::new(seed as u64);
                Ok(vm.ctx.none())
            })
        }
        "generator_swap" => {
            swap_with_default(a.int(0)?, vm)?;
            Ok(vm.ctx.none())
        }
        "random_ints" => {
            let count = a.int(0)?.max(0) as usize;
            let low = a.int(1)?;
            let dtype = a.opt_dtype(3)?.unwrap_or(DType::Int64);
            let high = if a.is_none(2) { None } else { Some(a.int(2)?) };
            if let Some(high) = high
                && high <= low
            {
                return Err(vm.new_runtime_error(format!(
                    "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
                )));
            }
            let values: Vec<i64> = with_runtime(vm, async |rt| {
                let rng = &mut rt.generator;
                Ok(match high {
                    None => (0..count)
                        .map(|_| {
                            let v = match dtype {
                                DType::Int64 => rng.random64() % (1u64 << 63),
                                DType::Float64 => rng.random64() % ((1u64 << 53) + 1),
                                DType::Float32 => rng.random() as u64 % ((1u64 << 24) + 1),
                                DType::Bool => rng.random() as u64 & 1,
                                _ => rng.random() as u64 % (1u64 << 31),
                            };
                            v as i64
                        })
                        .collect(),
                    Some(high) => rng.randint(low, high, count),
                })
            })?;
            let items = values
                .into_iter()
                .map(|v| vm.ctx.new_int(v).into())
                .collect();
            Ok(vm.ctx.new_list(items).into())
        }
        "rng_get_state" => {
            // PyTorch's serialised state of the default generator (no
            // handle) or of a torch.Generator (handle and its seed), as a
            // list of byte values for a uint8 tensor.
            let bytes = if a.is_none(0) {
                let seed = crate::torch_c::_tpu_torch::current_seed();
                with_runtime(vm, async |rt| Ok(rt.generator.pytorch_state(seed)))?
            } else {
                let (handle, seed) = (a.int(0)?, a.int(1)?);
                GENERATORS.with(|g| {
                    g.borrow()
                        .get(handle as usize)
                        .map(|generator| generator.pytorch_state(seed as u64))
                        .ok_or_else(|| slot_error(handle))
                })?
            };
            let items = bytes
                .into_iter()
                .map(|b| vm.ctx.new_int(b).into())
                .collect();
            Ok(vm.ctx.new_list(items).into())
        }
        "rng_set_state" => {
            // The inverse, from the byte values; returns the state's seed.
            let bytes: Vec<u8> = a.ints(0)?.into_iter().map(|b| b as u8).collect();
            let (generator, seed) =
                Generator::from_pytorch_state(&bytes).map_err(|e| vm.new_runtime_error(e))?;
            if a.is_none(1) {
                crate::torch_c::_tpu_torch::set_seed(seed);
                with_runtime(vm, async |rt| {
                    rt.generator = generator;
                    Ok(())
                })?;
            } else {
                let handle = a.int(1)?;
                GENERATORS.with(|g| {
                    let mut g = g.borrow_mut();
                    let slot = g
                        .get_mut(handle as usize)
                        .ok_or_else(|| slot_error(handle))?;
                    *slot = generator;
                    Ok::<_, rustpython_vm::builtins::PyBaseExceptionRef>(())
                })?;
            }
            Ok(vm.ctx.new_int(seed).into())
        }
        "rng_save" => {
            let seed = crate::torch_c::_tpu_torch::current_seed();
            let generator = with_runtime(vm, async |rt| Ok(rt.generator.clone()))?;
            SAVED.with(|s| s.borrow_mut().push((generator, seed)));
            Ok(vm.ctx.none())
        }
        _ => {
            let Some((generator, seed)) = SAVED.with(|s| s.borrow_mut().pop()) else {
                return Err(vm.new_runtime_error("fork_rng: nothing saved to restore"));
            };
            crate::torch_c::_tpu_torch::set_seed(seed);
            with_runtime(vm, async |rt| {
                rt.generator = generator;
                Ok(())
            })?;
            Ok(vm.ctx.none())
        }
    }
}
