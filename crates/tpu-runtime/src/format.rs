//! Tensor printing, rule for rule as PyTorch's `torch/_tensor_str.py` does it:
//! one formatter chosen from all (or, past the threshold, the summarised) values —
//! integer mode, fixed point or scientific — a common width, rows wrapped at the
//! line width, `...` summaries past 1000 elements, and suffixes such as
//! `device='tpu:0'` that move to a new line when the last line would grow past 80.
//!
//! Values arrive as `f64` because PyTorch formats Python floats, i.e. each float32
//! widened to double; formatting the widened value reproduces its digits exactly.

use tpu_ir::DType;

/// `torch.set_printoptions`; the defaults are PyTorch's.
#[derive(Clone, Debug)]
pub struct PrintOptions {
    pub precision: usize,
    pub threshold: usize,
    pub edgeitems: usize,
    pub linewidth: usize,
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

impl PrintOptions {
    /// `torch.set_printoptions(profile=...)`: `"default"`, `"short"` or
    /// `"full"`, which set everything but `sci_mode`; `None` for another name.
    pub fn profile(name: &str) -> Option<PrintOptions> {
        let default = PrintOptions::default();
        match name {
            "default" => Some(default),
            "short" => Some(PrintOptions {
                precision: 2,
                edgeitems: 2,
                ..default
            }),
            "full" => Some(PrintOptions {
                threshold: usize::MAX,
                ..default
            }),
            _ => None,
        }
    }
}

/// A tensor's values in row-major order with its shape and dtype: all that
/// printing needs, with no device access.
pub struct HostTensor<'a> {
    pub values: &'a [f64],
    pub shape: &'a [usize],
    pub dtype: DType,
}

/// `repr(tensor)`: `tensor([...], device='tpu:0')`. `suffixes` are the extra
/// `key=value` parts in PyTorch's order (device first, then dtype, then autograd).
pub fn tensor_repr(
    t: &HostTensor<'_>,
    extra_suffixes: &[String],
    device: Option<&str>,
    opts: &PrintOptions,
) -> String {
    let prefix = "tensor(";
    let indent = prefix.len();
    let mut suffixes = Vec::new();
    if let Some(device) = device {
        suffixes.push(format!("device='{device}'"));
    }
    let has_default_dtype = matches!(t.dtype, DType::Float32 | DType::Int64 | DType::Bool);
    let body = if t.values.is_empty() {
        if t.shape.len() != 1 {
            suffixes.push(format!("size={}", python_tuple(t.shape)));
        }
        if t.dtype != DType::Float32 {
            suffixes.push(format!("dtype={}", t.dtype.torch_name()));
        }
        "[]".to_string()
    } else {
        if !has_default_dtype {
            suffixes.push(format!("dtype={}", t.dtype.torch_name()));
        }
        tensor_str(t, indent, opts)
    };
    suffixes.extend(extra_suffixes.iter().cloned());
    add_suffixes(
        &format!("{prefix}{body}"),
        &suffixes,
        indent,
        opts.linewidth,
    )
}

/// The most characters one printed tensor may take; a precision that would
/// pass it is refused rather than exhausting the host.
pub const MAX_TEXT: usize = 50_000_000;

/// Why `tensor_repr` would refuse these print options, as PyTorch (through
/// Python's `format`) does: a precision past C's `int` is "precision too big"
/// (a `ValueError`), and one whose digits would pass `MAX_TEXT` is out of
/// memory here. Only what prints with the precision counts: integer tensors
/// and whole-valued floats (PyTorch's int mode) print without it.
pub fn precision_error(t: &HostTensor<'_>, opts: &PrintOptions) -> Option<(bool, String)> {
    if t.values.is_empty() || opts.precision <= 1100 {
        return None;
    }
    let summarize = t.values.len() > opts.threshold;
    let sample = if summarize {
        summarized_values(t.values, t.shape, opts.edgeitems)
    } else {
        t.values.to_vec()
    };
    // Non-finite values print as `nan` and `inf`, whatever the precision.
    let with_precision = t.dtype.is_floating()
        && float_notation(&nonzero_finite(&sample), opts)
            .is_some_and(|(int_mode, sci_mode)| sci_mode || !int_mode);
    if !with_precision {
        return None;
    }
    if opts.precision > i32::MAX as usize {
        return Some((true, "precision too big".to_string()));
    }
    let text = sample.len().saturating_mul(opts.precision);
    (text > MAX_TEXT).then(|| {
        (
            false,
            format!(
                "out of memory: printing {} values with precision={} takes about {text} characters; this runtime prints at most {MAX_TEXT}",
                sample.len(),
                opts.precision
            ),
        )
    })
}

