"""Word expansion: every case runs through the model and through real bash, field by field."""

import pytest

import bashref
from qbcore.model import expand as E
from qbcore.model.evaluate import static
from qbcore.syntax.parser import parse

TREE = ["a.txt", "b.txt", ".h.txt", "sub/c.txt", "sub/d.log", "sub/deeper/e.txt", "x y.txt",
        "[ab].lit", "q?", "emptydir/"]

# (variables, positional parameters, words)
V = {"x": "a b", "e": "", "s": " lead  trail ", "p": "/usr/local/lib/file.tar.gz",
     "g": "*.txt", "arr": ["one", "two words", ""], "n": "3", "u8": "héllo", "q": "it's",
     "nl": "a\nb", "amp": "a&b", "star": "*"}
CASES = [
    # quoting and quote removal
    "a\\ b 'c d' \"e f\" $'g\\th' $\"i\" \"a\\b\" \"a\\$b\" \\\"",
    "\"$'x'\" '\"' \"'\"",
    # brace expansion
    "{a,b} \"{a,b}\" x{1..3}y {3..1} {a..e..2} {01..10..3} {a,b{c,d}} {a} {} {a,b {,x}y",
    "{{a,b} {a,b}} a{b,c}d{e,f} {-2..2} {x..z} '{'a,b'}' {a,$x} ${x}{1,2}",
    # tilde
    "~ ~/q \"~\" a~ x=~/q x=a:~/b --x=~ ~+ ~root ~nobody/z ~\"\" \\~",
    # parameters
    "$x \"$x\" $e \"$e\" $s \"$s\" ${x} ${#x} ${#arr[@]} ${#u8} $unset \"$unset\"",
    "${e:-def} ${e-def} ${unset-\"d e\"} \"${unset:-d e}\" ${x:+alt} ${e:+alt} ${e+alt}",
    "${p#*/} ${p##*/} ${p%.*} ${p%%.*} ${p/l/L} ${p//l/L} ${p/#\\//@} ${p/%gz/GZ} ${p//[ai]/_}",
    "${x^^} ${x^} ${u8,,} ${q@Q} ${nl@Q} ${x@Q} ${e@Q} ${p:1:4} ${p: -2} ${p:2:-3} ${u8:1:2}",
    "${amp/&/+} \"${x/b/[&]}\" ${x/b/\"&\"} ${x/b/\\&} ${p//\"l\"/L} ${p#\"*\"}",
    "${arr[@]} \"${arr[@]}\" ${arr[*]} \"${arr[*]}\" ${arr[1]} ${arr} ${arr[-1]} \"${!arr[@]}\"",
    "$# $@ \"$@\" $* \"$*\" \"-$@-\" \"-$*-\" $1 ${2} ${10} $0 \"${@:2}\" \"${@: -1}\" ${#@}",
    "$- $? ${!n} ${unset=assigned} $unset",
    # the word of ${x:-w} inside double quotes: single quotes and \q stay literal
    "\"${e:-\\q}\" \"${e:='v'}\" \"${e:-\\}}\" \"${e:-\\$x}\" \"${x:-'q'}\" \"${unset2:-'q'}\" ${e:-\\q}",
    # arithmetic
    "$((1+2*3)) $((2**10)) $((-7/2)) $((-7%2)) $((1<<4)) $((n*2)) $((x0=5, x0+1)) $((0x1f)) $((010))",
    "$((64#_)) $((3>2 && 1 || 0)) $((n > 2 ? 10 : 20)) $((~0)) $((!0)) $((2**63)) $[1+1]",
    # command substitution (static hook)
    "$(echo hi) \"$(echo a; echo b)\" $(printf '%s|' a b c) `echo x` $(true) \"$(printf 'n\\n\\n')\"",
    "$(pwd) $(x=1; echo $x) $(echo $x) \"$(echo \"$x\")\" $(printf '%s-%s\\n' 1 2 3)",
    # word splitting
    "$s. .$s ${s}x \"$s\"",
    # pathname expansion
    "*.txt \"*\".txt nomatch* .* sub/* */*.txt sub/*/e.txt * \\*.txt [ab].txt [!a].txt ?.txt",
    "$g \"$g\" ${star} q? sub/deeper/* emptydir/* [[:alpha:]].txt",
]
# (bash setup, the same setup for the model: name -> value, None to unset, words)
IFS_CASES = [
    ("IFS=:; x=\"a:b c\"; y=\":a::b:\"", {"IFS": ":", "x": "a:b c", "y": ":a::b:"}, "$x $y \"$x\" ${y}z"),
    ("IFS=' :'; y=\" a : b :: c \"", {"IFS": " :", "y": " a : b :: c "}, "$y"),
    ("IFS=", {"IFS": ""}, "$x $s ${arr[@]} $@ \"$*\""),
    ("unset IFS", {"IFS": None}, "$s \"$*\" $x"),
    ("IFS=,", {"IFS": ","}, "\"$*\" ${arr[*]} \"${arr[*]}\""),
]
POSITIONAL = ["p 1", "", "p3", "4", "5", "6", "7", "8", "9", "ten"]


