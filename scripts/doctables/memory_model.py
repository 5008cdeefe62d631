"""docs/Memory.md's table of what the general memory model costs, from
bench/memory-model-results.json (bench/memory_model.py)."""
from .common import megabytes, number

DESCRIPTIONS = {
    "neighbours-n2000": "neighbour list of 2,000 particles built by "
    "`push_back` (memref form: vectors of all n(n-1)/2 pairs made first, filled by index)",
    "mlp-64-128-128-10": "MLP 64-128-128-10, batch 256, activations "
    "reassigned layer by layer (memref form: two fixed buffers copied "
    "element by element)",
    "mlp-layers-64-128-128-10": "the same MLP whose network is a "
    "`std::vector<Layer>` of `std::vector` weights and biases, built by "
    "`push_back` in the loss (item 9)",
}


def memory_model_table(results):
    lines = ["| workload | gradient / primal | gradient / hand-written "
             "| general / memref form | peak heap, general / memref form "
             "| gradient ms, general / memref form, without kept tape memory |",
             "| --- | ---: | ---: | ---: | --- | --- |"]
    for row in results["workloads"]:
        fresh = ""
        if "general_gradient_without_kept_memory_ms" in row:
            fresh = "%s / %s" % (
                number(row["general_gradient_without_kept_memory_ms"], 1),
                number(row["memref_gradient_without_kept_memory_ms"], 1))
        lines.append("| %s | %s | %s | %s | %s against %s | %s |" % (
            DESCRIPTIONS.get(row["general"], "`%s`" % row["general"]),
            number(row["general_gradient_over_primal"]),
            number(row["general_gradient_over_hand_written"]),
            number(row["general_over_memref_gradient"]),
            megabytes(row["general_gradient_peak_bytes"]),
            megabytes(row["memref_gradient_peak_bytes"]), fresh))
    return "\n".join(lines)
