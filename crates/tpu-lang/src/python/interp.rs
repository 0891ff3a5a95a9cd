//! The interpreter core and statements: an async tree walker over ruff's AST. It is
//! async because a tensor read (`print`, `.item()`) must await the GPU, and in a
//! browser that await has to return control to the event loop; every `await` in
//! here is a point where the whole program is suspended and later resumed.
//!
//! Each statement costs fuel, so an endless loop ends in an error naming its line;
//! nesting is bounded, so runaway recursion ends in `RecursionError`, not a stack
//! overflow. Constructs outside the supported subset raise `NotImplementedError`
//! naming the construct.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::source::SourceFile;
use crate::python::value::{Class, Function, FunctionCode, Value};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use tpu_runtime::Runtime;

pub type PyResult<T> = Result<T, PyErr>;
pub type Boxed<'a, T> = Pin<Box<dyn Future<Output = PyResult<T>> + 'a>>;

/// How deeply expressions, blocks and calls may nest in all before `RecursionError`
/// (a Python call is about five levels). Sized, like `MAX_CALLS`, to the stack.
#[cfg(not(target_arch = "wasm32"))]
const MAX_DEPTH: usize = 10_000;
#[cfg(target_arch = "wasm32")]
const MAX_DEPTH: usize = 900;

/// How many Python calls may be active at once: CPython's default recursion limit
/// natively. In a browser the bound is the engine's own call stack (about 1 MB in
/// Chromium, which no page can raise), so the wasm limits are lower. Measured in a
/// release build after V8 has tiered the interpreter up (optimised frames are
/// larger than baseline ones): 100 calls down, a 500-deep expression fits and a
/// 700-deep one overflows; cold, 990 fit. The limits keep a margin under the warm
/// figure. An interpreter with an explicit stack would lift this; see
/// ARCHITECTURE.md.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_CALLS: usize = 1_000;
#[cfg(target_arch = "wasm32")]
pub const MAX_CALLS: usize = 180;

pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

pub struct Interpreter<'r> {
    pub runtime: &'r mut Runtime,
    pub stdout: String,
    /// The file whose code is running now (the user's, or the prelude's).
    pub file: Rc<SourceFile>,
    pub env: Rc<Env>,
    /// Modules by dotted name (`torch`, `torch.nn`, `math`).
    pub modules: HashMap<String, Value>,
    /// Built-in exception classes by name.
    pub exceptions: HashMap<String, Rc<Class>>,
    /// The function running in each active call, innermost last (for `super()`).
    pub frames: Vec<(Rc<Function>, Option<Value>)>,
    /// Grad modes to restore when `with torch.no_grad():` blocks end.
    pub grad_mode_stack: Vec<bool>,
    /// Containers whose `repr` is being built, to print cycles as `[...]`.
    pub repr_stack: Vec<usize>,
    /// The last `torch.manual_seed`, for `torch.initial_seed()`.
    pub seed: u64,
    /// The prelude's `torch.Tensor` class: Python methods of tensors.
    pub tensor_class: Option<Rc<Class>>,
    /// The prelude's `nn.Parameter`, for `isinstance`.
    pub parameter_class: Option<Rc<Class>>,
    fuel: u64,
    fuel_budget: u64,
    depth: usize,
    /// See `RunOptions::suspend_every_calls`.
    pub suspend_every_calls: Option<u32>,
    /// The scopes the prelude's modules ran in, cleared by `teardown`.
    pub library_envs: Vec<Rc<Env>>,
    /// Every class this run made: a class's MRO starts with the class itself,
    /// an `Rc` cycle that `teardown` breaks.
    pub classes: Vec<std::rc::Weak<Class>>,
    calls: u64,
}

/// A future that is `Pending` once (waking its task at once) and then ready:
/// one turn given back to the executor.
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            std::task::Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }
}

impl<'r> Interpreter<'r> {
    pub fn new(runtime: &'r mut Runtime, file: Rc<SourceFile>, fuel_budget: u64) -> Self {
        let mut interp = Interpreter {
            runtime,
            stdout: String::new(),
            file,
            env: Env::new(ScopeKind::Module, None),
            modules: HashMap::new(),
            exceptions: HashMap::new(),
            frames: Vec::new(),
            grad_mode_stack: Vec::new(),
            repr_stack: Vec::new(),
            seed: tpu_runtime::rng::DEFAULT_SEED,
            tensor_class: None,
            parameter_class: None,
            fuel: fuel_budget,
            fuel_budget,
            depth: 0,
            suspend_every_calls: None,
            library_envs: Vec::new(),
            classes: Vec::new(),
            calls: 0,
        };
        interp.install_exceptions();
        interp
    }

