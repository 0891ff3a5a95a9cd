//! Statements: assignment (including unpacking and augmented assignment),
//! imports, `if`/`while`/`for`, `def` and `class` with their decorators, `global`,
//! `nonlocal`, `del` and `assert`; `raise`, `try` and `with` are in
//! `exceptions`. Each statement burns fuel and records its line for the op log.
//! Constructs outside the supported subset raise `NotImplementedError` naming
//! the construct. `exec_block` and `assign` recurse through `Box::pin`, so each
//! level of nesting costs one heap frame, not a larger native one.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::interp::{Boxed, Flow, Interpreter, PyResult};
use crate::python::value::{Function, FunctionCode, Value};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

impl Interpreter<'_> {
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
        if !self.file.is_library {
            let line = self.file.position(stmt.range().start().to_usize()).0;
            self.runtime.set_line(Some(line));
            self.watch.line = line;
        }
        self.burn_fuel().map_err(|e| e.at(stmt.range()))?;
        let flow = self.exec_inner(stmt).await;
        // The tensor work this statement did is charged now, so a runaway
        // loop of tensor ops ends naming the statement that did them.
        let flow = flow.and_then(|flow| self.charge_work().map(|()| flow));
        flow.map_err(|e| e.at(stmt.range()))
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
        let mut attrs = body_env.vars.take();
        // A class statement always sets `__doc__`, so a subclass without a
        // docstring has `None`, not its base's.
        attrs.entry("__doc__".to_string()).or_insert_with(|| {
            crate::python::introspect::docstring(&def.body).map_or(Value::None, |d| Value::str(&d))
        });
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
                self.assign_attribute(&base, attr.attr.as_str(), value)
                    .await
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
                    self.assign_attribute(&base, attr.attr.as_str(), value)
                        .await
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
