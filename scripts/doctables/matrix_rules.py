"""docs/Eigen.md's table of the matrix-level rules' cost, from
bench/matrix-rules-results.json (bench/matrix_rules.py)."""
from .common import number


def matrix_rules_table(results):
    lines = ["| n | objective (ms) | gradient, ct::gradient (ms) "
             "| gradient by hand (ms) | gradient / objective "
             "| gradient / by hand | freed memory kept: gradient / objective "
             "| freed memory kept: gradient / by hand |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in results["sizes"]:
        kept = [number(row[key]) if key in row else "-"
                for key in ("cotangent_over_primal_heap_kept",
                            "cotangent_over_manual_heap_kept")]
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s |" % (
            row["n"], number(row["primal_ms"], 3),
            number(row["cotangent_ms"], 3), number(row["manual_ms"], 3),
            number(row["cotangent_over_primal"]),
            number(row["cotangent_over_manual"]), kept[0], kept[1]))
    worst = max(row["gradient_vs_manual_max_rel_diff"]
                for row in results["sizes"])
    lines += ["", "Peak resident memory of one process at n = 256: objective "
              "%.1f MB, ct::gradient %.1f MB, by hand %.1f MB (%s; the "
              "gradients agree to %.0e, relatively)." % (
                  results["peak_rss_kb_n256_primal"] / 1024,
                  results["peak_rss_kb_n256_cotangent"] / 1024,
                  results["peak_rss_kb_n256_manual"] / 1024,
                  results["flags"], worst)]
    return "\n".join(lines)
