"""docs/Performance.md's tables of checkpointing without a pragma, from
bench/auto-checkpoint-results.json (bench/auto_checkpoint.py)."""
from .common import megabytes, number


def auto_checkpoint_tables(results):
    """The tables of checkpointing without a pragma (docs/Performance.md),
    from bench/auto-checkpoint-results.json (bench/auto_checkpoint.py)."""
    lines = [
        "| workload | primal | as compiled (the compiler chooses) "
        "| every loop recorded | hand-written | as compiled / hand-written "
        "| recorded / hand-written | without kept tape memory: as compiled, "
        "recorded |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in results["workloads"]:
        fresh = ("%s ms, %s ms" % (number(row["fresh_chosen_ms"], 3),
                                   number(row["fresh_recorded_ms"], 3))
                 if "fresh_chosen_ms" in row else "")
        lines.append("| `%s` | %s ms | %s ms, %s | %s ms, %s | %s ms, %s "
                     "| %s | %s | %s |" % (
                         row["workload"], number(row["primal_ms"], 3),
                         number(row["chosen_ms"], 3),
                         megabytes(row["chosen_peak_bytes"]),
                         number(row["recorded_ms"], 3),
                         megabytes(row["recorded_peak_bytes"]),
                         number(row["manual_ms"], 3),
                         megabytes(row["manual_peak_bytes"]),
                         number(row["chosen_over_manual"]),
                         number(row["recorded_over_manual"]), fresh))
    lines += ["", "| workload file | compile with s | without s | with / "
              "without |", "| --- | ---: | ---: | ---: |"]
    for row in results["compile"]:
        lines.append("| %s | %s | %s | %s |" % (
            row["file"], number(row["with_s"]), number(row["without_s"]),
            number(row["ratio"])))
    counts = results["snapshot_counts"]
    lines += ["", "| snapshots (ODE, %s steps, `#pragma ct checkpoint "
              "snapshots(S)`) | gradient |" % "{:,}".format(counts["steps"]),
              "| ---: | ---: |"]
    for snapshots, ms in counts["snapshots_ms"].items():
        lines.append("| %s | %s ms |" % ("{:,}".format(int(snapshots)),
                                         number(ms, 1)))
    return "\n".join(lines)
