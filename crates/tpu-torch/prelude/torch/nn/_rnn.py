# Recurrent layers (part of torch.nn's body): RNN, LSTM and GRU over whole
# sequences, and their cells, with PyTorch's parameters (names, shapes,
# registration order, uniform(-1/sqrt(hidden), 1/sqrt(hidden)) init in that
# order) and ATen's CPU arithmetic step by step: each layer projects the whole
# input sequence at once (one matmul on the MXU), then runs its time loop,
# one hidden-state matmul per step, which the timeline shows as such.


def _rnn_check_input(input, batch_first, input_size, name):
    if input.dim() not in (2, 3):
        raise ValueError(name + ": Expected input to be 2D or 3D, got " + str(input.dim()) + "D instead")
    if input.shape[-1] != input_size:
        raise RuntimeError("input.size(-1) must be equal to input_size. Expected " + str(input_size)
                           + ", got " + str(input.shape[-1]))


def _lstm_step(x_proj, h, c, w_hh, b_hh):
    # ATen's LSTMCell: gates = linear(h, w_hh, b_hh) + input projection,
    # chunked as input, forget, cell, output.
    gates = F.linear(h, w_hh, b_hh) + x_proj
    i, f, g, o = gates.chunk(4, -1)
    i = i.sigmoid()
    f = f.sigmoid()
    g = g.tanh()
    o = o.sigmoid()
    c = f * c + i * g
    h = o * c.tanh()
    return h, c


def _gru_step(x_proj, h, w_hh, b_hh):
    # ATen's GRUCell: reset and update gates from both projections, the new
    # gate from the input's and the reset hidden's.
    hg = F.linear(h, w_hh, b_hh)
    ir, iz, inn = x_proj.chunk(3, -1)
    hr, hz, hn = hg.chunk(3, -1)
    r = (hr + ir).sigmoid()
    z = (hz + iz).sigmoid()
    n = (inn + hn * r).tanh()
    return (h - n) * z + n


def _rnn_step(x_proj, h, w_hh, b_hh, nonlinearity):
    pre = F.linear(h, w_hh, b_hh) + x_proj
    return pre.tanh() if nonlinearity == "tanh" else pre.relu()


