"""A seeded generator of random differentiable C++ programs.

Each program is one `[[ct::differentiable]]` function `f` (plus helpers it
calls) written over a type alias `real`, and a `main` that runs the oracles
of oracles.h on it. The function text is emitted twice: in namespace `ad`
with `real = double` (what Cotangent differentiates) and in namespace `ref`
with `real = long double` (the finite-difference reference).

The generator draws only from constructs the README lists as supported:
scalars, pointers to input and in/out memory, local and nested arrays,
std::array, structs of one floating type with member functions and
operators, references, pointer arithmetic, every loop form with break,
continue and early return (constant, run-time and floating-point bounds,
int and unsigned counters), branches, calls, bounded recursion, <cmath>,
ct::stop_gradient (spelled STOP_GRADIENT: the reference replays the value
it had at the unperturbed point) and custom gradient rules; std::vector
locals (sized, filled, listed, copied from a range, swapped), vectors of
vectors and arrays of vectors (built-in and std::array, grown, copied),
arrays of variable length in one and two dimensions, buffers
filled by one loop and read by another over the same run-time range,
range-for, iterator and pointer loops, the standard algorithms with
lambdas, lambdas called where defined, switch, std::min/std::max on
places (and references bound to them, read after either place is written),
places chosen by conditionals whose arms assign, assignments used as places,
OpenMP parallel loops with a `+` or `max` reduction whose
iterations each write their own element (ignored without -fopenmp), a
class that owns its buffer (constructed, copied, assigned, resized in a
branch, destroyed where its scope ends), buffers swapped through
pointers in a loop, structs holding a std::string beside numbers in a
vector grown and edited, indexed through a std::map of their names, and
functions called through pointers chosen at run time and kept in tables,
numbers thrown to handlers inside the function, and struct members chosen
through pointers to data members.

Statements are emitted one per line, and compound statements open with a
line ending in `{` and close with a line that is only `}`, so that the
reducer can delete statements by lines.
"""

import random

# Values stay in a range where every generated formula is finite:
# logs, roots and divisions see arguments bounded away from zero.
UNARY = [
    "std::sin({0})", "std::cos({0})", "std::tanh({0})", "std::atan({0})",
    "std::exp(std::sin({0}))", "std::log(1.0 + ({0}) * ({0}))",
    "std::sqrt(1.5 + ({0}) * ({0}))", "(-{0})", "std::fabs({0})",
    "std::cbrt(2.0 + std::sin({0}))", "std::pow(1.5 + std::cos({0}), 2)",
    "STOP_GRADIENT({0})", "std::erf({0})", "std::sinh(std::sin({0}))",
]
BINARY = [
    "({0} + {1})", "({0} - {1})", "({0} * {1})",
    "({0} / (1.5 + std::sin({1})))", "({0} / (2.0 + ({1}) * ({1})))",
    "std::hypot({0}, 1.0 + ({1}) * ({1}))", "std::atan2({0}, 1.5 + std::cos({1}))",
    "std::fmax({0}, {1})", "std::fmin({0}, {1})",
    "std::pow(1.25 + std::cos({0}), std::sin({1}))",
]
COMPARE = ["<", ">", "<=", ">="]


class Scope:
    """Variables visible at one point, by kind."""

    def __init__(self, parent=None):
        self.parent = parent
        self.names = {}  # name -> (kind, extra)

    def add(self, name, kind, extra=None):
        self.names[name] = (kind, extra)

    def all(self):
        found = dict(self.parent.all()) if self.parent else {}
        found.update(self.names)
        return found

    def of(self, *kinds):
        return [(n, e) for n, (k, e) in self.all().items() if k in kinds]


