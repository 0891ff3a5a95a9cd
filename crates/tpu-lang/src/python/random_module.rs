//! The `random` module as a program sees it: `import random` (the functions
//! bound to one hidden generator), `random.Random(seed)`, and each method's
//! arguments and checks with CPython's messages, over the generator in
//! `random`. The algorithms that pick from a sequence (`randrange`, `choice`,
//! `choices`, `shuffle`, `sample`) follow CPython's `random.py` line for line,
//! since which words they draw decides the stream.

use crate::python::builtins::Keywords;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::random::PythonRandom;
use crate::python::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// The methods of a `random.Random`, which are also the module's functions.
pub const RANDOM_METHODS: &[&str] = &[
    "seed",
    "random",
    "getrandbits",
    "randrange",
    "randint",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "gauss",
    "normalvariate",
];

/// A sequence to draw from, without listing a `range` out.
enum Population {
    Items(Vec<Value>),
    Range { start: i64, step: i64, len: u64 },
}

impl Population {
    fn len(&self) -> u64 {
        match self {
            Population::Items(items) => items.len() as u64,
            Population::Range { len, .. } => *len,
        }
    }

    fn get(&self, i: u64) -> Value {
        match self {
            Population::Items(items) => items[i as usize].clone(),
            Population::Range { start, step, .. } => Value::Int(start + step * i as i64),
        }
    }
}

/// Arguments bound to a method's parameters by position or name, with
/// CPython's wording when one is missing or unexpected.
fn bind(
    method: &str,
    params: &[&str],
    required: usize,
    args: Vec<Value>,
    mut kw: Keywords,
) -> PyResult<Vec<Option<Value>>> {
    if args.len() > params.len() {
        return Err(PyErr::type_error(format!(
            "Random.{method}() takes {} positional arguments but {} were given",
            params.len() + 1,
            args.len() + 1
        )));
    }
    let mut bound: Vec<Option<Value>> = args.into_iter().map(Some).collect();
    bound.resize(params.len(), None);
    for (slot, name) in bound.iter_mut().zip(params) {
        if let Some(v) = kw.take(name) {
            if slot.is_some() {
                return Err(PyErr::type_error(format!(
                    "Random.{method}() got multiple values for argument '{name}'"
                )));
            }
            *slot = Some(v);
        }
    }
    kw.finish(&format!("Random.{method}"))?;
    let missing: Vec<String> = params[..required]
        .iter()
        .zip(&bound)
        .filter(|(_, v)| v.is_none())
        .map(|(name, _)| format!("'{name}'"))
        .collect();
    if !missing.is_empty() {
        return Err(PyErr::type_error(format!(
            "Random.{method}() missing {} required positional argument{}: {}",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" },
            missing.join(" and ")
        )));
    }
    Ok(bound)
}

fn number(v: &Option<Value>, default: f64) -> PyResult<f64> {
    match v {
        None => Ok(default),
        Some(v) => v.as_number().ok_or_else(|| {
            PyErr::type_error(format!("must be real number, not {}", v.type_name()))
        }),
    }
}

/// An int argument of `randrange`: ints, and floats that hold an integer (which
/// CPython 3.11 still accepts, with a deprecation warning on stderr).
fn range_arg(v: &Value, what: &str) -> PyResult<i64> {
    match v {
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => Ok(*f as i64),
        Value::Float(_) => Err(PyErr::value_error(format!(
            "non-integer {what} for randrange()"
        ))),
        other => other.as_int().ok_or_else(|| {
            PyErr::type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ))
        }),
    }
}

