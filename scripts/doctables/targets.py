"""docs/Performance.md's table of targets, each measured value read from
bench/results.json (make bench) or bench/compile-results.json
(bench/compile/run.py) and compared with its goal."""
from .common import number

# (what is measured, the workloads (their names, or the first parts of them
# up to a dash), the key of
# their rows, the goal: at most this)
RUNTIME_TARGETS = [
    ("gradient / hand-written", ["gmm-d10", "gmm-d64", "ba", "lstm-l2",
                                 "ode-n100-s1000", "det"],
     "cotangent_over_manual", 1.0),
    ("as written: gradient / hand-written",
     ["gmm-as-written-d10", "gmm-as-written-d64", "lstm-as-written",
      "ode-as-written"], "cotangent_over_manual", 1.0),
    ("long loops, no pragma: gradient / hand-written",
     ["ode-n100-s100000", "stencil-n256"], "cotangent_over_manual", 1.0),
    ("HVP / gradient", ["gmm-d10", "gmm-d64"], "hvp_over_gradient", 1.5),
    ("gradient / primal", ["gmm-d10", "gmm-d64", "ba", "lstm-l2"],
     "cotangent_over_primal", 3.0),
]
COMPILE_RATIO_GOAL = 1.5


def verdict(value, goal):
    return "met" if value <= goal else "**not met**"


def runtime_rows(results):
    rows = results["results"]
    for measure, prefixes, key, goal in RUNTIME_TARGETS:
        for prefix in prefixes:
            row = next(r for r in rows if r["workload"] == prefix
                       or r["workload"].startswith(prefix + "-"))
            yield measure, "`%s`" % row["workload"], row[key], goal


def compile_rows(compiled):
    for row in compiled["results"]:
        if row["kind"] == "workload":
            yield ("compile with the plugin / plain", row["workload"] + " file",
                   row["ratio"], COMPILE_RATIO_GOAL)
    check = compiled["growth_check"]
    yield ("compile growth per doubling of a generated function, with the "
           "plugin", "up to %s statements" % "{:,}".format(max(
               r["statements"] for r in compiled["results"]
               if r["kind"] == "generated")),
           check["max_growth"], check["limit"])


def targets_table(results, compiled):
    lines = ["| measure | workload | measured | goal (at most) | |",
             "| --- | --- | ---: | ---: | --- |"]
    for measure, workload, value, goal in list(runtime_rows(results)) + list(
            compile_rows(compiled)):
        # A third digit where two would round a miss onto the goal.
        digits = 3 if round(value, 2) <= goal < value else 2
        lines.append("| %s | %s | %s | %s | %s |" % (
            measure, workload, number(value, digits), number(goal, 1),
            verdict(value, goal)))
    return "\n".join(lines)