fn python_tuple(dims: &[usize]) -> String {
    match dims {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            dims.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn tensor_str(t: &HostTensor<'_>, indent: usize, opts: &PrintOptions) -> String {
    let summarize = t.values.len() > opts.threshold;
    let sample = if summarize {
        summarized_values(t.values, t.shape, opts.edgeitems)
    } else {
        t.values.to_vec()
    };
    let mut formatter = Formatter::new(&sample, t.dtype.is_floating(), opts);
    if t.dtype == DType::Bool {
        // PyTorch formats each element with `str(value)`: True / False.
        formatter.boolean = true;
        formatter.max_width = if sample.contains(&0.0) { 5 } else { 4 };
    }
    let view = View {
        values: t.values,
        shape: t.shape,
    };
    let element = Element {
        format: &|v| formatter.format(v),
        width: formatter.max_width,
    };
    format_view(&view, indent, summarize, &element, opts)
}

/// How each element of a tensor prints, and its width (without the comma
/// and space between elements).
struct Element<'a> {
    format: &'a dyn Fn(f64) -> String,
    width: usize,
}

/// `repr` of a complex tensor whose element i is `re[i] + im[i]j`: the real
/// and the imaginary parts each have their own formatter, chosen from all
/// of that part's values (or the summarised ones), as PyTorch's
/// `_tensor_str` formats complex tensors. `double`: complex128 (complex64
/// is the default complex dtype and is not printed).
pub fn complex_tensor_repr(
    re: &[f64],
    im: &[f64],
    shape: &[usize],
    double: bool,
    extra_suffixes: &[String],
    device: Option<&str>,
    opts: &PrintOptions,
) -> String {
    let prefix = "tensor(";
    let indent = prefix.len();
    let mut suffixes = Vec::new();
    if let Some(device) = device {
        suffixes.push(format!("device='{device}'"));
    }
    let dtype = if double {
        "torch.complex128"
    } else {
        "torch.complex64"
    };
    let body = if re.is_empty() {
        if shape.len() != 1 {
            suffixes.push(format!("size={}", python_tuple(shape)));
        }
        suffixes.push(format!("dtype={dtype}"));
        "[]".to_string()
    } else {
        if double {
            suffixes.push(format!("dtype={dtype}"));
        }
        let summarize = re.len() > opts.threshold;
        let sample = |values: &[f64]| {
            if summarize {
                summarized_values(values, shape, opts.edgeitems)
            } else {
                values.to_vec()
            }
        };
        let real = Formatter::new(&sample(re), true, opts);
        let imag = Formatter::new(&sample(im), true, opts);
        let format = |i: f64| {
            let i = i as usize;
            let real = real.format(re[i]);
            let imag = format!("{}j", imag.format(im[i]));
            let imag = imag.trim_start();
            if imag.starts_with('+') || imag.starts_with('-') {
                format!("{real}{imag}")
            } else {
                format!("{real}+{imag}")
            }
        };
        let element = Element {
            format: &format,
            width: real.max_width + imag.max_width + 1,
        };
        // The elements are looked up by index.
        let indices: Vec<f64> = (0..re.len()).map(|i| i as f64).collect();
        let view = View {
            values: &indices,
            shape,
        };
        format_view(&view, indent, summarize, &element, opts)
    };
    suffixes.extend(extra_suffixes.iter().cloned());
    add_suffixes(
        &format!("{prefix}{body}"),
        &suffixes,
        indent,
        opts.linewidth,
    )
}

/// A row-major block of values: the whole tensor or one sub-tensor `t[i]`.
struct View<'a> {
    values: &'a [f64],
    shape: &'a [usize],
}