    pub fn burn_fuel(&mut self) -> PyResult<()> {
        if self.fuel == 0 {
            return Err(PyErr::fatal(
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

    /// Ends a run: a function's closure is the module scope that holds the
    /// function, an `Rc` cycle, so module scopes (the program's and the
    /// prelude's) are emptied here, which frees every object and tensor the
    /// program left behind.
    pub fn teardown(&mut self) {
        let mut envs = std::mem::take(&mut self.library_envs);
        envs.push(self.env.module());
        for env in envs {
            env.vars.borrow_mut().clear();
        }
        for module in self.modules.values() {
            if let Value::Module(m) = module {
                m.attrs.borrow_mut().clear();
            }
        }
        self.modules.clear();
        let exceptions = self.exceptions.drain().map(|(_, c)| Rc::downgrade(&c));
        let classes: Vec<_> = self.classes.drain(..).chain(exceptions).collect();
        for class in classes.iter().filter_map(std::rc::Weak::upgrade) {
            class.mro.borrow_mut().clear();
            class.attrs.borrow_mut().clear();
        }
        self.tensor_class = None;
        self.parameter_class = None;
        self.frames.clear();
    }

    /// Counts a Python call, and gives the executor a turn every
    /// `suspend_every_calls` calls.
    pub async fn call_boundary(&mut self) {
        self.calls += 1;
        if let Some(n) = self.suspend_every_calls
            && n > 0
            && self.calls.is_multiple_of(n as u64)
        {
            YieldNow(false).await;
        }
    }

    pub fn enter(&mut self) -> PyResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(PyErr::fatal(
                "RecursionError",
                "maximum recursion depth exceeded",
            ));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
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
            self.leave();
            result
        })
    }

    async fn exec(&mut self, stmt: &Stmt) -> PyResult<Flow> {
        self.burn_fuel().map_err(|e| e.at(stmt.range()))?;
        if !self.file.is_library {
            let line = self.file.position(stmt.range().start().to_usize()).0;
            self.runtime.set_line(Some(line));
        }
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
            Stmt::AnnAssign(s) => {
                if let Some(value) = &s.value {
                    let value = self.eval(value).await?;
                    self.assign(&s.target, value).await?;
                }
            }
            Stmt::AugAssign(s) => self.aug_assign(s).await?,
            Stmt::Import(s) => {
                for alias in &s.names {
                    let name = alias.name.as_str();
                    let module = self.import(name).await.map_err(|e| e.at(alias.range()))?;
                    match &alias.asname {
                        Some(asname) => self.env.set(asname.as_str(), module),
                        // `import a.b` binds `a`.
                        None => {
                            let top = name.split('.').next().unwrap_or(name);
                            let value = self.import(top).await?;
                            self.env.set(top, value);
                        }
                    }
                }
            }
            Stmt::ImportFrom(s) => {
                let module_name = s.module.as_ref().map(|m| m.as_str()).unwrap_or("");
                if s.level > 0 {
                    return Err(PyErr::not_implemented("relative imports are not supported"));
                }
                let module = self.import(module_name).await?;
                for alias in &s.names {
                    let name = alias.name.as_str();
                    if name == "*" {
                        return Err(
                            PyErr::not_implemented("'from ... import *' is not supported")
                                .at(alias.range()),
                        );
                    }
                    let value = match self.import(&format!("{module_name}.{name}")).await {
                        Ok(submodule) => submodule,
                        Err(_) => self.get_attribute(&module, name).await.map_err(|_| {
                            PyErr::new(
                                "ImportError",
                                format!("cannot import name '{name}' from '{module_name}'"),
                            )
                            .at(alias.range())
                        })?,
                    };
                    let bound = alias.asname.as_ref().map(|a| a.as_str()).unwrap_or(name);
                    self.env.set(bound, value);
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
                    match self.exec_block(&s.body).await? {
                        Flow::Break => {
                            broke = true;
                            break;
                        }
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Normal | Flow::Continue => {}
                    }
                }
                if !broke {
                    return self.exec_block(&s.orelse).await;
                }
            }
            Stmt::For(s) => {
                if s.is_async {
                    return Err(PyErr::not_implemented("'async for' is not supported"));
                }
                let iterable = self.eval(&s.iter).await?;
                let iter = self
                    .iter(iterable)
                    .await
                    .map_err(|e| e.at(s.iter.range()))?;
                let mut broke = false;
                for item in iter {
                    self.burn_fuel()?;
                    self.assign(&s.target, item).await?;
                    match self.exec_block(&s.body).await? {
                        Flow::Break => {
                            broke = true;
                            break;
                        }
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Normal | Flow::Continue => {}
                    }
                }
                if !broke {
                    return self.exec_block(&s.orelse).await;
                }
            }
            Stmt::Pass(_) => {}
            Stmt::Break(_) => return Ok(Flow::Break),
            Stmt::Continue(_) => return Ok(Flow::Continue),
            Stmt::Return(s) => {
                let value = match &s.value {
                    Some(v) => self.eval(v).await?,
                    None => Value::None,
                };
                return Ok(Flow::Return(value));
            }
            Stmt::FunctionDef(def) => {
                if def.is_async {
                    return Err(PyErr::not_implemented("'async def' is not supported"));
                }
                let function = self
                    .make_function(FunctionCode::Def(Rc::new(def.clone())), def.name.as_str())
                    .await?;
                let mut value = Value::Function(function);
                for decorator in def.decorator_list.iter().rev() {
                    let d = self.eval(&decorator.expression).await?;
                    value = self.call(d, vec![value], Vec::new()).await?;
                }
                self.env.set(def.name.as_str(), value);
            }
            Stmt::ClassDef(def) => self.class_def(def).await?,
            Stmt::Global(s) => {
                for name in &s.names {
                    self.env.globals.borrow_mut().insert(name.to_string());
                }
            }
            Stmt::Nonlocal(s) => {
                for name in &s.names {
                    self.env.nonlocals.borrow_mut().insert(name.to_string());
                }
            }
            Stmt::Delete(s) => {
                for target in &s.targets {
                    self.delete(target).await?;
                }
            }
            Stmt::Assert(s) => {
                if !self.truthy(&s.test).await? {
                    let message = match &s.msg {
                        Some(m) => {
                            let v = self.eval(m).await?;
                            self.str_of(&v).await?
                        }
                        None => String::new(),
                    };
                    return Err(PyErr::new("AssertionError", message));
                }
            }
            Stmt::Raise(s) => return Err(self.raise(s).await?),
            Stmt::Try(s) => return self.try_stmt(s).await,
            Stmt::With(s) => return self.with_stmt(s).await,
            other => {
                return Err(PyErr::not_implemented(format!(
                    "{} is not supported",
                    stmt_name(other)
                )));
            }
        }
        Ok(Flow::Normal)
    }

