# Products composed from matmul, reductions and views: einsum (lowered to
# diagonals, sums, permutes, reshapes and batched matmuls), addmm and its
# relatives, kron, tensordot; the diagonal family (diag, diagonal, diag_embed,
# trace, triu/tril_indices); distances (cdist, dist) and covariance (cov,
# corrcoef). Part of the `torch` module's body (see __init__.py; in the same
# namespace).


def _einsum_parse(equation, operands):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    terms = lhs.split(",")
    if _py_len(terms) != _py_len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if _py_len(terms) < _py_len(operands)
                           else "einsum(): fewer operands were provided than specified in the equation")
    # An ellipsis stands for the leading dimensions it covers, named by
    # capital letters (which einsum equations do not otherwise use here).
    ell = 0
    for t, x in zip(terms, operands):
        if "..." in t:
            ell = _py_max(ell, x.dim() - (_py_len(t) - 3))
    ell_names = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[26 - ell:] if ell else ""
    named = []
    for t, x in zip(terms, operands):
        if "..." in t:
            k = x.dim() - (_py_len(t) - 3)
            t = t.replace("...", ell_names[ell - k:])
        if _py_len(t) != x.dim():
            raise RuntimeError("einsum(): the number of subscripts in the equation (" + str(_py_len(t))
                               + ") does not match the number of dimensions (" + str(x.dim())
                               + ") for operand " + str(_py_len(named)) + " and no ellipsis was given")
        named.append(t)
    if out is None:
        counts = {}
        for t in named:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell_names + "".join(_py_sorted([c for c in counts if counts[c] == 1 and c not in ell_names]))
    else:
        out = out.replace("...", ell_names)
    return named, out


def einsum(equation, *operands):
    if not _py_isinstance(equation, str):
        # The sublist form: einsum(a, [0, 1], b, [1, 2], [0, 2]).
        items = [equation] + list(operands)
        letters = "abcdefghijklmnopqrstuvwxyz"
        ops, terms = [], []
        i = 0
        while i + 1 < _py_len(items) and _py_isinstance(items[i], Tensor):
            ops.append(items[i])
            terms.append("".join(letters[j] for j in items[i + 1]))
            i += 2
        equation = ",".join(terms)
        if i < _py_len(items):
            equation += "->" + "".join(letters[j] for j in items[i])
        operands = ops
    if _py_len(operands) == 1 and not _py_isinstance(operands[0], Tensor):
        operands = list(operands[0])
    operands = list(operands)
    terms, out = _einsum_parse(equation, operands)
    sizes = {}
    for k, (t, x) in enumerate(zip(terms, operands)):
        for c, s in zip(t, x.shape):
            if c in sizes and sizes[c] != s and s != 1 and sizes[c] != 1:
                raise RuntimeError("einsum(): subscript " + c + " has size " + str(s) + " for operand " + str(k)
                                   + " which does not broadcast with previously seen size " + str(sizes[c]))
            if c not in sizes or sizes[c] == 1:
                sizes[c] = s
    # Each operand on its own: repeated subscripts become diagonals, and
    # subscripts no other operand or the output uses are summed out.
    work = []
    for k, (t, x) in enumerate(zip(terms, operands)):
        while True:
            dup = [c for c in t if t.count(c) > 1]
            if not dup:
                break
            c = dup[0]
            i = t.index(c)
            j = i + 1 + t[i + 1:].index(c)
            x = x.diagonal(0, i, j)
            t = t[:i] + t[i + 1:j] + t[j + 1:] + c
        others = out + "".join(terms[m] for m in _py_range(_py_len(terms)) if m != k)
        lone = [i for i, c in enumerate(t) if c not in others]
        if lone:
            x = x.sum(lone)
            t = "".join(c for i, c in enumerate(t) if i not in lone)
        work.append((t, x))
    t, x = work[0]
    for k in _py_range(1, _py_len(work)):
        u, y = work[k]
        later = out + "".join(w[0] for w in work[k + 1:])
        batch = [c for c in t if c in u and c in later]
        summed = [c for c in t if c in u and c not in later]
        left = [c for c in t if c not in u]
        right = [c for c in u if c not in t]
        xa = x.permute([t.index(c) for c in batch + left + summed])
        yb = y.permute([u.index(c) for c in batch + summed + right])
        bs = [_py_max(xa.shape[i], yb.shape[i]) for i in _py_range(_py_len(batch))]
        xa = xa.expand(bs + list(xa.shape[_py_len(batch):]))
        yb = yb.expand(bs + list(yb.shape[_py_len(batch):]))
        nb, nl, ns, nr = _prod_of(bs), _prod_of([sizes[c] for c in left]), \
            _prod_of([sizes[c] for c in summed]), _prod_of([sizes[c] for c in right])
        z = matmul(xa.reshape(nb, nl, ns), yb.reshape(nb, ns, nr))
        x = z.reshape(bs + [sizes[c] for c in left] + [sizes[c] for c in right])
        t = "".join(batch + left + right)
    extra = [i for i, c in enumerate(t) if c not in out]
    if extra:
        x = x.sum(extra)
        t = "".join(c for c in t if c in out)
    return x.permute([t.index(c) for c in out]) if _py_len(out) > 1 else x


