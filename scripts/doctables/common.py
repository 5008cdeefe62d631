"""Formatting shared by the table writers."""


def number(value, digits=2):
    return "%.*f" % (digits, value)


def megabytes(count):
    return "%.1f MB" % (count / 1e6) if count is not None else ""


def milliseconds(value):
    """Three significant digits, as the benchmark's noise allows."""
    if value >= 100:
        return "%.0f" % value
    if value >= 10:
        return "%.1f" % value
    if value >= 1:
        return "%.2f" % value
    return "%.3f" % value


def statements(count):
    return "{:,}".format(count)
