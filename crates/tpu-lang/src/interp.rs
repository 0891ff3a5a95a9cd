//! The interpreter: an async tree walker over ruff's AST. It is async because a
//! tensor read (`print`, `.item()`) must await the GPU, and in a browser that await
//! has to return control to the event loop; every `await` in here is therefore a
//! point where the whole program is suspended and later resumed.
//!
//! Each statement costs fuel, so an endless loop ends in an error naming its line;
//! nesting is bounded, so deep recursion ends in `RecursionError`, not a stack
//! overflow. Constructs outside the supported subset raise `NotImplementedError`
//! naming the construct.

use crate::args::Args;
use crate::error::PyErr;
use crate::source::SourceFile;
use crate::value::Value;
use ruff_python_ast::{self as ast, Expr, Number, Operator, Stmt};
use ruff_text_size::Ranged;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use tpu_runtime::Runtime;

pub type PyResult<T> = Result<T, PyErr>;
type Boxed<'a, T> = Pin<Box<dyn Future<Output = PyResult<T>> + 'a>>;

/// How deeply expressions and blocks may nest before `RecursionError`.
const MAX_DEPTH: usize = 200;

pub enum Flow {
    Normal,
    Break,
    Continue,
}

pub struct Interpreter<'r> {
    pub runtime: &'r mut Runtime,
    pub stdout: String,
    pub file: Rc<SourceFile>,
    globals: HashMap<String, Value>,
    fuel: u64,
    fuel_budget: u64,
    depth: usize,
}

impl<'r> Interpreter<'r> {
    pub fn new(runtime: &'r mut Runtime, file: Rc<SourceFile>, fuel_budget: u64) -> Self {
        Interpreter {
            runtime,
            stdout: String::new(),
            file,
            globals: HashMap::new(),
            fuel: fuel_budget,
            fuel_budget,
            depth: 0,
        }
    }

    fn burn_fuel(&mut self) -> PyResult<()> {
        if self.fuel == 0 {
            return Err(PyErr::new(
                "TimeoutError",
                format!(
                    "the program ran past its budget of {} steps (an endless loop?)",
                    self.fuel_budget
                ),
            ));
        }
        self.fuel -= 1;
        Ok(())
    }

