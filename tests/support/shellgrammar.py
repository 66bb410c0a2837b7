"""Bash scripts drawn from a small grammar, for the parser's checks against ``bash -n``.

Random characters rarely form the constructs where a parser and bash part
ways: a function body that ends right after ``done``, ``declare -a a=(…)``,
``let i=(3+4)``, an extended glob in ``[[ ]]``. Drawing from the grammar
reaches them on its own; a few mutations (a dropped separator, a stray
closer, a quoted command name) make sure rejected input is drawn too.

``python3 tests/support/shellgrammar.py [COUNT] [SEED]`` prints how often the
``qbcore`` on the path and ``bash -n`` disagree about which scripts parse.
"""

import random
import re
import subprocess
import sys

# after an empty `[[ ]]` bash -n silently stops reading the script (tests/test_lex_bash.py)
EMPTY_TEST = re.compile(r"\[\[[ \t\n]*\]\]")

WORDS = ["x", '"$a"', "'q r'", "$x", "${a[1]}", "*.txt", "-n", "$(echo y)", "`echo z`", "{1,2}",
         "a\\ b", "1", '"${arr[@]}"', "$((i+1))", "~/d", "--", "$'t\\n'", "e=f"]
ELEMENTS = ["1", "two", '"t w"', "$x", "[1]=a", "[k]=v", "[$i]+=c", "'s q'", "*", "$(echo e)", "{p,q}"]
PATTERNS = ["a*", "!(foo)", "@(a|b)", "+(x)", "*(y|z)", "?(w)", "*.@(jpg|png)", "a!(b)c", '"lit"',
            "[ab]*", "$x"]
DECLARATIONS = ["declare", "typeset", "local", "export", "readonly"]
OPTIONS = ["", "-a ", "-A ", "-r ", "-x ", "-- ", "-ga ", "-i "]
MUTATIONS = [";", " ", "\n"]
# a redirection (or a word opening with a process substitution) ends bash's
# compound-assignment state: these go between the words of a command
REDIRECTIONS = [">/dev/null", "2>&1", "<<<x", "&>f", "{fd}>f", ">(cat)", "<(cat)", "3<&0", ">|f"]
COMMAND_NAMES = ["eval", "let", "alias", "echo", "coproc", "time", "command declare", "exec"]


def script(rng: random.Random, depth: int = 0) -> str:
    """One script: a list of commands, sometimes mutated into invalid input."""
    text = command_list(rng, depth)
    if rng.random() < 0.2:
        text = mutate(rng, text)
    return text


def command_list(rng, depth, size=None):
    size = size or rng.randint(1, 3)
    items = [and_or(rng, depth) for _ in range(size)]
    out = items[0]
    for item in items[1:]:
        out += rng.choice(["; ", "\n", " && ", " || ", " | ", " & "]) + item
    return out


def and_or(rng, depth):
    if depth < 2 and rng.random() < 0.45:
        return compound(rng, depth + 1)
    return simple(rng)


def simple(rng):
    kind = rng.randrange(7)
    if kind == 0:
        return "echo " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 3)))
    if kind == 1:
        return "".join(f"a{rng.choice(['', '+'])}={array(rng)} " + redirection(rng)
                       for _ in range(rng.randint(1, 2))) + rng.choice(["", "echo x"])
    if kind == 2:
        names = " ".join(redirection(rng) + (f"v{n}{rng.choice(['=', '+='])}{array(rng)}"
                                             if rng.random() < 0.7 else f"w{n}=x")
                         for n in range(rng.randint(1, 2)))
        prefix = rng.choice(["", "", "FOO=1 ", ">/dev/null ", "FOO=1 >/dev/null ", "2>&1 >f ",
                             ">f FOO=1 ", "coproc ", "time "])
        return f"{prefix}{rng.choice(DECLARATIONS)} {rng.choice(OPTIONS)}{redirection(rng)}{names}"
    if kind == 3:
        return "let " + " ".join(rng.choice(["i=(3+4)", "j=(1+2)*3", '"k=(2)"', "n=(i)+1", "i++"])
                                 for _ in range(rng.randint(1, 2)))
    if kind == 4:
        if rng.random() < 0.5:
            words = " ".join(rng.choice(["a=(1 2)", "b=()", "x", "c=(3)y"] + REDIRECTIONS)
                             for _ in range(rng.randint(1, 3)))
            return f"{rng.choice(COMMAND_NAMES)} {words}"
        return rng.choice(["eval a=(1 2)", "eval 'b=(3)'", "alias q=(1)", "x=(1 2)y", "cat <<E\nb `echo \\\"q\\\"`\nE"])
    if kind == 5:
        return f"[[ {rng.choice(WORDS)} {rng.choice(['==', '!=', '='])} {rng.choice(PATTERNS)} ]]"
    return f"(({rng.choice(['i++', 'x > 1', '(1+2)*3'])}))"


