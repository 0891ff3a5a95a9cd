//! The public names PyTorch 2.15 has in the namespaces this project mirrors
//! (`torch`, `torch.nn.functional`, `torch.nn.init`, `torch.nn`,
//! `torch.optim`, `torch.optim.lr_scheduler`, `Tensor`), so that a program
//! reaching for one we do not have gets `NotImplementedError` naming it rather
//! than an `AttributeError` that reads like a typo. The list is generated from
//! the recorded inventory by the inventory test (`tests/inventory.rs`), which
//! fails while it is stale.

const NAMES: &str = include_str!("pytorch_names.txt");

/// Whether PyTorch has `namespace.name` (`"torch"`, `"conv2d"`; `"Tensor"`, `"stft"`).
pub fn is_pytorch_name(namespace: &str, name: &str) -> bool {
    NAMES.lines().any(|line| {
        line.split_once(' ')
            .is_some_and(|(ns, n)| ns == namespace && n == name)
    })
}

/// The error for a PyTorch name this project does not have.
pub fn not_supported(namespace: &str, name: &str) -> crate::python::error::PyErr {
    crate::python::error::PyErr::not_implemented(format!(
        "{namespace}.{name} is not supported yet (it is part of PyTorch 2.15, but not of this playground)"
    ))
}
