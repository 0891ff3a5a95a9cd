# Matmul shape errors by operand rank: a vector times a matrix is mm of a row, a matrix times a vector is mv, and batched products.
import torch

device = "tpu"


def attempt(name, fn):
    try:
        out = fn()
        print(name, "->", tuple(out.shape))
    except Exception as e:
        print(name, type(e).__name__ + ":", e)


ones = lambda *s: torch.ones(*s, device=device)
attempt("vec @ mat", lambda: ones(2) @ ones(3, 3))
attempt("vec @ wide mat", lambda: ones(2) @ ones(3, 4))
attempt("mat @ vec", lambda: ones(3, 3) @ ones(2))
attempt("tall mat @ vec", lambda: ones(4, 3) @ ones(2))
attempt("mat @ mat", lambda: ones(2, 3) @ ones(4, 5))
attempt("matmul vec mat", lambda: torch.matmul(ones(5), ones(4, 2)))
attempt("vec @ mat ok", lambda: ones(3) @ ones(3, 2))
attempt("mat @ vec ok", lambda: ones(2, 3) @ ones(3))
attempt("batched @ vec", lambda: ones(2, 3, 4) @ ones(5))
attempt("vec @ batched", lambda: ones(5) @ ones(2, 3, 4))