    fn enter(&mut self) -> PyResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(PyErr::new(
                "RecursionError",
                "maximum recursion depth exceeded",
            ));
        }
        Ok(())
    }

    pub fn exec_block<'a>(&'a mut self, body: &'a [Stmt]) -> Boxed<'a, Flow> {
        Box::pin(async move {
            self.enter()?;
            let mut result = Ok(Flow::Normal);
            for stmt in body {
                match self.exec(stmt).await {
                    Ok(Flow::Normal) => {}
                    other => {
                        result = other;
                        break;
                    }
                }
            }
            self.depth -= 1;
            result
        })
    }

    async fn exec(&mut self, stmt: &Stmt) -> PyResult<Flow> {
        self.burn_fuel().map_err(|e| e.at(stmt.range()))?;
        let line = self.file.position(stmt.range().start().to_usize()).0;
        self.runtime.set_line(Some(line));
        self.exec_inner(stmt).await.map_err(|e| e.at(stmt.range()))
    }

    async fn exec_inner(&mut self, stmt: &Stmt) -> PyResult<Flow> {
        match stmt {
            Stmt::Expr(s) => {
                self.eval(&s.value).await?;
            }
            Stmt::Assign(s) => {
                let value = self.eval(&s.value).await?;
                for target in &s.targets {
                    self.assign(target, value.clone()).await?;
                }
            }
            Stmt::AugAssign(s) => {
                let current = self.eval(&s.target).await?;
                let rhs = self.eval(&s.value).await?;
                let value = self.binary(s.op, current, rhs).await?;
                self.assign(&s.target, value).await?;
            }
            Stmt::Import(s) => {
                for alias in &s.names {
                    let name = alias.name.as_str();
                    let module = crate::builtins::import(name).map_err(|e| e.at(alias.range()))?;
                    let bound = match &alias.asname {
                        Some(asname) => asname.as_str(),
                        // `import a.b` binds `a`.
                        None => name.split('.').next().unwrap_or(name),
                    };
                    let value = if alias.asname.is_some() {
                        module
                    } else {
                        crate::builtins::import(bound)?
                    };
                    self.globals.insert(bound.to_string(), value);
                }
            }
            Stmt::If(s) => {
                if self.truthy(&s.test).await? {
                    return self.exec_block(&s.body).await;
                }
                for clause in &s.elif_else_clauses {
                    let taken = match &clause.test {
                        Some(test) => self.truthy(test).await?,
                        None => true,
                    };
                    if taken {
                        return self.exec_block(&clause.body).await;
                    }
                }
            }
            Stmt::While(s) => {
                let mut broke = false;
                while self.truthy(&s.test).await? {
                    self.burn_fuel()?;
                    if let Flow::Break = self.exec_block(&s.body).await? {
                        broke = true;
                        break;
                    }
                }
                if !broke {
                    self.exec_block(&s.orelse).await?;
                }
            }
            Stmt::For(s) => {
                if s.is_async {
                    return Err(PyErr::not_implemented("'async for' is not supported"));
                }
                let iterable = self.eval(&s.iter).await?;
                let items = self.iterate(iterable).map_err(|e| e.at(s.iter.range()))?;
                let mut broke = false;
                for item in items {
                    self.burn_fuel()?;
                    self.assign(&s.target, item).await?;
                    if let Flow::Break = self.exec_block(&s.body).await? {
                        broke = true;
                        break;
                    }
                }
                if !broke {
                    self.exec_block(&s.orelse).await?;
                }
            }
            Stmt::Pass(_) => {}
            Stmt::Break(_) => return Ok(Flow::Break),
            Stmt::Continue(_) => return Ok(Flow::Continue),
            other => {
                return Err(PyErr::not_implemented(format!(
                    "{} is not supported yet",
                    stmt_name(other)
                )));
            }
        }
        Ok(Flow::Normal)
    }

    fn assign<'a>(&'a mut self, target: &'a Expr, value: Value) -> Boxed<'a, ()> {
        Box::pin(async move {
            match target {
                Expr::Name(name) => {
                    self.globals.insert(name.id.to_string(), value);
                    Ok(())
                }
                Expr::Tuple(ast::ExprTuple { elts, .. })
                | Expr::List(ast::ExprList { elts, .. }) => {
                    let items = self.iterate(value).map_err(|e| e.at(target.range()))?;
                    if items.len() != elts.len() {
                        let message = if items.len() > elts.len() {
                            format!("too many values to unpack (expected {})", elts.len())
                        } else {
                            format!(
                                "not enough values to unpack (expected {}, got {})",
                                elts.len(),
                                items.len()
                            )
                        };
                        return Err(PyErr::new("ValueError", message).at(target.range()));
                    }
                    for (elt, item) in elts.iter().zip(items) {
                        self.assign(elt, item).await?;
                    }
                    Ok(())
                }
                _ => Err(PyErr::not_implemented(
                    "assignment to this kind of target is not supported yet",
                )
                .at(target.range())),
            }
        })
    }

    /// The items of an iterable that needs no device access.
    fn iterate(&self, value: Value) -> PyResult<Vec<Value>> {
        match value {
            Value::List(l) => Ok(l.borrow().clone()),
            Value::Tuple(t) => Ok(t.to_vec()),
            Value::Size(s) => Ok(s.iter().map(|&d| Value::Int(d as i64)).collect()),
            Value::Str(s) => Ok(s.chars().map(|c| Value::str(&c.to_string())).collect()),
            Value::Tensor(_) => Err(PyErr::not_implemented(
                "iterating over a tensor is not supported yet",
            )),
            other => Err(PyErr::type_error(format!(
                "'{}' object is not iterable",
                other.type_name()
            ))),
        }
    }

    async fn truthy(&mut self, expr: &Expr) -> PyResult<bool> {
        let value = self.eval(expr).await?;
        self.truth(&value).await.map_err(|e| e.at(expr.range()))
    }

    /// `bool(value)`; a one-element tensor is read from the device.
    pub async fn truth(&mut self, value: &Value) -> PyResult<bool> {
        if let Some(b) = value.truthy() {
            return Ok(b);
        }
        match value {
            Value::Tensor(t) if t.numel() == 1 => Ok(self.runtime.item(t).await? != 0.0),
            Value::Tensor(_) => Err(PyErr::new(
                "RuntimeError",
                "Boolean value of Tensor with more than one value is ambiguous",
            )),
            _ => Ok(true),
        }
    }

    pub fn eval<'a>(&'a mut self, expr: &'a Expr) -> Boxed<'a, Value> {
        Box::pin(async move {
            self.enter().map_err(|e| e.at(expr.range()))?;
            let result = self.eval_inner(expr).await.map_err(|e| e.at(expr.range()));
            self.depth -= 1;
            result
        })
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
            Expr::Name(name) => self.lookup(name.id.as_str())?,
            Expr::List(l) => {
                let mut items = Vec::with_capacity(l.elts.len());
                for e in &l.elts {
                    items.push(self.eval(e).await?);
                }
                Value::List(Rc::new(std::cell::RefCell::new(items)))
            }
            Expr::Tuple(t) => {
                let mut items = Vec::with_capacity(t.elts.len());
                for e in &t.elts {
                    items.push(self.eval(e).await?);
                }
                Value::Tuple(items.into())
            }
            Expr::BinOp(b) => {
                let left = self.eval(&b.left).await?;
                let right = self.eval(&b.right).await?;
                self.binary(b.op, left, right).await?
            }
            Expr::UnaryOp(u) => {
                let operand = self.eval(&u.operand).await?;
                match u.op {
                    ast::UnaryOp::Not => Value::Bool(!self.truth(&operand).await?),
                    ast::UnaryOp::USub => {
                        self.binary(Operator::Mult, operand, Value::Int(-1)).await?
                    }
                    ast::UnaryOp::UAdd => operand,
                    ast::UnaryOp::Invert => {
                        return Err(PyErr::not_implemented(
                            "the ~ operator is not supported yet",
                        ));
                    }
                }
            }
            Expr::BoolOp(b) => {
                let mut last = Value::None;
                for (i, value) in b.values.iter().enumerate() {
                    last = self.eval(value).await?;
                    let t = self.truth(&last).await?;
                    let is_last = i + 1 == b.values.len();
                    match b.op {
                        ast::BoolOp::And if !t && !is_last => return Ok(last),
                        ast::BoolOp::Or if t && !is_last => return Ok(last),
                        _ => {}
                    }
                }
                last
            }
            Expr::Compare(c) => {
                let mut left = self.eval(&c.left).await?;
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    let right = self.eval(right).await?;
                    if !crate::builtins::compare(*op, &left, &right)? {
                        return Ok(Value::Bool(false));
                    }
                    left = right;
                }
                Value::Bool(true)
            }
            Expr::Attribute(a) => {
                let base = self.eval(&a.value).await?;
                crate::builtins::attribute(&base, a.attr.as_str())?
            }
            Expr::Subscript(s) => {
                let base = self.eval(&s.value).await?;
                let index = self.eval(&s.slice).await?;
                crate::builtins::subscript(&base, &index)?
            }
            Expr::Call(call) => {
                let func = self.eval(&call.func).await?;
                let mut args = Args::default();
                for arg in call.arguments.args.iter() {
                    if let Expr::Starred(_) = arg {
                        return Err(
                            PyErr::not_implemented("*args in calls is not supported yet")
                                .at(arg.range()),
                        );
                    }
                    args.positional.push(self.eval(arg).await?);
                }
                for kw in call.arguments.keywords.iter() {
                    let Some(name) = &kw.arg else {
                        return Err(PyErr::not_implemented(
                            "**kwargs in calls is not supported yet",
                        )
                        .at(kw.range()));
                    };
                    let value = self.eval(&kw.value).await?;
                    args.keywords.push((name.to_string(), value));
                }
                self.burn_fuel()?;
                self.call(func, args).await?
            }
            other => {
                return Err(PyErr::not_implemented(format!(
                    "{} is not supported yet",
                    expr_name(other)
                )));
            }
        })
    }

    fn lookup(&self, name: &str) -> PyResult<Value> {
        if let Some(v) = self.globals.get(name) {
            return Ok(v.clone());
        }
        crate::builtins::builtin(name)
            .ok_or_else(|| PyErr::new("NameError", format!("name '{name}' is not defined")))
    }
}

