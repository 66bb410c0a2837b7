"""git 2.39 over the virtual tree: init, add, commit, config, and the commands that only read.

The repository lives in ``.git`` of the tree in git's own format
(``gitstore``), so the validator reads the final state as it reads a real
one. Whatever could make real git act otherwise is refused as unknown: a
configuration key outside the known set, ignore or attribute files, hooks,
nested repositories, globbing pathspecs, options not listed here. Commit ids
differ from a real run's (its dates do), so output that names them is unknown.
"""

from __future__ import annotations

import os
import posixpath
import re

from . import gitstore
from .common import OptionUnknown
from .context import STDIN_NAMES, CommandContext, CommandResult, unknown
from .gitstore import Unreadable
from .hostfacts import GIT_EXEC_PATH, programs_in, starts_filesystem
from .vfs import VfsError, VirtualTree, join

__all__ = ["git", "reads_stdin", "lay_repository", "cleanup_message", "DATE"]

# the model's commits carry this date: the validator never reads it, and real runs differ anyway
DATE = "946684800 +0000"
_TEMPLATES = "/usr/share/git-core/templates"

# configuration keys whose values the model follows, and keys that change nothing it models
_FOLLOWED = {"core.repositoryformatversion": "0", "core.filemode": "true", "core.bare": "false",
             "core.logallrefupdates": "true", "commit.gpgsign": "false", "core.autocrlf": "false"}
_HARMLESS = re.compile(r"(user\.(name|email|signingkey|useconfigonly)|author\.(name|email)|committer\.(name|email)|"
                       r"init\.defaultbranch|color\..*|core\.(editor|pager|quotepath)|alias\..*|pull\..*|push\..*|"
                       r"credential\..*|safe\.directory|commit\.template|help\..*|"
                       r"advice\.(detachedhead|statushints|pushupdaterejected))\Z")
# environment variables that change where git looks or what it writes
_ENV_REFUSED = re.compile(r"GIT_(?!CONFIG_NOSYSTEM\Z|(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)\Z|TERMINAL_PROMPT\Z|"
                          r"PAGER\Z|EDITOR\Z)\w*\Z")
# commands that never change the work tree or the repository's content
_READERS = frozenset({"log", "status", "show", "diff", "rev-parse", "ls-files", "cat-file", "shortlog"})
# their arguments whose exit status the model knows: 0, or 128 where HEAD has no commit yet
_PLAIN_READS = {
    "status": ({"-s", "--short", "--porcelain", "-b", "--branch", "-sb", "--long"}, ()),
    "log": ({"--oneline", "--stat", "-p", "--name-only", "--name-status", "-1", "-2", "-3", "-5", "-10", "HEAD",
             "--no-patch", "-s", "--decorate", "--graph", "--all"}, ("--format=", "--pretty=")),
    "show": ({"--stat", "-p", "--name-only", "--name-status", "HEAD", "--no-patch", "-s", "--oneline"},
             ("--format=", "--pretty=")),
    "ls-files": ({"-s", "--stage", "-z", "--cached", "-c"}, ()),
    # (in a repository: outside one, git diff compares paths; --exit-code and --quiet say whether
    # they differ)
    "diff": ({"--cached", "--staged", "--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "-p",
              "--patch", "--no-color"}, ()),
}
# the readers that outside a repository fail as not being in one (measured)
_IN_REPOSITORY_ONLY = frozenset({"status", "log", "show", "ls-files"})

_NOT_A_REPO = "fatal: not a git repository (or any of the parent directories): .git\n"
# where discovery meets a file system's start (the sandbox's task directory), naming the folder above it
_NOT_A_REPO_BELOW = ("fatal: not a git repository (or any parent up to mount point {})\n"
                     "Stopping at filesystem boundary (GIT_DISCOVERY_ACROSS_FILESYSTEM not set).\n")
# outside a repository, the arguments of rev-parse that still need one (it fails with 128)
_REV_PARSE_IN_REPO = frozenset({"HEAD", "--git-dir", "--abbrev-ref", "--short", "--verify", "-q", "--quiet",
                                "--is-inside-work-tree", "--is-inside-git-dir", "--show-toplevel",
                                "--show-prefix"})
_EMPTY_ADD = ("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\n"
              "hint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n")
_EMPTY_AMEND = ("You asked to amend the most recent commit, but doing so would make\n"
                "it empty. You can repeat your command with --allow-empty, or you can\n"
                "remove the commit entirely with \"git reset HEAD^\".\n")
_DEFAULT_BRANCH_HINT = (
    "hint: Using 'master' as the name for the initial branch. This default branch name\n"
    "hint: is subject to change. To configure the initial branch name to use in all\n"
    "hint: of your new repositories, which will suppress this warning, call:\n"
    "hint: \n"
    "hint: \tgit config --global init.defaultBranch <name>\n"
    "hint: \n"
    "hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and\n"
    "hint: 'development'. The just-created branch can be renamed via this command:\n"
    "hint: \n"
    "hint: \tgit branch -m <name>\n")


#: git 2.39's add: its one-letter options (none takes a value)
_ADD_SWITCHES = frozenset("nviepfuNA")


