//! Call arguments, and the checks CPython makes on them (missing, unexpected and
//! surplus arguments raise `TypeError` with CPython's wording).

use crate::error::PyErr;
use crate::value::Value;

#[derive(Default)]
pub struct Args {
    pub positional: Vec<Value>,
    pub keywords: Vec<(String, Value)>,
}

impl Args {
    /// Removes and returns keyword `name`.
    pub fn keyword(&mut self, name: &str) -> Option<Value> {
        let i = self.keywords.iter().position(|(k, _)| k == name)?;
        Some(self.keywords.remove(i).1)
    }

    /// Positional argument `i`, or keyword `name`, removing the keyword.
    pub fn get(&mut self, i: usize, name: &str) -> Option<Value> {
        match self.keyword(name) {
            Some(v) => Some(v),
            None => self.positional.get(i).cloned(),
        }
    }

    /// Fails if anything was left unused: `f() got an unexpected keyword argument`.
    pub fn finish(&self, function: &str, max_positional: usize) -> Result<(), PyErr> {
        if let Some((name, _)) = self.keywords.first() {
            return Err(PyErr::type_error(format!(
                "{function}() got an unexpected keyword argument '{name}'"
            )));
        }
        if self.positional.len() > max_positional {
            return Err(PyErr::type_error(format!(
                "{function}() takes {max_positional} positional argument{} but {} were given",
                if max_positional == 1 { "" } else { "s" },
                self.positional.len()
            )));
        }
        Ok(())
    }
}