def _prod_of(values):
    p = 1
    for v in values:
        p *= v
    return p


def addmm(input, mat1, mat2, beta=1, alpha=1, out_dtype=None):
    _no_out_dtype(out_dtype, "addmm")
    product = mm(mat1, mat2)
    product = product if alpha == 1 else product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def addmv(input, mat, vec, beta=1, alpha=1):
    product = mv(mat, vec)
    product = product if alpha == 1 else product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def baddbmm(input, batch1, batch2, beta=1, alpha=1, out_dtype=None):
    _no_out_dtype(out_dtype, "baddbmm")
    product = bmm(batch1, batch2)
    product = product if alpha == 1 else product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def addbmm(input, batch1, batch2, beta=1, alpha=1):
    product = bmm(batch1, batch2).sum(0)
    product = product if alpha == 1 else product * alpha
    if beta == 0:
        return product
    return (input if beta == 1 else input * beta) + product


def addr(input, vec1, vec2, beta=1, alpha=1):
    product = outer(vec1, vec2) * alpha
    return product if beta == 0 else input * beta + product


def mv(input, vec):
    if input.dim() != 2 or vec.dim() != 1:
        raise RuntimeError("vector + matrix @ vector expected, got " + str(input.dim()) + ", "
                           + str(vec.dim()) + ", " + str(vec.dim()))
    return matmul(input, vec)


def ger(input, vec2):
    return outer(input, vec2)


def inner(input, other):
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    return tensordot(input, other, dims=([-1], [-1]))


def vdot(input, other):
    return dot(input, other)


def kron(input, other):
    n = _py_max(input.dim(), other.dim())
    a = input.reshape([1] * (n - input.dim()) + list(input.shape))
    b = other.reshape([1] * (n - other.dim()) + list(other.shape))
    spread_a, spread_b, final = [], [], []
    for i in _py_range(n):
        spread_a += [a.shape[i], 1]
        spread_b += [1, b.shape[i]]
        final.append(a.shape[i] * b.shape[i])
    return (a.reshape(spread_a) * b.reshape(spread_b)).reshape(final)


def tensordot(a, b, dims=2):
    if _py_isinstance(dims, _py_int):
        dims_a = list(_py_range(a.dim() - dims, a.dim()))
        dims_b = list(_py_range(dims))
    else:
        dims_a, dims_b = _dims(dims[0]), _dims(dims[1])
    dims_a = [d % a.dim() for d in dims_a]
    dims_b = [d % b.dim() for d in dims_b]
    free_a = [d for d in _py_range(a.dim()) if d not in dims_a]
    free_b = [d for d in _py_range(b.dim()) if d not in dims_b]
    k = _prod_of([a.shape[d] for d in dims_a])
    left = a.permute(free_a + dims_a).reshape(-1, k)
    right = b.permute(dims_b + free_b).reshape(k, -1)
    return mm(left, right).reshape([a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])


# The diagonal family.