impl Interpreter<'_> {
    /// `import random`: the module's functions are the methods of one hidden
    /// generator seeded from the clock, plus the `Random` class.
    pub(crate) fn random_module(&mut self) -> PyResult<Value> {
        let hidden = Value::Random(Rc::new(RefCell::new(PythonRandom::new(&Value::None)?)));
        let mut attrs: std::collections::HashMap<String, Value> = RANDOM_METHODS
            .iter()
            .map(|&m| {
                (
                    m.to_string(),
                    Value::NativeMethod(Rc::new((hidden.clone(), m))),
                )
            })
            .collect();
        attrs.insert("Random".into(), Value::Builtin("random.Random"));
        Ok(crate::python::modules::module("random", attrs))
    }

    /// `random.Random(seed=None)`.
    pub(crate) fn new_random(&mut self, args: Vec<Value>, kw: Keywords) -> PyResult<Value> {
        let bound = bind("__init__", &["x"], 0, args, kw)?;
        let seed = bound[0].clone().unwrap_or(Value::None);
        Ok(Value::Random(Rc::new(RefCell::new(PythonRandom::new(
            &seed,
        )?))))
    }

    /// `r.<name>(*args, **kwargs)` on a `random.Random` (or the module's own).
    pub(crate) async fn random_method(
        &mut self,
        generator: &Rc<RefCell<PythonRandom>>,
        name: &str,
        args: Vec<Value>,
        kw: Keywords,
    ) -> PyResult<Value> {
        Ok(match name {
            "seed" => {
                let bound = bind(name, &["a", "version"], 0, args, kw)?;
                let seed = bound[0].clone().unwrap_or(Value::None);
                *generator.borrow_mut() = PythonRandom::new(&seed)?;
                Value::None
            }
            "random" => {
                bind(name, &[], 0, args, kw)?;
                Value::Float(generator.borrow_mut().random())
            }
            "getrandbits" => {
                let bound = bind(name, &["k"], 1, args, kw)?;
                let k = range_arg(bound[0].as_ref().unwrap_or(&Value::None), "k")?;
                if k < 0 {
                    return Err(PyErr::value_error("number of bits must be non-negative"));
                }
                if k > 63 {
                    return Err(PyErr::new(
                        "OverflowError",
                        format!("getrandbits({k}): ints here are 64-bit, so at most 63 bits"),
                    ));
                }
                Value::Int(generator.borrow_mut().getrandbits(k as u32) as i64)
            }
            "randrange" | "randint" => {
                let (start, stop, step) = if name == "randint" {
                    let bound = bind(name, &["a", "b"], 2, args, kw)?;
                    let b = range_arg(bound[1].as_ref().unwrap_or(&Value::None), "stop")?;
                    (
                        range_arg(bound[0].as_ref().unwrap_or(&Value::None), "arg 1")?,
                        Some(b.checked_add(1).ok_or_else(too_big)?),
                        1,
                    )
                } else {
                    let bound = bind(name, &["start", "stop", "step"], 1, args, kw)?;
                    let start = range_arg(bound[0].as_ref().unwrap_or(&Value::None), "arg 1")?;
                    let stop = match &bound[1] {
                        None | Some(Value::None) => {
                            if bound[2].is_some() {
                                return Err(PyErr::type_error("Missing a non-None stop argument"));
                            }
                            None
                        }
                        Some(v) => Some(range_arg(v, "stop")?),
                    };
                    let step = match &bound[2] {
                        None => 1,
                        Some(v) => range_arg(v, "step")?,
                    };
                    (start, stop, step)
                };
                Value::Int(randrange(&mut generator.borrow_mut(), start, stop, step)?)
            }
            "choice" => {
                let bound = bind(name, &["seq"], 1, args, kw)?;
                let population = self
                    .population(bound[0].clone().unwrap_or(Value::None))
                    .await?;
                if population.len() == 0 {
                    return Err(PyErr::new(
                        "IndexError",
                        "Cannot choose from an empty sequence",
                    ));
                }
                let i = generator.borrow_mut().randbelow(population.len());
                population.get(i)
            }
            "choices" => {
                let mut kw = kw;
                let k = kw.take("k");
                let cum_weights = kw.take("cum_weights");
                let bound = bind(name, &["population", "weights"], 1, args, kw)?;
                let population = self
                    .population(bound[0].clone().unwrap_or(Value::None))
                    .await?;
                let k = match k {
                    None => 1,
                    Some(v) => range_arg(&v, "k")?.max(0),
                };
                self.choices(generator, population, bound[1].clone(), cum_weights, k)
                    .await?
            }
            "shuffle" => {
                let bound = bind(name, &["x"], 1, args, kw)?;
                let Some(Value::List(list)) = &bound[0] else {
                    return Err(PyErr::type_error(format!(
                        "'{}' object does not support item assignment",
                        bound[0]
                            .as_ref()
                            .map_or("NoneType".into(), Value::type_name)
                    )));
                };
                let mut items = list.borrow_mut();
                let mut generator = generator.borrow_mut();
                for i in (1..items.len()).rev() {
                    let j = generator.randbelow(i as u64 + 1) as usize;
                    items.swap(i, j);
                }
                Value::None
            }
            "sample" => {
                let mut kw = kw;
                if kw.take("counts").is_some_and(|c| !matches!(c, Value::None)) {
                    return Err(PyErr::not_implemented(
                        "random.sample(counts=...) is not supported; repeat the items instead",
                    ));
                }
                let bound = bind(name, &["population", "k"], 2, args, kw)?;
                let population = match bound[0].clone().unwrap_or(Value::None) {
                    Value::Set(_) | Value::Dict(_) => {
                        return Err(PyErr::type_error(
                            "Population must be a sequence.  For dicts or sets, use sorted(d).",
                        ));
                    }
                    other => self.population(other).await?,
                };
                let k = range_arg(bound[1].as_ref().unwrap_or(&Value::None), "k")?;
                Value::list(sample(&mut generator.borrow_mut(), &population, k)?)
            }
            "uniform" => {
                let bound = bind(name, &["a", "b"], 2, args, kw)?;
                let (a, b) = (number(&bound[0], 0.0)?, number(&bound[1], 0.0)?);
                Value::Float(a + (b - a) * generator.borrow_mut().random())
            }
            "gauss" | "normalvariate" => {
                let bound = bind(name, &["mu", "sigma"], 0, args, kw)?;
                let (mu, sigma) = (number(&bound[0], 0.0)?, number(&bound[1], 1.0)?);
                let mut generator = generator.borrow_mut();
                Value::Float(if name == "gauss" {
                    generator.gauss(mu, sigma)
                } else {
                    generator.normalvariate(mu, sigma)
                })
            }
            _ => {
                return Err(PyErr::new(
                    "AttributeError",
                    format!("'Random' object has no attribute '{name}'"),
                ));
            }
        })
    }

    /// A sequence's items, or a `range` kept as its bounds.
    async fn population(&mut self, seq: Value) -> PyResult<Population> {
        Ok(match seq {
            Value::Range(start, stop, step) => Population::Range {
                start,
                step,
                len: crate::python::call::range_len(start, stop, step).max(0) as u64,
            },
            other => Population::Items(self.collect(other).await?),
        })
    }

    /// `choices(population, weights=None, *, cum_weights=None, k=1)`.
    async fn choices(
        &mut self,
        generator: &Rc<RefCell<PythonRandom>>,
        population: Population,
        weights: Option<Value>,
        cum_weights: Option<Value>,
        k: i64,
    ) -> PyResult<Value> {
        let n = population.len();
        let numbers = |items: Vec<Value>| -> PyResult<Vec<f64>> {
            items
                .iter()
                .map(|v| {
                    v.as_number().ok_or_else(|| {
                        PyErr::type_error(format!("unsupported weight type: '{}'", v.type_name()))
                    })
                })
                .collect()
        };
        let cumulative = match (weights, cum_weights) {
            (Some(Value::None) | None, Some(Value::None) | None) => {
                let mut generator = generator.borrow_mut();
                let picked = (0..k)
                    .map(|_| population.get((generator.random() * n as f64).floor() as u64))
                    .collect();
                return Ok(Value::list(picked));
            }
            (Some(w), Some(Value::None) | None) => {
                let mut total = 0.0;
                numbers(self.collect(w).await?)?
                    .into_iter()
                    .map(|w| {
                        total += w;
                        total
                    })
                    .collect::<Vec<f64>>()
            }
            (Some(Value::None) | None, Some(c)) => numbers(self.collect(c).await?)?,
            _ => {
                return Err(PyErr::type_error(
                    "Cannot specify both weights and cumulative weights",
                ));
            }
        };
        if cumulative.len() as u64 != n {
            return Err(PyErr::value_error(
                "The number of weights does not match the population",
            ));
        }
        let total = cumulative.last().copied().unwrap_or(0.0);
        if total <= 0.0 {
            return Err(PyErr::value_error(
                "Total of weights must be greater than zero",
            ));
        }
        if !total.is_finite() {
            return Err(PyErr::value_error("Total of weights must be finite"));
        }
        let hi = cumulative.len().saturating_sub(1);
        let mut generator = generator.borrow_mut();
        let picked = (0..k)
            .map(|_| {
                // `bisect_right(cum_weights, x, 0, hi)`.
                let x = generator.random() * total;
                let i = cumulative[..hi].partition_point(|&c| c <= x);
                population.get(i as u64)
            })
            .collect();
        Ok(Value::list(picked))
    }
}

