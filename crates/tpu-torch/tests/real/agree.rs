// The real programs of `../shared/real` that print what PyTorch printed,
// natively (`../real_progress.rs`) and in the browser (`crates/tpu-wasm/tests/
// corpus.rs` includes this file): each test fails when one stops agreeing or
// one not listed starts to. The other one stops at PyTorch's long tail (an
// in-place `+=` on a tensor in an autograd graph), as its run prints.
#[allow(dead_code)] // The browser test's copy is read on wasm32 only.
const AGREE: &[&str] = &[
    "real_examples_dcgan",
    "real_examples_ddp_multinode_2",
    "real_examples_ddp_single_gpu",
    "real_examples_forward_forward",
    "real_examples_fx_invert",
    "real_examples_mnist_rnn",
    "real_makemore_gru",
    "real_makemore_mlp",
    "real_makemore_transformer",
    "real_mingpt_adder",
    "real_mingpt_chargpt",
    "real_nanogpt_bench",
    "real_nanogpt_sample",
    "real_ngvl_bigram",
    "real_ngvl_gpt",
];