class RNNBase(Module):
    _GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
            raise TypeError("hidden_size should be of type int, got: " + type(hidden_size).__name__)
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size != 0:
            raise NotImplementedError("LSTM(proj_size=...) is not supported yet")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          "expects num_layers greater than 1, but got dropout=" + str(dropout) + " and "
                          "num_layers=" + str(num_layers), stacklevel=2)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        gate_size = self._GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else hidden_size * directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [("weight_ih", (gate_size, layer_input)), ("weight_hh", (gate_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                for kind, shape in shapes:
                    name = kind + "_l" + str(layer) + suffix
                    setattr(self, name, Parameter(torch.empty(shape, device=device, dtype=dtype)))
                    self._flat_weights_names.append(name)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self):
        pass

    @property
    def _flat_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        per = 4 if self.bias else 2
        weights = self._flat_weights
        return [weights[i:i + per] for i in range(0, len(weights), per)]

    def _layer_weights(self, layer, direction):
        suffix = "_reverse" if direction == 1 else ""
        get = lambda kind: getattr(self, kind + "_l" + str(layer) + suffix, None)
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh")

    def extra_repr(self):
        s = str(self.input_size) + ", " + str(self.hidden_size)
        if self.proj_size != 0:
            s += ", proj_size=" + str(self.proj_size)
        if self.num_layers != 1:
            s += ", num_layers=" + str(self.num_layers)
        if self.bias is not True:
            s += ", bias=" + str(self.bias)
        if self.batch_first is not False:
            s += ", batch_first=" + str(self.batch_first)
        if self.dropout != 0:
            s += ", dropout=" + str(self.dropout)
        if self.bidirectional is not False:
            s += ", bidirectional=" + str(self.bidirectional)
        return s

    def _run(self, input, hx, cx, batch_sizes=None):
        # input (seq, batch, features); hx (and cx for the LSTM) (layers *
        # directions, batch, hidden). Returns the last layer's outputs and the
        # final states, as ATen's CPU path computes them. With `batch_sizes`
        # (a packed batch, longest first) only the first batch_sizes[t] rows
        # advance at step t; the others keep their state.
        directions = 2 if self.bidirectional else 1
        seq_len = input.shape[0]
        layer_input = input
        h_out, c_out = [], []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                w_ih, w_hh, b_ih, b_hh = self._layer_weights(layer, direction)
                k = layer * directions + direction
                h = hx[k]
                c = cx[k] if cx is not None else None
                projected = F.linear(layer_input, w_ih, b_ih)
                steps = range(seq_len - 1, -1, -1) if direction == 1 else range(seq_len)
                out = [None] * seq_len
                rows = torch.arange(h.shape[0], device=h.device).unsqueeze(1) if batch_sizes is not None else None
                for t in steps:
                    h_prev, c_prev = h, c
                    if self.mode == "LSTM":
                        h, c = _lstm_step(projected[t], h, c, w_hh, b_hh)
                    elif self.mode == "GRU":
                        h = _gru_step(projected[t], h, w_hh, b_hh)
                    else:
                        h = _rnn_step(projected[t], h, w_hh, b_hh, "tanh" if self.mode == "RNN_TANH" else "relu")
                    if batch_sizes is not None and batch_sizes[t] < h.shape[0]:
                        running = rows < batch_sizes[t]
                        h = torch.where(running, h, h_prev)
                        if c is not None:
                            c = torch.where(running, c, c_prev)
                    out[t] = h
                outputs.append(torch.stack(out, 0) if seq_len else torch.empty(0, *h.shape))
                h_out.append(h)
                if c is not None:
                    c_out.append(c)
            layer_input = outputs[0] if directions == 1 else torch.cat(outputs, -1)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        h_n = torch.stack(h_out, 0)
        c_n = torch.stack(c_out, 0) if cx is not None else None
        return layer_input, h_n, c_n

    def _forward_packed(self, packed, hx):
        # The packed steps padded back (in the packed order), run with each
        # row advancing while its sequence runs, and packed again; states given
        # and returned are in the caller's order.
        rnn_utils = torch.nn.utils.rnn
        sizes = packed.batch_sizes.tolist()
        padded = rnn_utils._padded_steps(packed, 0.0, len(sizes))
        order, back = packed.sorted_indices, packed.unsorted_indices
        if hx is not None and order is not None:
            hx = tuple(h.index_select(1, order) for h in hx) if self.mode == "LSTM" else hx.index_select(1, order)
        batch_first, self.batch_first = self.batch_first, False
        try:
            output, h_n, c_n = self._forward(padded, hx, sizes)
        finally:
            self.batch_first = batch_first
        data = torch.cat([output[t, :b] for t, b in enumerate(sizes)], 0)
        if back is not None:
            h_n = h_n.index_select(1, back)
            c_n = c_n.index_select(1, back) if c_n is not None else None
        out = rnn_utils.PackedSequence(data, packed.batch_sizes, order, back)
        return out, ((h_n, c_n) if self.mode == "LSTM" else h_n)

    def _forward(self, input, hx, batch_sizes=None):
        if isinstance(input, torch.nn.utils.rnn.PackedSequence):
            return self._forward_packed(input, hx)
        name = type(self).__name__
        _rnn_check_input(input, self.batch_first, self.input_size, name)
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        state_shape = (self.num_layers * directions, input.shape[1], self.hidden_size)
        if self.mode == "LSTM":
            if hx is None:
                zeros = torch.zeros(state_shape, dtype=input.dtype, device=input.device)
                h0, c0 = zeros, zeros
            else:
                h0, c0 = hx
                if not batched:
                    if h0.dim() != 2 or c0.dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got ("
                                           + str(h0.dim()) + "-D, " + str(c0.dim()) + "-D) tensors")
                    h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
            for state, what in ((h0, "hidden[0]"), (c0, "hidden[1]")):
                if tuple(state.shape) != state_shape:
                    raise RuntimeError("Expected " + what + " size " + str(state_shape) + ", got "
                                       + str(list(state.shape)).replace("[", "[").replace("]", "]"))
        else:
            if hx is None:
                h0 = torch.zeros(state_shape, dtype=input.dtype, device=input.device)
            else:
                h0 = hx.unsqueeze(1) if not batched else hx
                if tuple(h0.shape) != state_shape:
                    raise RuntimeError("Expected hidden size " + str(state_shape) + ", got "
                                       + str(list(h0.shape)))
            c0 = None
        output, h_n, c_n = self._run(input, h0, c0, batch_sizes)
        if batch_sizes is not None:
            return output, h_n, c_n
        if not batched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
            c_n = c_n.squeeze(1) if c_n is not None else None
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, ((h_n, c_n) if self.mode == "LSTM" else h_n)


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError("Unknown nonlinearity '" + str(nonlinearity) + "'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return self._forward(input, hx)


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), device=device,
                                               dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.bias_ih = None
            self.bias_hh = None
        self.reset_parameters()

    def extra_repr(self):
        s = str(self.input_size) + ", " + str(self.hidden_size)
        if self.bias is not True:
            s += ", bias=" + str(self.bias)
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += ", nonlinearity=" + self.nonlinearity
        return s

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, hx, name):
        if input.dim() not in (1, 2):
            raise ValueError(name + ": Expected input to be 1D or 2D, got " + str(input.dim()) + "D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(name + ": Expected hidden to be 1D or 2D, got " + str(hx.dim()) + "D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = torch.zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
        elif not batched:
            hx = hx.unsqueeze(0)
        return input, hx, batched


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, 1, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, batched = self._batched(input, hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError("Unknown nonlinearity: " + str(self.nonlinearity))
        h = _rnn_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh,
                      self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError("LSTMCell: Expected input to be 1D or 2D, got " + str(input.dim()) + "D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        h, c = _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), hx[0], hx[1], self.weight_hh,
                          self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, batched = self._batched(input, hx, "GRUCell")
        h = _gru_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return h if batched else h.squeeze(0)
