"""docs/Eigen.md's table of the matrix-level rules' cost, from
bench/matrix-rules-results.json (bench/matrix_rules.py)."""
from .common import number


def matrix_rules_table(results):
    lines = ["| n | objective (ms) | gradient, ct::gradient (ms) "
             "| gradient by hand (ms) | gradient / objective "
             "| gradient / by hand |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in results["sizes"]:
        lines.append("| %d | %s | %s | %s | %s | %s |" % (
            row["n"], number(row["primal_ms"], 3),
            number(row["cotangent_ms"], 3), number(row["manual_ms"], 3),
            number(row["cotangent_over_primal"]),
            number(row["cotangent_over_manual"])))
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
