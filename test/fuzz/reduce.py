"""Line-based reduction of a failing program.

The generator writes one statement per line; a compound statement opens
with a line ending in `{` and closes with the matching line of braces. A
unit is a line or a whole compound statement (or a whole top-level helper).
Units are deleted, largest first, while `still_fails` holds; deleting
something that breaks the C++ is refused by `still_fails` itself (the
program no longer fails the same way).
"""


def units(lines):
    """(start, end) ranges, end exclusive, of deletable units."""
    found = []
    for start, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("}"):
            continue
        if stripped.startswith("DIFFERENTIABLE"):
            continue  # f itself stays
        if line.startswith("  return") and start + 1 < len(lines) and \
                lines[start + 1] == "}":
            continue  # a function's final return stays
        end = start + 1
        if stripped.endswith("{"):
            depth = 0
            for end in range(start, len(lines)):
                depth += lines[end].count("{") - lines[end].count("}")
                if depth <= 0 and end > start:
                    break
            end += 1
        found.append((start, end))
    return found


def reduce_lines(lines, still_fails, budget=400):
    """Deletes units while the failure persists, at most `budget` tries."""
    tried = 0
    progress = True
    while progress and tried < budget:
        progress = False
        for start, end in sorted(units(lines), key=lambda u: u[0] - u[1]):
            tried += 1
            candidate = lines[:start] + lines[end:]
            if still_fails(candidate):
                lines = candidate
                progress = True
                break  # the units moved: list them again
            if tried >= budget:
                break
    return lines
