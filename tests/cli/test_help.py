"""Every verb's help, and the verb list, print: a help text is shown as written."""

import pytest

from qbcore.cli import _verbs, build_parser, main


def test_verb_list_prints_every_help_as_written(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    for module in _verbs():
        assert module.NAME in shown
        assert " ".join(module.HELP.split()) in shown  # score's "95%" as written


def test_no_verb_prints_the_list_and_fails(capsys):
    assert main([]) == 2
    assert "score" in capsys.readouterr().err


@pytest.mark.parametrize("verb", [module.NAME for module in _verbs()])
def test_each_verb_prints_its_help(verb, capsys):
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args([verb, "--help"])
    assert stop.value.code == 0
    assert verb in capsys.readouterr().out