    pub async fn make_function(
        &mut self,
        code: FunctionCode,
        name: &str,
    ) -> PyResult<Rc<Function>> {
        let params = match &code {
            FunctionCode::Def(d) => Some(d.parameters.clone()),
            FunctionCode::Lambda(l) => l.parameters.clone(),
        };
        let mut defaults = HashMap::new();
        if let Some(params) = params {
            let all = params
                .posonlyargs
                .iter()
                .chain(&params.args)
                .chain(&params.kwonlyargs);
            for p in all {
                if let Some(default) = &p.default {
                    let value = self.eval(default).await?;
                    defaults.insert(p.parameter.name.to_string(), value);
                }
            }
        }
        Ok(Rc::new(Function {
            name: name.to_string(),
            code,
            defaults,
            closure: self.env.non_class(),
            file: self.file.clone(),
            class: RefCell::default(),
        }))
    }

    async fn class_def(&mut self, def: &ast::StmtClassDef) -> PyResult<()> {
        let mut bases = Vec::new();
        if let Some(args) = &def.arguments {
            for base in args.args.iter() {
                match self.eval(base).await? {
                    Value::Class(c) => bases.push(c),
                    Value::Builtin("object") => {}
                    other => {
                        return Err(PyErr::type_error(format!(
                            "cannot subclass '{}'",
                            other.type_name()
                        ))
                        .at(base.range()));
                    }
                }
            }
            if !args.keywords.is_empty() {
                return Err(PyErr::not_implemented(
                    "class keywords (metaclass=...) are not supported",
                ));
            }
        }
        let body_env = Env::new(ScopeKind::Class, Some(self.env.clone()));
        let outer = std::mem::replace(&mut self.env, body_env.clone());
        let result = self.exec_block(&def.body).await;
        self.env = outer;
        result?;
        let attrs = body_env.vars.take();
        let class = crate::python::classes::new_class(def.name.as_str(), bases, attrs)?;
        self.classes.push(Rc::downgrade(&class));
        for value in class.attrs.borrow().values() {
            if let Value::Function(f) = value {
                *f.class.borrow_mut() = Rc::downgrade(&class);
            }
        }
        let mut value = Value::Class(class);
        for decorator in def.decorator_list.iter().rev() {
            let d = self.eval(&decorator.expression).await?;
            value = self.call(d, vec![value], Vec::new()).await?;
        }
        self.env.set(def.name.as_str(), value);
        Ok(())
    }

