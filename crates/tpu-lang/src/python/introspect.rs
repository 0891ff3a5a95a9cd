//! `dir()`, `help()` and `__doc__`: what a user asks the interpreter about its
//! own names. The text follows CPython's (`dir`'s sorted list with the dunder
//! names every class inherits from `object`; `pydoc`'s "Help on function f in
//! module __main__:" page with its signature and cleaned docstring) for the
//! objects this interpreter models the same way: user functions, methods,
//! classes without bases, and their instances.
//!
//! Where the object model differs, the text says less rather than something
//! false: a built-in value lists its public methods (not the dunders CPython's
//! C types have), a module lists the names it defines (not CPython's `__loader__`,
//! `__spec__`, ...), `dir()` lists the scope's names (the module scope has
//! `__name__` but not `__builtins__` or `__file__`), a built-in function has
//! no signature or docstring, and a subclass's help omits pydoc's inherited
//! sections.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Class, Descriptor, Function, FunctionCode, Value};
use ruff_python_ast as ast;
use ruff_text_size::Ranged;
use std::rc::Rc;

/// The attributes every class inherits from `object` in CPython 3.11, plus
/// the four a `class` statement adds (`__dict__`, `__doc__`, `__module__`,
/// `__weakref__`).
const CLASS_DUNDERS: &[&str] = &[
    "__class__",
    "__delattr__",
    "__dict__",
    "__dir__",
    "__doc__",
    "__eq__",
    "__format__",
    "__ge__",
    "__getattribute__",
    "__getstate__",
    "__gt__",
    "__hash__",
    "__init__",
    "__init_subclass__",
    "__le__",
    "__lt__",
    "__module__",
    "__ne__",
    "__new__",
    "__reduce__",
    "__reduce_ex__",
    "__repr__",
    "__setattr__",
    "__sizeof__",
    "__str__",
    "__subclasshook__",
    "__weakref__",
];