def model_env(cwd):
    env = static(E.Env.default(cwd))
    for name, value in V.items():
        env.set(name, dict(enumerate(value)) if isinstance(value, list) else value)
    env.positional = list(POSITIONAL)
    return env


def model_fields(words, env):
    script = parse("__qb_f " + words)
    (command,) = script.body[-1].command.pipelines[0].commands
    return E.fields(command.words[1:], env)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("tree"))
    bashref.make_tree(root, TREE)
    return root


@pytest.fixture(scope="module")
def bash_results(tree):
    setup = bashref.setup_for(V, POSITIONAL)
    scripts = [bashref.fields_script(setup, words) for words in CASES]
    scripts += [bashref.fields_script(setup + "\n" + ifs, words) for ifs, _, words in IFS_CASES]
    return bashref.run_many(scripts, cwd=tree)


def check(words, env, outcome):
    result = model_fields(words, env)
    expected = outcome.nul_fields()
    assert result.exact, result.opaque
    # compare one field at a time so a failure names the first divergent field
    for n, (got, want) in enumerate(zip(result.values, expected)):
        assert got == want, f"field {n}: model {got!r}, bash {want!r}"
    assert list(result.values) == expected


@pytest.mark.bash
@pytest.mark.parametrize("n", range(len(CASES)), ids=[c[:40] for c in CASES])
def test_fields_match_bash(n, tree, bash_results):
    check(CASES[n], model_env(tree), bash_results[n])


@pytest.mark.bash
@pytest.mark.parametrize("n", range(len(IFS_CASES)), ids=[c[0] for c in IFS_CASES])
def test_splitting_with_ifs_matches_bash(n, tree, bash_results):
    _, changes, words = IFS_CASES[n]
    env = model_env(tree)
    for name, value in changes.items():
        if value is None:
            env.unset(name)
        else:
            env.set(name, value)
    check(words, env, bash_results[len(CASES) + n])


# ---------------------------------------------------------------- opaque, never guessed


@pytest.mark.parametrize("words, name", [
    ("$$", "$$"), ("$RANDOM", "$RANDOM"), ("${BASHPID}", "$BASHPID"), ("$(date)", "$(date)"),
    ("\"$(uname -a)\"", "$(uname -a)"), ("$PPID", "$PPID"), ("<(true)", "process substitution"),
    ("$((RANDOM % 2))", "$RANDOM"), ("$HOSTNAME", "$HOSTNAME"),
])
def test_unknown_values_are_named(words, name, tmp_path):
    result = model_fields(words, E.Env.default(str(tmp_path)))
    assert not result.exact
    assert any(name in o for o in result.opaque), result.opaque


def test_glob_against_unknown_directory_is_opaque():
    env = E.Env.default("/nonexistent/dir/for/qbcore")
    result = model_fields("*.txt plain", env)
    assert not result.exact and result.values[1] == "plain"


def test_glob_against_given_listing():
    env = E.Env.default("/nonexistent/dir/for/qbcore", listing=["b.txt", "a.txt", ".h.txt", "d/x.txt"])
    assert model_fields("*.txt */*.txt", env).values == ("a.txt", "b.txt", "d/x.txt")


def test_literal_context_does_not_split_or_glob(tmp_path):
    env = model_env(str(tmp_path))
    script = parse("y=$x*~:~/b")
    (assignment,) = script.body[0].command.pipelines[0].commands[0].assignments
    text = E.literal(assignment.value, env)
    assert text.exact and text.value == f"a b*~:{tmp_path}/b"


