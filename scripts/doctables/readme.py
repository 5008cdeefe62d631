"""The measured numbers in README's feature table, written inline from the
same JSON files as docs/Performance.md's and docs/Memory.md's tables."""
from .common import number, statements


def compile_summary(compiled):
    """The largest generated function's compile and the workload files'
    range of ratios."""
    rows = compiled["results"]
    largest = max((r for r in rows if r["kind"] == "generated"),
                  key=lambda r: r["statements"])
    ratios = [r["ratio"] for r in rows if r["kind"] == "workload"]
    return ("a %s-statement function compiles in %s s here against %s s "
            "plain, %s s of it Cotangent's, the rest LLVM's; the workload "
            "files in %s-%s× their plain compile" % (
                statements(largest["statements"]), number(largest["plugin_s"], 1),
                number(largest["plain_s"], 1),
                number(largest["cotangent_s"], 1), number(min(ratios)),
                number(max(ratios))))


def memory_model_summary(results):
    """The general forms' gradients against the memref forms'."""
    ratios = ["%s×" % number(w["general_over_memref_gradient"])
              for w in results["workloads"]]
    return "%s and %s" % (", ".join(ratios[:-1]), ratios[-1])
