"""Pathname expansion under shopt's nullglob, dotglob, globstar and extglob, against bash.

Each script runs in real bash in a directory holding the fixture and in the effect
model over a virtual tree holding the same; the scripts write what their globs
matched into files, so the final trees say whether the model matched as bash did.
"""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests_settings import examples
from utilities_diff import compare_script, script_model, unknown_why

FIXTURE = {
    "x.log": b"", "data.txt": b"", "[x": b"", ".top": b"",
    "tree/5.log": b"", "tree/.6.log": b"", "tree/a/1.log": b"", "tree/a/b/2.log": b"",
    "tree/a-b/3.log": b"", "tree/.h/x/4.log": b"", "tree/c/.7.log": b"", "tree/c/d": None, "tree/e f/8.log": b"",
}
LINKS = {"tree/link": "a", "tree/a/up": "..", "tree/dangling": "../nowhere"}

SCRIPTS = [
    # nullglob: a pattern that matches nothing is no word; a word that is no pattern stays
    "shopt -s nullglob; printf '<%s>' *.none [ a[ a] [x a[0] x/[a]/y a[/] '*' > out",
    "shopt -s nullglob; for f in *.none; do echo never; done > out; set -- *.none x; echo $# >> out",
    "shopt -s nullglob; a=(*.none *.log); echo ${#a[@]} \"${a[@]}\" > out; shopt -u nullglob; echo *.none >> out",
    "shopt -s nullglob; echo hi > *.none; echo $? > out",
    "shopt -s nullglob; ls *.none > out; echo $? >> out",
    # a name shopt does not have is its error (status 1); the others are set all the same
    "shopt -s nullglob printf 2> /dev/null; echo $? > out; printf '<%s>' *.none >> out",
    # several names bash does not have (an ssh-argv reply's lines joined): each said, the others set
    "shopt -s globstar nullglob printf '%s\\n' 'tree/**' 2> /dev/null; echo $? > out; "
    "printf '<%s>' tree/c/**/*.none >> out",
    "shopt -s dotglob; shopt -u bogus dotglob 2> /dev/null; echo $? >> out; echo * >> out",
    "shopt -s nullglob; for f in *.txt; do mv -- \"$f\" \"done_$f\"; done",
    # dotglob: * matches names starting with a dot, never . and ..
    "shopt -s dotglob; printf '<%s>' * .* tree/* tree/c/* > out",
    "shopt -s dotglob; shopt -u dotglob; printf '<%s>' * > out",
    # a last name without glob characters after a glob is looked up, not listed: . and .. too
    "printf '<%s>' */. */.. tree/*/. tree/*/.. tree/a*/b/. */.x > out",
    # globstar: ** alone in a component matches the folder and every name below it
    "shopt -s globstar; printf '<%s>\\n' tree/**/*.log > out",
    "shopt -s globstar; cd tree/a; printf '<%s>\\n' ** > ../../out",
    "shopt -s globstar; cd tree/c; printf '<%s>\\n' ** > ../../out; printf '<%s>\\n' **/ >> ../../out",
    "shopt -s globstar; printf '<%s>\\n' tree/c/** tree/c/**/ tree/e*/** > out",
    "shopt -s globstar dotglob; cd tree/c; printf '<%s>\\n' ** > ../../out",
    "shopt -s globstar; cd tree/a-b; printf '<%s>\\n' **/*.log **/3* > ../../out",
    "shopt -s globstar; printf '<%s>\\n' tree/a** tree/**x > out",
    "shopt -s globstar nullglob; printf '<%s>\\n' tree/c/**/*.none > out; echo $? >> out",
    "shopt -s globstar; for f in tree/c/**/*.log; do echo \"$f\"; done > out",
    # shopt with no option names lists them (its text not followed): status 0, nothing changes
    "shopt > /dev/null; echo $? > out; shopt -p >/dev/null; shopt -q; shopt -s > /dev/null; echo $? >> out",
    "shopt\n-s dotglob; echo $? > out; echo * >> out",
    # extglob: patterns without a group match as without it; a line that opens one, on the
    # line that turns it on, is still read without it (a syntax error, nothing of it runs)
    "shopt -s extglob; printf '<%s>' *.log [x ?.txt d*.txt > out; echo $? >> out",
    "shopt -s extglob nullglob; printf '<%s>' *.none *.txt > out\necho done >> out",
    "shopt -s extglob; echo !(x).log > out",
    "echo before > out; shopt -s extglob; echo @(x|y).log >> out",
    "shopt -s extglob; shopt -u extglob\n[ -n x ] && echo !(x).log > out\necho $? >> out",
]
# lines read after extglob turned on that may open a group, which bash reads otherwise
# (`!(true)` is a command word under extglob, `!` and a subshell without): unknown
EXTGLOB_UNKNOWN = [
    "shopt -s extglob\necho !(x).log > out",
    "shopt -s extglob\n!(true); echo $? > out",
    "shopt -s extglob\necho ok > out\ncase x.log in @(x|y).log) echo yes >> out;; esac",
    "f() { shopt -s extglob; }; f\necho +(x).log > out",
    "shopt -s extglob\neval 'echo ?(x).log' > out",
    "shopt -s extglob; [[ x.log == @(x|y).log ]] && echo yes > out",
    "shopt -s extglob; x=x.log; echo ${x%@(.log)} > out",
    "shopt -s extglob\necho '!(x)' \"@(y)\" > out",  # (quoted: read alike, but the model looks at the text)
]

