//! How far the port has come: every program of the own single-device corpus
//! (`tests/corpus/single/`) through `tpu-torch` on the reference backend in
//! Strict mode, judged by the corpus rule against what PyTorch printed. The
//! programs that agree are listed in `AGREE`; the test fails when one of them
//! stops agreeing, and when a program not listed starts to (add it), so the
//! list is always the port's true progress.

use std::path::Path;
use std::time::Duration;

#[path = "../../../tests/corpus/layout.rs"]
#[allow(dead_code)] // Only part of it is needed here.
mod layout;

/// The single-device corpus programs that print what PyTorch printed on the
/// new interpreter. Of the others, three differ in plain Python, not torch:
/// `python_dir_help` (classes have CPython 3.13's `__firstlineno__`, absent
/// from the recording CPython), `python_random` (`random.seed(-0.125)` seeds
/// differently in RustPython) and `python_time` (RustPython's message for
/// `time.sleep("x")`).
const AGREE: &[&str] = &[
    "autograd_accumulate_nograd_detach",
    "autograd_elementwise_pow_clamp",
    "autograd_function",
    "autograd_matmul_reductions",
    "autograd_softmax_logsoftmax",
    "autograd_views_indexing_cat",
    "autograd_where_masked_fill",
    "comparisons",
    "creation_like_random",
    "creation_ops",
    "dtype_casts_promotion",
    "dtypes",
    "dtypes_int32_float64",
    "edge_values",
    "elementwise_broadcast_promotion",
    "elementwise_division_pow_clamp",
    "elementwise_math",
    "errors_torch",
    "fallback_int64",
    "grad_mode_decorators",
    "indexing_basic",
    "indexing_masks_assign",
    "inplace_and_function_forms",
    "joins_split_chunk_cat_stack",
    "matmul_empty_dims",
    "matmul_variants",
    "nn_activations",
    "nn_clip_grad_norm",
    "nn_functional_layers",
    "nn_linear_embedding_layernorm",
    "nn_losses",
    "nn_module_custom",
    "nn_sdpa",
    "nn_sequential_dropout_modes",
    "optim_adam_adamw",
    "optim_sgd",
    "optim_step_hooks",
    "print_precision_limits",
    "printing_formats",
    "pymodel_callable_schedule",
    "pymodel_classmethod_constructors",
    "pymodel_config_getattr",
    "pymodel_context_managers",
    "pymodel_dataset_protocol",
    "pymodel_equality_ordering",
    "pymodel_fork_rng_partial",
    "pymodel_grad_mode_decorators",
    "pymodel_iterator_loader",
    "pymodel_model_wrapper_properties",
    "pymodel_running_meter",
    "pymodel_tensor_wrapper",
    "pymodel_vector_operators",
    "python_classes",
    "python_collections",
    "python_control_flow",
    "python_errors",
    "python_formatting",
    "python_strings",
    "random_float64",
    "random_tensors",
    "reductions_dim",
    "reductions_stats",
    "reductions_zero_dim",
    "rng_reproduction",
    "tensor_methods_inplace",
    "user_debug_grad_norms",
    "user_debug_nan_checks",
    "user_debug_parameters",
    "user_debug_shapes_through_model",
    "user_debug_training_monitor",
    "user_errors_autograd",
    "user_errors_dtypes",
    "user_errors_indexing",
    "user_errors_modules",
    "user_tensor_cumulative",
    "user_tensor_diag_triangles",
    "user_tensor_dtypes_promotion",
    "user_tensor_einsum_attention",
    "user_tensor_inplace_ops",
    "user_tensor_joins_splits",
    "user_tensor_logical_bitwise",
    "user_tensor_masking",
    "user_tensor_math_functions",
    "user_tensor_normalize_features",
    "user_tensor_one_hot_labels",
    "user_tensor_pairwise_distances",
    "user_tensor_printing",
    "user_tensor_products",
    "user_tensor_reshape_views",
    "user_tensor_shape_errors",
    "user_tensor_size_tolist",
    "user_tensor_statistics",
    "user_tensor_topk_sort",
    "user_tensor_unique_counts",
    "user_train_autoencoder",
    "user_train_bce_pos_weight",
    "user_train_bigram_char_lm",
    "user_train_custom_dataset",
    "user_train_dataloader_tensordataset",
    "user_train_early_stopping",
    "user_train_freeze_and_count",
    "user_train_grad_accumulation",
    "user_train_grad_clipping",
    "user_train_init_apply",
    "user_train_linear_regression_sgd_momentum",
    "user_train_losses_reductions",
    "user_train_lr_schedulers_step",
    "user_train_lr_schedulers_warmup",
    "user_train_minibatch_randperm",
    "user_train_mlp_blobs_classifier",
    "user_train_optimizer_options",
    "user_train_param_groups",
    "user_train_state_dict_roundtrip",
    "user_train_tiny_transformer",
    "user_train_weighted_ce_ignore_index",
    "views_reshape_permute",
    "views_share_storage",
    "where_masked_fill_triu_tril",
];

fn run(path: &Path) -> Result<(), String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let expected =
        std::fs::read_to_string(path.with_extension("expected")).map_err(|e| e.to_string())?;
    let outcome = std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime =
                tpu_runtime::Runtime::new(Box::new(tpu_runtime::ReferenceBackend::new()));
            tpu_torch::run(
                &source,
                &mut runtime,
                tpu_python::Options {
                    path: "main.py".into(),
                    timeout: Some(Duration::from_secs(30)),
                    ..tpu_python::Options::default()
                },
            )
        })
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the run panicked".to_string())?;
    if let Some(f) = &outcome.error {
        return Err(format!("{}: {}", f.kind, f.message));
    }
    tpu_lang::conformance::agree(&expected, &outcome.stdout)
}

#[test]
fn the_ported_programs_still_agree_and_the_list_is_complete() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let programs: Vec<(String, std::path::PathBuf)> =
        layout::programs_in(&layout::own_root(&repo).join("single"))
            .into_iter()
            .filter(|(_, p)| !p.with_extension("not_yet").exists())
            .collect();
    assert!(programs.len() >= 100, "the single corpus went missing");
    let results: Vec<(String, Result<(), String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = programs
            .chunks(programs.len().div_ceil(2))
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|(name, path)| (name.clone(), run(path)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a runner thread does not panic"))
            .collect()
    });
    let mut problems = Vec::new();
    let mut first_errors = std::collections::BTreeMap::<String, usize>::new();
    for (name, verdict) in &results {
        let listed = AGREE.contains(&name.as_str());
        match verdict {
            Ok(()) if !listed => problems.push(format!("{name}: now agrees; add it to AGREE")),
            Err(why) if listed => problems.push(format!("{name}: no longer agrees: {why}")),
            Err(why) => {
                if std::env::var_os("TPU_PROGRESS_VERBOSE").is_some() {
                    eprintln!("{name}: {why}");
                }
                let head: String = why.lines().next().unwrap_or("").chars().take(90).collect();
                *first_errors.entry(head).or_default() += 1;
            }
            Ok(()) => {}
        }
    }
    let agree = results.iter().filter(|(_, v)| v.is_ok()).count();
    eprintln!(
        "{agree} of {} single-device programs agree on the new interpreter",
        results.len()
    );
    let mut common: Vec<_> = first_errors.into_iter().collect();
    common.sort_by_key(|c| std::cmp::Reverse(c.1));
    for (why, n) in common.iter().take(15) {
        eprintln!("  {n:>3}  {why}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
