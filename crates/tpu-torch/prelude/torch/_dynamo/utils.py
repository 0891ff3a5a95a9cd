# torch._dynamo.utils: the counters torch._dynamo keeps.
import torch

counters = torch._dynamo.counters
