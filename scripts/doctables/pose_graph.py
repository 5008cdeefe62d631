"""docs/Eigen.md's table of a pose-graph edge's Jacobian, from
bench/pose-graph-results.json (bench/pose_graph.py)."""
from .common import number

METHODS = [("pullback", "ct::pullback, 6 lanes"),
           ("jvp", "ct::jvp, 14 lanes"),
           ("manual", "by hand"),
           ("ceres", "Ceres's AutoDiffCostFunction (Jets)")]


def pose_graph_table(results):
    lines = ["| flags | Jacobian by | ns per edge | / functor alone "
             "| / by hand | / Ceres's Jets |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for row in results["flag_sets"]:
        lines.append("| `%s` | the functor alone (residuals) | %s | 1 | - | - |"
                     % (row["flags"], number(row["primal_ns"], 1)))
        for kind, label in METHODS:
            if f"{kind}_ns" not in row:
                continue
            ratios = [number(row[key]) if key in row else "-"
                      for key in (f"{kind}_over_primal", f"{kind}_over_manual",
                                  f"{kind}_over_ceres")]
            lines.append("| `%s` | %s | %s | %s | %s | %s |" % (
                row["flags"], label, number(row[f"{kind}_ns"], 1), *ratios))
    compile_times = "; ".join(
        "`%s`: %.1f s with the plugin, %.1f s without" % (
            row["flags"], row["compile_s_plugin"], row["compile_s_plain"])
        for row in results["flag_sets"])
    differences = [row["max_rel_diff"] for row in results["flag_sets"]]
    against_manual = max(worst for row in differences
                         for name, worst in row.items()
                         if name != "manual_vs_differences")
    manual = max(row["manual_vs_differences"] for row in differences)
    lines += ["", "Over %d edges; every Jacobian agrees with the hand-written "
              "one to %.0e and that one with central differences to %.0e "
              "(largest relative differences). Compile of the functor's "
              "translation unit: %s." % (results["edges"], against_manual,
                                         manual, compile_times)]
    return "\n".join(lines)
