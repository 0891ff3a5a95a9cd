//! The built-in functions that consume iterables: `enumerate`, `zip`, `sorted`,
//! `reversed`, `min`, `max`, `sum`, `any`, `all`, `map`, `filter` and `iter`.
//! These collect their iterables eagerly (`iter` is in `iteration`), which is
//! what every program in scope needs.

use crate::python::builtins::{Keywords, arity};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::ops::py_cmp;
use crate::python::value::Value;

impl Interpreter<'_> {
    pub async fn call_iterable_builtin(
        &mut self,
        name: &'static str,
        mut args: Vec<Value>,
        mut kw: Keywords,
    ) -> PyResult<Value> {
        let result = match name {
            "enumerate" => {
                let start = kw.take("start").and_then(|v| v.as_int()).unwrap_or(0);
                kw.finish(name)?;
                let items = self
                    .collect(args.first().cloned().unwrap_or(Value::None))
                    .await?;
                Value::list(
                    items
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| Value::tuple(vec![Value::Int(start + i as i64), v]))
                        .collect(),
                )
            }
            "zip" => {
                kw.take("strict");
                let mut columns = Vec::new();
                for a in args {
                    columns.push(self.collect(a).await?);
                }
                let n = columns.iter().map(Vec::len).min().unwrap_or(0);
                Value::list(
                    (0..n)
                        .map(|i| Value::tuple(columns.iter().map(|c| c[i].clone()).collect()))
                        .collect(),
                )
            }
            "sorted" => {
                let key = kw.take("key");
                let reverse = kw.take("reverse");
                kw.finish(name)?;
                arity(name, 1, &args)?;
                let items = self.collect(args.remove(0)).await?;
                let reverse = match reverse {
                    Some(r) => self.truth(&r).await?,
                    None => false,
                };
                Value::list(self.sort(items, key, reverse).await?)
            }
            "reversed" => {
                let mut items = self
                    .collect(args.first().cloned().unwrap_or(Value::None))
                    .await?;
                items.reverse();
                Value::list(items)
            }
            "min" | "max" => {
                let key = kw.take("key");
                let default = kw.take("default");
                kw.finish(name)?;
                let items = if args.len() == 1 {
                    self.collect(args.remove(0)).await?
                } else {
                    args
                };
                if items.is_empty() {
                    return default.ok_or_else(|| {
                        PyErr::value_error(format!("{name}() iterable argument is empty"))
                    });
                }
                let keys = match key {
                    Some(k) => {
                        let mut keys = Vec::with_capacity(items.len());
                        for item in &items {
                            keys.push(self.call(k.clone(), vec![item.clone()], Vec::new()).await?);
                        }
                        keys
                    }
                    None => items.clone(),
                };
                let mut best = 0;
                for i in 1..items.len() {
                    let ord = self.order(&keys[i], &keys[best]).await?;
                    let better = if name == "min" {
                        ord.is_lt()
                    } else {
                        ord.is_gt()
                    };
                    if better {
                        best = i;
                    }
                }
                items[best].clone()
            }
            "sum" => {
                let mut total = kw.take("start").unwrap_or(Value::Int(0));
                kw.finish(name)?;
                if args.len() == 2 {
                    total = args.pop().unwrap_or(Value::Int(0));
                }
                let items = self
                    .collect(args.first().cloned().unwrap_or(Value::None))
                    .await?;
                for item in items {
                    total = self
                        .binary(ruff_python_ast::Operator::Add, total, item)
                        .await?;
                }
                total
            }
            "any" | "all" => {
                arity(name, 1, &args)?;
                let items = self.collect(args.remove(0)).await?;
                let want = name == "any";
                let mut result = !want;
                for item in items {
                    if self.truth(&item).await? == want {
                        result = want;
                        break;
                    }
                }
                Value::Bool(result)
            }
            "map" | "filter" => {
                if args.len() < 2 {
                    return Err(PyErr::type_error(format!(
                        "{name}() needs a function and an iterable"
                    )));
                }
                let f = args.remove(0);
                let mut columns = Vec::new();
                for a in args {
                    columns.push(self.collect(a).await?);
                }
                let n = columns.iter().map(Vec::len).min().unwrap_or(0);
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    let row: Vec<Value> = columns.iter().map(|c| c[i].clone()).collect();
                    if name == "map" {
                        out.push(self.call(f.clone(), row, Vec::new()).await?);
                    } else {
                        let keep = match &f {
                            Value::None => self.truth(&row[0]).await?,
                            f => {
                                let r = self
                                    .call(f.clone(), vec![row[0].clone()], Vec::new())
                                    .await?;
                                self.truth(&r).await?
                            }
                        };
                        if keep {
                            out.push(row[0].clone());
                        }
                    }
                }
                Value::list(out)
            }
            "iter" => {
                arity(name, 1, &args)?;
                self.iter_builtin(args.remove(0)).await?
            }
            _ => unreachable!("only iterable built-ins are routed here"),
        };
        Ok(result)
    }

    /// Ordering of two values, reading one-element tensors as numbers.
    pub(crate) async fn order(&mut self, a: &Value, b: &Value) -> PyResult<std::cmp::Ordering> {
        if matches!(a, Value::Instance(_)) || matches!(b, Value::Instance(_)) {
            return Box::pin(self.order_special(a, b)).await;
        }
        let a = match a {
            Value::Tensor(t) => self.tensor_item(t).await?,
            v => v.clone(),
        };
        let b = match b {
            Value::Tensor(t) => self.tensor_item(t).await?,
            v => v.clone(),
        };
        py_cmp(&a, &b)
    }

    /// A stable sort by key, as `sorted` and `list.sort` do.
    pub async fn sort(
        &mut self,
        items: Vec<Value>,
        key: Option<Value>,
        reverse: bool,
    ) -> PyResult<Vec<Value>> {
        let keys = match key {
            Some(Value::None) | None => items.clone(),
            Some(k) => {
                let mut keys = Vec::with_capacity(items.len());
                for item in &items {
                    keys.push(self.call(k.clone(), vec![item.clone()], Vec::new()).await?);
                }
                keys
            }
        };
        if keys.iter().any(|k| matches!(k, Value::Instance(_))) {
            let order = self.sort_special(&keys, reverse).await?;
            return Ok(order.into_iter().map(|i| items[i].clone()).collect());
        }
        let mut order: Vec<usize> = (0..items.len()).collect();
        let mut failure = None;
        order.sort_by(|&i, &j| {
            let ord = match py_cmp(&keys[i], &keys[j]) {
                Ok(o) => o,
                Err(e) => {
                    failure.get_or_insert(e);
                    std::cmp::Ordering::Equal
                }
            };
            if reverse { ord.reverse() } else { ord }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(order.into_iter().map(|i| items[i].clone()).collect())
    }
}
