"""docs/Performance.md's runtime tables, from bench/results.json (make
bench: bench/run.sh, bench/report.py)."""
from .common import megabytes, milliseconds, number


def results_table(results):
    """One row per workload: the medians of the primal, Cotangent's and the
    hand-written derivative, their ratios, the finite differences' ratio,
    the agreement with the hand-written derivative, peak heap memory and the
    compile-time ratio of the workload's file."""
    lines = [
        "| workload | primal ms | Cotangent ms | hand-written ms "
        "| Cotangent / primal | hand-written / primal | Cotangent / hand-written "
        "| FD / primal | max rel err | peak heap, Cotangent | peak heap, "
        "hand-written | compile × |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: | ---: |",
    ]
    for row in results["results"]:
        fd_ratio = row["finite_differences_ms"] / row["primal_ms"]
        lines.append(
            "| `%s` | %s | %s | %s | %s | %s | %s | %.0f%s | %.0e | %s | %s "
            "| %s |" % (
                row["workload"], milliseconds(row["primal_ms"]),
                milliseconds(row["cotangent_ms"]),
                milliseconds(row["manual_ms"]),
                number(row["cotangent_over_primal"]),
                number(row["manual_over_primal"]),
                number(row["cotangent_over_manual"]), fd_ratio,
                "*" if row["finite_differences_extrapolated"] else "",
                row["max_rel_error_vs_manual"],
                megabytes(row["cotangent_peak_bytes"]),
                megabytes(row["manual_peak_bytes"]),
                number(row["compile_ratio"]) if "compile_ratio" in row
                else "-"))
    context = results["context"]
    lines += ["", "(run of %s, %d CPUs, medians of 5 repetitions interleaved "
              "at random; * extrapolated from a sample of coordinates)" % (
                  context["date"][:10], context["num_cpus"])]
    return "\n".join(lines)


def hvp_table(results):
    """The Hessian-vector products the benchmark times, against the
    gradient of the same run."""
    lines = ["| workload | HVP ms | gradient ms | HVP / gradient |",
             "| --- | ---: | ---: | ---: |"]
    for row in results["results"]:
        if "hvp_ms" not in row:
            continue
        lines.append("| `%s` | %s | %s | %s |" % (
            row["workload"], milliseconds(row["hvp_ms"]),
            milliseconds(row["cotangent_ms"]),
            number(row["hvp_over_gradient"])))
    return "\n".join(lines)


def pragma_table(results):
    """The workloads whose loop carries `#pragma ct checkpoint`, beside the
    same workload compiled as written (the compiler's own choice)."""
    rows = {row["workload"]: row for row in results["results"]}
    lines = ["| workload | primal ms | with the pragma | as written | "
             "hand-written | pragma / hand-written |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, row in rows.items():
        if "-checkpointed-" not in name:
            continue
        written = rows.get(name.replace("checkpointed-", ""))
        lines.append("| `%s` | %s | %s ms, %s | %s | %s ms, %s | %s |" % (
            name, milliseconds(row["primal_ms"]),
            milliseconds(row["cotangent_ms"]),
            megabytes(row["cotangent_peak_bytes"]),
            "%s ms, %s" % (milliseconds(written["cotangent_ms"]),
                           megabytes(written["cotangent_peak_bytes"]))
            if written else "", milliseconds(row["manual_ms"]),
            megabytes(row["manual_peak_bytes"]),
            number(row["cotangent_over_manual"])))
    return "\n".join(lines)
