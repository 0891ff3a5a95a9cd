# copy.copy versus copy.deepcopy of nested training state (shared inner lists
# after a shallow copy), copies of custom classes with __copy__ and
# __deepcopy__, the memo keeping shared references shared, and list slicing.
import copy

state = {"step": 10, "history": [1.0, 0.5], "opt": {"lr": 0.1, "betas": [0.9, 0.99]}}
shallow = copy.copy(state)
deep = copy.deepcopy(state)
state["history"].append(0.25)
state["opt"]["betas"][0] = 0.8
state["step"] = 11
print(shallow)
print(deep)
print(shallow["history"] is state["history"], deep["history"] is state["history"], shallow is state)
shared = [0]
pair = [shared, shared]
dc = copy.deepcopy(pair)
print(dc[0] is dc[1], dc[0] is shared)
nums = [[1, 2], [3, 4]]
sl = nums[:]
sl[0].append(99)
sl.append([5])
print(nums, sl, list(nums) == nums)


class Model:
    def __init__(self, weights, name):
        self.weights = weights
        self.name = name
        self.cache = {"compiled": True}

    def __deepcopy__(self, memo):
        print("  __deepcopy__ called, memo has", len(memo) > 0 or "no", "entries")
        new = Model(copy.deepcopy(self.weights, memo), self.name + "_copy")
        new.cache = {}
        return new

    def __repr__(self):
        return f"Model({self.name}, {self.weights}, cache={self.cache})"


class Tracker:
    def __init__(self):
        self.values = [1, 2]

    def __copy__(self):
        print("  __copy__ called")
        t = Tracker()
        t.values = self.values
        return t


m = Model([[0.1, 0.2]], "net")
ema = copy.deepcopy(m)
ema.weights[0][0] = 9.9
print(m, ema)
print(copy.copy(m).weights is m.weights)
t = Tracker()
t2 = copy.copy(t)
print(t2.values is t.values, copy.deepcopy(t).values is t.values)
print(copy.deepcopy((1, "a", None)) == (1, "a", None), copy.copy(7), copy.deepcopy({"s": {1, 2}}))
