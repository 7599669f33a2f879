"""The no-cliff issue's rule (docs/benchmarks.md), the one copy bench/frontier
and bench/inside judge by: a configuration is no worse than another when its
CPU is at most the other's plus 5 % plus 1 point, its p99 at most 5 % over the
other's, and its loss at most the other's plus a slack (0.01 % of the offered,
in the caller's unit)."""


def worse(cpu, p99, loss, o_cpu, o_p99, o_loss, loss_slack):
    """What makes (cpu, p99, loss) worse than (o_cpu, o_p99, o_loss), as
    (what, mine, theirs) tuples; none: no worse. A p99 or loss of None (an
    idle cell) is not judged."""
    why = []
    if cpu > o_cpu * 1.05 + 1.0:
        why.append(("CPU", cpu, o_cpu))
    if p99 is not None and p99 > o_p99 * 1.05:
        why.append(("p99", p99, o_p99))
    if loss is not None and loss > o_loss + loss_slack:
        why.append(("lost", loss, o_loss))
    return why