class Function:
    """One function being generated: its parameters and body lines."""

    def __init__(self, name, params, is_main):
        self.name = name
        self.params = params  # [(role, name, length)]
        self.is_main = is_main
        self.lines = []
        # Whether a branch returns before the end (then nothing is added
        # at the end that the harness must know the effect of).
        self.returns_early = False


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        # Checkpoint pragmas draw from their own stream, so that a seed's
        # program is the same with or without them.
        self.pragmas = random.Random(f"checkpoint-{seed}")
        # So do OpenMP loops, which touch only names of their own besides
        # the one place they add into.
        self.openmp = random.Random(f"openmp-{seed}")
        # And so do places written through conditionals, assignments and
        # references bound to std::min/std::max.
        self.glvalues = random.Random(f"glvalue-{seed}")
        # And so is memory kept through addresses: a class that owns its
        # buffer, buffers swapped through pointers.
        self.memory = random.Random(f"memory-{seed}")
        # And so are complex intermediates.
        self.complexes = random.Random(f"complex-{seed}")
        # And so are lookup tables in library objects kept as compiled.
        self.tables = random.Random(f"table-{seed}")
        # And so is a std::vector parameter f resizes.
        self.resized = random.Random(f"resized-{seed}")
        # And so are structs of indices and weights (integers among
        # floating-point fields, addressed and swapped).
        self.indexed = random.Random(f"indexed-{seed}")
        # And so is whether buffers swapped through pointers are
        # std::vectors (pointers to vectors: docs/Memory.md, item 28).
        self.vector_pointers = random.Random(f"vector-pointer-{seed}")
        # And so is whether a variable outside the function is a
        # std::vector (docs/Memory.md, item 10).
        self.outside_vectors = random.Random(f"outside-vector-{seed}")
        # And so are places reached through virtual functions returning
        # references and pointers (docs/Memory.md, item 23).
        self.virtuals = random.Random(f"virtual-{seed}")
        # And so are C's growable arrays: a struct's data pointer grown by
        # realloc in a helper (docs/Memory.md, item 18).
        self.grown_arrays = random.Random(f"grown-array-{seed}")
        # And so are objects an iteration makes that an early return from
        # the loop reads, and places chosen in the loop among them and
        # arrays from outside (docs/AD.md, memory a loop carries).
        self.loop_objects = random.Random(f"loop-object-{seed}")
        self.uses_grown = False
        self.uses_virtual = False
        self.uses_edge = False
        self.uses_buffer = False
        self.uses_layer = False
        self.uses_trace = False
        self.uses_owned = False
        self.uses_node = False
        self.uses_cell = False
        self.uses_named = False
        self.uses_pusher = False
        # Library code called as compiled keeps variables outside the
        # function in place (docs/Memory.md, item 10): a program has
        # lookup tables or outside variables with derivatives, not both.
        self.uses_table = False
        self.uses_outside = False
        # Whether a `#pragma ct checkpoint` was emitted for the next loop,
        # and how many checkpointed loops enclose the code being made.
        self.pending_checkpoint = False
        self.uses_checkpoint = False
        self.inside_checkpoint = 0
        self.seed = seed
        self.counter = 0
        self.helpers = []  # rendered helper functions (text over `real`)
        self.rules = []  # custom rules, rendered
        self.callable = []  # (name, signature kind)
        self.uses_struct = False

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p):
        return self.rng.random() < p

    # -- expressions ------------------------------------------------------

    def index(self, length, scope, loop_vars):
        """An in-bounds integer index into an array of `length`."""
        r = self.rng
        ints = [n for n, _ in scope.of("int")]
        choice = r.random()
        if loop_vars and choice < 0.5:
            return f"({r.choice(loop_vars)} + {r.randrange(length)}) % {length}"
        if ints and choice < 0.8:
            return f"({r.choice(ints)} + {r.randrange(length)}) % {length}"
        return str(r.randrange(length))

    def leaf(self, scope, loop_vars):
        r = self.rng
        options = []
        for name, _ in scope.of("scalar"):
            options.append(name)
        for name, length in scope.of("input", "inout", "array", "stdarray",
                                     "vector"):
            options.append(f"{name}[{self.index(length, scope, loop_vars)}]")
        for name, _ in scope.of("lambda"):
            if self.chance(0.5):
                options.append(f"{name}({r.choice(['0.5', '1.25'])})")
        places = self.places(scope, loop_vars)
        if len(places) >= 2 and self.chance(0.2):
            a, b = r.sample(places, 2)
            options.append(f"std::{r.choice(['min', 'max'])}({a}, {b})")
        ranges = self.ranges(scope)
        if ranges and self.chance(0.15):
            begin, end = r.choice(ranges)
            options.append(f"*std::{r.choice(['max_element', 'min_element'])}"
                           f"({begin}, {end})")
        for name, dims in scope.of("matrix"):
            i = self.index(dims[0], scope, loop_vars)
            j = self.index(dims[1], scope, loop_vars)
            options.append(f"{name}[{i}][{j}]")
        for name, _ in scope.of("vec2"):
            options.append(f"{name}.{r.choice(['x', 'y'])}")
            options.append(f"{name}.dot({name})")
        for name, _ in scope.of("int"):
            if self.chance(0.2):
                options.append(f"static_cast<real>({name})")
        if not options or self.chance(0.15):
            return r.choice(["0.5", "1.25", "2.0", "0.75", "3.0"])
        return r.choice(options)

    def expr(self, scope, loop_vars, depth=0):
        r = self.rng
        if depth >= 3 or self.chance(0.3):
            return self.leaf(scope, loop_vars)
        pick = r.random()
        if pick < 0.35:
            return r.choice(UNARY).format(self.expr(scope, loop_vars, depth + 1))
        if pick < 0.8:
            return r.choice(BINARY).format(self.expr(scope, loop_vars, depth + 1),
                                           self.expr(scope, loop_vars, depth + 1))
        if pick < 0.9 and self.callable:
            return self.call(scope, loop_vars, depth)
        cond = self.condition(scope, loop_vars)
        return (f"({cond} ? {self.expr(scope, loop_vars, depth + 1)} : "
                f"{self.expr(scope, loop_vars, depth + 1)})")

    def call(self, scope, loop_vars, depth):
        r = self.rng
        name, kind, length = r.choice(self.callable)
        x = self.expr(scope, loop_vars, depth + 1)
        if kind == "scalar":
            return f"{name}({x})"
        if kind == "recursive":
            return f"{name}({x}, {r.randrange(4)})"
        # A helper reading memory: pass an array of at least `length`.
        arrays = [(n, l) for n, l in scope.of("input", "inout", "array")
                  if l >= length]
        if not arrays:
            return f"{name}_s({x})"
        array = r.choice(arrays)[0]
        return f"{name}({array}, {x})"

    def condition(self, scope, loop_vars):
        r = self.rng
        ints = [n for n, _ in scope.of("int")] + list(loop_vars)
        if ints and self.chance(0.5):
            return f"{r.choice(ints)} {r.choice(COMPARE)} {r.randrange(5)}"
        return (f"{self.expr(scope, loop_vars, 2)} {r.choice(COMPARE)} "
                f"{r.choice(['0.0', '0.5', '-0.25', '1.0'])}")

    # -- statements -------------------------------------------------------

    def places(self, scope, loop_vars):
        """Scalar places that can be read (for std::min/std::max)."""
        options = [n for n, _ in scope.of("scalar")]
        for name, length in scope.of("input", "array", "vector"):
            options.append(f"{name}[{self.index(length, scope, loop_vars)}]")
        return options

    def ranges(self, scope):
        """[begin, end) expressions over whole arrays and vectors."""
        out = []
        for name, length in scope.of("input", "inout", "array"):
            out.append((name, f"{name} + {length}"))
        for name, _ in scope.of("vector"):
            out.append((f"{name}.begin()", f"{name}.end()"))
        return out

    def writable_ranges(self, scope):
        out = [(n, f"{n} + {l}", l) for n, l in scope.of("inout", "array")]
        out += [(f"{n}.begin()", f"{n}.end()", l) for n, l in scope.of("vector")]
        return out

    def lvalue(self, scope, loop_vars):
        """A place to assign to, or None."""
        r = self.rng
        options = [n for n, _ in scope.of("scalar")]
        for name, length in scope.of("array", "stdarray", "inout", "vector"):
            options.append(f"{name}[{self.index(length, scope, loop_vars)}]")
        for name, dims in scope.of("matrix"):
            options.append(f"{name}[{self.index(dims[0], scope, loop_vars)}]"
                           f"[{self.index(dims[1], scope, loop_vars)}]")
        for name, _ in scope.of("vec2"):
            options.append(f"{name}.{r.choice(['x', 'y'])}")
        return r.choice(options) if options else None

    def block(self, fn, scope, loop_vars, depth, count, indent):
        inner = Scope(scope)
        for _ in range(count):
            self.statement(fn, inner, loop_vars, depth, indent)

    def emit(self, fn, indent, text):
        fn.lines.append("  " * indent + text)

    def parallel_loop(self, fn, scope, loop_vars, indent):
        """An OpenMP loop whose iterations are independent: each writes its
        own element and adds into (or takes the maximum of) a reduction
        variable; the result is added into a place of the program. Drawn
        from its own stream (and not in scope afterwards), so that the rest
        of the program is the same with or without it."""
        main, self.rng = self.rng, self.openmp
        try:
            target = self.lvalue(scope, loop_vars)
            if target is None:
                return
            r = self.rng
            n = r.randint(1, 6)
            acc, buf, i = self.fresh("s"), self.fresh("w"), self.fresh("i")
            maximum = self.chance(0.3)
            inner = Scope(scope)
            inner.add(i, "int")
            value = self.expr(inner, loop_vars + [i])
            weight = self.expr(inner, loop_vars + [i])
            self.emit(fn, indent, "{")
            self.emit(fn, indent + 1,
                      f"real {acc} = {'-1e300' if maximum else '0'};")
            self.emit(fn, indent + 1, f"real {buf}[{n}] = {{}};")
            clause = f"max : {acc}" if maximum else f"+ : {acc}"
            # OMP(...) is `#pragma omp ...` in the differentiated copy and
            # nothing in the serial reference (harness.py).
            self.emit(fn, indent + 1, f"OMP(omp parallel for reduction({clause}))")
            self.emit(fn, indent + 1, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
            self.emit(fn, indent + 2, f"real t = {value};")
            self.emit(fn, indent + 2, f"{buf}[{i}] = t;")
            if maximum:
                self.emit(fn, indent + 2, f"{acc} = std::fmax({acc}, t * {weight});")
            else:
                self.emit(fn, indent + 2, f"{acc} += t * {weight};")
            self.emit(fn, indent + 1, "}")
            self.emit(fn, indent + 1,
                      f"{target} += std::sin({acc}) + {buf}[{r.randint(0, n - 1)}];")
            self.emit(fn, indent, "}")
        finally:
            self.rng = main

    def update(self, target, scope, loop_vars):
        """`target op= value` with a value that keeps products bounded."""
        op = self.rng.choice(["=", "+=", "-=", "*="])
        value = self.expr(scope, loop_vars, 1)
        if op == "*=":
            value = f"std::cos({value})"
        return f"{target} {op} {value}"

    def glvalue_statement(self, fn, scope, loop_vars, indent):
        """A place chosen by a conditional whose arms may assign, an
        assignment used as a place, or a reference bound to std::min or
        std::max of two places, written through and then read (the reads
        must see every write to either place). Drawn from its own stream,
        so that the rest of the program is the same with or without it."""
        main, self.rng = self.rng, self.glvalues
        try:
            r = self.rng
            p, q = self.lvalue(scope, loop_vars), self.lvalue(scope, loop_vars)
            if p is None:
                return
            cond = self.condition(scope, loop_vars)
            arm = lambda place: (f"({self.update(place, scope, loop_vars)})"
                                 if self.chance(0.6) else place)
            form = r.choice(["conditional", "conditional", "assignment",
                             "reference", "minmax"])
            if form == "conditional":
                # (c ? (p = e) : (q *= e)) += e, and the like.
                place = f"({cond} ? {arm(p)} : {arm(q)})"
                self.emit(fn, indent, self.update(place, scope, loop_vars) + ";")
            elif form == "assignment":
                # (p += e) *= e: an assignment's result is its left side.
                self.emit(fn, indent, self.update(
                    f"({self.update(p, scope, loop_vars)})", scope,
                    loop_vars) + ";")
            elif form == "reference":
                name = self.fresh("r")
                self.emit(fn, indent, f"real &{name} = {cond} ? {arm(p)} : {arm(q)};")
                self.emit(fn, indent, self.update(name, scope, loop_vars) + ";")
                scope.add(name, "scalar")
            else:
                # A reference to the smaller or larger place stays bound to
                # that place while both are written.
                places = self.places(scope, loop_vars)
                if len(places) < 2:
                    return
                a, b = r.sample(places, 2)
                name = self.fresh("m")
                self.emit(fn, indent, f"const real &{name} = "
                          f"std::{r.choice(['min', 'max'])}({a}, {b});")
                self.emit(fn, indent, self.update(p, scope, loop_vars) + ";")
                target = self.lvalue(scope, loop_vars)
                self.emit(fn, indent, f"{target} += {name} * "
                          f"{self.expr(scope, loop_vars, 2)};")
        finally:
            self.rng = main

    def memory_statement(self, fn, scope, loop_vars, indent):
        """Memory kept through addresses (docs/Memory.md): a Buffer, which
        owns its memory (constructed, copied or assigned, resized in a
        branch, destroyed where its scope ends), two buffers (arrays or
        std::vectors) swapped through pointers in a loop, or a std::vector
        grown at run time;
        read into a place. Drawn from its own stream, so that the rest of
        the program is the same without it."""
        main, self.rng = self.rng, self.memory
        try:
            r = self.rng
            target = self.lvalue(scope, loop_vars)
            if target is None:
                return
            i, k = self.fresh("i"), r.randint(0, 1)
            inner = Scope(scope)
            inner.add(i, "int")
            value = lambda: self.expr(inner, loop_vars + [i], 1)
            form = r.random()
            if form < 0.24:
                self.growing_vector(fn, scope, loop_vars, indent, target)
            elif form < 0.27:
                self.uses_trace = True
                self.traced_struct(fn, scope, loop_vars, indent, target)
            elif form < 0.285:
                self.uses_owned = True
                self.owned_buffer(fn, scope, loop_vars, indent, target)
            elif form < 0.3:
                self.uses_cell = True
                self.shared_cells(fn, scope, loop_vars, indent, target)
            elif form < 0.315:
                # (Their strings' library code keeps variables outside the
                # function in place, as lookup tables do: one or the other.)
                if self.uses_outside:
                    return
                self.uses_named = self.uses_table = True
                self.named_entries(fn, scope, loop_vars, indent, target)
            elif form < 0.42:
                self.uses_buffer = True
                self.vector_of_buffers(fn, scope, loop_vars, indent, target)
            elif form < 0.54:
                self.uses_layer = True
                self.vector_of_layers(fn, scope, loop_vars, indent, target)
            elif form < 0.6:
                self.outside_variable(fn, scope, loop_vars, indent, target)
            elif form < 0.65:
                self.uses_node = True
                self.linked_list(fn, scope, loop_vars, indent, target)
            elif form < 0.72:
                self.uses_buffer = True
                b, n = self.fresh("b"), r.randint(2, 4)
                self.emit(fn, indent, f"Buffer {b}({n});")
                self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
                self.emit(fn, indent + 1, f"{b}[{i}] = {value()};")
                self.emit(fn, indent, "}")
                form = r.choice(["copy", "assign", "resize", "plain"])
                if form == "copy":
                    c = self.fresh("b")
                    self.emit(fn, indent, f"Buffer {c} = {b};")
                    self.emit(fn, indent, f"{c}[{k}] *= std::cos({c}[{n - 1}]);")
                    b = c
                elif form == "assign":
                    c = self.fresh("b")
                    self.emit(fn, indent, f"Buffer {c};")
                    self.emit(fn, indent, f"{c} = {b};")
                    b = c
                elif form == "resize":
                    m = r.randint(2, 4)
                    self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
                    self.emit(fn, indent + 1, f"{b}.resize({m});")
                    self.emit(fn, indent + 1, f"for (int {i} = 0; {i} < {m}; ++{i}) {{")
                    self.emit(fn, indent + 2, f"{b}[{i}] = {value()};")
                    self.emit(fn, indent + 1, "}")
                    self.emit(fn, indent, "}")
                self.emit(fn, indent, f"{target} += {b}[{k}] * {self.expr(scope, loop_vars, 1)};")
            elif form < 0.86:
                u, v, n = self.fresh("u"), self.fresh("u"), r.randint(2, 4)
                src, dst, t = self.fresh("p"), self.fresh("p"), self.fresh("p")
                values = ", ".join(self.expr(scope, loop_vars, 1) for _ in range(n))
                # std::vectors, swapped by std::swap or a temporary, or
                # arrays (from a stream of its own: the rest is the same).
                vectors = self.vector_pointers.random()
                if vectors < 0.5:
                    self.emit(fn, indent, f"real {u}[{n}] = {{{values}}};")
                    self.emit(fn, indent, f"real {v}[{n}] = {{}};")
                    self.emit(fn, indent, f"real *{src} = {u};")
                    self.emit(fn, indent, f"real *{dst} = {v};")
                    at = lambda p: p
                else:
                    self.emit(fn, indent, f"std::vector<real> {u} = {{{values}}};")
                    self.emit(fn, indent, f"std::vector<real> {v}({n});")
                    self.emit(fn, indent, f"std::vector<real> *{src} = &{u}, *{dst} = &{v};")
                    at = lambda p: f"(*{p})"
                step = self.fresh("s")
                self.emit(fn, indent, f"for (int {step} = 0; {step} < {r.randint(1, 3)}; ++{step}) {{")
                self.emit(fn, indent + 1, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
                self.emit(fn, indent + 2, f"{at(dst)}[{i}] = std::sin({at(src)}[{i}]) + "
                          f"std::cos({at(src)}[({i} + 1) % {n}]);")
                self.emit(fn, indent + 1, "}")
                if vectors < 0.75:
                    kind = "real" if vectors < 0.5 else "std::vector<real>"
                    self.emit(fn, indent + 1, f"{kind} *{t} = {src};")
                    self.emit(fn, indent + 1, f"{src} = {dst};")
                    self.emit(fn, indent + 1, f"{dst} = {t};")
                else:
                    self.emit(fn, indent + 1, f"std::swap({src}, {dst});")
                self.emit(fn, indent, "}")
                self.emit(fn, indent, f"{target} += {at(src)}[{k}] * {self.expr(scope, loop_vars, 1)};")
            elif form < 0.93:
                self.vector_of_rows(fn, scope, loop_vars, indent, target)
            else:
                pick = r.random()
                if pick < 0.35:
                    self.replaced_buffer(fn, scope, loop_vars, indent, target)
                elif pick < 0.7:
                    self.variable_length_array(fn, scope, loop_vars, indent, target)
                else:
                    self.function_pointers(fn, scope, loop_vars, indent, target)
        finally:
            self.rng = main

    def indexed_statement(self, fn, scope, loop_vars, indent):
        """Edges (a struct of two int indices in an array, a short tag and
        a weight: integers among floating-point slots) into an array in
        scope: made, an index edited at a run-time position, the edges
        swapped, an index swapped through references (std::swap of int
        fields), then read into a place. Drawn from its own stream."""
        main, self.rng = self.rng, self.indexed
        try:
            r = self.rng
            # (Inside a checkpointed loop, only the function's own arrays:
            # a pointer parameter's elements at indices read from memory
            # cannot be bounded for its snapshot, a documented limit.)
            kinds = (("array",) if self.inside_checkpoint else
                     ("input", "inout", "array"))
            arrays = [(n, l) for n, l in scope.of(*kinds) if l >= 2]
            target = self.lvalue(scope, loop_vars)
            if not arrays or target is None:
                return
            self.uses_edge = True
            array, length = r.choice(arrays)
            edges, i, count = self.fresh("ed"), self.fresh("i"), r.randint(2, 3)
            inner = Scope(scope)
            inner.add(i, "int")
            made = ", ".join(
                f"{{{{{r.randrange(length)}, {r.randrange(length)}}}, "
                f"{r.randint(1, 4)}, {self.expr(scope, loop_vars, 1)}}}"
                for _ in range(count))
            self.emit(fn, indent, f"Edge {edges}[{count}] = {{{made}}};")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {count}; ++{i}) {{")
            self.emit(fn, indent + 1, f"{edges}[{i}].ends[{i} % 2] = "
                      f"({edges}[{i}].ends[{i} % 2] + {i}) % {length};")
            self.emit(fn, indent, "}")
            if self.chance(0.5):
                self.emit(fn, indent, f"std::swap({edges}[0], {edges}[{count - 1}]);")
            if self.chance(0.5):
                self.emit(fn, indent, f"std::swap({edges}[0].ends[0], "
                          f"{edges}[0].ends[1]);")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {count}; ++{i}) {{")
            self.emit(fn, indent + 1,
                      f"{target} += {edges}[{i}].weight * {edges}[{i}].tag * "
                      f"({array}[{edges}[{i}].ends[0]] - "
                      f"{array}[{edges}[{i}].ends[1]]) * "
                      f"{self.expr(inner, loop_vars + [i], 1)};")
            self.emit(fn, indent, "}")
        finally:
            self.rng = main

    def vector_of_rows(self, fn, scope, loop_vars, indent, target):
        """A std::vector of std::vectors whose rows are made in a loop
        (grown by push_back, of different lengths), pushed at the back or
        inserted at the front in a branch, then changed (a row grown, a
        row resized with a value, the first row erased) and read into
        `target`; or, for one name in three, an array of vectors
        (array_of_rows)."""
        r = self.rng
        rw, row, i, j = self.fresh("rw"), self.fresh("row"), self.fresh("i"), self.fresh("j")
        # (Chosen by the name, not drawn: the seeds' other draws stay.)
        if self.counter % 3 == 0:
            return self.array_of_rows(fn, scope, loop_vars, indent, target,
                                      rw, row, i, j)
        n = r.randint(1, 3)
        outer = Scope(scope)
        outer.add(i, "int")
        inner = Scope(outer)
        inner.add(j, "int")
        self.emit(fn, indent, f"std::vector<std::vector<real>> {rw};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.row_of_values(fn, indent + 1, row, i, j, inner, loop_vars)
        self.emit(fn, indent + 1, f"if ({self.condition(outer, loop_vars + [i])}) {{")
        self.emit(fn, indent + 2, f"{rw}.push_back({row});")
        self.emit(fn, indent + 1, "} else {")
        self.emit(fn, indent + 2, f"{rw}.insert({rw}.begin(), {row});")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent, "}")
        change = r.choice(["grow", "resize", "erase", "none"])
        if change == "grow":
            self.emit(fn, indent, f"{rw}[0].push_back({self.expr(scope, loop_vars, 1)});")
        elif change == "resize":
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
            self.emit(fn, indent + 1, f"{rw}.back().resize({r.randint(1, 4)}, "
                      f"{self.expr(scope, loop_vars, 1)});")
            self.emit(fn, indent, "}")
        elif change == "erase" and n > 1:
            self.emit(fn, indent, f"{rw}.erase({rw}.begin());")
        each, v = self.fresh("e"), self.fresh("v")
        self.sum_rows(fn, indent, rw, each, v, target, "0.5")

    def row_of_values(self, fn, indent, row, i, j, inner, loop_vars):
        """`row`, a local std::vector grown by push_back to i + 1 values
        (inside the loop over i)."""
        self.emit(fn, indent, f"std::vector<real> {row};")
        self.emit(fn, indent, f"for (int {j} = 0; {j} <= {i}; ++{j}) {{")
        self.emit(fn, indent + 1,
                  f"{row}.push_back({self.expr(inner, loop_vars + [i, j], 1)});")
        self.emit(fn, indent, "}")

    def sum_rows(self, fn, indent, rows, each, v, target, weight):
        """Adds `weight` times every value of the rows `rows` holds (a
        vector or an array of vectors) into `target`."""
        self.emit(fn, indent, f"for (const auto &{each} : {rows}) {{")
        self.emit(fn, indent + 1, f"for (real {v} : {each}) {{")
        self.emit(fn, indent + 2, f"{target} += {weight} * {v};")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent, "}")

    def array_of_rows(self, fn, scope, loop_vars, indent, target, rw, row,
                      i, j):
        """A built-in array or std::array of k std::vectors: rows made in a
        loop, assigned to one element or appended to the next in a branch,
        one grown or resized after it, the array copied, and both read
        into `target`."""
        r = self.rng
        n, k = r.randint(1, 3), r.randint(2, 3)
        outer = Scope(scope)
        outer.add(i, "int")
        inner = Scope(outer)
        inner.add(j, "int")
        if self.counter % 2 == 0:
            kind = f"std::array<std::vector<real>, {k}>"
            self.emit(fn, indent, f"{kind} {rw};")
        else:
            kind = None
            self.emit(fn, indent, f"std::vector<real> {rw}[{k}];")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.row_of_values(fn, indent + 1, row, i, j, inner, loop_vars)
        self.emit(fn, indent + 1, f"if ({self.condition(outer, loop_vars + [i])}) {{")
        self.emit(fn, indent + 2, f"{rw}[{i} % {k}] = {row};")
        self.emit(fn, indent + 1, "} else {")
        v = self.fresh("v")
        self.emit(fn, indent + 2, f"for (real {v} : {row}) {{")
        self.emit(fn, indent + 3, f"{rw}[({i} + 1) % {k}].push_back({v});")
        self.emit(fn, indent + 2, "}")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent, "}")
        if r.random() < 0.5:
            self.emit(fn, indent, f"{rw}[0].push_back({self.expr(scope, loop_vars, 1)});")
        else:
            self.emit(fn, indent, f"{rw}[{k - 1}].resize({r.randint(1, 4)}, "
                      f"{self.expr(scope, loop_vars, 1)});")
        each, w, copy = self.fresh("e"), self.fresh("v"), self.fresh("c")
        if kind:
            self.emit(fn, indent, f"{kind} {copy} = {rw};")
            self.emit(fn, indent, f"{copy}[0].push_back(1.0);")
        self.sum_rows(fn, indent, rw, each, w, target, "0.5")
        if kind:
            self.sum_rows(fn, indent, copy, each, w, target, "0.25")

    def replaced_buffer(self, fn, scope, loop_vars, indent, target):
        """A heap buffer replaced by a fresh one each step (`new` where
        the pointer is assigned, the old one deleted), read after the
        loop into `target`."""
        r = self.rng
        p, q, i, step = self.fresh("p"), self.fresh("p"), self.fresh("i"), self.fresh("s")
        m, k = r.randint(2, 4), r.randint(0, 1)
        inner = Scope(scope)
        inner.add(i, "int")
        self.emit(fn, indent, f"real *{p} = new real[{m}];")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {m}; ++{i}) {{")
        self.emit(fn, indent + 1, f"{p}[{i}] = {self.expr(inner, loop_vars + [i], 1)};")
        self.emit(fn, indent, "}")
        self.emit(fn, indent, f"for (int {step} = 0; {step} < {r.randint(1, 3)}; ++{step}) {{")
        self.emit(fn, indent + 1, f"real *{q} = new real[{m}];")
        self.emit(fn, indent + 1, f"for (int {i} = 0; {i} < {m}; ++{i}) {{")
        self.emit(fn, indent + 2, f"{q}[{i}] = std::sin({p}[{i}]) + "
                  f"0.5 * {p}[({i} + 1) % {m}];")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent + 1, f"delete[] {p};")
        self.emit(fn, indent + 1, f"{p} = {q};")
        self.emit(fn, indent, "}")
        self.emit(fn, indent, f"{target} += {p}[{k}] * {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, f"delete[] {p};")

    def variable_length_array(self, fn, scope, loop_vars, indent, target):
        """A scratch array of variable length (`real a[n];`, n decided at
        run time), filled in a loop and read back through a GNU statement
        expression into `target`; freed where its scope ends."""
        r = self.rng
        a, n, i, t = self.fresh("v"), self.fresh("n"), self.fresh("i"), self.fresh("t")
        m = r.randint(2, 4)
        inner = Scope(scope)
        inner.add(i, "int")
        self.emit(fn, indent, f"int {n} = {m} + ({self.condition(scope, loop_vars)} ? 1 : 0);")
        # Two dimensions for one name in two (chosen by the name, not
        # drawn): `real a[n][n - 1]`, each row filled in turn.
        if self.counter % 2 == 0:
            j = self.fresh("j")
            self.emit(fn, indent, f"real {a}[{n}][{n} - 1];")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
            self.emit(fn, indent + 1, f"for (int {j} = 0; {j} < {n} - 1; ++{j}) {{")
            self.emit(fn, indent + 2, f"{a}[{i}][{j}] = ({j} + 1) * "
                      f"{self.expr(inner, loop_vars + [i], 1)};")
            self.emit(fn, indent + 1, "}")
            self.emit(fn, indent, "}")
            self.emit(fn, indent, f"{target} += ({{ real {t} = {a}[{n} - 1][0] * "
                      f"{a}[0][{n} - 2]; {t} * {self.expr(scope, loop_vars, 1)}; }});")
            return
        self.emit(fn, indent, f"real {a}[{n}];")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1, f"{a}[{i}] = {self.expr(inner, loop_vars + [i], 1)};")
        self.emit(fn, indent, "}")
        self.emit(fn, indent, f"{target} += ({{ real {t} = {a}[{n} - 1] * {a}[0]; "
                  f"{t} * {self.expr(scope, loop_vars, 1)}; }});")

    def function_pointers(self, fn, scope, loop_vars, indent, target):
        """Functions chosen at run time through pointers: one chosen by a
        condition and maybe reassigned, and a table of them (with the C
        library's std::cos) indexed in a loop, each call read into
        `target` (docs/Memory.md, item 25)."""
        r = self.rng
        bodies = ["return std::sin(v) * v;", "return v * v + 0.5;",
                  "return std::tanh(v) - v;", "return std::exp(-v * v);"]
        names = []
        for body in r.sample(bodies, 3):
            name = self.fresh("fp")
            self.helpers.append(f"real {name}(real v) {{ {body} }}")
            names.append(name)
        g, tab, i = self.fresh("g"), self.fresh("tab"), self.fresh("i")
        inner = Scope(scope)
        inner.add(i, "int")
        self.emit(fn, indent, f"real (*{g})(real) = {self.condition(scope, loop_vars)} "
                  f"? {names[0]} : {names[1]};")
        if r.random() < 0.5:
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {g} = {names[2]};")
        self.emit(fn, indent, f"{target} += {g}({self.expr(scope, loop_vars, 1)});")
        entries = ", ".join(names + ["std::cos"])
        self.emit(fn, indent, f"real (*{tab}[4])(real) = {{{entries}}};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {r.randint(2, 4)}; ++{i})")
        self.emit(fn, indent + 1, f"{target} += {tab}[({i} + {r.randint(0, 3)}) % 4]"
                  f"({self.expr(inner, loop_vars + [i], 1)});")
        # For one name in two (chosen by the name, not drawn), a value thrown
        # to a handler and a member chosen by a pointer to it.
        if self.counter % 2 == 0:
            self.thrown_and_chosen(fn, scope, loop_vars, indent, target)

    def thrown_and_chosen(self, fn, scope, loop_vars, indent, target):
        """A number thrown inside a `try` to a handler that uses it, so
        the derivative runs the handler C++ chooses; and a struct's member
        chosen at run time by a pointer to a data member, written through
        it (docs/Frontend.md, "Exceptions"; docs/Memory.md, item 25)."""
        e, pair, m, p = (self.fresh("e"), self.fresh("Pair"), self.fresh("m"),
                         self.fresh("p"))
        self.emit(fn, indent, "try {")
        self.emit(fn, indent + 1, f"if ({self.condition(scope, loop_vars)}) "
                  f"throw real({self.expr(scope, loop_vars, 1)});")
        self.emit(fn, indent + 1, f"{target} += {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, f"}} catch (int) {{")
        self.emit(fn, indent + 1, f"{target} = 0;")
        self.emit(fn, indent, f"}} catch (real {e}) {{")
        self.emit(fn, indent + 1, f"{target} += {e} * {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, "}")
        self.helpers.append(f"struct {pair} {{ real a, b; }};")
        self.emit(fn, indent, f"{pair} {p}{{{self.expr(scope, loop_vars, 1)}, "
                  f"{self.expr(scope, loop_vars, 1)}}};")
        self.emit(fn, indent, f"real {pair}::*{m} = {self.condition(scope, loop_vars)} "
                  f"? &{pair}::a : &{pair}::b;")
        self.emit(fn, indent, f"{p}.*{m} *= {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, f"{target} += {p}.a * {p}.b;")

    def outside_variable(self, fn, scope, loop_vars, indent, target):
        """Values with derivatives written into a variable outside the
        function and read back: a global array or std::vector (resized,
        or grown by push_back) written directly or by a helper, or a
        helper's static local buffer (each call gives it a copy of its
        own: docs/Memory.md, item 10)."""
        r = self.rng
        if self.uses_table:
            return
        self.uses_outside = True
        n, k = r.randint(2, 4), r.randint(0, 1)
        i = self.fresh("i")
        inner = Scope(scope)
        inner.add(i, "int")
        value = lambda: self.expr(inner, loop_vars + [i], 1)
        if r.random() < 0.35:
            name = self.fresh("memo")
            self.helpers.append(
                f"real {name}(real v) {{\n  static real kept[2];\n"
                f"  kept[0] = std::sin(v);\n  kept[1] = kept[0] * v + kept[0];\n"
                f"  return kept[1];\n}}")
            self.emit(fn, indent, f"{target} += {name}({self.expr(scope, loop_vars, 1)});")
            return
        g = self.fresh("g")
        form = self.outside_vectors.choice(["array", "resized", "pushed"])
        if form == "pushed":
            # Grown each call from empty, by push_back without reserve.
            self.helpers.append(f"std::vector<real> {g};")
            self.emit(fn, indent, f"{g}.clear();")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i})")
            self.emit(fn, indent + 1, f"{g}.push_back({value()});")
            self.emit(fn, indent, f"{target} += {g}[{k}] * {self.expr(scope, loop_vars, 1)};")
            return
        self.helpers.append(f"std::vector<real> {g};" if form == "resized"
                            else f"real {g}[{n}];")
        if form == "resized":
            self.emit(fn, indent, f"{g}.resize({n});")
        if r.random() < 0.5:
            put = self.fresh("put")
            self.helpers.append(
                f"void {put}(int i, real v) {{ {g}[i] = v * {g}[(i + 1) % {n}] + v; }}")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i})")
            self.emit(fn, indent + 1, f"{g}[{i}] = 0;")
            self.emit(fn, indent, f"for (int {i} = {n - 1}; {i} >= 0; --{i})")
            self.emit(fn, indent + 1, f"{put}({i}, {value()});")
        else:
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i})")
            self.emit(fn, indent + 1, f"{g}[{i}] = {value()};")
        self.emit(fn, indent, f"{target} += {g}[{k}] * {self.expr(scope, loop_vars, 1)};")

    def virtual_accessors(self, fn, scope, loop_vars, indent):
        """A place read and written through virtual functions returning a
        reference and a pointer (docs/Memory.md, item 23), over a local
        array (a pointer field) or an object's own storage, the object
        chosen at run time. Drawn from its own stream; its names stay in
        its own block."""
        # (Not in helpers: a helper called more than once is a function
        # of its own, and ct::hvp of one whose objects keep addresses is
        # not supported yet.)
        if not fn.is_main:
            return
        main, self.rng = self.rng, self.virtuals
        try:
            r = self.rng
            target = self.lvalue(scope, loop_vars)
            if target is None:
                return
            self.uses_virtual = True
            a, o, w, p = (self.fresh("va"), self.fresh("vo"),
                          self.fresh("vw"), self.fresh("vp"))
            e = lambda: self.expr(scope, loop_vars, 1)
            self.emit(fn, indent, "{")
            self.emit(fn, indent + 1, f"real {a}[3] = {{{e()}, {e()}, {e()}}};")
            self.emit(fn, indent + 1, f"Own {o};")
            for k in range(3):
                self.emit(fn, indent + 1, f"{o}.v[{k}] = {e()};")
            self.emit(fn, indent + 1, f"Over {w}({a});")
            self.emit(fn, indent + 1,
                      f"Src *{p} = {self.condition(scope, loop_vars)} "
                      f"? static_cast<Src *>(&{w}) : &{o};")
            self.emit(fn, indent + 1,
                      f"{p}->at({r.randrange(3)}) *= {e()};")
            self.emit(fn, indent + 1,
                      f"{target} += {p}->at({r.randrange(3)}) * "
                      f"{p}->data()[{r.randrange(3)}];")
            self.emit(fn, indent, "}")
        finally:
            self.rng = main

    def grown_array(self, fn, scope, loop_vars, indent):
        """A local Grown (C's growable array: a data pointer, a size and a
        capacity) pushed to in a loop, sometimes twice in a branch, by a
        helper that doubles the capacity with realloc of the field, then
        read into a place and freed. Drawn from its own stream."""
        main, self.rng = self.rng, self.grown_arrays
        try:
            r = self.rng
            target = self.lvalue(scope, loop_vars)
            if target is None:
                return
            self.uses_grown = True
            g, i = self.fresh("ga"), self.fresh("i")
            n = r.randint(1, 6)
            inner = Scope(scope)
            inner.add(i, "int")
            value = lambda: self.expr(inner, loop_vars + [i], 1)
            self.emit(fn, indent, f"Grown {g}{{nullptr, 0, 0}};")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
            self.emit(fn, indent + 1, f"grownPush(&{g}, {value()});")
            if r.random() < 0.5:
                self.emit(fn, indent + 1,
                          f"if ({self.condition(inner, loop_vars + [i])})")
                self.emit(fn, indent + 2, f"grownPush(&{g}, {value()});")
            self.emit(fn, indent, "}")
            k = r.randint(0, n - 1)
            self.emit(fn, indent, f"{target} += {g}.data[{k}] * "
                                  f"{g}.data[{g}.size - 1];")
            self.emit(fn, indent, f"std::free({g}.data);")
        finally:
            self.rng = main

    def complex_statement(self, fn, scope, loop_vars, indent):
        """A std::complex intermediate (docs/Frontend.md): made from two
        expressions, changed by smooth complex functions and arithmetic,
        read back into a place as a real number. Drawn from its own stream."""
        main, self.rng = self.rng, self.complexes
        try:
            r = self.rng
            target = self.lvalue(scope, loop_vars)
            if target is None:
                return
            z = self.fresh("z")
            e = lambda: self.expr(scope, loop_vars, 1)
            self.emit(fn, indent, f"std::complex<real> {z}({e()}, {e()});")
            for _ in range(r.randint(1, 3)):
                change = r.choice([
                    f"{z} = {z} * {z} + std::complex<real>({e()}, 0.5);",
                    f"{z} *= std::exp({z} * real(0.25));",
                    f"{z} = std::conj({z}) * std::cos({z} * real(0.5));",
                    f"{z} += {e()};",
                    f"{z} = {z} / std::complex<real>(2.0, 1.0 + 0.25 * {z}.imag() * {z}.imag());",
                ])
                self.emit(fn, indent, change)
            read = r.choice([f"std::norm({z})", f"{z}.real()", f"{z}.imag()",
                             f"std::exp({z}).real()"])
            self.emit(fn, indent, f"{target} += 0.25 * {read};")
        finally:
            self.rng = main

    def table_statement(self, fn, scope, loop_vars, indent):
        """A lookup table of constants in a library object kept as compiled
        (docs/Memory.md, item 11): a std::map or std::unordered_map made
        from a list or filled in a loop, read by at, find or a range-for,
        its weights multiplying expressions read into a place. Drawn from
        its own stream."""
        main, self.rng = self.rng, self.tables
        try:
            r = self.rng
            target = self.lvalue(scope, loop_vars)
            if target is None or self.uses_outside:
                return
            self.uses_table = True
            t, n = self.fresh("tbl"), r.randint(2, 4)
            kind = r.choice(["std::map", "std::unordered_map"])
            weights = [round(r.uniform(-1.5, 1.5), 2) for _ in range(n)]
            if r.random() < 0.5:
                entries = ", ".join(f"{{{k}, {w}}}" for k, w in enumerate(weights))
                self.emit(fn, indent, f"{kind}<int, real> {t}{{{entries}}};")
            else:
                i = self.fresh("i")
                self.emit(fn, indent, f"{kind}<int, real> {t};")
                self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i})")
                self.emit(fn, indent + 1, f"{t}[{i}] = real(0.5) * {i} - real(0.75);")
            read = r.choice(["at", "find", "range"])
            e = lambda: self.expr(scope, loop_vars, 1)
            if read == "at":
                self.emit(fn, indent, f"{target} += {t}.at({r.randint(0, n - 1)}) * {e()};")
            elif read == "find":
                it = self.fresh("it")
                self.emit(fn, indent, f"auto {it} = {t}.find({r.randint(0, n)});")
                self.emit(fn, indent, f"{target} += ({it} != {t}.end() ? {it}->second : real(1)) * {e()};")
            else:
                k, w = self.fresh("k"), self.fresh("w")
                self.emit(fn, indent, f"for (const auto &[{k}, {w}] : {t})")
                self.emit(fn, indent + 1, f"{target} += {w} * ({k} + 1) * {e()};")
        finally:
            self.rng = main

    def vector_of_buffers(self, fn, scope, loop_vars, indent, target):
        """A std::vector of Buffers (a class that owns memory: the vector
        is kept in memory, docs/Memory.md), grown by emplace_back or
        push_back of a temporary in a branch, each filled, then changed
        (copied, resized, its last element popped) and read into
        `target`."""
        r = self.rng
        vb, i, j = self.fresh("vb"), self.fresh("i"), self.fresh("j")
        n, m = r.randint(2, 4), r.randint(1, 3)
        outer = Scope(scope)
        outer.add(i, "int")
        inner = Scope(outer)
        inner.add(j, "int")
        value = lambda: self.expr(inner, loop_vars + [i, j], 1)
        self.emit(fn, indent, f"std::vector<Buffer> {vb};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1, f"if ({self.condition(outer, loop_vars + [i])}) {{")
        self.emit(fn, indent + 2, f"{vb}.emplace_back({m});")
        self.emit(fn, indent + 1, "} else {")
        self.emit(fn, indent + 2, f"{vb}.push_back(Buffer({m}));")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent + 1, f"for (int {j} = 0; {j} < {m}; ++{j}) {{")
        self.emit(fn, indent + 2, f"{vb}.back()[{j}] = {value()};")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent, "}")
        change = r.choice(["copy", "resize", "pop", "none"])
        if change == "copy":
            c = self.fresh("vb")
            self.emit(fn, indent, f"std::vector<Buffer> {c} = {vb};")
            self.emit(fn, indent, f"{c}[0][0] *= std::cos({c}[{n - 1}][0]);")
            vb = c
        elif change == "resize":
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
            self.emit(fn, indent + 1, f"{vb}.resize({r.randint(1, n)});")
            self.emit(fn, indent, "}")
        elif change == "pop":
            self.emit(fn, indent, f"{vb}.pop_back();")
        k = self.fresh("k")
        self.emit(fn, indent, f"for (size_t {k} = 0; {k} < {vb}.size(); ++{k}) {{")
        self.emit(fn, indent + 1, f"{target} += {vb}[{k}][{m - 1}] * {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, "}")

    def grow_in_branch(self, fn, indent, vector, condition, value):
        """`vector` grows by one element either way: pushed at the back
        if `condition`, else inserted at the front (value() each)."""
        self.emit(fn, indent, f"if ({condition}) {{")
        self.emit(fn, indent + 1, f"{vector}.push_back({value()});")
        self.emit(fn, indent, "} else {")
        self.emit(fn, indent + 1, f"{vector}.insert({vector}.begin(), {value()});")
        self.emit(fn, indent, "}")

    def traced_struct(self, fn, scope, loop_vars, indent, target):
        """A local Trace (a struct with a destructor of its own and a
        std::vector field the function resizes: kept in the struct,
        docs/Memory.md) whose field grows in a loop and a branch
        (push_back, insert at the front), then changes (its first element
        erased, or resized with a value), read into `target`; destroyed
        where its scope ends."""
        r = self.rng
        t, i = self.fresh("tr"), self.fresh("i")
        n = r.randint(2, 4)
        inner = Scope(scope)
        inner.add(i, "int")
        value = lambda: self.expr(inner, loop_vars + [i], 1)
        self.emit(fn, indent, f"Trace {t}{{{{}}, {self.expr(scope, loop_vars, 1)}}};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.grow_in_branch(fn, indent + 1, f"{t}.xs",
                            self.condition(inner, loop_vars + [i]), value)
        self.emit(fn, indent, "}")
        change = r.choice(["erase", "resize", "none"])
        size = n
        if change == "erase":
            self.emit(fn, indent, f"{t}.xs.erase({t}.xs.begin());")
            size = n - 1
        elif change == "resize":
            size = r.randint(1, 5)
            self.emit(fn, indent, f"{t}.xs.resize({size}, {self.expr(scope, loop_vars, 1)});")
        k = r.randint(0, size - 1)
        self.emit(fn, indent, f"{target} += {t}.xs[{k}] * {t}.s;")

    def owned_buffer(self, fn, scope, loop_vars, indent, target):
        """A local Owned (a class holding a std::unique_ptr: its address
        kept in the object, docs/Memory.md) filled in a loop, then either
        regrown (a bigger buffer made, copied and moved into the member)
        or reset to fresh zeroed memory, read into `target`; freed where
        its scope ends."""
        r = self.rng
        o, i = self.fresh("ow"), self.fresh("i")
        n = r.randint(2, 4)
        k = r.randint(0, n - 1)
        inner = Scope(scope)
        inner.add(i, "int")
        self.emit(fn, indent, f"Owned {o}({n});")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1, f"{o}.data[{i}] = {self.expr(inner, loop_vars + [i], 1)};")
        self.emit(fn, indent, "}")
        self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
        self.emit(fn, indent + 1, f"{o}.regrow({n + 1});")
        self.emit(fn, indent + 1, f"{o}.data[{n}] = {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, "} else {")
        self.emit(fn, indent + 1, f"{o}.data.reset(new real[{n}]());")
        self.emit(fn, indent + 1, f"{o}.data[{k}] = {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, "}")
        self.emit(fn, indent, f"{target} += {o}.data[{k}] * {self.expr(scope, loop_vars, 1)};")

    def shared_cells(self, fn, scope, loop_vars, indent, target):
        """Cells shared through std::shared_ptr (docs/Memory.md, item 24):
        one made by std::make_shared and shared by a copy, replaced in a
        loop by a fresh copy of itself changed (the old one freed by its
        last owner), the copy then reset or read, into `target`."""
        r = self.rng
        a, b, i = self.fresh("sp"), self.fresh("sq"), self.fresh("i")
        n = r.randint(1, 3)
        inner = Scope(scope)
        inner.add(i, "int")
        e = lambda: self.expr(scope, loop_vars, 1)
        self.emit(fn, indent, f"auto {a} = std::make_shared<Cell>(Cell{{{e()}, {e()}}});")
        self.emit(fn, indent, f"std::shared_ptr<Cell> {b} = {a};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1, f"{a} = std::make_shared<Cell>(*{a});")
        self.emit(fn, indent + 1, f"{a}->u = {a}->u * {self.expr(inner, loop_vars + [i], 1)} + {b}->v;")
        self.emit(fn, indent, "}")
        if r.random() < 0.5:
            self.emit(fn, indent, f"{b}.reset();")
            self.emit(fn, indent, f"{target} += {a}->u * {e()} + ({b} ? real(1) : real(0));")
        else:
            self.emit(fn, indent, f"{target} += {a}->u * {b}->v * {e()};")

    def named_entries(self, fn, scope, loop_vars, indent, target):
        """Structs holding a std::string beside numbers (a library object
        kept as compiled as a field, docs/Memory.md item 11) in a vector
        grown by push_back (names short and past the short-string buffer,
        so elements move by their move constructors), edited in the middle,
        indexed through a std::map from names, into `target`."""
        r = self.rng
        v, m, i = self.fresh("nv"), self.fresh("names"), self.fresh("i")
        n = r.randint(2, 5)
        inner = Scope(scope)
        inner.add(i, "int")
        e = lambda: self.expr(scope, loop_vars, 1)
        self.emit(fn, indent, f"std::vector<Named> {v};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1,
                  f"{v}.push_back(Named{{std::string(3 + 9 * {i}, 'a'), "
                  f"{self.expr(inner, loop_vars + [i], 1)}, {i}}});")
        self.emit(fn, indent, "}")
        edit = r.random()
        if edit < 0.3:
            self.emit(fn, indent, f"{v}.erase({v}.begin());")
        elif edit < 0.6:
            self.emit(fn, indent, f"{v}.insert({v}.begin() + 1, {v}.back());")
        self.emit(fn, indent, f"std::map<std::string, int> {m};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < (int){v}.size(); ++{i})")
        self.emit(fn, indent + 1, f"{m}[{v}[{i}].name] = {i};")
        self.emit(fn, indent, f"Named last = {v}[{m}.at({v}.back().name)];")
        self.emit(fn, indent, f"{target} += last.w * {v}.front().w * {e()} + "
                              f"real(last.name.size()) * {e()};")

    def linked_list(self, fn, scope, loop_vars, indent, target):
        """Nodes (a struct linked through its `next` field: the field keeps
        addresses, docs/Memory.md) made by `new` in a loop and prepended,
        or appended through a tail pointer; walked while the pointer is
        not null, read into `target`; freed one by one."""
        r = self.rng
        head, i, p, nxt = (self.fresh("hd"), self.fresh("i"), self.fresh("nd"),
                           self.fresh("nx"))
        n = r.randint(1, 4)
        inner = Scope(scope)
        inner.add(i, "int")
        value = lambda: self.expr(inner, loop_vars + [i], 1)
        if r.random() < 0.5:
            self.emit(fn, indent, f"Node *{head} = nullptr;")
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
            self.emit(fn, indent + 1, f"{head} = new Node{{{value()}, {head}}};")
            self.emit(fn, indent, "}")
        else:
            tail = self.fresh("tl")
            self.emit(fn, indent, f"Node *{head} = new Node{{{self.expr(scope, loop_vars, 1)}, nullptr}};")
            self.emit(fn, indent, f"Node *{tail} = {head};")
            self.emit(fn, indent, f"for (int {i} = 1; {i} < {n}; ++{i}) {{")
            self.emit(fn, indent + 1, f"{tail}->next = new Node{{{value()}, nullptr}};")
            self.emit(fn, indent + 1, f"{tail} = {tail}->next;")
            self.emit(fn, indent, "}")
        # Walked and freed by loops, or by functions recursing over the
        # nodes (NODE's walkNodes and freeNodes).
        if r.random() < 0.35:
            self.emit(fn, indent, f"{target} += walkNodes({head}, {self.expr(scope, loop_vars, 1)});")
        else:
            self.emit(fn, indent, f"for (const Node *{p} = {head}; {p}; {p} = {p}->next) {{")
            self.emit(fn, indent + 1, f"{target} += {p}->v * {self.expr(scope, loop_vars, 1)};")
            self.emit(fn, indent, "}")
        if r.random() < 0.35:
            self.emit(fn, indent, f"freeNodes({head});")
            return
        self.emit(fn, indent, f"while ({head}) {{")
        self.emit(fn, indent + 1, f"Node *{nxt} = {head}->next;")
        self.emit(fn, indent + 1, f"delete {head};")
        self.emit(fn, indent + 1, f"{head} = {nxt};")
        self.emit(fn, indent, "}")

    def vector_of_layers(self, fn, scope, loop_vars, indent, target):
        """A std::vector of Layers (a struct holding a std::vector of
        numbers: both kept in memory, docs/Memory.md), each made as a local
        whose vector grows in a branch (push_back, insert at the front),
        pushed; then changed (a layer assigned another, a field resized
        with a value or grown through a reference, the first layer erased)
        and read into `target`."""
        r = self.rng
        vl, i, j = self.fresh("vl"), self.fresh("i"), self.fresh("j")
        layer = self.fresh("l")
        n, m = r.randint(1, 3), r.randint(1, 3)
        outer = Scope(scope)
        outer.add(i, "int")
        inner = Scope(outer)
        inner.add(j, "int")
        value = lambda: self.expr(inner, loop_vars + [i, j], 1)
        self.emit(fn, indent, f"std::vector<Layer> {vl};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1, f"Layer {layer};")
        self.emit(fn, indent + 1,
                  f"{layer}.s = {self.expr(outer, loop_vars + [i], 1)};")
        self.emit(fn, indent + 1, f"for (int {j} = 0; {j} < {m}; ++{j}) {{")
        self.grow_in_branch(fn, indent + 2, f"{layer}.w",
                            self.condition(inner, loop_vars + [i, j]), value)
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent + 1, f"{vl}.push_back({layer});")
        self.emit(fn, indent, "}")
        change = r.choice(["assign", "resize", "reference", "erase", "none"])
        if change == "assign":
            self.emit(fn, indent, f"{vl}[0] = {vl}[{n - 1}];")
        elif change == "resize":
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
            self.emit(fn, indent + 1, f"{vl}[{n - 1}].w.resize({m + 1}, "
                      f"{self.expr(scope, loop_vars, 1)});")
            self.emit(fn, indent, "}")
        elif change == "reference":
            w = self.fresh("w")
            self.emit(fn, indent, f"std::vector<real> &{w} = {vl}[0].w;")
            self.emit(fn, indent, f"{w}.push_back({self.expr(scope, loop_vars, 1)});")
        elif change == "erase" and n > 1:
            self.emit(fn, indent, f"{vl}.erase({vl}.begin());")
        each, v = self.fresh("e"), self.fresh("v")
        self.emit(fn, indent, f"for (const Layer &{each} : {vl}) {{")
        self.emit(fn, indent + 1, f"for (real {v} : {each}.w) {{")
        self.emit(fn, indent + 2, f"{target} += 0.5 * {v} * {each}.s;")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent, "}")

    def growing_vector(self, fn, scope, loop_vars, indent, target):
        """A std::vector grown at run time (push_back without a reserve, in
        a branch; insert at the front), then changed (resized with a value,
        an element erased, assigned a vector of another size) and read
        into `target`."""
        r = self.rng
        g, i, n = self.fresh("g"), self.fresh("i"), r.randint(2, 5)
        inner = Scope(scope)
        inner.add(i, "int")
        value = lambda: self.expr(inner, loop_vars + [i], 1)
        self.emit(fn, indent, f"std::vector<real> {g};")
        self.emit(fn, indent, f"for (int {i} = 0; {i} < {n}; ++{i}) {{")
        self.emit(fn, indent + 1, f"if ({self.condition(inner, loop_vars + [i])}) {{")
        if r.random() < 0.3:
            # Grown by a helper taking the vector by reference.
            self.uses_pusher = True
            self.emit(fn, indent + 2, f"pushBounded({g}, {value()});")
        else:
            self.emit(fn, indent + 2, f"{g}.push_back({value()});")
        self.emit(fn, indent + 1, "} else {")
        front = r.choice(["insert", "push_back"])
        if front == "insert":
            self.emit(fn, indent + 2, f"{g}.insert({g}.begin(), {value()});")
        else:
            self.emit(fn, indent + 2, f"{g}.push_back(std::sin({value()}));")
        self.emit(fn, indent + 1, "}")
        self.emit(fn, indent, "}")
        change = r.choice(["resize", "erase", "assign", "none"])
        if change == "resize":
            m = r.randint(1, 6)
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
            self.emit(fn, indent + 1, f"{g}.resize({m}, {self.expr(scope, loop_vars, 1)});")
            self.emit(fn, indent, "}")
        elif change == "erase":
            self.emit(fn, indent, f"{g}.erase({g}.begin() + {r.randint(0, 1)});")
        elif change == "assign":
            h, m = self.fresh("g"), r.randint(1, 4)
            values = ", ".join(self.expr(scope, loop_vars, 1) for _ in range(m))
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
            self.emit(fn, indent + 1, f"std::vector<real> {h} = {{{values}}};")
            self.emit(fn, indent + 1, f"{g} = {h};")
            self.emit(fn, indent, "}")
        k = self.fresh("k")
        self.emit(fn, indent, f"for (size_t {k} = 0; {k} < {g}.size(); ++{k}) {{")
        self.emit(fn, indent + 1, f"{target} += {g}[{k}] * {self.expr(scope, loop_vars, 1)};")
        self.emit(fn, indent, "}")

    def statement(self, fn, scope, loop_vars, depth, indent):
        if depth < 2 and self.openmp.random() < 0.15:
            self.parallel_loop(fn, scope, loop_vars, indent)
        if self.glvalues.random() < 0.15:
            self.glvalue_statement(fn, scope, loop_vars, indent)
        # (Loops under `#pragma ct checkpoint` whose bodies keep addresses
        # are not all supported yet: docs/Memory.md.)
        if (depth < 2 and self.memory.random() < 0.12
                and not self.inside_checkpoint):
            self.memory_statement(fn, scope, loop_vars, indent)
        if depth < 2 and self.complexes.random() < 0.06:
            self.complex_statement(fn, scope, loop_vars, indent)
        if (depth < 2 and self.virtuals.random() < 0.015
                and not self.inside_checkpoint):
            self.virtual_accessors(fn, scope, loop_vars, indent)
        if (depth < 2 and self.grown_arrays.random() < 0.03
                and not self.inside_checkpoint):
            self.grown_array(fn, scope, loop_vars, indent)
        if depth < 2 and self.indexed.random() < 0.05:
            self.indexed_statement(fn, scope, loop_vars, indent)
        # (Checkpointed loops do not run library code again.)
        if (depth < 2 and self.tables.random() < 0.05
                and not self.inside_checkpoint):
            self.table_statement(fn, scope, loop_vars, indent)
        r = self.rng
        e = lambda: self.expr(scope, loop_vars)
        kinds = ["decl", "assign", "assign", "compound", "array", "if",
                 "loop", "ref", "pointer", "struct", "matrix", "stdarray",
                 "vector", "algorithm", "walk", "lambda", "switch", "fill"]
        if depth >= 2:
            kinds = ["decl", "assign", "assign", "compound", "if"]
        kind = r.choice(kinds)
        if kind == "decl":
            name = self.fresh("v")
            self.emit(fn, indent, f"real {name} = {e()};")
            scope.add(name, "scalar")
        elif kind in ("assign", "compound"):
            target = self.lvalue(scope, loop_vars)
            if target is None:
                return self.statement(fn, scope, loop_vars, depth, indent)
            op = "=" if kind == "assign" else r.choice(["+=", "-=", "*="])
            value = e()
            if op == "*=":
                value = f"std::cos({value})"
            self.emit(fn, indent, f"{target} {op} {value};")
        elif kind == "array":
            name, length = self.fresh("a"), r.randint(2, 5)
            if self.chance(0.3):
                init = "{}"
            else:
                init = "{" + ", ".join(e() for _ in range(r.randint(1, length))) + "}"
            self.emit(fn, indent, f"real {name}[{length}] = {init};")
            scope.add(name, "array", length)
        elif kind == "fill":
            # A buffer filled by one loop over a run-time range and read by
            # later loops over the same range (forwarded across loops).
            ints = [n for n, _ in scope.of("int")]
            if not ints:
                return self.statement(fn, scope, loop_vars, depth, indent)
            name, count = self.fresh("f"), self.fresh("k")
            i, j = self.fresh("i"), self.fresh("j")
            self.emit(fn, indent, f"int {count} = ({r.choice(ints)} % 4 + 4) % 4 + 1;")
            self.emit(fn, indent, f"real {name}[5] = {{}};")
            inner = Scope(scope)
            inner.add(i, "int")
            value = (self.expr(scope, loop_vars) if self.chance(0.3)
                     else self.expr(inner, loop_vars + [i]))
            self.emit(fn, indent, f"for (int {i} = 0; {i} < {count}; ++{i}) {{")
            self.emit(fn, indent + 1, f"{name}[{i}] = {value};")
            self.emit(fn, indent, "}")
            target = self.lvalue(scope, loop_vars)
            if target is not None:
                self.emit(fn, indent, f"for (int {j} = 0; {j} < {count}; ++{j}) {{")
                self.emit(fn, indent + 1, f"{target} += std::sin({name}[{j}]) * {e()};")
                self.emit(fn, indent, "}")
            scope.add(name, "array", 5)
        elif kind == "matrix":
            name, rows, cols = self.fresh("m"), r.randint(2, 3), r.randint(2, 3)
            init = "{}" if self.chance(0.5) else "{{" + e() + "}, {" + e() + "}}"
            self.emit(fn, indent, f"real {name}[{rows}][{cols}] = {init};")
            scope.add(name, "matrix", (rows, cols))
        elif kind == "stdarray":
            name, length = self.fresh("q"), r.randint(2, 4)
            self.emit(fn, indent, f"std::array<real, {length}> {name}{{}};")
            scope.add(name, "stdarray", length)
            if self.chance(0.5):
                var = self.fresh("e")
                body = self.lvalue(scope, loop_vars) or name + "[0]"
                self.emit(fn, indent, f"for (real &{var} : {name}) {{")
                inner = Scope(scope)
                inner.add(var, "scalar")
                self.emit(fn, indent + 1, f"{var} = {self.expr(inner, loop_vars)};")
                self.emit(fn, indent, "}")
        elif kind == "struct":
            name = self.fresh("s")
            self.uses_struct = True
            self.emit(fn, indent, f"Vec2 {name}{{{e()}, {e()}}};")
            scope.add(name, "vec2")
            if self.chance(0.5):
                other = self.fresh("s")
                self.emit(fn, indent, f"Vec2 {other} = {name} * {e()} + {name};")
                scope.add(other, "vec2")
        elif kind == "ref":
            target = self.lvalue(scope, loop_vars)
            if target is None or "." in target:
                return
            name = self.fresh("r")
            self.emit(fn, indent, f"real &{name} = {target};")
            scope.add(name, "scalar")
        elif kind == "pointer":
            arrays = scope.of("input", "array")
            if not arrays:
                return
            array, length = r.choice(arrays)
            offset = r.randrange(length)
            name = self.fresh("p")
            const = "const " if any(n == array for n, _ in scope.of("input")) else ""
            self.emit(fn, indent, f"{const}real *{name} = {array} + {offset};")
            scope.add(name, "input" if const else "array", length - offset)
        elif kind == "if":
            self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
            self.branch_body(fn, scope, loop_vars, depth, indent + 1)
            if self.chance(0.5):
                self.emit(fn, indent, "} else {")
                self.branch_body(fn, scope, loop_vars, depth, indent + 1)
            self.emit(fn, indent, "}")
        elif kind == "loop":
            self.loop(fn, scope, loop_vars, depth, indent)
        elif kind == "vector":
            self.vector(fn, scope, loop_vars, indent)
        elif kind == "algorithm":
            self.algorithm(fn, scope, loop_vars, indent)
        elif kind == "walk":
            self.walk(fn, scope, loop_vars, indent)
        elif kind == "lambda":
            name, t = self.fresh("l"), self.fresh("t")
            inner = Scope(scope)
            inner.add(t, "scalar")
            self.emit(fn, indent, f"auto {name} = [{r.choice(['&', '='])}](real {t}) "
                      f"{{ return {self.expr(inner, loop_vars, 1)}; }};")
            scope.add(name, "lambda")
        elif kind == "switch":
            ints = [n for n, _ in scope.of("int")] + list(loop_vars)
            if not ints:
                return
            self.emit(fn, indent, f"switch (static_cast<int>({r.choice(ints)}) % 3) {{")
            for label in r.sample(["case 0:", "case 1:", "case -1:", "default:"], 2):
                # Braces: a case's declarations end with it.
                self.emit(fn, indent, label + " {")
                self.block(fn, scope, loop_vars, depth + 1, 1, indent + 1)
                if self.chance(0.7):
                    self.emit(fn, indent + 1, "break;")
                self.emit(fn, indent, "}")
            self.emit(fn, indent, "}")

    def vector(self, fn, scope, loop_vars, indent):
        r = self.rng
        e = lambda: self.expr(scope, loop_vars)
        name = self.fresh("w")
        sources = scope.of("input", "array", "vector")
        form = r.choice(["sized", "filled", "list", "range"])
        if form == "range" and sources:
            source, length = r.choice(sources)
            kind = dict(scope.all())[source][0]
            if kind == "vector":
                self.emit(fn, indent, f"std::vector<real> {name}({source});")
            else:
                self.emit(fn, indent,
                          f"std::vector<real> {name}({source}, {source} + {length});")
        elif form == "list":
            length = r.randint(2, 4)
            values = ", ".join(e() for _ in range(length))
            self.emit(fn, indent, f"std::vector<real> {name}{{{values}}};")
        else:
            length = r.randint(2, 5)
            init = f"({length})" if form == "sized" else f"({length}, {e()})"
            self.emit(fn, indent, f"std::vector<real> {name}{init};")
        same = [n for n, l in scope.of("vector") if l == length]
        scope.add(name, "vector", length)
        if self.chance(0.25):
            # Swapped element by element (vectors of one size), with one
            # in scope or a new one.
            if not same or self.chance(0.5):
                other = self.fresh("w")
                self.emit(fn, indent, f"std::vector<real> {other}({length}, {e()});")
                scope.add(other, "vector", length)
            else:
                other = r.choice(same)
            self.emit(fn, indent, f"std::swap({name}, {other});" if self.chance(0.5)
                      else f"{name}.swap({other});")
        if self.chance(0.4):
            var = self.fresh("e")
            inner = Scope(scope)
            inner.add(var, "scalar")
            self.emit(fn, indent, f"for (real &{var} : {name}) {{")
            self.emit(fn, indent + 1, f"{var} = {self.expr(inner, loop_vars)};")
            self.emit(fn, indent, "}")

    def algorithm(self, fn, scope, loop_vars, indent):
        r = self.rng
        ranges = self.ranges(scope)
        targets = self.writable_ranges(scope)
        scalars = [n for n, _ in scope.of("scalar")]
        if not ranges:
            return
        begin, end = r.choice(ranges)
        t, u = self.fresh("t"), self.fresh("u")
        inner = Scope(scope)
        inner.add(t, "scalar")
        body = self.expr(inner, loop_vars, 1)
        pick = r.choice(["accumulate", "inner", "transform", "for_each", "fill",
                         "copy"])
        if pick in ("accumulate", "inner") or not targets:
            name = self.fresh("v")
            if pick == "inner":
                self.emit(fn, indent, f"real {name} = std::inner_product({begin}, "
                          f"{end}, {begin}, {self.expr(scope, loop_vars, 2)});")
            elif self.chance(0.5):
                self.emit(fn, indent, f"real {name} = std::accumulate({begin}, "
                          f"{end}, {self.expr(scope, loop_vars, 2)});")
            else:
                inner.add(u, "scalar")
                self.emit(fn, indent, f"real {name} = std::accumulate({begin}, {end}, "
                          f"real(0.5), [&](real {u}, real {t}) {{ return {u} * 0.5 + "
                          f"{body}; }});")
            scope.add(name, "scalar")
            return
        tbegin, tend, tlength = r.choice(targets)
        if pick == "transform":
            sources = [(b, en) for b, en in ranges]
            # Source ranges may be longer than the target: take tlength.
            fitting = [(n, l) for n, l in scope.of("input", "inout", "array", "vector")
                       if l >= tlength]
            if not fitting:
                return
            source, _ = r.choice(fitting)
            kind = dict(scope.all())[source][0]
            sbegin = f"{source}.begin()" if kind == "vector" else source
            self.emit(fn, indent, f"std::transform({sbegin}, {sbegin} + {tlength}, "
                      f"{tbegin}, [&](real {t}) {{ return {body}; }});")
        elif pick == "for_each":
            self.emit(fn, indent, f"std::for_each({tbegin}, {tend}, [&](real &{t}) "
                      f"{{ {t} = {body}; }});")
        elif pick == "fill":
            self.emit(fn, indent, f"std::fill({tbegin}, {tend}, "
                      f"{self.expr(scope, loop_vars, 2)});")
        else:
            fitting = [(n, l) for n, l in scope.of("input", "array", "vector")
                       if l >= tlength and not tbegin.startswith(n)]
            if not fitting:
                return
            source, _ = r.choice(fitting)
            kind = dict(scope.all())[source][0]
            sbegin = f"{source}.begin()" if kind == "vector" else source
            self.emit(fn, indent, f"std::copy({sbegin}, {sbegin} + {tlength}, {tbegin});")

    def walk(self, fn, scope, loop_vars, indent):
        """A loop over pointers or iterators, accumulating into a scalar."""
        r = self.rng
        ranges = self.ranges(scope)
        if not ranges:
            return
        begin, end = r.choice(ranges)
        name, it = self.fresh("v"), self.fresh("p")
        self.emit(fn, indent, f"real {name} = 0;")
        self.emit(fn, indent, f"for (auto {it} = {begin}; {it} != {end}; ++{it}) {{")
        inner = Scope(scope)
        inner.add(f"(*{it})", "scalar")
        self.emit(fn, indent + 1, f"{name} += {self.expr(inner, loop_vars, 1)};")
        self.emit(fn, indent, "}")
        scope.add(name, "scalar")

    def branch_body(self, fn, scope, loop_vars, depth, indent):
        self.block(fn, scope, loop_vars, depth + 1, self.rng.randint(1, 2), indent)
        if fn.is_main and self.chance(0.15):
            self.emit(fn, indent, f"return {self.expr(scope, loop_vars)};")
            fn.returns_early = True

    def checkpoint(self, fn, indent):
        """Sometimes asks for the loop that follows to be checkpointed."""
        p = self.pragmas
        if p.random() < 0.3:
            clause = p.choice(["", "", " snapshots(1)", " snapshots(2)",
                               " snapshots(3)"])
            self.emit(fn, indent, f"#pragma ct checkpoint{clause}")
            self.pending_checkpoint = True
            self.uses_checkpoint = True

    def loop(self, fn, scope, loop_vars, depth, indent):
        r = self.rng
        var = self.fresh("i")
        trips = r.randint(1, 5)
        ints = [n for n, _ in scope.of("int")]
        form = r.choice(["for", "for", "while", "do", "le", "shared",
                         "unsigned", "until"] + (["runtime"] if ints else []))
        inner_vars = loop_vars + [var]
        body_scope = Scope(scope)
        if form == "for":
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"for (int {var} = 0; {var} < {trips}; ++{var}) {{")
        elif form == "unsigned":
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"for (unsigned {var} = 0; {var} < {trips}u; {var}++) {{")
        elif form == "runtime":
            # Bound known only at run time (an int parameter), < or <=.
            bound = f"{r.choice(ints)} {r.choice(['+', '-'])} {r.randint(0, 2)}"
            cmp = r.choice(["<", "<="])
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"for (int {var} = 0; {var} {cmp} {bound}; ++{var}) {{")
        elif form == "until":
            # Ends on a floating-point test (or after `trips` iterations).
            self.emit(fn, indent, f"int {var} = 0;")
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"while ({var} < {trips} && "
                      f"{self.condition(scope, loop_vars)}) {{")
        elif form == "le":
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"for (int {var} = 0; {var} <= {trips - 1}; {var}++) {{")
        elif form == "while":
            self.emit(fn, indent, f"int {var} = 0;")
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"while ({var} < {trips}) {{")
        elif form == "do":
            self.emit(fn, indent, f"int {var} = 0;")
            self.checkpoint(fn, indent)
            self.emit(fn, indent, "do {")
        else:  # two loops sharing one counter
            self.emit(fn, indent, f"int {var} = 0;")
            self.emit(fn, indent, f"while ({var} < {trips}) {{")
            self.emit(fn, indent + 1, f"{var}++;")
            self.emit(fn, indent, "}")
            self.checkpoint(fn, indent)
            self.emit(fn, indent, f"for (; {var} < {trips + r.randint(1, 3)}; ++{var}) {{")
        checkpointed, self.pending_checkpoint = self.pending_checkpoint, False
        self.inside_checkpoint += checkpointed
        self.block(fn, body_scope, inner_vars, depth + 1, r.randint(1, 3), indent + 1)
        self.inside_checkpoint -= checkpointed
        if fn.is_main and self.loop_objects.random() < 0.12:
            self.returned_from_loop(fn, body_scope, inner_vars, indent + 1)
        if self.chance(0.2):
            jump = r.choice(["break", "continue"])
            self.emit(fn, indent + 1, f"if ({self.condition(body_scope, inner_vars)}) {{")
            if form in ("while", "do", "until"):
                self.emit(fn, indent + 2, f"++{var};")
            self.emit(fn, indent + 2, f"{jump};")
            self.emit(fn, indent + 1, "}")
        if form in ("while", "until"):
            self.emit(fn, indent + 1, f"++{var};")
            self.emit(fn, indent, "}")
        elif form == "do":
            self.emit(fn, indent + 1, f"++{var};")
            self.emit(fn, indent, f"}} while ({var} < {trips});")
        else:
            self.emit(fn, indent, "}")
        if form in ("while", "do", "shared", "until") and self.chance(0.3):
            scope.add(var, "int")

    def returned_from_loop(self, fn, scope, loop_vars, indent):
        """An object the iteration makes (a std::vector or an array), a
        place chosen among its elements and those of an array or vector
        from outside, written, and an early return reading both."""
        r = self.loop_objects
        e = lambda: self.expr(scope, loop_vars, 1)
        name, place = self.fresh("o"), self.fresh("c")
        values = ", ".join(e() for _ in range(2))
        if r.random() < 0.5:
            self.emit(fn, indent, f"std::vector<real> {name}{{{values}}};")
        else:
            self.emit(fn, indent, f"real {name}[2] = {{{values}}};")
        own = f"{name}[{r.randrange(2)}]"
        outside = [f"{n}[{self.index(l, scope, loop_vars)}]"
                   for n, l in scope.of("array", "vector")]
        chosen = own if not outside or r.random() < 0.3 else (
            f"({self.condition(scope, loop_vars)} ? {own} : {r.choice(outside)})")
        self.emit(fn, indent, f"real &{place} = {chosen};")
        if r.random() < 0.6:
            self.emit(fn, indent, f"{place} += {e()};")
        self.emit(fn, indent, f"if ({self.condition(scope, loop_vars)}) {{")
        self.emit(fn, indent + 1,
                  f"return {name}[0] * {place} + {name}[1] * {e()};")
        self.emit(fn, indent, "}")
        fn.returns_early = True

    # -- helpers and the function ----------------------------------------

    def make_helpers(self):
        r = self.rng
        for _ in range(r.randint(0, 3)):
            kind = r.choice(["scalar", "memory", "recursive", "rule"])
            name = self.fresh("h")
            if kind == "scalar":
                fn = Function(name, [("scalar", "x", 0)], False)
                scope = Scope()
                scope.add("x", "scalar")
                self.block(fn, scope, [], 1, r.randint(1, 3), 1)
                body = "\n".join(fn.lines)
                self.helpers.append(f"real {name}(real x) {{\n{body}\n"
                                    f"  return {self.expr(scope, [])};\n}}")
                self.callable.append((name, "scalar", 0))
            elif kind == "memory":
                length = r.randint(2, 4)
                fn = Function(name, [], False)
                scope = Scope()
                scope.add("p", "input", length)
                scope.add("x", "scalar")
                self.block(fn, scope, [], 1, r.randint(1, 3), 1)
                body = "\n".join(fn.lines)
                self.helpers.append(
                    f"real {name}(const real *p, real x) {{\n{body}\n"
                    f"  return {self.expr(scope, [])};\n}}\n"
                    f"real {name}_s(real x) {{\n  real t[{length}] = {{x, x * x}};\n"
                    f"  return {name}(t, x);\n}}")
                self.callable.append((name, "memory", length))
            elif kind == "recursive":
                self.helpers.append(
                    f"real {name}(real x, int d) {{\n  if (d <= 0)\n    return x;\n"
                    f"  return std::sin({name}(x, d - 1)) * 0.75 + x * 0.5;\n}}")
                self.callable.append((name, "recursive", 0))
            else:
                # A function with a custom gradient rule: its body is never
                # differentiated; the rule is exact.
                self.helpers.append(
                    f"real {name}(real x) {{ return std::sin(x) * x; }}")
                self.rules.append(name)
                self.callable.append((name, "scalar", 0))

    def make_function(self):
        r = self.rng
        params = []
        for _ in range(r.randint(1, 3)):
            params.append(("scalar", self.fresh("x"), 0))
        for _ in range(r.randint(0, 2)):
            params.append(("input", self.fresh("c"), r.randint(2, 4)))
        if self.chance(0.3):
            params.append(("inout", self.fresh("o"), r.randint(2, 3)))
        if self.chance(0.5):
            params.append(("int", self.fresh("n"), 0))
        r.shuffle(params)
        fn = Function("f", params, True)
        scope = Scope()
        for role, name, length in params:
            scope.add(name, role, length)
        self.block(fn, scope, [], 0, r.randint(2, 7), 1)
        result = self.expr(scope, [])
        # (Not beside a checkpointed loop: memory f resizes may be any
        # memory of its type, so a loop reading an input that an index
        # from `%` reaches cannot be checkpointed: a known, diagnosed
        # limit, docs/Memory.md.)
        # (Nor after an early return: the harness states the vector's
        # final size, which a path that returns first does not reach.)
        if (self.resized.random() < 0.25 and not self.uses_checkpoint and
                not fn.returns_early):
            result = self.resized_parameter(fn, scope, result)
        self.emit(fn, 1, f"return {result};")
        return fn

    def resized_parameter(self, fn, scope, result):
        """A `std::vector<real> &` parameter f resizes at its end
        (cleared or not, then grown by push_back, insert at the front and
        pushBounded, in branches), its contents read into the result. Each
        path grows it alike, so that its final size is known: the
        parameter is ("grown", name, (initial size, final size))."""
        r = self.resized
        name, initial = self.fresh("r"), r.randint(1, 3)
        size = initial
        if r.random() < 0.3:
            self.emit(fn, 1, f"{name}.clear();")
            size = 0
        i = self.fresh("i")
        inner = Scope(scope)
        inner.add(i, "int")
        pushes = r.randint(1, 3)
        value = lambda: self.expr(inner, [i], 1)
        self.emit(fn, 1, f"for (int {i} = 0; {i} < {pushes}; ++{i}) {{")
        if r.random() < 0.3:
            self.uses_pusher = True
            self.emit(fn, 2, f"pushBounded({name}, {value()});")
            for _ in range(pushes):
                size = size if size > 3 else size + 1
        else:
            self.emit(fn, 2, f"if ({self.condition(inner, [i])})")
            self.emit(fn, 3, f"{name}.push_back({value()});")
            self.emit(fn, 2, "else")
            self.emit(fn, 3, f"{name}.insert({name}.begin(), {value()});")
            size += pushes
        self.emit(fn, 1, "}")
        total, each = self.fresh("s"), self.fresh("e")
        self.emit(fn, 1, f"real {total} = 0;")
        self.emit(fn, 1, f"for (real {each} : {name})")
        self.emit(fn, 2, f"{total} += {each} * std::sin({each});")
        fn.params.insert(r.randint(0, len(fn.params)),
                         ("grown", name, (initial, size)))
        return f"{result} + 0.25 * {total}"


