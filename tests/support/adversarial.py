"""Adversarial replies: what an attacker (or a broken model) could store for the pre-screen.

Each family makes replies that once hung the static model, exhausted its
memory or made it read the host, at several sizes, and each attack is
placed where some transport's outer shell evaluates it: as the reply
itself, inside ``$(…)`` (run by the outer shell of nested, heredoc-ssh,
double-nested…), and after a double quote that closes the outer one.
Used by tests/test_budget.py, bench/bench_adversarial.py and the long fuzz run.
"""

from __future__ import annotations

import random

A60 = "a" * 60


def _slash_paths(scale):
    yield '" <//x "'
    yield 'x"; cd //tmp; "'
    yield ">//tmp/f"
    yield '" <' + "//x" * scale + ' "'
    yield 'x"; cd ' + "//tmp/.." * scale + '; pwd; "'
    yield "cd //; cd ..; cd " + "/" * scale + "; pwd"


def _globs(scale):
    stars = "*a" * (5 * scale) + "*b"
    text = "a" * (30 * scale)
    yield f"case {text} in {stars}) echo y;; esac"
    yield f"[[ {text} == {stars} ]] && echo y"
    yield f"x={text}; echo ${{x#{stars}}} ${{x%%{stars}}} ${{x/{stars}/z}}"
    yield "case " + A60 + " in *a*a*a*a*a*a*a*a*a*a*b) echo y;; esac"
    yield f"x={text}; echo ${{x//[[:alpha:]]*[!a]/q}}"


def _replacements(scale):
    n = 5000 * scale
    yield f'x=$(printf "%0{n}d" 0); y=${{x//b/c}}; echo ${{#y}}'
    yield f'x=$(printf "%0{n}d" 0); y=${{x//0/ab}}; echo ${{#y}}'
    yield f'x=$(printf "%0{n}d" 0); y=${{x//?/&&}}; y=${{y//0/&&&&}}; echo ${{#y}}'
    yield f'x=$(printf "%0{n}d" 0); y=${{x//*0/z}}; echo ${{y%%*0}} ${{y##0*1}}'


def _backticks(scale):
    depth = 6 * scale
    yield "echo `" * depth + "x" + "`" * depth
    yield "$(x" + "`x" * depth
    yield "`" * depth
    yield "$(" * depth + "echo x" + ")" * depth
    yield '"`"' * depth


def _loops(scale):
    yield "while :; do while :; do while :; do :; done; done; done"
    yield "for i in {1..10000}; do for j in {1..10000}; do :; done; done"
    yield "f(){ f; f; }; f"
    yield "until false; do x=$x.; done"
    yield "for ((;;)); do for ((;;)); do :; done; done"
    yield "x='eval \"$x\"'; eval \"$x\""
    yield "f(){ f $1$1; }; f " + "a" * scale
    yield "g(){ echo $(g); }; g"


def _arithmetic(scale):
    n = 20 * scale
    yield "x0=1; " + " ".join(f"x{i + 1}=x{i}+x{i}" for i in range(n)) + f"; echo $((x{n}))"
    yield "x=x; echo $((x))"
    yield "echo $((" + "(" * (30 * scale) + "1" + ")" * (30 * scale) + "))"
    yield "a=b b=c c=a; echo $((a + 1))"


def _braces(scale):
    yield "echo {1..99999999}"
    yield "echo " + "{a,b}" * (6 * scale)
    yield "echo " + "{1..9}" * (3 * scale)
    yield "echo {a..z..0}{1..99999}"
    yield "x={1..99999999}; echo $x"


def _printf(scale):
    yield "printf '%*s' 999999999 x"
    yield "printf '%.*d' 999999999 1"
    yield "printf '%0999999999d' 1"
    yield "printf %%s {1..%d}" % (20000 * scale)
    yield "printf -v x '%*s' 99999999 y; echo ${#x}"


def _doubling(scale):
    yield "x=ab; " + "x=$x$x; " * 64 + "echo ${#x}"
    yield "x=ab; " + 'x="$x$x$x$x"; ' * 32 + "echo ${#x}"
    yield "x=abc; " + "x=${x//?/$x}; " * 8 + "echo ${#x}"
    yield "x=ab; for i in {1..64}; do x=$x$x; done; echo ${#x}"
    yield "set -- ab; for i in {1..40}; do set -- \"$@\" \"$@\"; done; echo $#"


def _host(scale):
    yield "echo $(echo /*/*/*/*/*/*)"
    yield "echo ~root ~nobody"
    yield "cd /; echo *"
    yield "[ -e /etc/passwd ] && echo yes"
    yield "echo $(</etc/passwd)"
    yield "echo /root/* /etc/*"


def _records(scale):
    yield "for i in {1..9999}; do echo $i >> f$i; done"
    yield "for i in {1..9999}; do x$i=$i; echo $i; done"
    yield "for i in {1..9999}; do : $(echo $i); done"


FAMILIES = {
    "slash-paths": _slash_paths, "globs": _globs, "replacements": _replacements, "backticks": _backticks,
    "loops": _loops, "arithmetic": _arithmetic, "braces": _braces, "printf": _printf,
    "doubling": _doubling, "host": _host, "records": _records,
}


def placements(attack: str):
    """The attack where the outer shells of the transports evaluate it."""
    yield attack
    yield f"echo $({attack})"
    yield f'x"; {attack}; "'


def replies(scale: int = 1):
    """(family, reply) for every family and placement at ``scale``."""
    for family, make in FAMILIES.items():
        for attack in make(scale):
            for reply in placements(attack):
                yield family, reply


def big_reply(size: int) -> str:
    """A reply of ``size`` characters that leaks out of the nested transport's quotes."""
    return 'x" ' + "a " * (size // 2) + '"'


# ---------------------------------------------------------------- random replies for the fuzz run

_PIECES = ['"', "'", "`", "$(", ")", "${", "}", "$((", "))", "{", "}", "[", "]", "*", "?", "~", "\\", "\n",
           ";", "&", "|", "<", ">", "<<", "EOF", "//", "/", "..", "$", "x", "a", "1", " ", "=", ",", "..",
           "case ", " in ", "esac", "while :; do ", "done", "for i in ", "f(){ ", "f; ", "eval ", "printf ",
           "%*s", "${x//", "#", "%", "!", "@", "-", "$$", "$@", "$#"]


def random_reply(rng: random.Random, attacks: list) -> str:
    """A random reply: shell fragments, sometimes around an adversarial one."""
    text = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 40)))
    if attacks and rng.random() < 0.2:
        # an attack where an outer shell evaluates it, with fragments after it
        return rng.choice(list(placements(rng.choice(attacks)))) + text[:rng.randrange(len(text) + 1)]
    if attacks and rng.random() < 0.2:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(attacks) + text[at:]
    return text
