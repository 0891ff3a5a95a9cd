//! Expressions: literals, names, containers and comprehensions, f-strings,
//! operators, attributes, subscripts, calls and lambdas.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::interp::{Boxed, Interpreter, PyResult};
use crate::python::value::{Dict, FunctionCode, Value};
use ruff_python_ast::{self as ast, Expr, Number};
use ruff_text_size::Ranged;
use std::cell::RefCell;
use std::rc::Rc;

impl Interpreter<'_> {
    pub fn eval<'a>(&'a mut self, expr: &'a Expr) -> Boxed<'a, Value> {
        Box::pin(async move {
            self.enter().map_err(|e| e.at(expr.range()))?;
            let result = self.eval_inner(expr).await.map_err(|e| e.at(expr.range()));
            self.leave();
            result
        })
    }

    pub async fn truthy(&mut self, expr: &Expr) -> PyResult<bool> {
        let value = self.eval(expr).await?;
        self.truth(&value).await.map_err(|e| e.at(expr.range()))
    }

    async fn eval_inner(&mut self, expr: &Expr) -> PyResult<Value> {
        Ok(match expr {
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => Value::Int(i.as_i64().ok_or_else(|| {
                    PyErr::new("OverflowError", "integer literal does not fit in 64 bits")
                })?),
                Number::Float(f) => Value::Float(*f),
                Number::Complex { .. } => {
                    return Err(PyErr::not_implemented("complex numbers are not supported"));
                }
            },
            Expr::StringLiteral(s) => Value::str(s.value.to_str()),
            Expr::BooleanLiteral(b) => Value::Bool(b.value),
            Expr::NoneLiteral(_) => Value::None,
            Expr::EllipsisLiteral(_) => Value::Builtin("Ellipsis"),
            Expr::Name(name) => self.lookup(name.id.as_str())?,
            Expr::List(l) => Value::list(self.eval_elements(&l.elts).await?),
            Expr::Tuple(t) => Value::tuple(self.eval_elements(&t.elts).await?),
            Expr::Set(s) => {
                let items = self.eval_elements(&s.elts).await?;
                self.make_set(items)?
            }
            Expr::Dict(d) => {
                let mut dict = Dict::default();
                for item in &d.items {
                    let value = self.eval(&item.value).await?;
                    match &item.key {
                        Some(k) => {
                            let key = self.eval(k).await?;
                            let hk = hash_key(&key)?;
                            dict.insert(hk, key, value);
                        }
                        None => match value {
                            Value::Dict(other) => {
                                for (k, v) in other.borrow().items() {
                                    dict.insert(hash_key(k)?, k.clone(), v.clone());
                                }
                            }
                            other => {
                                return Err(PyErr::type_error(format!(
                                    "'{}' object is not a mapping",
                                    other.type_name()
                                )));
                            }
                        },
                    }
                }
                Value::Dict(Rc::new(RefCell::new(dict)))
            }
            Expr::ListComp(c) => Value::list(
                self.comprehension(&c.generators, CompKind::One(&c.elt))
                    .await?,
            ),
            Expr::Generator(c) => Value::list(
                self.comprehension(&c.generators, CompKind::One(&c.elt))
                    .await?,
            ),
            Expr::SetComp(c) => {
                let items = self
                    .comprehension(&c.generators, CompKind::One(&c.elt))
                    .await?;
                self.make_set(items)?
            }
            Expr::DictComp(c) => {
                let pairs = self
                    .comprehension(
                        &c.generators,
                        CompKind::Pair(
                            c.key.as_deref().ok_or_else(|| {
                                PyErr::not_implemented(
                                    "dict comprehensions with ** are not supported",
                                )
                            })?,
                            &c.value,
                        ),
                    )
                    .await?;
                let mut dict = Dict::default();
                for pair in pairs {
                    if let Value::Tuple(kv) = pair {
                        dict.insert(hash_key(&kv[0])?, kv[0].clone(), kv[1].clone());
                    }
                }
                Value::Dict(Rc::new(RefCell::new(dict)))
            }
            Expr::FString(f) => Value::str(&self.fstring(f).await?),
            Expr::BinOp(b) => {
                let left = self.eval(&b.left).await?;
                let right = self.eval(&b.right).await?;
                self.binary(b.op, left, right).await?
            }
            Expr::UnaryOp(u) => {
                let operand = self.eval(&u.operand).await?;
                self.unary(u.op, operand).await?
            }
            Expr::BoolOp(b) => {
                let mut last = Value::None;
                for (i, value) in b.values.iter().enumerate() {
                    last = self.eval(value).await?;
                    if i + 1 == b.values.len() {
                        break;
                    }
                    let t = self.truth(&last).await?;
                    match b.op {
                        ast::BoolOp::And if !t => return Ok(last),
                        ast::BoolOp::Or if t => return Ok(last),
                        _ => {}
                    }
                }
                last
            }
            Expr::Compare(c) => {
                let mut left = self.eval(&c.left).await?;
                let mut result = Value::Bool(true);
                let links = c.ops.len();
                for (i, (op, right)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
                    let right = self.eval(right).await?;
                    result = self.compare(*op, &left, &right).await?;
                    // A chain stops at its first false link, as CPython's does;
                    // the last link's result is returned as it is (a tensor, a
                    // traced value), never tested. Chains of tensors are not
                    // meaningful.
                    if i + 1 < links
                        && !matches!(result, Value::Tensor(_))
                        && !self.truth(&result).await?
                    {
                        return Ok(result);
                    }
                    left = right;
                }
                result
            }
            Expr::If(e) => {
                if self.truthy(&e.test).await? {
                    self.eval(&e.body).await?
                } else {
                    self.eval(&e.orelse).await?
                }
            }
            Expr::Named(n) => {
                let value = self.eval(&n.value).await?;
                self.assign(&n.target, value.clone()).await?;
                value
            }
            Expr::Lambda(l) => {
                let f = self
                    .make_function(FunctionCode::Lambda(Rc::new(l.clone())), "<lambda>")
                    .await?;
                Value::Function(f)
            }
            Expr::Attribute(a) => {
                let base = self.eval(&a.value).await?;
                self.get_attribute(&base, a.attr.as_str()).await?
            }
            Expr::Subscript(s) => {
                let base = self.eval(&s.value).await?;
                let index = self.eval(&s.slice).await?;
                self.get_item(&base, &index).await?
            }
            Expr::Slice(s) => {
                let mut parts = [Value::None, Value::None, Value::None];
                for (slot, part) in parts.iter_mut().zip([&s.lower, &s.upper, &s.step]) {
                    if let Some(p) = part {
                        *slot = self.eval(p).await?;
                    }
                }
                Value::Slice(Rc::new(parts))
            }
            Expr::Call(call) => {
                let func = self.eval(&call.func).await?;
                let mut args = Vec::new();
                for arg in call.arguments.args.iter() {
                    match arg {
                        Expr::Starred(s) => {
                            let v = self.eval(&s.value).await?;
                            args.extend(self.collect(v).await?);
                        }
                        _ => args.push(self.eval(arg).await?),
                    }
                }
                let mut kwargs = Vec::new();
                for kw in call.arguments.keywords.iter() {
                    let value = self.eval(&kw.value).await?;
                    match &kw.arg {
                        Some(name) => kwargs.push((name.to_string(), value)),
                        None => match value {
                            Value::Dict(d) => {
                                for (k, v) in d.borrow().items() {
                                    let Value::Str(k) = k else {
                                        return Err(PyErr::type_error("keywords must be strings"));
                                    };
                                    kwargs.push((k.to_string(), v.clone()));
                                }
                            }
                            other => {
                                return Err(PyErr::type_error(format!(
                                    "argument after ** must be a mapping, not {}",
                                    other.type_name()
                                )));
                            }
                        },
                    }
                }
                self.burn_fuel()?;
                self.call(func, args, kwargs).await?
            }
            Expr::Starred(_) => {
                return Err(PyErr::new(
                    "SyntaxError",
                    "can't use starred expression here",
                ));
            }
            other => {
                return Err(PyErr::not_implemented(format!(
                    "{} are not supported",
                    expr_name(other)
                )));
            }
        })
    }

    async fn eval_elements(&mut self, elts: &[Expr]) -> PyResult<Vec<Value>> {
        let mut items = Vec::with_capacity(elts.len());
        for e in elts {
            match e {
                Expr::Starred(s) => {
                    let v = self.eval(&s.value).await?;
                    items.extend(self.collect(v).await?);
                }
                _ => items.push(self.eval(e).await?),
            }
        }
        Ok(items)
    }

    pub fn make_set(&self, items: Vec<Value>) -> PyResult<Value> {
        let mut dict = Dict::default();
        for item in items {
            dict.insert(hash_key(&item)?, item, Value::None);
        }
        Ok(Value::Set(Rc::new(RefCell::new(dict))))
    }

    /// Runs the `for ... if ...` clauses of a comprehension in a scope of its own
    /// (comprehension variables do not leak, as in Python 3).
    async fn comprehension(
        &mut self,
        generators: &[ast::Comprehension],
        kind: CompKind<'_>,
    ) -> PyResult<Vec<Value>> {
        // As in CPython, the outermost iterable is evaluated in the enclosing
        // scope (so `[n for n in dir()]` lists that scope), the rest inside.
        let outermost = match generators.first() {
            Some(first) => Some(
                self.eval(&first.iter)
                    .await
                    .map_err(|e| e.at(first.iter.range()))?,
            ),
            None => None,
        };
        let scope = Env::new(ScopeKind::Function, Some(self.env.clone()));
        let outer = std::mem::replace(&mut self.env, scope);
        let mut out = Vec::new();
        let result = self
            .comprehension_level(generators, &kind, &mut out, outermost)
            .await;
        self.env = outer;
        result.map(|_| out)
    }

    fn comprehension_level<'a>(
        &'a mut self,
        generators: &'a [ast::Comprehension],
        kind: &'a CompKind<'a>,
        out: &'a mut Vec<Value>,
        outermost: Option<Value>,
    ) -> Boxed<'a, ()> {
        Box::pin(async move {
            let Some((first, rest)) = generators.split_first() else {
                match kind {
                    CompKind::One(elt) => out.push(self.eval(elt).await?),
                    CompKind::Pair(k, v) => {
                        let key = self.eval(k).await?;
                        let value = self.eval(v).await?;
                        out.push(Value::tuple(vec![key, value]));
                    }
                }
                return Ok(());
            };
            if first.is_async {
                return Err(PyErr::not_implemented(
                    "async comprehensions are not supported",
                ));
            }
            let iterable = match outermost {
                Some(v) => v,
                None => self.eval(&first.iter).await?,
            };
            let mut iter = self
                .iter(iterable)
                .await
                .map_err(|e| e.at(first.iter.range()))?;
            'items: while let Some(item) = self.next_item(&mut iter).await? {
                self.burn_fuel()?;
                self.assign(&first.target, item).await?;
                for condition in &first.ifs {
                    if !self.truthy(condition).await? {
                        continue 'items;
                    }
                }
                self.comprehension_level(rest, kind, out, None).await?;
            }
            Ok(())
        })
    }

    async fn fstring(&mut self, f: &ast::ExprFString) -> PyResult<String> {
        let mut out = String::new();
        for part in f.value.as_slice() {
            match part {
                ast::FStringPart::Literal(lit) => out.push_str(&lit.value),
                ast::FStringPart::FString(fs) => self.interpolate(&fs.elements, &mut out).await?,
            }
        }
        Ok(out)
    }

    fn interpolate<'a>(
        &'a mut self,
        elements: &'a ast::InterpolatedStringElements,
        out: &'a mut String,
    ) -> Boxed<'a, ()> {
        Box::pin(async move {
            for element in elements.iter() {
                match element {
                    ast::InterpolatedStringElement::Literal(lit) => out.push_str(&lit.value),
                    ast::InterpolatedStringElement::Interpolation(i) => {
                        let value = self.eval(&i.expression).await?;
                        let mut conversion = i.conversion;
                        if let Some(debug) = &i.debug_text {
                            // `f"{x=}"` prints the source text, then repr unless a
                            // format spec or conversion says otherwise.
                            out.push_str(debug.as_str());
                            if conversion == ast::ConversionFlag::None && i.format_spec.is_none() {
                                conversion = ast::ConversionFlag::Repr;
                            }
                        }
                        let value = match conversion {
                            ast::ConversionFlag::Repr | ast::ConversionFlag::Ascii => {
                                Value::str(&self.repr_of(&value).await?)
                            }
                            ast::ConversionFlag::Str => Value::str(&self.str_of(&value).await?),
                            ast::ConversionFlag::None => value,
                        };
                        let mut spec = String::new();
                        if let Some(s) = &i.format_spec {
                            self.interpolate(&s.elements, &mut spec).await?;
                        }
                        let text = self.format_value(&value, &spec).await?;
                        out.push_str(&text);
                    }
                }
            }
            Ok(())
        })
    }

    pub fn lookup(&self, name: &str) -> PyResult<Value> {
        if let Some(v) = self.env.lookup(name) {
            return Ok(v);
        }
        if name == "NotImplemented" {
            return Ok(Value::NotImplemented);
        }
        if let Some(c) = self.exceptions.get(name) {
            return Ok(Value::Class(c.clone()));
        }
        crate::python::builtins::builtin(name)
            .ok_or_else(|| PyErr::new("NameError", format!("name '{name}' is not defined")))
    }
}

enum CompKind<'a> {
    One(&'a Expr),
    Pair(&'a Expr, &'a Expr),
}

pub fn hash_key(value: &Value) -> PyResult<crate::python::value::HashKey> {
    value
        .hash_key()
        .ok_or_else(|| PyErr::type_error(format!("unhashable type: '{}'", value.type_name())))
}

fn expr_name(expr: &Expr) -> &'static str {
    match expr {
        Expr::Await(_) => "'await' expressions",
        Expr::Yield(_) | Expr::YieldFrom(_) => "generators ('yield')",
        Expr::TString(_) => "t-strings",
        Expr::BytesLiteral(_) => "bytes literals",
        Expr::IpyEscapeCommand(_) => "IPython escape commands",
        _ => "these expressions",
    }
}