/// The docstring of a body: its first statement, when that is a string.
pub fn docstring(body: &[ast::Stmt]) -> Option<String> {
    match body.first()? {
        ast::Stmt::Expr(e) => match &*e.value {
            ast::Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A function's `__doc__`.
pub fn function_doc(f: &Function) -> Value {
    match &f.code {
        FunctionCode::Def(def) => docstring(&def.body).map_or(Value::None, |d| Value::str(&d)),
        FunctionCode::Lambda(_) => Value::None,
    }
}

/// `inspect.cleandoc`: the first line stripped, the common indentation of the
/// others removed, blank lines at either end dropped.
fn clean_doc(doc: &str) -> String {
    let expanded = doc.replace('\t', "        ");
    let mut lines: Vec<&str> = expanded.split('\n').collect();
    let margin = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut cleaned: Vec<String> = Vec::with_capacity(lines.len());
    if let Some(first) = lines.first_mut() {
        cleaned.push(first.trim_start().to_string());
    }
    for line in lines.iter().skip(1) {
        cleaned.push(line.get(margin..).unwrap_or("").to_string());
    }
    while cleaned.last().is_some_and(|l| l.trim().is_empty()) {
        cleaned.pop();
    }
    while cleaned.first().is_some_and(|l| l.trim().is_empty()) {
        cleaned.remove(0);
    }
    cleaned.join("\n")
}

/// Each line of `text` behind `prefix`, as pydoc indents a docstring.
fn indent(text: &str, prefix: &str) -> String {
    text.split('\n')
        .map(|l| format!("{prefix}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module a function was defined in, by its file.
fn module_of(f: &Function) -> &'static str {
    if !f.file.is_library {
        return "__main__";
    }
    crate::python::library::module_of_file(&f.file.name).unwrap_or("torch")
}

impl Interpreter<'_> {
    /// `dir()` or `dir(obj)`.
    pub(crate) fn dir(&mut self, args: &[Value]) -> PyResult<Value> {
        let mut names: Vec<String> = match args {
            [] => self.env.vars.borrow().keys().cloned().collect(),
            [value] => match value {
                Value::Module(m) => m
                    .attrs
                    .borrow()
                    .keys()
                    .filter(|k| !k.starts_with("_py_"))
                    .cloned()
                    .collect(),
                Value::Class(c) => class_names(c),
                Value::Instance(i) => {
                    let mut names = class_names(&i.class());
                    names.extend(i.attrs.borrow().iter().map(|(k, _)| k.to_string()));
                    names
                }
                other => match crate::python::methods::native_method_names(other) {
                    Some(methods) => methods.iter().map(|m| m.to_string()).collect(),
                    None => {
                        return Err(PyErr::not_implemented(format!(
                            "dir() of a {} object is not supported; dir() lists modules, classes, \
                         their instances, and the methods of str, list, dict, set and tuple",
                            other.type_name()
                        )));
                    }
                },
            },
            _ => {
                return Err(PyErr::type_error(format!(
                    "dir expected at most 1 argument, got {}",
                    args.len()
                )));
            }
        };
        names.sort();
        names.dedup();
        Ok(Value::list(names.iter().map(|n| Value::str(n)).collect()))
    }

    /// `help(obj)`: pydoc's page for it, printed.
    pub(crate) async fn help(&mut self, args: &[Value]) -> PyResult<Value> {
        let [value] = args else {
            return Err(PyErr::not_implemented(
                "help() needs an object here (there is no interactive help): help(torch.zeros)",
            ));
        };
        let page = match value {
            Value::Function(f) => {
                let kind = "function";
                format!(
                    "Help on {kind} {} in module {}:\n\n{}\n",
                    f.name,
                    module_of(f),
                    self.function_entry(f, false, "").await?
                )
            }
            Value::BoundMethod(m) => format!(
                "Help on method {} in module {}:\n\n{}\n",
                m.1.name,
                module_of(&m.1),
                self.function_entry(&m.1, true, &format!("__main__.{}", m.0.type_name()))
                    .await?
            ),
            Value::Builtin(name) => {
                let (module, short) = name.rsplit_once('.').unwrap_or(("builtins", name));
                format!(
                    "Help on built-in function {short} in module {module}:\n\n{short}(...)\n    \
                     Implemented in Rust by this interpreter; see the documentation of \
                     {module}.{short}.\n\n"
                )
            }
            Value::Class(c) => self.class_page(c).await?,
            Value::Instance(i) => self.class_page(&i.class()).await?,
            Value::Module(m) => format!("Help on module {0}:\n\nNAME\n    {0}\n\n", m.name),
            Value::Str(_) => {
                return Err(PyErr::not_implemented(
                    "help() on a topic name is not supported; pass the object itself",
                ));
            }
            other => {
                return Err(PyErr::not_implemented(format!(
                    "help() on a {} object is not supported",
                    other.type_name()
                )));
            }
        };
        self.write_stdout(&page);
        Ok(Value::None)
    }

    /// A function's signature line and its indented docstring, ending in a
    /// newline; a bound method drops its first parameter and says whose it is.
    async fn function_entry(&mut self, f: &Function, bound: bool, owner: &str) -> PyResult<String> {
        let signature = self.signature(f, bound).await?;
        let mut entry = match &f.code {
            FunctionCode::Lambda(_) => format!("{} lambda {}", f.name, signature),
            FunctionCode::Def(_) => format!("{}({signature})", f.name),
        };
        if let FunctionCode::Def(def) = &f.code
            && let Some(returns) = &def.returns
        {
            entry.push_str(&format!(" -> {}", self.source_text(f, returns.range())));
        }
        if bound {
            entry.push_str(&format!(" method of {owner} instance"));
        }
        entry.push('\n');
        if let FunctionCode::Def(def) = &f.code
            && let Some(doc) = docstring(&def.body)
        {
            entry.push_str(&indent(&clean_doc(&doc), "    "));
            entry.push('\n');
        }
        Ok(entry)
    }

    fn source_text(&self, f: &Function, range: ruff_text_size::TextRange) -> String {
        f.file
            .text
            .get(range.start().to_usize()..range.end().to_usize())
            .unwrap_or("")
            .to_string()
    }

    /// `(a, b=2, *args, k=3, **kw)` without the parentheses, as
    /// `inspect.signature` prints it.
    async fn signature(&mut self, f: &Function, bound: bool) -> PyResult<String> {
        let Some(p) = f.parameters() else {
            return Ok(String::new());
        };
        let mut parts = Vec::new();
        for param in p.posonlyargs.iter().chain(&p.args) {
            parts.push(self.parameter_text(f, &param.parameter).await?);
        }
        if !p.posonlyargs.is_empty() {
            parts.insert(p.posonlyargs.len(), "/".to_string());
        }
        match &p.vararg {
            Some(v) => parts.push(format!("*{}", self.parameter_text(f, v).await?)),
            None if !p.kwonlyargs.is_empty() => parts.push("*".into()),
            None => {}
        }
        for param in &p.kwonlyargs {
            parts.push(self.parameter_text(f, &param.parameter).await?);
        }
        if let Some(k) = &p.kwarg {
            parts.push(format!("**{}", self.parameter_text(f, k).await?));
        }
        if bound && !parts.is_empty() {
            parts.remove(0);
        }
        Ok(parts.join(", "))
    }

    async fn parameter_text(&mut self, f: &Function, param: &ast::Parameter) -> PyResult<String> {
        let name = param.name.as_str();
        let annotation = param
            .annotation
            .as_ref()
            .map(|a| self.source_text(f, a.range()));
        let default = match f.defaults.get(name) {
            Some(v) => Some(self.repr_of(&v.clone()).await?),
            None => None,
        };
        Ok(match (annotation, default) {
            (None, None) => name.to_string(),
            (Some(a), None) => format!("{name}: {a}"),
            (None, Some(d)) => format!("{name}={d}"),
            (Some(a), Some(d)) => format!("{name}: {a} = {d}"),
        })
    }

    /// pydoc's page for a class: its line, docstring, the methods and data it
    /// defines, and (for a class whose only base is `object`) the descriptors
    /// every such class has.
    async fn class_page(&mut self, c: &Rc<Class>) -> PyResult<String> {
        let bases = if c.bases.is_empty() {
            "builtins.object".to_string()
        } else {
            c.bases
                .iter()
                .map(|b| b.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut body = Vec::new();
        // pydoc's first line is the call signature, from `__init__`.
        if let Some(Value::Function(init)) = c.lookup("__init__") {
            body.push(format!(
                "{}({})",
                c.name,
                self.signature(&init, true).await?
            ));
            body.push(String::new());
        }
        if let Some(Value::Str(doc)) = c.attrs.borrow().get("__doc__") {
            body.push(indent(&clean_doc(doc), ""));
            body.push(String::new());
        }
        let mut attrs: Vec<(String, Value)> = c
            .attrs
            .borrow()
            .iter()
            .filter(|(k, _)| k.as_str() != "__doc__" && visible(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut sections = Vec::new();
        let mut methods = String::new();
        let mut data = String::new();
        let (mut class_methods, mut static_methods) = (String::new(), String::new());
        let mut readonly = String::new();
        let mut descriptors: Vec<(String, String)> = Vec::new();
        if c.bases.is_empty() {
            descriptors.push((
                "__dict__".into(),
                "__dict__\n    dictionary for instance variables\n".into(),
            ));
            descriptors.push((
                "__weakref__".into(),
                "__weakref__\n    list of weak references to the object\n".into(),
            ));
        }
        for (name, value) in &attrs {
            match value {
                // pydoc's sections for `classmethod`, `staticmethod` and `property`.
                Value::Descriptor(d) => match &**d {
                    Descriptor::ClassMethod(Value::Function(f)) => {
                        let entry = self.function_entry(f, true, "").await?;
                        class_methods.push_str(&entry.replacen(
                            " method of  instance",
                            " from builtins.type",
                            1,
                        ));
                        class_methods.push('\n');
                    }
                    Descriptor::StaticMethod(Value::Function(f)) => {
                        static_methods.push_str(&self.function_entry(f, false, "").await?);
                        static_methods.push('\n');
                    }
                    Descriptor::Property { fget, fset, .. } => {
                        let mut entry = format!("{name}\n");
                        if let Value::Function(f) = fget
                            && let Some(doc) = function_doc_text(f)
                        {
                            entry.push_str(&indent(&clean_doc(&doc), "    "));
                            entry.push('\n');
                        }
                        if matches!(fset, Value::None) {
                            readonly.push_str(&entry);
                            readonly.push('\n');
                        } else {
                            descriptors.push((name.clone(), entry));
                        }
                    }
                    _ => data.push_str(&format!("{name} = {}\n", self.repr_of(value).await?)),
                },
                Value::Function(f) => {
                    let mut entry = self.function_entry(f, false, "").await?;
                    if let (Some(doc), None) = (object_doc(name), function_doc_text(f)) {
                        entry.push_str(&format!("    {doc}\n"));
                    }
                    methods.push_str(&entry);
                    methods.push('\n');
                }
                other => data.push_str(&format!("{name} = {}\n", self.repr_of(other).await?)),
            }
        }
        if !methods.is_empty() {
            sections.push(format!("Methods defined here:\n\n{methods}"));
        }
        for (title, text) in [
            ("Class methods", &class_methods),
            ("Static methods", &static_methods),
            ("Readonly properties", &readonly),
        ] {
            if !text.is_empty() {
                sections.push(format!("{title} defined here:\n\n{text}"));
            }
        }
        if !descriptors.is_empty() {
            descriptors.sort_by(|a, b| a.0.cmp(&b.0));
            let text: String = descriptors.iter().map(|(_, e)| format!("{e}\n")).collect();
            sections.push(format!("Data descriptors defined here:\n\n{text}"));
        }
        if !data.is_empty() {
            sections.push(format!("Data and other attributes defined here:\n\n{data}"));
        }
        let rule = format!("{}\n", "-".repeat(70));
        let mut text = body.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&sections.join(&rule));
        let framed: String = text
            .trim_end_matches('\n')
            .split('\n')
            .map(|l| format!(" |  {l}\n"))
            .collect();
        Ok(format!(
            "Help on class {0} in module __main__:\n\nclass {0}({bases})\n{framed}\n",
            c.name
        ))
    }
}

/// pydoc's rule: private names (`_x`) are hidden, dunders shown.
fn visible(name: &str) -> bool {
    !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__"))
}

fn function_doc_text(f: &Function) -> Option<String> {
    match function_doc(f) {
        Value::Str(s) => Some(s.to_string()),
        _ => None,
    }
}

/// The docstring a method without one inherits from `object`, as pydoc
/// shows it.
fn object_doc(name: &str) -> Option<&'static str> {
    Some(match name {
        "__init__" => "Initialize self.  See help(type(self)) for accurate signature.",
        "__repr__" => "Return repr(self).",
        "__str__" => "Return str(self).",
        "__eq__" => "Return self==value.",
        "__ne__" => "Return self!=value.",
        "__lt__" => "Return self<value.",
        "__le__" => "Return self<=value.",
        "__gt__" => "Return self>value.",
        "__ge__" => "Return self>=value.",
        "__hash__" => "Return hash(self).",
        _ => return None,
    })
}

/// The names `dir` gives for a class: `object`'s and its own along the MRO.
fn class_names(c: &Rc<Class>) -> Vec<String> {
    let mut names: Vec<String> = CLASS_DUNDERS.iter().map(|s| s.to_string()).collect();
    for class in c.mro.borrow().iter() {
        names.extend(class.attrs.borrow().keys().cloned());
    }
    names
}
