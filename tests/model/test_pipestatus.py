"""PIPESTATUS, the statuses of the last pipeline, against bash: known where the model can say
which pipeline set it last (expand.Env.pipestatus), unknown elsewhere, never guessed."""

import pytest
from hypothesis import given, strategies as st

from test_control_properties import BATCH, PROPERTY, SETUP, agree_with_bash, transfers
from utilities_diff import compare_script

FIXTURE = {"k": b"kk\n"}

# each leaves the statuses in the file s, as bash sets them (measured with 5.2.15)
KNOWN = [
    'false | true; echo "${PIPESTATUS[@]}" > s',
    'false | (exit 5) | { true; }; echo "${PIPESTATUS[*]}" > s',
    'true | false; echo "$? ${PIPESTATUS[@]} ${#PIPESTATUS[@]} ${PIPESTATUS[1]} $PIPESTATUS" > s',
    'set -o pipefail; false | true; echo "$? ${PIPESTATUS[@]}" > s',
    'set -o pipefail; true | false | true; echo "$?" > s; echo "${PIPESTATUS[@]}" >> s',
    'printf "a\\nb\\n" > f; while read -r l; do true | false; done < f; echo "${PIPESTATUS[@]}" > s',
    'eval "false | true"; echo "${PIPESTATUS[@]}" > s',
    'false | true; echo "${PIPESTATUS[@]}" > s; echo "${PIPESTATUS[@]}" >> s',
    'bash -c "exit 4" | true; echo "${PIPESTATUS[@]}" > s',
    '! false | false; echo "${PIPESTATUS[@]}" > s',
    'false | true; x=1; echo "${PIPESTATUS[@]}" > s',
    '(exit 3); echo "${PIPESTATUS[@]}" > s',
    '(( 0 )); echo "${PIPESTATUS[@]}" > s',
    '[[ x ]]; echo "${PIPESTATUS[@]}" > s',
    '{ false | true; }; echo "${PIPESTATUS[@]}" > s',
    'if false | true; then :; fi; echo "${PIPESTATUS[@]}" > s',
    'case x in x) false | true;; esac; echo "${PIPESTATUS[@]}" > s',
    'false | true; case x in y) :;; esac; echo "${PIPESTATUS[@]}" > s',
    'false | true; for i in; do :; done; echo "${PIPESTATUS[@]}" > s',
    'for i in 1 2; do true | false; done; echo "${PIPESTATUS[@]}" > s',
    'while false; do :; done; echo "${PIPESTATUS[@]}" > s',
    'false | true; f() { :; }; echo "${PIPESTATUS[@]}" > s',
    'f() { false | true; }; f; echo "${PIPESTATUS[@]}" > s',
    'g() { echo "${PIPESTATUS[@]}" > s; }; false | true; g',
    'false | true; if [ "${PIPESTATUS[0]}" -ne 0 ]; then echo "failed ${PIPESTATUS[@]}" > s; fi',
    'false | true; rc=${PIPESTATUS[0]}; echo "$rc" > s',
    'false | true; x=${PIPESTATUS[1]} y=${PIPESTATUS[0]}; echo "$x $y" > s',
    'false | true; for v in "${PIPESTATUS[@]}"; do echo "$v" >> s; done',
    'false | true; (echo "${PIPESTATUS[@]}" > s)',
    'false | true; { echo "${PIPESTATUS[@]}"; } > s',
    'false | true; echo "${PIPESTATUS[@]}" | cat > s',
    'nosuchcommand 2> /dev/null | true; echo "${PIPESTATUS[@]}" > s',
    'cat k | grep -c k > /dev/null; echo "${PIPESTATUS[@]}" > s',
    'false | true; PIPESTATUS=(7); echo "${PIPESTATUS[@]}" > s',
    'false | true; ! { false; }; echo "${PIPESTATUS[@]}" > s',
    'echo "<${PIPESTATUS[*]}> ${#PIPESTATUS[@]}" > s',  # a new shell's is empty
    'false | true; bash -c \'echo "<${PIPESTATUS[*]}>${PIPESTATUS[0]-unset}"\' > s',
    'false | true; for f in *.none; do true; done; echo "${PIPESTATUS[@]}" > s',
    'false | true; echo $((1/0)); echo "${PIPESTATUS[@]}" > s',
    'while read -r l; do echo "${PIPESTATUS[@]}" >> s; done < <(printf "x\\n")',
]

# PIPESTATUS here is not followed: the model says so rather than guess
UNKNOWN = [    'false | true; echo "$(true)${PIPESTATUS[@]}" > s',  # a substitution ran first
    'false | true; true & echo "${PIPESTATUS[@]}" > s; wait',  # a background job
    'false | true; [ "$RANDOM" = 1 ] && true | false; echo "${PIPESTATUS[@]}" > s',
    'for i in 1; do false | true; break; done; echo "${PIPESTATUS[@]}" > s',
    'if [ "$RANDOM" = 1 ]; then false | true; else true | false; fi; echo "${PIPESTATUS[@]}" > s',
    'case $RANDOM in 1) false | true;; esac; echo "${PIPESTATUS[@]}" > s',
    'set -o pipefail; printf "x\\ny\\n" | head -1 > /dev/null; echo "${PIPESTATUS[@]}" > s',
    # a writer whose reader may stop early: SIGPIPE may end it, with pipefail or without (grep -q
    # stops at a match; the model does not follow whether its reader read to the end)
    'seq 1 12000 | head -1 > /dev/null; echo "${PIPESTATUS[@]}" > s',  # (62,893 bytes: it may finish)
    'printf "a\\nb\\n" | grep -q c | wc -l; echo "${PIPESTATUS[@]}" > s',
]


@pytest.mark.bash
@pytest.mark.parametrize("script", KNOWN)
def test_the_statuses_are_bash_s(script):
    assert compare_script(script, FIXTURE, certain=True, status=True)


@pytest.mark.bash
@pytest.mark.parametrize("script", UNKNOWN)
def test_statuses_not_followed_are_unknown(script):
    assert not compare_script(script, FIXTURE)


# pipelines, reads of PIPESTATUS and what may set it, nested in every construct (transfers)
_LEAVES = st.sampled_from([
    'false | true', 'true | false', 'true | (exit 3) | false', '! false | false', 'false', 'x=1', '(exit 2)',
    '[[ a ]]', '((0))', 'v=$(false | true)', '{ false | true; }', 'for q in; do :; done', 'case a in b) :;; esac',
    'h() { :; }', 'return 4', 'break', 'continue', 'exit 5', 'set -e',
    'echo "<${PIPESTATUS[*]}>"', 'echo "<${PIPESTATUS[1]-none} ${#PIPESTATUS[@]}>"'])
_SCRIPT = transfers(_LEAVES).map(lambda s: SETUP + s + '; echo "end[$?] ${PIPESTATUS[*]}"')


@pytest.mark.bash
@PROPERTY
@given(st.lists(_SCRIPT, min_size=BATCH, max_size=BATCH))
def test_generated_statuses_agree_with_bash(tmp_path_factory, batch):
    agree_with_bash(tmp_path_factory, batch, "pipestatus")