def render_signature(params):
    out = []
    for role, name, length in params:
        if role == "scalar":
            out.append(f"real {name}")
        elif role == "input":
            out.append(f"const real *{name}")
        elif role == "inout":
            out.append(f"real *{name}")
        elif role == "grown":
            out.append(f"std::vector<real> &{name}")
        else:
            out.append(f"int {name}")
    return ", ".join(out)


STRUCT = """struct Vec2 {
  real x, y;
  real dot(const Vec2 &o) const { return x * o.x + y * o.y; }
  Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
  Vec2 operator*(real s) const { return {x * s, y * s}; }
};"""


BUFFER = """class Buffer {
public:
  Buffer() : n_(0), data_(nullptr) {}
  explicit Buffer(int n) : n_(n), data_(new real[n]()) {}
  Buffer(const Buffer &o) : n_(o.n_), data_(new real[o.n_]) {
    for (int i = 0; i < n_; ++i)
      data_[i] = o.data_[i];
  }
  Buffer &operator=(const Buffer &o) {
    resize(o.n_);
    for (int i = 0; i < n_; ++i)
      data_[i] = o.data_[i];
    return *this;
  }
  ~Buffer() {
    if (data_)
      delete[] data_;
  }
  void resize(int n) {
    if (n != n_) {
      delete[] data_;
      data_ = new real[n]();
      n_ = n;
    }
  }
  real &operator[](int i) { return data_[i]; }

private:
  int n_;
  real *data_;
};"""