# globs whose matches bash finds by entering (or listing) a symlink: not followed
UNKNOWN = [
    "shopt -s globstar; printf '<%s>\\n' tree/**/*.log > out",
    "shopt -s globstar; printf '<%s>\\n' ** > out",
    "shopt -s globstar; printf '<%s>\\n' tree/**/**/*.log > out",
    # a name whose value is not known may be one shopt has
    "x=$RANDOM; shopt -s nullglob \"$x\" 2> /dev/null; echo * > out",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS)
def test_globs_under_shell_options_match_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", SCRIPTS[6:8] + SCRIPTS[8:9])
def test_symlinks_are_matched_where_bash_matches_them(script, tmp_path):
    """Where no `**` meets a symlink, the tree's symlinks are names like any other."""
    if "globstar" in script:
        script = script.replace("tree/**/*.log", "tree/c/**/*.log")
    compare_script(script, FIXTURE, where=tmp_path, links=LINKS, certain=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", EXTGLOB_UNKNOWN)
def test_lines_that_may_open_an_extglob_group_are_unknown(script, tmp_path):
    assert not compare_script(script, FIXTURE, where=tmp_path)


@pytest.mark.parametrize("script", UNKNOWN)
def test_a_globstar_that_meets_a_symlink_is_unknown(script):
    assert unknown_why(*script_model(script, FIXTURE, LINKS)) is not None


_NAMES = ["**", "*", "*.log", ".*", "a*", "[ab]*", "?", "tree", "a", "c", "x", "*.none"]
# (no pattern starts with a slash: bash would walk the whole machine)
_PATTERN = st.tuples(st.sampled_from(_NAMES), st.lists(st.sampled_from(_NAMES + [""]), max_size=3)).map(
    lambda t: "/".join([t[0], *t[1]]))
_OPTIONS = st.sets(st.sampled_from(["nullglob", "dotglob", "globstar", "extglob"]))


@pytest.mark.bash
@settings(max_examples=examples(80), deadline=None)
@given(patterns=st.lists(_PATTERN, min_size=1, max_size=3),
       options=_OPTIONS, links=st.booleans(), where=st.sampled_from(["", "tree", "tree/a"]))
def test_generated_globs_match_bash(patterns, options, links, where):
    """Random patterns under random options: where the model is certain, it matched as bash did."""
    words = " ".join(patterns)
    setup = f"shopt -s {' '.join(sorted(options))}; " if options else ""
    back = "../" * (where.count("/") + 1) if where else ""
    script = f"{setup}{f'cd {where}; ' if where else ''}printf '<%s>\\n' {words} > {back}out; echo $? >> {back}out"
    compare_script(script, FIXTURE, links=LINKS if links else None)


# GLOBIGNORE: a glob drops the names its patterns match (a `*` there matches a leading dot),
# and . and .. always; giving it a pattern turns dotglob on, unsetting it turns it off, and an
# empty value leaves it as it was
GLOBIGNORE = [
    "GLOBIGNORE='*'; printf '<%s>' *.txt * > out",
    "GLOBIGNORE=data.txt; printf '<%s>' * .* > out",
    "GLOBIGNORE=data.txt; GLOBIGNORE=; printf '<%s>' * > out; unset GLOBIGNORE; printf '<%s>' * >> out",
    "GLOBIGNORE=x; shopt -u dotglob; printf '<%s>' * > out",
    "GLOBIGNORE='.*:x*'; printf '<%s>' * > out",
    "GLOBIGNORE='[!d]*:*.log'; printf '<%s>' * > out",
    "GLOBIGNORE='[]x]*'; printf '<%s>' * > out",
    "GLOBIGNORE='?????.txt::'; printf '<%s>' *.txt > out",
    "shopt -s nullglob; GLOBIGNORE='*'; printf '<%s>' *.txt > out; echo $? >> out",
    "export GLOBIGNORE=x.log; for f in *; do echo \"$f\"; done > out",
    "declare GLOBIGNORE='*.log'; set -- *; echo $# > out",
    "(GLOBIGNORE=data.txt); printf '<%s>' * > out",
    "GLOBIGNORE=data.txt; (printf '<%s>' *; echo $(echo *)) > out",
    "f() { local GLOBIGNORE=x.log; echo *; }; f > out",
    # every way of assigning it the model follows
    "for GLOBIGNORE in x.log '*.txt'; do echo *; done > out", "printf -v GLOBIGNORE %s x.log; echo * > out",
    ": ${GLOBIGNORE:=x.log}; echo * > out", "GLOBIGNORE=x.log; GLOBIGNORE+=:data.txt; echo * > out",
    "shopt -s dotglob; unset GLOBIGNORE; echo * > out",
]
# where the model does not follow what bash makes of GLOBIGNORE: unknown
GLOBIGNORE_UNKNOWN = [
    "GLOBIGNORE=x; echo tree/* > out",  # (the whole name is matched: `*` reaches past a slash)
    "f() { local GLOBIGNORE=x.log; echo *; }; f; echo * > out",  # (restored on return: not followed)
    "GLOBIGNORE='[:]*'; echo * > out",
    "GLOBIGNORE='[x*:.*'; echo * > out",
    "GLOBIGNORE='x\\:y'; echo * > out",
    "GLOBIGNORE=x.log bash -c 'echo *' > out",
]


@pytest.mark.bash
@pytest.mark.parametrize("script", GLOBIGNORE)
def test_globs_under_globignore_match_bash(script, tmp_path):
    compare_script(script, FIXTURE, where=tmp_path, certain=True)


@pytest.mark.parametrize("script", GLOBIGNORE_UNKNOWN)
def test_globignore_not_followed_is_unknown(script):
    assert unknown_why(*script_model(script, FIXTURE)) is not None


_IGNORED = st.lists(st.sampled_from(["*", "*.log", ".*", "x*", "[ab]*", "?", "data.txt", "[!x]*", "*[", "tree"]),
                    max_size=3).map(":".join)


@pytest.mark.bash
@settings(max_examples=examples(40), deadline=None)
@given(ignored=_IGNORED, patterns=st.lists(st.sampled_from(["*", ".*", "*.log", "?", "[dx]*", "*.none"]),
                                           min_size=1, max_size=3),
       options=st.sets(st.sampled_from(["nullglob", "dotglob"])), unset=st.booleans())
def test_generated_globignore_matches_bash(ignored, patterns, options, unset):
    """GLOBIGNORE's patterns over globs in the working folder, under random options."""
    setup = f"shopt -s {' '.join(sorted(options))}; " if options else ""
    words = " ".join(patterns)
    after = "unset GLOBIGNORE; " if unset else ""
    script = f"{setup}GLOBIGNORE='{ignored}'; {after}printf '<%s>\\n' {words} > out; echo $? >> out"
    assume(compare_script(script, FIXTURE))  # (counted where the model is certain)


def test_the_option_names_are_bash_s():
    """The model's list of shopt's option names (another is an error), against bash's own."""
    import subprocess
    from qbcore.model.commands.variables import SHOPT_NAMES
    listed = subprocess.run(["bash", "-c", "shopt"], capture_output=True, text=True, check=True).stdout
    assert SHOPT_NAMES == {line.split()[0] for line in listed.splitlines()}


def test_an_empty_globignore_changes_nothing():
    assert compare_script("GLOBIGNORE=; echo * > out", {"k": b"", "j": b""}, certain=True)
