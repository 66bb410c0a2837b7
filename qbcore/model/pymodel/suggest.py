"""CPython 3.11's "Did you mean: ...?" hint for NameError and AttributeError.

python3 computes it in C at print time (Python/suggestions.c), out of reach of
the ``traceback`` module, so the same weighted Levenshtein distance is kept here.
"""

_MOVE = 2
_CASE = 1
_MAX_ITEMS = 750
_MAX_LEN = 40


def _cost(a, b):
    if a == b:
        return 0
    if a.lower() == b.lower():
        return _CASE
    return _MOVE


def _distance(a, b, limit):
    if a == b:
        return 0
    # strip common prefix and suffix, as CPython does
    while a and b and a[0] == b[0]:
        a, b = a[1:], b[1:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE
    if len(a) > _MAX_LEN or len(b) > _MAX_LEN:
        return limit + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE > limit:
        return limit + 1
    row = [(i + 1) * _MOVE for i in range(len(a))]
    result = 0
    for bi, bc in enumerate(b):
        distance = result = bi * _MOVE
        minimum = 10 ** 9
        for ai, ac in enumerate(a):
            substitute = distance + _cost(bc, ac)
            distance = row[ai]
            insert_delete = min(result, distance) + _MOVE
            result = min(insert_delete, substitute)
            row[ai] = result
            minimum = min(minimum, result)
        if minimum > limit:
            return limit + 1
    return result


def closest(name, candidates):
    """The candidate python3 would suggest for ``name``, or None."""
    candidates = sorted(candidates)
    if len(candidates) >= _MAX_ITEMS or len(name) > _MAX_LEN:
        return None
    best = None
    best_distance = 10 ** 9
    for item in candidates:
        if item == name:
            continue
        limit = (len(name) + len(item) + 3) * _MOVE // 6
        limit = min(limit, best_distance - 1)
        current = _distance(name, item, limit)
        if current > limit:
            continue
        if best is None or current < best_distance:
            best, best_distance = item, current
    return best