def _unknown_switch(args: list, switches: frozenset):
    """The first letter of a cluster of one-letter options (``-q``, ``-Aq``) that a command
    whose one-letter options are ``switches`` (none taking a value) does not have, in
    parse-options' order; None when there is none, or when a long option (which may take
    the next word as its value, or name an option in part) comes before it."""
    for arg in args:
        if arg.startswith("--"):  # (`--` itself: what follows is pathspecs)
            return None
        if arg.startswith("-") and arg != "-":
            for letter in arg[1:]:
                if letter not in switches:
                    return letter
    return None


class _Exit(Exception):
    """git ends: ``status``, with stderr (None: not known) and stdout (None: not known)."""

    def __init__(self, status: int, stderr: str | None = "", stdout: str | None = ""):
        super().__init__(status)
        self.status, self.stderr, self.stdout = status, stderr, stdout


# -- message cleanup ---------------------------------------------------------

def cleanup_message(text: str, strip_comments: bool = False) -> str:
    """git's strbuf_stripspace: trailing whitespace (space, tab, CR, LF) off every line, runs
    of empty lines as one, none at either end; ``#`` lines dropped with ``strip_comments``."""
    out: list = []
    empties = 0
    for line in text.split("\n"):
        if strip_comments and line.startswith("#"):
            continue
        line = line.rstrip(" \t\r")
        if not line:
            empties += 1
            continue
        if empties and out:
            out.append("")
        empties = 0
        out.append(line)
    return "".join(line + "\n" for line in out)


def _reflog_text(text: str) -> str:
    """git's copy_reflog_msg: whitespace runs as one space, none leading or trailing."""
    return re.sub(r"[ \t\n\r]+", " ", text).strip(" ")


# -- the repository in the tree ----------------------------------------------

class _Repo:
    """A repository found in the tree: ``top`` the work tree, ``gitdir`` its ``.git``."""

    def __init__(self, tree: VirtualTree, top: str):
        self.tree, self.top, self.gitdir = tree, top, top.rstrip("/") + "/.git"
        self.store = gitstore.StoredRepository(self.read)

    def read(self, rel: str):
        try:
            return self.tree.read_bytes(f"{self.gitdir}/{rel}")
        except VfsError as exc:
            if exc.errno_name == "EISDIR":
                raise Unreadable(f"a directory at .git/{rel}") from None
            return None

    def write(self, rel: str, data: bytes, mode: int = 0o644):
        path = f"{self.gitdir}/{rel}"
        _makedirs(self.tree, self.gitdir, posixpath.dirname(rel))
        if self.tree.lexists(path):
            self.tree.remove(path)
        self.tree.write_bytes(path, data)
        self.tree.chmod(path, mode)

    def put_object(self, kind: str, body: bytes) -> str:
        oid, data = gitstore.encode_object(kind, body)
        if self.read(f"objects/{oid[:2]}/{oid[2:]}") is None:
            self.write(f"objects/{oid[:2]}/{oid[2:]}", data, 0o444)
        return oid

    def index(self) -> dict:
        data = self.read("index")
        return {} if data is None else gitstore.parse_index(data)

    def write_index(self, entries: dict):
        self.write("index", gitstore.format_index(entries))

    def check_safe(self):
        """Refuse what the model does not follow inside ``.git``."""
        if self.tree.mode(self.gitdir) & 0o700 != 0o700:
            raise Unreadable(f".git with mode {self.tree.mode(self.gitdir):o}")
        names = set(self.tree.listdir(self.gitdir))
        for rel in ("index.lock", "HEAD.lock", "config.lock", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD",
                    "shallow", "commondir", "packed-refs", "info/attributes", "info/sparse-checkout", "info/grafts",
                    "objects/info/alternates", "refs/replace"):
            if rel.partition("/")[0] in names and self.tree.lexists(f"{self.gitdir}/{rel}"):
                raise Unreadable(f".git/{rel}")
        exclude = self.read("info/exclude") if "info" in names else None
        if exclude is not None and any(line.strip() and not line.startswith(b"#") for line in exclude.split(b"\n")):
            raise Unreadable("ignore rules in .git/info/exclude")
        hooks = f"{self.gitdir}/hooks"
        if "hooks" in names and self.tree.is_dir(hooks) and \
                any(not name.endswith(".sample") for name in self.tree.listdir(hooks)):
            raise Unreadable("hooks in .git/hooks")


def old_tree(repo: "_Repo", commit: str) -> str:
    """The tree id a commit names."""
    headers, _ = gitstore.parse_commit(repo.store.object(commit)[1])
    return headers["tree"][0]


def _makedirs(tree: VirtualTree, base: str, rel: str):
    """``mkdir -p base/rel`` for an existing ``base``, asking nothing about the paths above it."""
    path = base.rstrip("/")
    for part in [p for p in rel.split("/") if p]:
        path += "/" + part
        if not tree.is_dir(path):
            tree.mkdir(path)


def _find_repo(tree: VirtualTree, cwd: str) -> _Repo | None:
    """The repository ``cwd`` is in, None when there is none (``_discover``)."""
    found = _discover(tree, cwd)
    return found if type(found) is _Repo else None


