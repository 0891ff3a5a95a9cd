//! Python's data model where its rules are subtle: which operand's special
//! method runs first, what `NotImplemented` hands on, when `__getattr__` is
//! asked, how `with` passes an exception to `__exit__`, and that iteration
//! calls `__next__` one step at a time. Each expected output is what CPython 3
//! prints for the same program.

use tpu_lang::{RunOptions, run};
use tpu_runtime::{ReferenceBackend, Runtime};

/// What the program prints; it must not fail.
fn stdout_of(source: &str) -> String {
    let source = source.to_string();
    let report = std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            pollster::block_on(run(&source, &mut runtime, &RunOptions::default()))
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(
        report.diagnostics.is_empty(),
        "the program failed: {}",
        report.diagnostics[0].traceback
    );
    report.stdout
}

#[test]
fn a_subclass_overriding_the_reflected_method_goes_first() {
    let out = stdout_of(
        r#"
class A:
    def __add__(self, o): return "A.__add__"
    def __radd__(self, o): return "A.__radd__"
class B(A):
    def __radd__(self, o): return "B.__radd__"
class C(A):
    pass
print(A() + B(), A() + C(), B() + A())
"#,
    );
    assert_eq!(out, "B.__radd__ A.__add__ A.__add__\n");
}

#[test]
fn not_implemented_passes_the_turn_and_then_raises() {
    let out = stdout_of(
        r#"
class L:
    def __mul__(self, o): return NotImplemented
class R:
    def __rmul__(self, o): return "R.__rmul__"
class N:
    def __rmul__(self, o): return NotImplemented
print(L() * R(), 3 * R())
try:
    L() * N()
except TypeError as e:
    print(e)
"#,
    );
    assert_eq!(
        out,
        "R.__rmul__ R.__rmul__\nunsupported operand type(s) for *: 'L' and 'N'\n"
    );
}

#[test]
fn in_place_operators_fall_back_to_binary_ones() {
    let out = stdout_of(
        r#"
class Acc:
    def __init__(self, v): self.v = v
    def __iadd__(self, o):
        if isinstance(o, int): return NotImplemented
        self.v += o; return self
    def __add__(self, o): return Acc(self.v + o * 10)
a = Acc(1.0)
b = a
a += 0.5
print(a is b, a.v)
a += 1
print(a is b, a.v)
"#,
    );
    assert_eq!(out, "True 1.5\nFalse 11.5\n");
}

#[test]
fn equality_falls_back_to_identity_and_ne_inverts_eq() {
    let out = stdout_of(
        r#"
class P: pass
class E:
    def __eq__(self, o): return True
p = P()
print(p == p, p == P(), p != P(), E() != 1, 1 == E(), E() in [5])
"#,
    );
    assert_eq!(out, "True False True False True True\n");
}

#[test]
fn getattr_is_asked_only_when_normal_lookup_fails() {
    let out = stdout_of(
        r#"
class G:
    x = 1
    def __init__(self): self.y = 2
    @property
    def broken(self): raise AttributeError("inner")
    def __getattr__(self, name): return "getattr:" + name
g = G()
print(g.x, g.y, g.z, g.broken)
"#,
    );
    assert_eq!(out, "1 2 getattr:z getattr:broken\n");
}

#[test]
fn object_setattr_bypasses_an_overriding_setattr() {
    let out = stdout_of(
        r#"
class Frozen:
    def __init__(self, v):
        object.__setattr__(self, "v", v)
    def __setattr__(self, name, value):
        raise AttributeError("frozen")
class Logged:
    def __setattr__(self, name, value):
        print("set", name)
        super().__setattr__(name, value)
f = Frozen(3)
try:
    f.v = 4
except AttributeError as e:
    print(e, f.v)
l = Logged()
l.w = 5
print(l.w)
"#,
    );
    assert_eq!(out, "frozen 3\nset w\n5\n");
}

#[test]
fn exit_sees_the_exception_and_a_true_result_suppresses_it() {
    let out = stdout_of(
        r#"
class M:
    def __init__(self, name, swallow): self.name, self.swallow = name, swallow
    def __enter__(self): return self.name
    def __exit__(self, t, v, tb):
        print("exit", self.name, t.__name__ if t else None, v)
        return self.swallow
with M("outer", True), M("inner", False) as n:
    print("in", n)
    raise KeyError("k")
print("after")
"#,
    );
    assert_eq!(
        out,
        "in inner\nexit inner KeyError 'k'\nexit outer KeyError 'k'\nafter\n"
    );
}

#[test]
fn loops_call_next_one_step_at_a_time() {
    let out = stdout_of(
        r#"
class Count:
    def __init__(self): self.i = 0
    def __iter__(self): return self
    def __next__(self):
        if self.i == 2: raise StopIteration
        self.i += 1
        print("next", self.i)
        return self.i
for v in Count():
    print("body", v)
class Seq:
    def __getitem__(self, i):
        if i > 1: raise IndexError
        return i * 10
print(list(Seq()), 10 in Seq(), next(iter(Seq())))
"#,
    );
    assert_eq!(out, "next 1\nbody 1\nnext 2\nbody 2\n[0, 10] True 0\n");
}

#[test]
fn classmethods_bind_the_class_they_are_called_on() {
    let out = stdout_of(
        r#"
class Base:
    @classmethod
    def make(cls): return cls.__name__
    @staticmethod
    def plain(x): return x * 2
class Child(Base):
    @classmethod
    def make(cls): return "child of " + super().make()
print(Base.make(), Child.make(), Child().make(), Child.plain(2), Base().plain(3))
"#,
    );
    assert_eq!(out, "Base child of Child child of Child 4 6\n");
}

#[test]
fn truth_asks_bool_then_len() {
    let out = stdout_of(
        r#"
class L:
    def __len__(self):
        print("len")
        return 0
class B:
    def __bool__(self): return 1
print(bool(L()), not L())
try:
    bool(B())
except TypeError as e:
    print(e)
"#,
    );
    assert_eq!(
        out,
        "len\nlen\nFalse True\n__bool__ should return bool, returned int\n"
    );
}

#[test]
fn fork_rng_restores_the_generator() {
    let out = stdout_of(
        r#"
import torch
torch.manual_seed(0)
a = torch.rand(2)
with torch.random.fork_rng():
    torch.rand(5)
b = torch.rand(2)
torch.manual_seed(0)
torch.rand(2)
print(torch.equal(b, torch.rand(2)), torch.initial_seed())
"#,
    );
    assert_eq!(out, "True 0\n");
}
