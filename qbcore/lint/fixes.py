"""Applying fixes: the non-overlapping ones of the chosen applicability, back to front."""

from __future__ import annotations


def chosen_fixes(findings, *, unsafe: bool = False) -> list:
    """The distinct fixes to apply, in text order, dropping any that overlap an earlier one."""
    fixes = {}
    for f in findings:
        if f.fix is not None and (f.fix.applicability == "safe" or unsafe):
            fixes[(f.fix.start, f.fix.end, f.fix.replacement)] = f.fix
    chosen, last_end = [], -1
    for fix in sorted(fixes.values(), key=lambda x: (x.start, x.end)):
        if fix.start >= last_end:
            chosen.append(fix)
            last_end = max(fix.end, fix.start + 1) if fix.end == fix.start else fix.end
    return chosen


def apply_fixes(text: str, findings, *, unsafe: bool = False) -> tuple[str, list]:
    """``text`` with the fixes applied, and the fixes that were."""
    chosen = chosen_fixes(findings, unsafe=unsafe)
    for fix in reversed(chosen):
        text = text[:fix.start] + fix.replacement + text[fix.end:]
    return text, chosen