def test_document_context(tmp_path):
    env = model_env(str(tmp_path))
    script = parse('cat <<EOF\n\\"x\\" \\$y \\a $x "$x" ~\nEOF\n')
    doc = script.body[0].command.pipelines[0].commands[0].redirects[0].heredoc
    assert E.document(doc, env).value == '\\"x\\" $y \\a a b "a b" ~\n'


@pytest.mark.bash
def test_document_matches_bash(tmp_path):
    body = '\\"x\\" \\$y \\a $x "$x" ~ `echo bt` $((1+1)) ${x/a/A}\\\njoined\n'
    source = "x='a b'\ncat <<EOF\n" + body + "EOF\n"
    outcome = bashref.run(source, cwd=str(tmp_path))
    env = static(E.Env.default(str(tmp_path)))
    env.set("x", "a b")
    doc = parse(source).body[1].command.pipelines[0].commands[0].redirects[0].heredoc
    assert E.document(doc, env).value == outcome.text


def test_parameter_error_is_reported(tmp_path):
    with pytest.raises(E.ExpansionError) as info:
        model_fields("${unset:?is missing}", E.Env.default(str(tmp_path)))
    assert info.value.status == 127 and info.value.message == "unset: is missing"


def test_division_by_zero_is_an_error(tmp_path):
    with pytest.raises(E.ExpansionError):
        model_fields("$((1/0))", E.Env.default(str(tmp_path)))


# ---------------------------------------------------------------- the default environment


@pytest.mark.bash
def test_default_env_matches_bash_under_env_i(tmp_path):
    cwd = str(tmp_path)
    names = ["HOME", "PATH", "LC_ALL", "LANG", "TERM", "GIT_CONFIG_NOSYSTEM", "PWD", "SHLVL", "IFS",
             "OPTIND", "PS4", "BASH_VERSION", "OLDPWD"]
    words = " ".join(f'"${{{n}-unset}}"' for n in names) + ' "$-" "$#" "$0" "$?" "$_"'
    outcome = bashref.run("printf '%s\\0' " + words, cwd=cwd)
    env = E.Env.default(cwd)
    assert list(model_fields(words, env).values) == outcome.nul_fields()


@pytest.mark.bash
def test_from_environ_adds_what_bash_sets(tmp_path):
    cwd = str(tmp_path)
    environ = {"SHLVL": "4", "_": "/x/y", "PWD": "/somewhere/else", "FOO": "bar"}
    words = '"$SHLVL" "$_" "$PWD" "$FOO" "${HOME-unset}" "${OLDPWD-unset}"'
    outcome = bashref.run("printf '%s\\0' " + words, cwd=cwd, environ=environ)
    env = E.Env.from_environ(environ, cwd)
    assert list(model_fields(words, env).values) == outcome.nul_fields()


@pytest.mark.bash
@pytest.mark.parametrize("environ", [{}, {"OLDPWD": "/tmp"}, {"OLDPWD": "/nonexistent/qbcore"}, {"HOME": "/h"}])
def test_variables_bash_supplies_when_the_environment_lacks_them(environ, tmp_path):
    cwd = str(tmp_path)
    words = '"${OLDPWD-unset}" "${PATH-unset}" "${HOME-unset}" "$SHLVL" "$PWD" "$_"'
    outcome = bashref.run("printf '%s\\0' " + words, cwd=cwd, environ=environ)
    env = E.Env.from_environ(environ, cwd)
    assert list(model_fields(words, env).values) == outcome.nul_fields()


def test_from_environ_rejects_bad_input(tmp_path):
    with pytest.raises(ValueError, match="NUL"):
        E.Env.from_environ({"A": "x\0y"}, str(tmp_path))
    with pytest.raises(TypeError):
        E.Env.from_environ({"A": 1}, str(tmp_path))


def test_expansion_alone_leaves_a_command_substitution_unknown_and_named():
    # expand runs nothing itself: the evaluator installs the static hook (evaluate.static)
    result = model_fields("a$(echo hi)b", E.Env.default("/nonexistent/qbcore"))
    assert result.opaque == ("$(echo hi)",)
    assert result.values == ("a⟨$(echo hi)⟩b",)


def test_the_evaluator_keeps_a_hook_the_caller_chose():
    def hook(script, env):
        return E.Substitution("chosen", 0)

    env = static(E.Env.default("/nonexistent/qbcore", substitute=hook))
    assert model_fields("$(echo hi)", env).values == ("chosen",)