fn stmt_name(stmt: &Stmt) -> &'static str {
    match stmt {
        Stmt::FunctionDef(_) => "'def' (function definitions)",
        Stmt::ClassDef(_) => "'class' (class definitions)",
        Stmt::Return(_) => "'return'",
        Stmt::Delete(_) => "'del'",
        Stmt::TypeAlias(_) => "'type' aliases",
        Stmt::AnnAssign(_) => "annotated assignment",
        Stmt::With(_) => "'with'",
        Stmt::Match(_) => "'match'",
        Stmt::Raise(_) => "'raise'",
        Stmt::Try(_) => "'try'",
        Stmt::Assert(_) => "'assert'",
        Stmt::ImportFrom(_) => "'from ... import'",
        Stmt::Global(_) => "'global'",
        Stmt::Nonlocal(_) => "'nonlocal'",
        _ => "this statement",
    }
}

fn expr_name(expr: &Expr) -> &'static str {
    match expr {
        Expr::Named(_) => "the walrus operator ':='",
        Expr::Lambda(_) => "'lambda'",
        Expr::If(_) => "conditional expressions ('a if c else b')",
        Expr::Dict(_) => "dict literals",
        Expr::Set(_) => "set literals",
        Expr::ListComp(_) => "list comprehensions",
        Expr::SetComp(_) => "set comprehensions",
        Expr::DictComp(_) => "dict comprehensions",
        Expr::Generator(_) => "generator expressions",
        Expr::Await(_) => "'await'",
        Expr::Yield(_) | Expr::YieldFrom(_) => "'yield'",
        Expr::FString(_) => "f-strings",
        Expr::TString(_) => "t-strings",
        Expr::BytesLiteral(_) => "bytes literals",
        Expr::EllipsisLiteral(_) => "'...'",
        Expr::Starred(_) => "starred expressions",
        Expr::Slice(_) => "slices",
        _ => "this expression",
    }
}