def redirection(rng):
    return rng.choice(REDIRECTIONS) + " " if rng.random() < 0.15 else ""


def array(rng):
    inner = " ".join(rng.choice(ELEMENTS) for _ in range(rng.randint(0, 3)))
    if rng.random() < 0.15:
        inner = inner + "\n # comment\n" + rng.choice(ELEMENTS)
    return f"({inner})"


def compound(rng, depth):
    body = lambda: command_list(rng, depth, rng.randint(1, 2))  # noqa: E731
    kind = rng.randrange(9)
    if kind == 0:
        return f"{{ {body()}; }}"
    if kind == 1:
        return f"( {body()} )"
    if kind == 2:
        return f"if {body()}; then {body()}; {rng.choice(['', 'else ' + body() + '; '])}fi"
    if kind == 3:
        return f"for v in {rng.choice(WORDS)} {rng.choice(WORDS)}; do {body()}; done"
    if kind == 4:
        return f"while {body()}; do {body()}; done"
    if kind == 5:
        return f"case {rng.choice(WORDS)} in {rng.choice(['a', '*', 'x|y'])}) {body()};; esac"
    if kind == 6:
        return f"[[ {rng.choice(WORDS)} == {rng.choice(PATTERNS)} ]]"
    # a function whose body may end right after a compound command: `…; done }`
    last = compound(rng, 2) if depth < 3 else "{ :; }"
    inner = rng.choice([f"{body()}; {last}", last, body() + ";"])
    name = rng.choice(["f()", "function g", "function h()"])
    return f"{name} {{ {inner} }}"


def mutate(rng, text):
    """A small edit that usually breaks the script: bash -n must notice as the parser does."""
    kind = rng.randrange(4)
    if kind == 0 and any(m in text for m in MUTATIONS):
        spots = [i for i, ch in enumerate(text) if ch in ";\n"]
        if spots:
            at = rng.choice(spots)
            return text[:at] + text[at + 1:]
    if kind == 1:
        # a stray closer between commands or words (inside a word it makes other text)
        spots = [i for i, ch in enumerate(text) if ch in " ;\n"] + [len(text)]
        at = rng.choice(spots)
        return text[:at] + rng.choice([" }", " fi", " done", " )", " esac", " (", " ]]"]) + text[at:]
    if kind == 2:
        for name in DECLARATIONS + ["let", "eval"]:
            if name + " " in text:
                return text.replace(name + " ", rng.choice([f'"{name}" ', f"\\{name} ", f"builtin {name} ",
                                                            f"echo {name} "]), 1)
    return text + rng.choice([" }", ";;", " then", ""])


def bash_accepts(source: str) -> bool:
    # bash -n may report a [[ ]] error and still exit 0: any complaint counts
    proc = subprocess.run(["bash", "-n", "-c", source], capture_output=True, timeout=20)
    complaints = [line for line in proc.stderr.splitlines() if b"warning:" not in line]
    return proc.returncode == 0 and not complaints


def parser_accepts(source: str) -> bool:
    from qbcore import ShellSyntaxError
    from qbcore.syntax import parse
    try:
        parse(source)
    except ShellSyntaxError:
        return False
    return True


def disagreements(count: int, seed: int) -> tuple:
    """(disagreements, drawn): scripts on which the parser and bash -n differ."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        source = script(rng)
        if "\0" in source or EMPTY_TEST.search(source):
            continue
        if parser_accepts(source) != bash_accepts(source):
            found.append(source)
    return found, count


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    found, drawn = disagreements(count, seed)
    for source in sorted(found, key=len)[:15]:
        print(repr(source), "bash accepts" if bash_accepts(source) else "bash rejects")
    print(f"{len(found)}/{drawn} scripts where the parser and bash -n disagree "
          f"({100 * len(found) / drawn:.1f}%)")
