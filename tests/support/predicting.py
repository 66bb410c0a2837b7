"""The one rule the prediction tests judge by: a certain prediction against what the executor did."""


def disagreement(found, attempt, what: str):
    """A line naming the disagreement of a certain prediction ``found`` with the executor's
    ``attempt``, or None when they agree: the same pass or fail, and the same failure class
    when the prediction names one."""
    if found.passed == attempt.passed and found.failure_class in (None, attempt.class_):
        return None
    return f"{what}: predicted {found.as_dict()}, executed {attempt.class_}: {attempt.reason}"
