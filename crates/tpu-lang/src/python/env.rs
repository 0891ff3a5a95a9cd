//! Scopes. A function call gets a fresh scope whose parent is the scope the
//! function was defined in (closures); a class body gets a scope that becomes the
//! class's attributes and, as in Python, is not visible from its methods.

use crate::python::value::Value;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Function,
    Class,
}

pub struct Env {
    pub vars: RefCell<HashMap<String, Value>>,
    pub parent: Option<Rc<Env>>,
    pub kind: ScopeKind,
    /// Names declared `global` in this scope.
    pub globals: RefCell<HashSet<String>>,
    /// Names declared `nonlocal` in this scope.
    pub nonlocals: RefCell<HashSet<String>>,
}

impl Env {
    /// When a call ends: a function defined in this scope (a nested `def`,
    /// a lambda bound to a name) holds the scope as its closure while the
    /// scope holds it, an `Rc` cycle that would keep every value of the
    /// call alive forever. When those functions are the only holders of the
    /// scope besides the caller (none was returned or stored, no class or
    /// generator made here outlives the call), nothing can reach the scope
    /// after the call, and dropping them breaks the cycle. Otherwise the
    /// scope stays alive, as what escaped may still need every name in it.
    pub fn release_closures(self: &Rc<Self>) {
        let local = |v: &Value| matches!(v, Value::Function(g) if Rc::ptr_eq(&g.closure, self) && Rc::strong_count(g) == 1);
        let locals = self.vars.borrow().values().filter(|v| local(v)).count();
        if locals == 0 || Rc::strong_count(self) != 1 + locals {
            return;
        }
        // Dropped after the borrow ends: a function's drop may drop values
        // whose own drops look at scopes.
        let dropped = std::mem::take(&mut *self.vars.borrow_mut());
        drop(dropped);
    }

    pub fn new(kind: ScopeKind, parent: Option<Rc<Env>>) -> Rc<Env> {
        Rc::new(Env {
            vars: RefCell::default(),
            parent,
            kind,
            globals: RefCell::default(),
            nonlocals: RefCell::default(),
        })
    }

    pub fn module(self: &Rc<Env>) -> Rc<Env> {
        let mut env = self.clone();
        while let Some(p) = env.parent.clone() {
            env = p;
        }
        env
    }

    /// Finds `name` in this scope or the enclosing ones. Class scopes are seen only
    /// from their own body, never from functions nested in them.
    pub fn lookup(self: &Rc<Env>, name: &str) -> Option<Value> {
        if let Some(v) = self.vars.borrow().get(name) {
            return Some(v.clone());
        }
        let mut env = self.parent.clone();
        while let Some(e) = env {
            if e.kind != ScopeKind::Class
                && let Some(v) = e.vars.borrow().get(name)
            {
                return Some(v.clone());
            }
            env = e.parent.clone();
        }
        None
    }

    /// The scope an assignment to `name` writes to.
    pub fn target(self: &Rc<Env>, name: &str) -> Rc<Env> {
        if self.globals.borrow().contains(name) {
            return self.module();
        }
        if self.nonlocals.borrow().contains(name) {
            let mut env = self.parent.clone();
            while let Some(e) = env {
                if e.kind == ScopeKind::Function && e.vars.borrow().contains_key(name) {
                    return e;
                }
                env = e.parent.clone();
            }
        }
        self.clone()
    }

    pub fn set(self: &Rc<Env>, name: &str, value: Value) {
        self.target(name)
            .vars
            .borrow_mut()
            .insert(name.to_string(), value);
    }

    /// The nearest scope that is not a class body: where functions defined in a
    /// class body take their closure from.
    pub fn non_class(self: &Rc<Env>) -> Rc<Env> {
        let mut env = self.clone();
        while env.kind == ScopeKind::Class {
            match env.parent.clone() {
                Some(p) => env = p,
                None => break,
            }
        }
        env
    }
}