    async fn aug_assign(&mut self, s: &ast::StmtAugAssign) -> PyResult<()> {
        // The target's container and index are evaluated once, as in Python.
        match &*s.target {
            Expr::Subscript(sub) => {
                let base = self.eval(&sub.value).await?;
                let index = self.eval(&sub.slice).await?;
                let current = self.get_item(&base, &index).await?;
                let rhs = self.eval(&s.value).await?;
                let value = self.inplace_binary(s.op, current, rhs).await?;
                self.set_item(&base, index, value).await
            }
            Expr::Attribute(attr) => {
                let base = self.eval(&attr.value).await?;
                let current = self.get_attribute(&base, attr.attr.as_str()).await?;
                let rhs = self.eval(&s.value).await?;
                let value = self.inplace_binary(s.op, current, rhs).await?;
                self.set_attribute(&base, attr.attr.as_str(), value)
            }
            target => {
                let current = self.eval(target).await?;
                let rhs = self.eval(&s.value).await?;
                let value = self.inplace_binary(s.op, current, rhs).await?;
                self.assign(target, value).await
            }
        }
    }

    pub fn assign<'a>(&'a mut self, target: &'a Expr, value: Value) -> Boxed<'a, ()> {
        Box::pin(async move {
            match target {
                Expr::Name(name) => {
                    self.env.set(name.id.as_str(), value);
                    Ok(())
                }
                Expr::Tuple(ast::ExprTuple { elts, .. })
                | Expr::List(ast::ExprList { elts, .. }) => {
                    let items = self
                        .collect(value)
                        .await
                        .map_err(|e| e.at(target.range()))?;
                    let star = elts.iter().position(|e| matches!(e, Expr::Starred(_)));
                    let needed = elts.len() - star.is_some() as usize;
                    let too_few = items.len() < needed;
                    if too_few || (star.is_none() && items.len() > needed) {
                        let message = if too_few {
                            format!(
                                "not enough values to unpack (expected {}{needed}, got {})",
                                if star.is_some() { "at least " } else { "" },
                                items.len()
                            )
                        } else {
                            format!("too many values to unpack (expected {needed})")
                        };
                        return Err(PyErr::value_error(message).at(target.range()));
                    }
                    match star {
                        None => {
                            for (elt, item) in elts.iter().zip(items) {
                                self.assign(elt, item).await?;
                            }
                        }
                        Some(s) => {
                            let after = elts.len() - s - 1;
                            let rest = items[s..items.len() - after].to_vec();
                            for (elt, item) in elts[..s].iter().zip(&items[..s]) {
                                self.assign(elt, item.clone()).await?;
                            }
                            if let Expr::Starred(starred) = &elts[s] {
                                self.assign(&starred.value, Value::list(rest)).await?;
                            }
                            for (elt, item) in
                                elts[s + 1..].iter().zip(&items[items.len() - after..])
                            {
                                self.assign(elt, item.clone()).await?;
                            }
                        }
                    }
                    Ok(())
                }
                Expr::Attribute(attr) => {
                    let base = self.eval(&attr.value).await?;
                    self.set_attribute(&base, attr.attr.as_str(), value)
                }
                Expr::Subscript(sub) => {
                    let base = self.eval(&sub.value).await?;
                    let index = self.eval(&sub.slice).await?;
                    self.set_item(&base, index, value).await
                }
                _ => Err(
                    PyErr::new("SyntaxError", "cannot assign to this expression")
                        .at(target.range()),
                ),
            }
        })
    }

    async fn delete(&mut self, target: &Expr) -> PyResult<()> {
        match target {
            Expr::Name(name) => {
                let env = self.env.target(name.id.as_str());
                if env.vars.borrow_mut().remove(name.id.as_str()).is_none() {
                    return Err(PyErr::new(
                        "NameError",
                        format!("name '{}' is not defined", name.id),
                    ));
                }
                Ok(())
            }
            Expr::Subscript(sub) => {
                let base = self.eval(&sub.value).await?;
                let index = self.eval(&sub.slice).await?;
                self.del_item(&base, &index)
            }
            _ => Err(
                PyErr::not_implemented("'del' of this target is not supported").at(target.range()),
            ),
        }
    }
}

fn stmt_name(stmt: &Stmt) -> &'static str {
    match stmt {
        Stmt::TypeAlias(_) => "'type' aliases",
        Stmt::Match(_) => "'match'",
        Stmt::IpyEscapeCommand(_) => "IPython escape commands",
        _ => "this statement",
    }
}