def _discover(tree: VirtualTree, cwd: str) -> _Repo | str:
    """The repository ``cwd`` is in, as git's discovery finds it, or git's message where it
    finds none: at ``/``, or at a folder a file system starts at (hostfacts.starts_filesystem),
    which it does not leave. A walk past the task directory asks the tree about paths it does
    not hold (OutsideTree, unknown)."""
    path = os.path.normpath(cwd)
    while True:
        dotgit = path.rstrip("/") + "/.git"
        if tree.lexists(dotgit):
            if tree.is_symlink(dotgit) or not tree.is_dir(dotgit):
                raise Unreadable(f"{dotgit} that is not a plain directory")
            if all(check(f"{dotgit}/{rel}") for check, rel in ((tree.is_file, "HEAD"), (tree.is_dir, "objects"),
                                                                (tree.is_dir, "refs"))):
                return _Repo(tree, path)
            raise Unreadable(f"{dotgit} that is not a repository")
        if path.endswith("/.git") or "/.git/" in path + "/":
            raise Unreadable("git run inside .git")
        if path == "/":
            return _NOT_A_REPO
        if starts_filesystem(path):
            return _NOT_A_REPO_BELOW.format(posixpath.dirname(path))
        path = posixpath.dirname(path)


# git 2.39's builtins with no program of their name in its exec path (measured:
# `git --list-cmds=builtins` beside the exec path's names; a test holds the installed git to it)
BUILTINS_WITHOUT_PROGRAM = frozenset({"merge-recursive-ours", "merge-recursive-theirs", "pickaxe",
                                      "upload-archive--writer"})


# -- the command -------------------------------------------------------------