PUSHER = """void pushBounded(std::vector<real> &v, real x) {
  if (v.size() > 3)
    v.erase(v.begin());
  v.push_back(x);
}"""


GROWN = """struct Grown {
  real *data;
  int size, capacity;
};
void grownPush(Grown *g, real v) {
  if (g->size == g->capacity) {
    g->capacity = g->capacity ? 2 * g->capacity : 1;
    g->data = static_cast<real *>(
        std::realloc(g->data, g->capacity * sizeof(real)));
  }
  g->data[g->size++] = v;
}"""


TRACE = """struct Trace {
  std::vector<real> xs;
  real s;
  ~Trace() {}
};"""


CELL = """struct Cell {
  real u, v;
};"""


NAMED = """struct Named {
  std::string name;
  real w;
  int id;
};"""


NODE = """struct Node {
  real v;
  Node *next;
};
inline real walkNodes(const Node *p, real w) {
  return p ? w * p->v + std::sin(walkNodes(p->next, w * real(0.5))) : real(0);
}
inline void freeNodes(Node *p) {
  if (p) {
    freeNodes(p->next);
    delete p;
  }
}"""


OWNED = """struct Owned {
  std::unique_ptr<real[]> data;
  int n;
  explicit Owned(int n) : data(std::make_unique<real[]>(n)), n(n) {}
  void regrow(int m) {
    std::unique_ptr<real[]> bigger(new real[m]());
    for (int i = 0; i < n && i < m; ++i)
      bigger[i] = data[i];
    data = std::move(bigger);
    n = m;
  }
};"""