def diagonal(input, offset=0, dim1=0, dim2=1):
    n = input.dim()
    d1, d2 = dim1 % n, dim2 % n
    x = movedim(input, [d1, d2], [-2, -1])
    rows, cols = x.shape[-2], x.shape[-1]
    length = _py_max(0, _py_min(rows - _py_max(0, -offset), cols - _py_max(0, offset)))
    i = arange(length, device=input.device)
    return x[..., i + _py_max(0, -offset), i + _py_max(0, offset)]


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    n = input.shape[-1]
    m = n + _py_abs(offset)
    rows = arange(m, device=input.device).unsqueeze(1)
    cols = arange(m, device=input.device).unsqueeze(0)
    on = (cols - rows) == offset
    source = (rows if offset >= 0 else cols).clamp(max=n - 1).expand(m, m)
    values = input[..., source]
    out = where(on, values, zeros((), dtype=input.dtype, device=input.device))
    if (dim1 % (input.dim() + 1), dim2 % (input.dim() + 1)) != (input.dim() - 1, input.dim()):
        out = movedim(out, [-2, -1], [dim1, dim2])
    return out


def diag(input, diagonal=0):
    if input.dim() == 1:
        return _named(diag_embed(input, diagonal), "DiagEmbedBackward0")
    if input.dim() == 2:
        return _named(globals_diagonal(input, diagonal).clone(), "DiagonalBackward0_copy")
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + str(input.dim()) + "D")


globals_diagonal = diagonal


def diagflat(input, offset=0):
    return diag_embed(input.flatten(), offset)


def trace(input):
    if input.dim() != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(input.dim()))
    out = diagonal(input).sum()
    return out if input.is_floating_point() else out.long()


def triu_indices(row, col, offset=0, dtype=None, device=None, requires_grad=False):
    rows = arange(row, device=device).unsqueeze(1)
    cols = arange(col, device=device).unsqueeze(0)
    return _C.nonzero((cols - rows) >= offset).T.to(dtype or int64).requires_grad_(requires_grad)


def tril_indices(row, col, offset=0, dtype=None, device=None, requires_grad=False):
    rows = arange(row, device=device).unsqueeze(1)
    cols = arange(col, device=device).unsqueeze(0)
    return _C.nonzero((cols - rows) <= offset).T.to(dtype or int64).requires_grad_(requires_grad)


def _fill_diagonal_(self, fill_value, wrap=False):
    rows = arange(self.shape[0], device=self.device).unsqueeze(1)
    cols = arange(self.shape[1], device=self.device).unsqueeze(0)
    return self.masked_fill_(rows == cols, fill_value)


# Distances and covariance.

def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: " + str(x1.shape[-1])
                           + " X2: " + str(x2.shape[-1]))
    d = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == 2:
        return (d * d).sum(-1).sqrt()
    if p == 1:
        return d.abs().sum(-1)
    if p == _py_float("inf"):
        return d.abs().amax(-1)
    if p == 0:
        return (d != 0).to(x1.dtype).sum(-1)
    return (d.abs() ** p).sum(-1) ** (1.0 / p)


def dist(input, other, p=2):
    return norm((input - other).flatten(), p)


def cov(input, correction=1, fweights=None, aweights=None):
    if fweights is not None or aweights is not None:
        raise NotImplementedError("torch.cov(fweights=..., aweights=...) is not supported yet")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    n = x.shape[1]
    centered = x - x.mean(1, keepdim=True)
    out = matmul(centered, centered.T) / _py_max(n - correction, 0)
    return out.squeeze() if input.dim() < 2 else out


def corrcoef(input):
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal().sqrt()
    return (c / d.unsqueeze(1) / d.unsqueeze(0)).clamp(-1, 1)


Tensor.addmm = addmm
Tensor.addmv = addmv
Tensor.baddbmm = baddbmm
Tensor.addbmm = addbmm
Tensor.addr = addr
Tensor.mv = mv
Tensor.ger = ger
Tensor.outer = outer
Tensor.inner = inner
Tensor.dot = dot
Tensor.vdot = vdot
Tensor.kron = kron
Tensor.diagonal = diagonal
Tensor.diag_embed = diag_embed
Tensor.diag = diag
Tensor.trace = trace
Tensor.fill_diagonal_ = _fill_diagonal_
Tensor.cov = cov
Tensor.corrcoef = corrcoef
for _name in ["addmm", "addmv", "baddbmm", "addbmm", "addr"]:
    setattr(Tensor, _name + "_", _inplace(_name))