fn too_big() -> PyErr {
    PyErr::new("OverflowError", "Python int too large for 64 bits")
}

/// Python's `//` on ints.
fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `randrange(start, stop, step)` with its argument checks.
fn randrange(g: &mut PythonRandom, start: i64, stop: Option<i64>, step: i64) -> PyResult<i64> {
    let Some(stop) = stop else {
        if start > 0 {
            return Ok(g.randbelow(start as u64) as i64);
        }
        return Err(PyErr::value_error("empty range for randrange()"));
    };
    let width = stop.checked_sub(start).ok_or_else(too_big)?;
    if step == 1 {
        if width > 0 {
            return Ok(start + g.randbelow(width as u64) as i64);
        }
        return Err(PyErr::value_error(format!(
            "empty range for randrange() ({start}, {stop}, {width})"
        )));
    }
    let n = match step {
        0 => return Err(PyErr::value_error("zero step for randrange()")),
        s if s > 0 => floor_div(width + s - 1, s),
        s => floor_div(width + s + 1, s),
    };
    if n <= 0 {
        return Err(PyErr::value_error("empty range for randrange()"));
    }
    Ok(start + step * g.randbelow(n as u64) as i64)
}

/// `sample(population, k)`: a partial shuffle of a copied pool when the
/// population is small next to the set a draw would need, else draws with
/// rejection of repeats; CPython's choice between the two is kept, since it
/// decides the stream.
fn sample(g: &mut PythonRandom, population: &Population, k: i64) -> PyResult<Vec<Value>> {
    let n = population.len();
    if k < 0 || k as u64 > n {
        return Err(PyErr::value_error(
            "Sample larger than population or is negative",
        ));
    }
    let k = k as u64;
    let mut setsize: u64 = 21;
    if k > 5 {
        setsize += 4u64.pow(((k * 3) as f64).log(4.0).ceil() as u32);
    }
    if n <= setsize {
        let mut pool: Vec<Value> = (0..n).map(|i| population.get(i)).collect();
        let mut result = Vec::with_capacity(k as usize);
        for i in 0..k {
            let j = g.randbelow(n - i) as usize;
            result.push(pool[j].clone());
            pool[j] = pool[(n - i - 1) as usize].clone();
        }
        return Ok(result);
    }
    let mut selected = std::collections::HashSet::new();
    let mut result = Vec::with_capacity(k as usize);
    for _ in 0..k {
        let mut j = g.randbelow(n);
        while selected.contains(&j) {
            j = g.randbelow(n);
        }
        selected.insert(j);
        result.push(population.get(j));
    }
    Ok(result)
}