class _Git:
    def __init__(self, ctx: CommandContext):
        self.ctx, self.tree, self.env = ctx, ctx.tree, ctx.env
        self.cwd = ctx.cwd
        self.overrides: list = []  # -c key=value
        self.err: list = []
        self.out: list = []
        self.out_known = True
        self.err_known = True
        self.status_known = True

    # configuration
    def home(self) -> str:
        home = self.env.get("HOME")
        if not home or not home.startswith("/"):
            raise Unreadable("git without an absolute $HOME")
        return home

    def global_files(self) -> list:
        xdg = self.env.get("XDG_CONFIG_HOME") or self.home().rstrip("/") + "/.config"
        return [xdg.rstrip("/") + "/git/config", self.home().rstrip("/") + "/.gitconfig"]

    def config(self, repo: _Repo | None) -> dict:
        """Every configured key (lowercased) -> its last value; keys the model does not follow are refused."""
        pairs: list = []
        files = self.global_files() + ([repo.gitdir + "/config"] if repo else [])
        for path in files:
            if self.tree.lexists(path):
                if not self.tree.is_file(path):
                    raise Unreadable(f"the config file {path} is not a regular file")
                pairs += gitstore.parse_config(self.tree.read_bytes(path).decode("utf-8", "surrogateescape"))
        pairs += self.overrides
        found: dict = {}
        for key, value in pairs:
            if key in _FOLLOWED:
                if (value or "").lower() != _FOLLOWED[key]:
                    raise Unreadable(f"the configuration {key}={value}")
            elif not _HARMLESS.match(key):
                raise Unreadable(f"the configuration key {key}")
            found[key] = value
        return found

    def identity(self, config: dict, who: str) -> tuple[str, str]:
        """(name, email) of the author or committer, as git's ident code finds them."""
        name = self.env.get(f"GIT_{who.upper()}_NAME", config.get(f"{who}.name", config.get("user.name")))
        email = self.env.get(f"GIT_{who.upper()}_EMAIL", config.get(f"{who}.email", config.get("user.email")))
        if email is None:
            email = self.env.get("EMAIL")
        if email is None:
            # git names the user and host it guessed: the message is not known, the status is
            raise _Exit(128, None)
        if name is None:
            raise Unreadable("an identity without a name (git asks the password database)")
        for part in (name, email):
            if not part or re.search(r"[<>\n]", part) or part != part.strip(" \t.,:;\"'\\"):
                raise Unreadable(f"the identity {part!r}")
        return name, email

    def main(self) -> CommandResult:
        for arg in self.ctx.argv:
            if getattr(arg, "spans", None):
                # a word with parts the shell model does not know (qbcore.model.values.Partial)
                raise Unreadable(f"git with an unknown word ({arg})")
        for key in self.env:  # the values git reads, and no others (a run cache keys by them)
            if (key in ("HOME", "XDG_CONFIG_HOME", "EMAIL") or key.startswith("GIT_")) and \
                    getattr(self.env[key], "spans", None):
                raise Unreadable(f"git with ${key} not known")
            if _ENV_REFUSED.match(key):
                raise Unreadable(f"git with ${key} set")
        args = list(self.ctx.argv[1:])
        while args and args[0].startswith("-"):
            opt = args.pop(0)
            if opt in ("-C", "-c") and not args:
                raise OptionUnknown(f"git {opt} without its argument")
            if opt == "-C":
                where = args.pop(0)
                if where:
                    target = os.path.normpath(join(self.cwd, where))
                    if not self.tree.is_dir(target):
                        raise Unreadable(f"git -C {where!r}: a directory that is not there")
                    self.cwd = target
            elif opt == "-c":
                key, eq, value = args.pop(0).partition("=")
                section, dot, name = key.rpartition(".")
                if not dot or not section or not name or not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", name) \
                        or not re.fullmatch(r"[A-Za-z0-9.-]+", section):
                    raise OptionUnknown(f"git -c {key!r}")
                self.overrides.append((f"{section.lower()}.{name.lower()}", value if eq else None))
            elif opt in ("--no-pager", "-P"):
                continue
            else:
                raise OptionUnknown(f"git {opt}")
        if not args:
            # git prints its usage on stdout (in the installed git's words) and ends with 1
            return CommandResult(1, b"", b"", stdout_unknown="the usage git prints without a command")
        command, rest = args[0], args[1:]
        try:
            if command == "init":
                self.init(rest)
            elif command in ("add", "stage"):  # (git's stage is its add by another name)
                self.add(rest)
            elif command == "commit":
                self.commit(rest)
            elif command == "config":
                self.configure(rest)
            elif command == "branch":
                self.rename_branch(rest)
            elif command in _READERS:
                self.read_only(command, rest)
            else:
                self.not_a_command(command)
            status = 0
        except _Exit as done:
            status = done.status
            if done.stderr is None:
                self.err_known = False
            else:
                self.err.append(done.stderr)
            if done.stdout is None:
                self.out_known = False
            else:
                self.out.append(done.stdout)
        return CommandResult(status, "".join(self.out).encode("utf-8", "surrogateescape"),
                             "".join(self.err).encode("utf-8", "surrogateescape"),
                             status_unknown=None if self.status_known else f"the status of git {command}",
                             stdout_unknown=None if self.out_known else f"the output of git {command}",
                             stderr_unknown=None if self.err_known else f"the messages of git {command}")

    def not_a_command(self, command: str):
        """A command git does not have: "git: 'X' is not a git command", status 1 (with the
        commands most like it, not spelled). Decided when X is no alias in the configuration
        (git reads it first: a key the model does not follow, such as help.autocorrect, which
        runs a guess, is refused) and no git-X program is in git's exec path or on PATH, which
        hold every builtin but BUILTINS_WITHOUT_PROGRAM."""
        if command in BUILTINS_WITHOUT_PROGRAM or "/" in command:
            raise OptionUnknown(f"git {command}")  # a builtin, or a path run as a program
        repo = _find_repo(self.tree, self.cwd)
        if repo is not None:
            repo.check_safe()
        if f"alias.{command.lower()}" in self.config(repo):
            raise OptionUnknown(f"git {command} (an alias)")
        dashed = "git-" + command
        folders = [GIT_EXEC_PATH] + (self.env.get("PATH") or "").split(":")
        for folder in folders:
            names = programs_in(os.path.normpath(folder)) if folder.startswith("/") else None
            if names is None or dashed in names:
                raise OptionUnknown(f"git {command} (a git-{command} program in {folder or '.'} is not ruled out)")
        raise _Exit(1, None)

    def read_only(self, command: str, args: list):
        """A command that reads: its output is not spelled; its status is known for plain
        arguments (``_PLAIN_READS``)."""
        if any(a.startswith(("--output", "-o")) for a in args):
            raise OptionUnknown(f"git {command} writing a file")
        if command not in _IN_REPOSITORY_ONLY and _find_repo(self.tree, self.cwd) is None and \
                not (command == "rev-parse" and set(args) <= _REV_PARSE_IN_REPO):
            # outside a repository git diff compares paths (--no-index), shortlog reads its
            # stdin, rev-parse --sq-quote quotes: not followed
            raise OptionUnknown(f"git {command} outside a repository")
        repo = self.repo()
        self.config(repo)
        self.out_known = False
        known, prefixes = _PLAIN_READS.get(command, (None, ()))
        if known is None or any(a not in known and not a.startswith(prefixes) for a in args):
            self.status_known = False
            raise _Exit(0, None)
        needs_head = command in ("log", "show")
        if needs_head and repo.store.head()[1] is None:
            raise _Exit(128, None)

    def repo(self) -> _Repo:
        found = _discover(self.tree, self.cwd)
        if type(found) is str:
            raise _Exit(128, found)
        found.check_safe()
        return found

    # git init
    def init(self, args: list):
        quiet, branch, template, where = False, None, None, []
        while args:
            arg = args.pop(0)
            if arg in ("-q", "--quiet"):
                quiet = True
            elif arg in ("-b", "--initial-branch") and args:
                branch = args.pop(0)
            elif arg.startswith("--initial-branch="):
                branch = arg.partition("=")[2]
            elif arg.startswith("-b") and len(arg) > 2:
                branch = arg[2:]
            elif arg.startswith("--template="):
                template = arg.partition("=")[2]
            elif arg == "--":
                where += args
                args = []
            elif arg.startswith("-"):
                raise OptionUnknown(f"git init {arg}")
            else:
                where.append(arg)
        if len(where) > 1 or template not in (None, ""):
            raise OptionUnknown("git init with these arguments")
        if branch is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", branch) or \
                branch is not None and (".." in branch or branch.endswith((".lock", "/", "."))):
            raise OptionUnknown(f"git init -b {branch!r}")
        top = os.path.normpath(join(self.cwd, where[0])) if where else self.cwd
        config = self.config(None)
        if not self.tree.is_dir(top):
            base = top
            while not self.tree.lexists(base):
                base = posixpath.dirname(base)
            _makedirs(self.tree, base, top[len(base):])
        dotgit = top.rstrip("/") + "/.git"
        if self.tree.lexists(dotgit):
            found = _find_repo(self.tree, top)
            if found is None or found.top != top:
                raise Unreadable("git init beside another repository")
            found.check_safe()
            self.config(found)
            # a second init keeps HEAD and the config, and adds the template's missing files
            if template != "":
                _copy_template(self.tree, dotgit, missing_only=True)
            if branch is not None:
                self.err.append(f"warning: re-init: ignored --initial-branch={branch}\n")
            if not quiet:
                self.out_known = False  # "Reinitialized existing Git repository in <the path>"
            return
        hint = ""
        if branch is None:
            branch = config.get("init.defaultbranch")
            if branch is None:
                branch, hint = "master", _DEFAULT_BRANCH_HINT
            elif not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", branch):
                raise Unreadable(f"init.defaultBranch={branch!r}")
        lay_repository(self.tree, top, branch, template != "")
        if not quiet:
            self.err.append(hint)
            self.out_known = False  # "Initialized empty Git repository in <the task directory's path>"

    # git branch -m/-M: the one change of branches the model follows, renaming
    def rename_branch(self, args: list):
        if not args or args[0] not in ("-m", "-M", "--move") or len(args) not in (2, 3):
            raise OptionUnknown("git branch without -m NAME")
        force = args[0] == "-M"
        repo = self.repo()
        config = self.config(repo)
        branch, head = repo.store.head()
        if branch is None:
            raise Unreadable("a detached HEAD")
        old = f"refs/heads/{args[1]}" if len(args) == 3 else branch
        new = f"refs/heads/{args[-1]}"
        for name in (old, new):
            if not re.fullmatch(r"refs/heads/[A-Za-z0-9][A-Za-z0-9._-]*", name) or name.endswith((".lock", ".")) \
                    or ".." in name:
                raise OptionUnknown(f"git branch -m with the name {name[11:]!r}")
        old_id = repo.read(old)
        if old_id is None and old != branch:
            raise _Exit(128, f"fatal: No branch named '{old[11:]}'.\n")
        if new != old and (repo.read(new) is not None or self.tree.lexists(f"{repo.gitdir}/logs/{new}")):
            if not force or old_id is None:
                raise Unreadable(f"git branch -m onto the existing branch {new[11:]}")
            raise Unreadable("git branch -M replacing a branch")
        if old_id is None:
            # an unborn branch: only HEAD names the new one
            if new != old:
                repo.write("HEAD", f"ref: {new}\n".encode())
            return
        name, email = self.identity(config, "committer")
        oid = old_id.decode().strip()
        who = f"{name} <{email}> {DATE}\tBranch: renamed {old} to {new}\n"
        log = repo.read(f"logs/{old}")
        # git deletes the old name and creates the new one (a rename onto itself too):
        # HEAD's log shows both steps, the branch's log one line
        previous = oid if new == old else gitstore.ZERO
        self.tree.remove(f"{repo.gitdir}/{old}")
        repo.write(new, old_id)
        if log is not None:
            self.tree.remove(f"{repo.gitdir}/logs/{old}")
            repo.write(f"logs/{new}", log + f"{oid} {oid} {who}".encode("utf-8", "surrogateescape"))
        if old == branch:
            repo.write("HEAD", f"ref: {new}\n".encode())
            head_log = (repo.read("logs/HEAD") or b"") + \
                f"{oid} {gitstore.ZERO} {who}{previous} {oid} {who}".encode("utf-8", "surrogateescape")
            repo.write("logs/HEAD", head_log)

    # git config
    def configure(self, args: list):
        scope = None
        while args and args[0].startswith("-"):
            arg = args.pop(0)
            if arg in ("--local", "--global"):
                scope = arg[2:]
            elif arg == "--get" and len(args) == 1:
                continue
            else:
                raise OptionUnknown(f"git config {arg}")
        if len(args) not in (1, 2):
            raise OptionUnknown("git config with these arguments")
        key = args[0]
        section, dot, name = key.rpartition(".")
        if not dot or not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", name) or not re.fullmatch(r"[A-Za-z0-9-]+",
                                                                                           section):
            raise OptionUnknown(f"git config {key!r}")
        key = f"{section.lower()}.{name.lower()}"
        repo = _find_repo(self.tree, self.cwd)
        if len(args) == 1:
            if scope is not None:
                raise OptionUnknown(f"git config --{scope} reading a key")
            value = self.config(repo).get(key, False)
            if value is False:
                raise _Exit(1)
            self.out.append(("true" if value is None else value) + "\n")
            return
        value = args[1]
        if "\0" in value:
            raise OptionUnknown("a config value with a NUL")
        if scope == "global":
            xdg, path = self.global_files()
            if self.tree.lexists(xdg):
                raise Unreadable("git config --global with an XDG config file")
        else:
            if repo is None:
                raise Unreadable("git config outside a repository")
            repo.check_safe()
            path = repo.gitdir + "/config"
        self.config(repo)
        if not (key in _FOLLOWED and value.lower() == _FOLLOWED[key]) and not _HARMLESS.match(key):
            raise Unreadable(f"setting the configuration key {key}")
        text = self.tree.read_bytes(path).decode("utf-8", "surrogateescape") if self.tree.exists(path) else ""
        if text and not text.endswith("\n"):
            raise Unreadable("a config file without a final newline")
        data = gitstore.set_config(text, f"{section.lower()}.{name}", value).encode("utf-8", "surrogateescape")
        existed = self.tree.exists(path)
        self.tree.write_bytes(path, data)
        if not existed:
            self.tree.chmod(path, 0o644)

    # the work tree
    def worktree(self, repo: _Repo) -> dict:
        """``{path relative to the top: (mode, bytes)}`` of every file git would see."""
        files: dict = {}
        top = repo.top.rstrip("/")
        for path in self.tree.walk(repo.top):
            rel = path[len(top) + 1:]
            if not rel:
                continue
            parts = rel.split("/")
            if ".git" in parts:
                if rel != ".git" and parts[0] != ".git":
                    raise Unreadable(f"a nested repository at {rel}")
                continue
            name = parts[-1]
            if name in (".gitignore", ".gitattributes", ".gitmodules"):
                raise Unreadable(f"{rel} (ignore and attribute rules are not modelled)")
            if not self.tree.is_symlink(path):
                # permissions are not modelled (and the sandbox's user may pass them by)
                needed = 0o500 if self.tree.is_dir(path) else 0o400
                if self.tree.mode(path) & needed != needed:
                    raise Unreadable(f"{rel} with mode {self.tree.mode(path):o}")
            if self.tree.is_symlink(path):
                files[rel] = (gitstore.SYMLINK, self.tree.readlink(path).encode("utf-8", "surrogateescape"))
            elif self.tree.is_file(path):
                mode = self.tree.mode(path)
                files[rel] = (gitstore.EXECUTABLE if mode & 0o100 else gitstore.FILE, self.tree.read_bytes(path))
        for rel in ("git/ignore", "git/attributes"):
            xdg = (self.env.get("XDG_CONFIG_HOME") or self.home().rstrip("/") + "/.config").rstrip("/")
            if self.tree.lexists(f"{xdg}/{rel}"):
                raise Unreadable(f"{xdg}/{rel}")
        return files

    def pathspec(self, repo: _Repo, spec: str) -> str:
        """A pathspec as a path relative to the top ('' for all of it)."""
        if not spec:
            raise OptionUnknown("an empty pathspec")
        if re.search(r"[*?\[\\]", spec) or spec.startswith(":"):
            raise OptionUnknown(f"the pathspec {spec!r} (globs and magic are not modelled)")
        full = os.path.normpath(join(self.cwd, spec))
        top = repo.top.rstrip("/")
        if full != top and not full.startswith(top + "/"):
            raise Unreadable(f"the pathspec {spec!r} outside the repository")
        rel = full[len(top) + 1:]
        parts = rel.split("/") if rel else []
        for n in range(1, len(parts)):
            if self.tree.is_symlink(top + "/" + "/".join(parts[:n])):
                raise Unreadable(f"the pathspec {spec!r} beyond a symbolic link")
        return rel

    @staticmethod
    def matches(rel: str, path: str) -> bool:
        return not rel or path == rel or path.startswith(rel + "/")

    def stage(self, repo: _Repo, index: dict, files: dict, paths):
        for path in paths:
            if path in files:
                mode, data = files[path]
                index[path] = (mode, repo.put_object("blob", data))
            else:
                index.pop(path, None)

    # git add
    def add(self, args: list):
        switch = _unknown_switch(args, _ADD_SWITCHES)
        if switch is not None:
            # git finds the repository, then parse-options reads every option before add acts:
            # "error: unknown switch `q'", the usage and the whole option list (not spelled), 129
            self.repo()
            raise _Exit(129, None)
        mode, specs, done = None, [], False
        for arg in args:
            if done or not arg.startswith("-") or arg == "-":
                specs.append(arg)
            elif arg == "--":
                done = True
            elif arg in ("-A", "--all"):
                mode = "all"
            elif arg in ("-u", "--update"):
                mode = "update"
            elif arg in ("-f", "--force"):
                continue
            else:
                raise OptionUnknown(f"git add {arg}")
        repo = self.repo()
        config = self.config(repo)
        if not specs and mode is None:
            if "advice.addemptypathspec" in config:
                raise Unreadable("advice.addEmptyPathspec")
            self.err.append(_EMPTY_ADD)
            return
        rels = [self.pathspec(repo, spec) for spec in specs] or [""]
        files = self.worktree(repo)
        index = repo.index()
        for spec, rel in zip(specs, rels):
            if not any(self.matches(rel, p) for p in list(files) + list(index)):
                raise _Exit(128, f"fatal: pathspec '{spec}' did not match any files\n")
        chosen = {p for p in set(files) | set(index) if any(self.matches(rel, p) for rel in rels)}
        if mode == "update":
            chosen &= set(index)
        before = dict(index)
        self.stage(repo, index, files, sorted(chosen))
        if index != before:  # git leaves an index that did not change as it is
            repo.write_index(index)

    # git commit
    def commit(self, args: list):
        messages, files_from, quiet, allow_empty, allow_empty_message = [], [], False, False, False
        all_tracked, cleanup, amend, no_edit = False, "default", False, False
        repo = self.repo()  # git finds the repository before it reads the options
        paths: list = []
        queue = list(args)
        while queue:
            arg = queue.pop(0)
            if arg == "--":
                paths += queue
                break
            if not arg.startswith("-") or arg == "-":
                paths.append(arg)
                continue
            if arg.startswith("--"):
                name, eq, value = arg[2:].partition("=")
                takes = name in ("message", "file", "cleanup")
                if takes and not eq:
                    if not queue:  # parse-options' error, before anything is read
                        raise _Exit(129, f"error: option `{name}' requires a value\n")
                    value = queue.pop(0)
                elif eq and not takes:
                    raise OptionUnknown(f"git commit {arg}")
                if name == "message":
                    messages.append(value)
                elif name == "file":
                    files_from.append(value)
                elif name == "cleanup":
                    cleanup = value
                elif name == "quiet":
                    quiet = True
                elif name == "allow-empty":
                    allow_empty = True
                elif name == "allow-empty-message":
                    allow_empty_message = True
                elif name == "all":
                    all_tracked = True
                elif name == "amend":
                    amend = True
                elif name == "no-edit":
                    no_edit = True
                elif name in ("no-verify", "no-gpg-sign"):
                    continue
                else:
                    raise OptionUnknown(f"git commit {arg}")
                continue
            j = 1
            while j < len(arg):
                c = arg[j]
                j += 1
                if c in "mF":
                    value = arg[j:]
                    if not value:
                        if not queue:
                            raise _Exit(129, f"error: switch `{c}' requires a value\n")
                        value = queue.pop(0)
                    (messages if c == "m" else files_from).append(value)
                    break
                if c == "q":
                    quiet = True
                elif c == "a":
                    all_tracked = True
                elif c == "n":
                    continue
                else:
                    raise OptionUnknown(f"git commit -{c}")
        # git checks the options and the pathspecs before it opens an editor for the message
        editor = not messages and not files_from and not (amend and no_edit)
        branch, head = repo.store.head()
        if branch is None:
            raise Unreadable("a detached HEAD")
        if amend and head is None:
            raise _Exit(128, "fatal: You have nothing to amend.\n")
        if amend and any(key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL") for key in self.env):
            raise Unreadable("git commit --amend with the author in the environment")
        for key in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
            if key in self.env and not re.fullmatch(r"@?\d+ [+-]\d{4}", self.env[key]):
                raise Unreadable(f"${key} in a form git may refuse")
        if messages and files_from:
            raise _Exit(128, "fatal: options '-m' and '-F' cannot be used together\n")
        if len(files_from) > 1:
            raise OptionUnknown("git commit with -F more than once")
        if cleanup not in ("default", "whitespace", "strip", "verbatim"):
            raise OptionUnknown(f"git commit --cleanup={cleanup}")
        if paths and all_tracked:
            raise _Exit(128, f"fatal: paths '{paths[0]} ...' with -a does not make sense\n")
        if paths and amend:
            raise OptionUnknown("git commit --amend with pathspecs")
        config = self.config(repo)
        parents, old = ([head] if head else []), None
        if amend:
            old = gitstore.parse_commit(repo.store.object(head)[1])
            parents = old[0].get("parent", [])
        index = repo.index()
        files = self.worktree(repo)
        if all_tracked:
            self.stage(repo, index, files, sorted(index))
        staged = index
        if paths:
            # a partial commit: HEAD's files with the named ones as the work tree has them;
            # the index gets the same update, kept only if the commit is made
            rels = [self.pathspec(repo, spec) for spec in paths]
            at_head = gitstore.flatten_tree(repo.store, old_tree(repo, head)) if head else {}
            known = set(index) | set(at_head)
            missing = [spec for spec, rel in zip(paths, rels) if not any(self.matches(rel, p) for p in known)]
            if missing:
                raise _Exit(1, "".join(f"error: pathspec '{spec}' did not match any file(s) known to git\n"
                                       for spec in missing))
            chosen = sorted(p for p in known if any(self.matches(rel, p) for rel in rels))
            self.stage(repo, index, files, chosen)
            staged = dict(at_head)
            self.stage(repo, staged, files, chosen)
            for oid, body in gitstore.tree_entries(index):  # the index's own trees come first
                repo.put_object("tree", body)
        if editor:
            raise OptionUnknown("git commit without -m or -F (it opens an editor)")
        # git writes the index and its trees first, then asks who commits and reads the message;
        # with -a the new index is kept only if the commit is made
        if not all_tracked and not paths:
            repo.write_index(index)
        entries = gitstore.tree_entries(staged)
        if not paths:
            for oid, body in entries:
                repo.put_object("tree", body)
        root_tree = entries[-1][0]
        author = self.identity(config, "author")
        committer = self.identity(config, "committer")
        if not messages and not files_from:
            raw = old[1]
        elif messages:
            text = ""
            for message in messages:
                if text:
                    text += "\n"
                text += message
                if text and not text.endswith("\n"):
                    text += "\n"
            raw = text.encode("utf-8", "surrogateescape")
        else:
            raw = self.message_file(files_from[0])
        if b"\0" in raw:
            raise Unreadable("a commit message with a NUL byte")
        text = raw.decode("utf-8", "surrogateescape")
        edited = text if cleanup == "verbatim" else cleanup_message(text)
        repo.write("COMMIT_EDITMSG", edited.encode("utf-8", "surrogateescape"))
        # what the commit would change: against HEAD, or for --amend against HEAD's parent
        if parents:
            headers, _ = gitstore.parse_commit(repo.store.object(parents[0])[1])
            unchanged = headers.get("tree") == [root_tree]
        else:
            unchanged = not staged
        if unchanged and not allow_empty and amend:
            raise _Exit(1, _EMPTY_AMEND, None)
        if unchanged and not allow_empty:
            raise _Exit(1, "", None)  # the status listing names what is untracked: not spelled here
        if paths:
            # a partial commit's own trees come once there is something to commit (measured:
            # nothing to commit writes no empty tree; an empty message comes after them)
            for oid, body in entries:
                repo.put_object("tree", body)
        message = cleanup_message(edited, strip_comments=True) if cleanup == "strip" else edited
        if not message and not allow_empty_message:
            raise _Exit(1, "Aborting commit due to empty commit message.\n")
        try:
            message.encode("utf-8")
        except UnicodeEncodeError:
            self.err_known = False  # git warns that the message is not UTF-8
        author_line = old[0]["author"][0] if amend else f"{author[0]} <{author[1]}> {DATE}"
        body = f"tree {root_tree}\n" + "".join(f"parent {p}\n" for p in parents) + \
            f"author {author_line}\ncommitter {committer[0]} <{committer[1]}> {DATE}\n\n"
        commit = repo.put_object("commit", body.encode("utf-8", "surrogateescape") +
                                 message.encode("utf-8", "surrogateescape"))
        if all_tracked or paths:
            repo.write_index(index)
        repo.write(branch, f"{commit}\n".encode())
        kind = "commit (amend)" if amend else "commit" if head else "commit (initial)"
        reason = _reflog_text(f"{kind}: {message.partition(chr(10))[0]}")
        line = f"{head or gitstore.ZERO} {commit} {committer[0]} <{committer[1]}> {DATE}\t{reason}\n"
        # a branch that does not move gets no reflog line; HEAD's log records every commit
        for log in ("logs/HEAD", "logs/" + branch) if commit != head else ("logs/HEAD",):
            repo.write(log, (repo.read(log) or b"") + line.encode("utf-8", "surrogateescape"))
        if not quiet:
            self.out_known = False  # "[master (root-commit) <id>] …": the id differs

    def message_file(self, name: str) -> bytes:
        if name == "-" or name in STDIN_NAMES:
            # /dev/stdin opens a pipe's bytes from where stdin stands, or a regular file anew
            # from its start: the same bytes where stdin's kind is known
            if self.ctx.stdin is None or name != "-" and self.ctx.stdin_regular is None:
                raise Unreadable(f"git commit -F {name} with unknown stdin")
            return self.ctx.stdin
        try:
            path = join(self.cwd, name)
            if self.tree.is_dir(path):
                raise Unreadable("git commit -F with a directory")
            return self.tree.read_bytes(path)
        except VfsError as exc:
            raise _Exit(128, f"fatal: could not read log file '{name}': {exc.strerror}\n") from None


def _copy_template(tree: VirtualTree, dotgit: str, missing_only: bool = False):
    """git's default template (the installed files, the same inside the sandbox) into ``dotgit``."""
    if not os.path.isdir(_TEMPLATES):
        raise Unreadable("git's default template, which is not installed here")
    for current, dirs, names in os.walk(_TEMPLATES):
        rel = os.path.relpath(current, _TEMPLATES)
        base = dotgit if rel == "." else f"{dotgit}/{rel}"
        if not tree.is_dir(base):
            if tree.lexists(base):
                raise Unreadable(f"{base} in the way of git's template")
            _makedirs(tree, dotgit, rel)
        for name in names:
            path = f"{base}/{name}"
            if missing_only and tree.lexists(path):
                continue
            with open(os.path.join(current, name), "rb") as handle:
                tree.write_bytes(path, handle.read())
            tree.chmod(path, os.stat(os.path.join(current, name)).st_mode & 0o777)


def lay_repository(tree: VirtualTree, top: str, branch: str = "master", template: bool = False):
    """What ``git init -b BRANCH [--template=]`` writes in ``top/.git``."""
    dotgit = top.rstrip("/") + "/.git"
    _makedirs(tree, top, ".git")
    if template:
        _copy_template(tree, dotgit)
    for rel in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
        _makedirs(tree, dotgit, rel)
    tree.write_bytes(f"{dotgit}/HEAD", f"ref: refs/heads/{branch}\n".encode())
    tree.write_bytes(f"{dotgit}/config", b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n"
                                          b"\tbare = false\n\tlogallrefupdates = true\n")


def reads_stdin(argv) -> bool:
    """Whether git may read stdin with these arguments (only ``commit -F -`` does, of what is
    modelled, and -F /dev/stdin); any word that could name stdin counts."""
    return any(not isinstance(a, str) or a == "-" or a.endswith(("=-", "F-") + STDIN_NAMES) for a in argv[1:])


def git(ctx: CommandContext) -> CommandResult:
    """git init/add/commit/config over the tree; anything else unknown."""
    try:
        return _Git(ctx).main()
    except (OptionUnknown, Unreadable) as exc:
        return unknown(str(exc))
    except VfsError as exc:
        return unknown(f"git meeting {exc}")
