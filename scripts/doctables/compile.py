"""docs/Performance.md's compile-time tables, from
bench/compile-results.json (bench/compile/run.py)."""
from .common import number, statements


WORKLOAD_NAMES = {"gmm": "GMM", "ba": "BA", "lstm": "LSTM", "ode": "ODE",
                  "det": "det"}


def compile_tables(results):
    """The compile-time tables of docs/Performance.md, from
    bench/compile-results.json (bench/compile/run.py)."""
    rows = results["results"]
    lines = [
        "| generated function | with plugin s | plain s | Cotangent s "
        "| growth (with plugin) | growth (plain) | growth (Cotangent) "
        "| compiles |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        if row["kind"] != "generated":
            continue
        growth = [number(row[key]) if key in row else ""
                  for key in ("plugin_growth", "plain_growth",
                              "cotangent_growth")]
        lines.append("| %s statements | %s | %s | %s | %s | %s | %s | %s |" % (
            statements(row["statements"]), number(row["plugin_s"]),
            number(row["plain_s"]), number(row["cotangent_s"]), *growth,
            row.get("repeats", 3)))
    check = results.get("growth_check")
    if check:
        lines += ["", "Largest growth of the compile with the plugin per "
                  "doubling: %s (limit %s): %s." % (
                      number(check["max_growth"]), check["limit"],
                      "met" if check["met"] else "not met")]
    lines += [
        "",
        "| workload file | with plugin s | plain s | Cotangent s "
        "| with plugin / plain | hand-written derivatives, plain s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        if row["kind"] != "workload":
            continue
        hand = row.get("hand_written_s")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            WORKLOAD_NAMES.get(row["workload"], row["workload"]),
            number(row["plugin_s"]), number(row["plain_s"]),
            number(row["cotangent_s"]), number(row["ratio"]),
            number(hand) if hand else ""))
    return "\n".join(lines)