EDGE = """struct Edge {
  int ends[2];
  short tag;
  real weight;
};"""


VIRTUAL = """struct Src {
  virtual ~Src() = default;
  virtual real &at(int i) = 0;
  virtual const real *data() const = 0;
};
struct Over : Src {
  real *d;
  explicit Over(real *d) : d(d) {}
  real &at(int i) override { return d[i]; }
  const real *data() const override { return d; }
};
struct Own : Src {
  real v[3];
  real &at(int i) override { return v[i]; }
  const real *data() const override { return v; }
};"""


LAYER = """struct Layer {
  std::vector<real> w;
  real s;
};"""


def generate(seed):
    """Returns (function text over `real`, params, rule names, seed)."""
    g = Generator(seed)
    g.make_helpers()
    fn = g.make_function()
    parts = []
    if g.uses_struct:
        parts.append(STRUCT)
    if g.uses_buffer:
        parts.append(BUFFER)
    if g.uses_layer:
        parts.append(LAYER)
    if g.uses_virtual:
        parts.append(VIRTUAL)
    if g.uses_edge:
        parts.append(EDGE)
    if g.uses_trace:
        parts.append(TRACE)
    if g.uses_owned:
        parts.append(OWNED)
    if g.uses_node:
        parts.append(NODE)
    if g.uses_cell:
        parts.append(CELL)
    if g.uses_named:
        parts.append(NAMED)
    if g.uses_pusher:
        parts.append(PUSHER)
    if g.uses_grown:
        parts.append(GROWN)
    parts.extend(g.helpers)
    body = "\n".join(fn.lines)
    parts.append(f"DIFFERENTIABLE real f({render_signature(fn.params)}) {{\n"
                 f"{body}\n}}")
    return "\n".join(parts), fn.params, g.rules
