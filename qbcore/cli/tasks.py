"""``qbcore tasks``: list the task suite, or show one task in full."""

import json
import sys

NAME = "tasks"
HELP = "list the 56 tasks (14 families x 4 tiers) or show one of them"


def configure(parser):
    sub = parser.add_subparsers(dest="action", metavar="<action>")
    listing = sub.add_parser("list", help="one line per task: id, tier, hazards")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    show = sub.add_parser("show", help="everything about one task: instruction, fixture, checks, oracle, naive")
    show.add_argument("task_id", metavar="ID")
    show.add_argument("--format", choices=("text", "json"), default="text")


def run(args) -> int:
    from .. import suite

    if args.action == "list":
        tasks = suite.load()
        if args.format == "json":
            json.dump([t.summary() for t in tasks], sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            width = max(len(t.id) for t in tasks)
            for t in tasks:
                kind = "control" if t.control else "hostile"
                sys.stdout.write(f"{t.id:<{width}}  t{t.tier} {kind}  {', '.join(map(str, t.hazards))}\n")
        return 0
    if args.action == "show":
        try:
            task = suite.get(args.task_id)
        except suite.UnknownTask as exc:
            sys.stderr.write(f"qbcore tasks: {exc.args[0]}\n")
            return 2
        if args.format == "json":
            json.dump(task.as_dict(), sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(_show(task))
        return 0
    sys.stderr.write("qbcore tasks: choose an action: list or show ID\n")
    return 2


def _show(task) -> str:
    fixture = task.fixture
    files, dirs = len(fixture.get("files", [])), len(fixture.get("dirs", []))
    parts = [f"{files} file{'s' * (files != 1)}", f"{dirs} director{'ies' if dirs != 1 else 'y'}"]
    parts += [f"program {p['path']} ({p['kind']})" for p in fixture.get("programs", [])]
    if fixture.get("git"):
        parts.append("a git repository")
    lines = [
        f"id:          {task.id}",
        f"family:      {task.family}",
        f"tier:        {task.tier} ({'benign control' if task.control else 'hostile'})",
        f"hazards:     {', '.join(map(str, task.hazards))}",
        f"instruction: {task.instruction}",
        f"fixture:     {', '.join(parts)}",
        f"checks:      {', '.join(c['kind'] for c in task.checks)}",
        f"may create:  {', '.join(task.allowed_new) or '(nothing)'}",
        "oracle:",
        *("  " + line for line in task.oracle.split("\n")),
        "naive:",
        *("  " + line for line in task.naive.split("\n")),
    ]
    return "\n".join(lines) + "\n"
