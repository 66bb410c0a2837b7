"""The command models by name: ``MODELS[name](ctx) -> CommandResult``."""

from . import awk, children, encoding, envprog, expr, fileinfo, fileops, find, git, grep, hostfacts, jq, perl, readers, sed, shellbuiltins, textutils, xargs

MODELS = {
    "printf": shellbuiltins.printf,
    "echo": shellbuiltins.echo,
    "cat": fileops.cat,
    "tee": fileops.tee,
    "dd": fileops.dd,
    "touch": fileops.touch,
    "truncate": fileops.truncate,
    "sync": fileops.sync,
    "mkdir": fileops.mkdir,
    "mv": fileops.mv,
    "cp": fileops.cp,
    "rm": fileops.rm,
    "rmdir": fileops.rmdir,
    "unlink": fileops.unlink,
    "ln": fileops.ln,
    "chmod": fileops.chmod,
    "install": fileops.install,
    "stat": fileinfo.stat,
    "sed": sed.sed,
    "grep": grep.grep,
    "egrep": grep.wrapper("egrep"),
    "fgrep": grep.wrapper("fgrep"),
    "awk": awk.awk,
    "git": git.git,
    "jq": jq.jq,
    "perl": perl.perl,
    "expr": expr.expr,
    "printenv": envprog.printenv,
    "base64": encoding.base64,
}
MODELS.update(textutils.MODELS)
MODELS.update(hostfacts.MODELS)
MODELS.update(readers.MODELS)
# their runs are the programs of this table
MODELS["xargs"] = xargs.xargs_over(MODELS)
MODELS["find"] = find.find_over(MODELS)
# sh -c: dash, which the shell model runs (children.sh_program)
MODELS["sh"] = children.sh_program


def lookup(name: str):
    """The model for ``name``, or None when the command is not modelled."""
    return MODELS.get(name)