impl<'a> View<'a> {
    fn index(&self, i: usize) -> View<'a> {
        let inner: usize = self.shape[1..].iter().product();
        View {
            values: &self.values[i * inner..(i + 1) * inner],
            shape: &self.shape[1..],
        }
    }
}

/// The values PyTorch's `get_summarized_data` keeps: the first and last
/// `edgeitems` entries along every dimension. The formatter is chosen from these.
fn summarized_values(values: &[f64], shape: &[usize], edge: usize) -> Vec<f64> {
    let view = View { values, shape };
    let mut out = Vec::new();
    collect_summary(&view, edge, &mut out);
    out
}

fn collect_summary(view: &View<'_>, edge: usize, out: &mut Vec<f64>) {
    match view.shape.len() {
        0 => out.extend_from_slice(view.values),
        _ => {
            let n = view.shape[0];
            let keep: Vec<usize> = if n > 2 * edge {
                (0..edge).chain(n - edge..n).collect()
            } else {
                (0..n).collect()
            };
            for i in keep {
                collect_summary(&view.index(i), edge, out);
            }
        }
    }
}

fn format_view(
    view: &View<'_>,
    indent: usize,
    summarize: bool,
    f: &Element<'_>,
    opts: &PrintOptions,
) -> String {
    match view.shape.len() {
        0 => (f.format)(view.values[0]),
        1 => vector_str(view.values, indent, summarize, f, opts),
        dim => {
            let n = view.shape[0];
            let sub = |i| format_view(&view.index(i), indent + 1, summarize, f, opts);
            let slices: Vec<String> = if summarize && n > 2 * opts.edgeitems {
                (0..opts.edgeitems)
                    .map(sub)
                    .chain(std::iter::once("...".to_string()))
                    .chain((n - opts.edgeitems..n).map(sub))
                    .collect()
            } else {
                (0..n).map(sub).collect()
            };
            let separator = format!(",{}{}", "\n".repeat(dim - 1), " ".repeat(indent + 1));
            format!("[{}]", slices.join(&separator))
        }
    }
}

fn vector_str(
    values: &[f64],
    indent: usize,
    summarize: bool,
    f: &Element<'_>,
    opts: &PrintOptions,
) -> String {
    let element_length = f.width + 2;
    let per_line = ((opts.linewidth as f64 - indent as f64) / element_length as f64).floor();
    let per_line = per_line.max(1.0) as usize;
    let n = values.len();
    let data: Vec<String> = if summarize && n > 2 * opts.edgeitems {
        values[..opts.edgeitems]
            .iter()
            .map(|&v| (f.format)(v))
            .chain(std::iter::once(" ...".to_string()))
            .chain(values[n - opts.edgeitems..].iter().map(|&v| (f.format)(v)))
            .collect()
    } else {
        values.iter().map(|&v| (f.format)(v)).collect()
    };
    let lines: Vec<String> = data
        .chunks(per_line)
        .map(|chunk| chunk.join(", "))
        .collect();
    format!(
        "[{}]",
        lines.join(&format!(",\n{}", " ".repeat(indent + 1)))
    )
}

fn add_suffixes(tensor_str: &str, suffixes: &[String], indent: usize, linewidth: usize) -> String {
    let mut out = tensor_str.to_string();
    // PyTorch measures with `len(s) - s.rfind("\n") + 1`, where rfind is -1 when
    // there is no newline; the arithmetic is reproduced as written.
    let last_newline = tensor_str.rfind('\n').map_or(-1, |i| i as i64);
    let mut last_line_len = tensor_str.chars().count() as i64 - last_newline + 1;
    for suffix in suffixes {
        let len = suffix.chars().count() as i64;
        if last_line_len + len + 2 > linewidth as i64 {
            out.push_str(&format!(",\n{}{}", " ".repeat(indent), suffix));
            last_line_len = indent as i64 + len;
        } else {
            out.push_str(", ");
            out.push_str(suffix);
            last_line_len += len + 2;
        }
    }
    out.push(')');
    out
}

/// PyTorch's `_Formatter`: one element format and width for a whole tensor.
struct Formatter {
    floating: bool,
    boolean: bool,
    int_mode: bool,
    sci_mode: bool,
    max_width: usize,
    precision: usize,
}

impl Formatter {
    fn new(values: &[f64], floating: bool, opts: &PrintOptions) -> Self {
        let mut f = Formatter {
            floating,
            boolean: false,
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision: opts.precision,
        };
        if !floating {
            for &v in values {
                f.max_width = f.max_width.max(format_int(v).len());
            }
            return f;
        }
        let finite = nonzero_finite(values);
        let Some((int_mode, sci_mode)) = float_notation(&finite, opts) else {
            return f;
        };
        (f.int_mode, f.sci_mode) = (int_mode, sci_mode);
        let p = opts.precision;
        let widths: Box<dyn Fn(f64) -> usize> = if f.sci_mode {
            Box::new(move |v| python_exp(v, p).len())
        } else if f.int_mode {
            Box::new(|v| python_fixed(v, 0).len() + 1)
        } else {
            Box::new(move |v| python_fixed(v, p).len())
        };
        for &v in &finite {
            f.max_width = f.max_width.max(widths(v));
        }
        f
    }

    fn format(&self, v: f64) -> String {
        let s = if self.boolean {
            if v != 0.0 { "True" } else { "False" }.to_string()
        } else if !self.floating {
            format_int(v)
        } else if self.sci_mode {
            python_exp(v, self.precision)
        } else if self.int_mode {
            let mut s = python_fixed(v, 0);
            if v.is_finite() {
                s.push('.');
            }
            s
        } else {
            python_fixed(v, self.precision)
        };
        let pad = self.max_width.saturating_sub(s.chars().count());
        format!("{}{}", " ".repeat(pad), s)
    }
}

fn nonzero_finite(values: &[f64]) -> Vec<f64> {
    values
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v != 0.0)
        .collect()
}

/// How PyTorch's formatter writes floating values, from their nonzero finite
/// ones: `(int_mode, sci_mode)`, or `None` when there are none (then neither).
/// `sci_mode=None` chooses from the values; a set `sci_mode` decides, and the
/// common width is then measured in the chosen notation.
fn float_notation(finite: &[f64], opts: &PrintOptions) -> Option<(bool, bool)> {
    if finite.is_empty() {
        return None;
    }
    let min = finite.iter().fold(f64::INFINITY, |m, v| m.min(v.abs()));
    let max = finite.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let int_mode = finite.iter().all(|v| *v == v.ceil());
    let sci_mode = opts
        .sci_mode
        .unwrap_or(max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4);
    Some((int_mode, sci_mode))
}

fn format_int(v: f64) -> String {
    format!("{}", v as i64)
}

/// Python's `format(v, ".{p}f")`: correctly rounded, `nan` and `inf` spelt as
/// Python spells them.
pub fn python_fixed(v: f64, precision: usize) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf".into() } else { "-inf".into() }
    } else if precision > 1100 {
        // Every f64 has at most 1074 decimals, so the rest are zeros (and
        // Rust's formatter refuses precisions past u16::MAX).
        let mut text = format!("{v:.1100}");
        text.extend(std::iter::repeat_n('0', precision - 1100));
        text
    } else {
        format!("{v:.precision$}")
    }
}

/// Python's `format(v, ".{p}e")`: a signed exponent of at least two digits.
pub fn python_exp(v: f64, precision: usize) -> String {
    if !v.is_finite() {
        return python_fixed(v, precision);
    }
    // A mantissa has at most 767 significant decimals; past that, zeros.
    let exact = precision.min(1100);
    let rust = format!("{v:.exact$e}");
    let (mantissa, exponent) = rust.split_once('e').expect("exponent form has an e");
    let exponent: i32 = exponent.parse().expect("exponent is an integer");
    let sign = if exponent < 0 { '-' } else { '+' };
    let zeros = "0".repeat(precision - exact);
    format!("{mantissa}{zeros}e{sign}{:02}", exponent.abs())
}

#[cfg(test)]
mod tests;
