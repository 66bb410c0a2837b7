"""What a run's machine answers that no file holds: the time (date), the user's name (whoami),
the machine's name (hostname), the login records (last), the programs in the system's PATH
folders (and where which finds them).

A caller states the facts of one run (``stated``); the models answer from
them and note which they read, so that a caller can run again with other
facts and keep only an outcome that does not depend on them. With no facts
stated, the commands are not modelled.

The programs are the one fact read from this machine, and only when a
caller asks for it (``system_programs``): the sandbox binds the host's
``/usr`` read-only, so the names in its fixed PATH folders are the names
bash finds there. Those folders are listed once, and the two grep wrappers
(egrep, fgrep) read once to see what they run (``grep_wrapper``); no path a
reply writes is ever looked up on the host.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import re
import stat
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Mapping, Optional

from .common import Output, OptionUnknown, guarded, quote, quote_c, scan_options
from .context import CommandContext, CommandResult
from .vfs import VfsError

__all__ = ["Facts", "stated", "watching", "consulted_values", "reconsult", "programs_in", "runnable", "system_unrunnable", "standins_folder", "system_programs", "grep_wrapper", "which", "shell_pid", "SLEPT", "sleep", "SYSTEM_FOLDERS", "GIT_EXEC_PATH", "STANDIN_PROGRAMS", "date", "whoami", "hostname", "uname", "mktemp", "temp_names", "stated_host", "MODELS"]

#: the system's PATH folders; with /bin and /sbin they are all inside the /usr the sandbox binds
SYSTEM_FOLDERS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
#: the folders above them in that /usr, stated too: a path through them (`$PATH` run as a
#: command name) is known to lead nowhere when a name on its way is not there
_ABOVE = ("/usr", "/usr/local")
#: what the harness's folder of stand-ins holds (realbash.executor._tool_dir), and nothing else
STANDIN_PROGRAMS = frozenset({"ssh"})
#: the folder of git's dashed programs (its exec path) as Debian installs it, stated when it
#: holds them: a name git runs as none of its commands is known not to be there
GIT_EXEC_PATH = "/usr/lib/git-core"


@dataclass
class Facts:
    """One run's answers: ``now`` (UTC), the login name of its user, the file of login records
    (None when the machine has none), the names in each system PATH folder (``programs``,
    a folder left out is not known); ``read`` names the facts asked that differ between runs."""

    now: _dt.datetime
    user: str
    logins: Optional[str] = None
    #: the names in each folder stated: the system PATH folders, the folders above them in /usr
    #: (system_programs), and any other the caller knows (the folder of the task directory)
    programs: Mapping[str, frozenset] = field(default_factory=dict)
    read: set = field(default_factory=set)
    # the folder the harness puts first on PATH with the stand-in ssh (realbash/standins/ssh)
    standins: Optional[str] = None
    # the machine's name (the sandbox's own, the same on every run): None when not stated
    host: Optional[str] = None
    #: how the names mktemp gives in /tmp start (``/tmp/tmp.`` and six of its random letters,
    #: different on every run: mktemp adds four), None when not stated; nothing else in the
    #: sandbox's fresh /tmp starts so, and the paths under such a name are the run's own
    temp: Optional[str] = None
    #: the process id of the harness's own bash ($$ there and in its subshells), different on
    #: every run; None when not stated
    pid: Optional[int] = None
    #: the names in a stated folder that bash's PATH search does not take for a program (a
    #: folder, a file without every execute bit: bash goes on, or says Permission denied), by
    #: folder; a name a folder lists and this leaves out is taken for a program
    unrunnable: Mapping[str, frozenset] = field(default_factory=dict)
    #: asked by a run that sleeps, its value unused: the run's ``read`` then names the sleep (a
    #: cache of runs replays it), and a time read in such a run is not the time it started at
    sleeps: bool = False
    #: the folders that start a file system of their own below the task directory's parent (the
    #: sandbox mounts the task directory so): git's discovery stops at one; None when not stated
    mounts: Optional[frozenset] = None


@lru_cache(maxsize=1)
def system_programs() -> Mapping[str, frozenset]:
    """The names in this machine's system PATH folders (SYSTEM_FOLDERS), in the folders
    above them in /usr that are folders indeed (no symlink on the way), and in git's exec path
    (GIT_EXEC_PATH), listed once."""
    found = {}
    for folder in SYSTEM_FOLDERS:
        try:
            found[folder] = frozenset(os.listdir(folder))
        except OSError:
            found[folder] = frozenset()
    for folder in _ABOVE:
        if os.path.isdir(folder) and not any(os.path.islink(f) for f in (folder, os.path.dirname(folder))):
            found[folder] = frozenset(os.listdir(folder))
    if os.path.isfile(os.path.join(GIT_EXEC_PATH, "git-add")):
        found[GIT_EXEC_PATH] = frozenset(os.listdir(GIT_EXEC_PATH))
    return found


@lru_cache(maxsize=1)
def system_unrunnable() -> Mapping[str, frozenset]:
    """For each folder of ``system_programs()``, the names that are not a regular file executable
    by anyone once symlinks are followed (/usr/bin/X11 is a folder; /usr/local/bin may hold a
    text file), read once."""
    found = {}
    for folder, names in system_programs().items():
        found[folder] = frozenset(name for name in names if not _runnable(os.path.join(folder, name)))
    return found


def _runnable(path: str) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_mode & 0o111 == 0o111


#: the text of Debian's egrep and fgrep (grep 3.8): grep with one option more, no warning
_GREP_WRAPPER = '#!/bin/sh\ncmd=${0##*/}\nexec grep %s "$@"\n'
_GREP_WRAPPERS = {"egrep": "-E", "fgrep": "-F"}


@lru_cache(maxsize=None)
def grep_wrapper(name: str) -> Optional[str]:
    """The option the machine's ``egrep`` or ``fgrep`` (``name``) adds when it runs grep, where
    each system PATH folder that holds it holds that plain wrapper (read once); None when one
    holds anything else (a grep that warns, say) or for any other name."""
    option = _GREP_WRAPPERS.get(name)
    if option is None:
        return None
    expected = (_GREP_WRAPPER % option).encode()
    found = False
    for folder in SYSTEM_FOLDERS:
        path = os.path.join(folder, name)
        if not os.path.lexists(path):
            continue
        try:
            with open(path, "rb") as handle:
                if handle.read(len(expected) + 1) != expected:
                    return None
        except OSError:
            return None
        found = True
    return option if found else None


def standins_folder() -> Optional[str]:
    """The folder holding the stand-in ssh, when the run states one."""
    _consult("standins")
    facts = _FACTS.get()
    return None if facts is None else facts.standins


def programs_in(folder: str) -> Optional[frozenset]:
    """The names in a folder outside the task directory as the run states them (a system PATH
    folder, a folder above one, git's exec path, the harness's folder of stand-ins, which
    holds STANDIN_PROGRAMS); None when not stated."""
    _consult("programs")
    facts = _FACTS.get()
    if facts is None:
        return None
    found = facts.programs.get(folder)
    if found is None and facts.standins is not None:
        _consult("standins")
        if folder == facts.standins:
            return STANDIN_PROGRAMS
    return found


def runnable(folder: str, name: str) -> bool:
    """Whether ``name``, which ``programs_in(folder)`` lists, is a program bash's PATH search
    runs (not one of the run's ``unrunnable`` names)."""
    _consult("unrunnable")
    facts = _FACTS.get()
    return facts is None or name not in facts.unrunnable.get(folder, ())


_FACTS: ContextVar[Optional[Facts]] = ContextVar("qbcore_host_facts", default=None)
# the sets of the runs being watched (``watching``), each collecting the fields of Facts asked
_WATCHERS: list = []


def _consult(field_name: str):
    for found in _WATCHERS:
        found.add(field_name)


def start_watching(found: set):
    """Collect in ``found`` the fields of Facts (``now``, ``user``, ``logins``, ``programs``,
    ``standins``) the models ask until ``stop_watching(found)``, also inside runs watched
    within: a cache of runs keys a run by the facts it consulted."""
    _WATCHERS.append(found)


def stop_watching(found: set):
    # by identity: two sets that collected the same facts are equal
    del _WATCHERS[next(n for n in range(len(_WATCHERS) - 1, -1, -1) if _WATCHERS[n] is found)]


@contextlib.contextmanager
def watching(found: set) -> Iterator[set]:
    """``start_watching(found)`` while in force."""
    start_watching(found)
    try:
        yield found
    finally:
        stop_watching(found)


#: what ``Facts.read`` holds after a run slept (not a fact that differs between runs)
SLEPT = "a sleep"
# the facts that differ between runs, as ``Facts.read`` names them
_READ_NAMES = {"now": "the time", "user": "the user's name", "logins": "the login records",
               "temp": "the names mktemp gives", "pid": "the shell's process id", "sleeps": SLEPT}


def reconsult(fields):
    """A run kept by a cache consulted ``fields`` of its facts, and is replayed: the watchers
    in force and the facts' ``read`` learn it as if the run had asked again."""
    facts = _FACTS.get()
    for name in fields:
        _consult(name)
        if facts is not None and name in _READ_NAMES:
            facts.read.add(_READ_NAMES[name])


def consulted_values(fields) -> tuple:
    """``((field, value), ...)`` of the facts in force for each of ``fields`` (None when none stated)."""
    facts = _FACTS.get()
    return tuple((name, None if facts is None else getattr(facts, name)) for name in sorted(fields))


@contextlib.contextmanager
def stated(facts: Facts) -> Iterator[Facts]:
    """Run the models with ``facts`` in force."""
    token = _FACTS.set(facts)
    try:
        yield facts
    finally:
        _FACTS.reset(token)


def _fact(field_name: str):
    _consult(field_name)
    facts = _FACTS.get()
    name = _READ_NAMES.get(field_name)
    if facts is None:
        raise OptionUnknown(f"{name or field_name}: no facts of the run stated")
    if name is not None:  # a fact that differs between runs
        facts.read.add(name)
    return facts


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_FULL_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_FULL_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December")


# GNU date's conversions, C locale, UTC: each computed only when a format asks for it
_CONVERSIONS = {
    "Y": lambda t: f"{t.year}", "m": lambda t: f"{t.month:02d}", "d": lambda t: f"{t.day:02d}",
    "e": lambda t: f"{t.day:2d}", "H": lambda t: f"{t.hour:02d}", "M": lambda t: f"{t.minute:02d}",
    "S": lambda t: f"{t.second:02d}", "y": lambda t: f"{t.year % 100:02d}",
    "a": lambda t: _DAYS[t.weekday()], "A": lambda t: _FULL_DAYS[t.weekday()],
    "b": lambda t: _MONTHS[t.month - 1], "h": lambda t: _MONTHS[t.month - 1],
    "B": lambda t: _FULL_MONTHS[t.month - 1], "j": lambda t: f"{t.timetuple().tm_yday:03d}",
    "Z": lambda t: "UTC", "z": lambda t: "+0000", "s": lambda t: f"{int(t.timestamp())}",
    "u": lambda t: f"{t.isoweekday()}", "w": lambda t: f"{t.isoweekday() % 7}",
    "p": lambda t: "AM" if t.hour < 12 else "PM", "I": lambda t: f"{(t.hour + 11) % 12 + 1:02d}",
    "n": lambda t: "\n", "t": lambda t: "\t", "%": lambda t: "%",
}
_COMPOSITES = {"F": "%Y-%m-%d", "T": "%H:%M:%S", "D": "%m/%d/%y", "R": "%H:%M", "c": "%a %b %e %H:%M:%S %Y"}


def _directive(c: str, t: _dt.datetime) -> str:
    """One conversion of GNU date's format, C locale, UTC."""
    conversion = _CONVERSIONS.get(c)
    if conversion is not None:
        return conversion(t)
    if c in _COMPOSITES:
        return _render(_COMPOSITES[c], t)
    raise OptionUnknown(f"date %{c}")  # also the flags, widths and modifiers (%-d, %5Y, %Ey, %:z)


def _render(fmt: str, t: _dt.datetime) -> str:
    out, i = [], 0
    while i < len(fmt):
        if fmt[i] != "%":
            out.append(fmt[i])
            i += 1
            continue
        if i + 1 >= len(fmt):
            out.append("%")  # a lone % at the end stays
            break
        out.append(_directive(fmt[i + 1], t))
        i += 2
    return "".join(out)


# what `date` prints with no format, under TZ unset and no /etc/localtime (the sandbox's UTC)
DEFAULT_FORMAT = "%a %b %e %H:%M:%S %Z %Y"


#: the longest sleep followed, in seconds: far inside the executor's wall clock (sandbox.Limits)
_LONGEST_SLEEP = 2.0
_INTERVAL = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([smhd]?)")
# what strtod reads beyond plain decimals (infinities, NaN, hexadecimal, an exponent)
_STRTOD_MORE = re.compile(r"(?i)inf|nan|0x|[0-9.]e|^[\s+]")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


@guarded
def sleep(ctx: CommandContext) -> CommandResult:
    """coreutils sleep: the sum of its intervals (a number and s, m, h or d), changing nothing.
    A sleep longer than _LONGEST_SLEEP, or a number written otherwise (inf, hex, an exponent),
    is unknown; a run that sleeps and reads the time is left unknown by predict."""
    args = ctx.argv[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    elif any(arg.startswith("-") and arg != "-" for arg in args):
        raise OptionUnknown("sleep with an option or a negative interval")
    out = Output("sleep")
    if not args:
        out.usage("missing operand")
        return out.result()
    total = 0.0
    for arg in args:
        found = _INTERVAL.fullmatch(arg)
        if found is None:
            if _STRTOD_MORE.search(arg):
                raise OptionUnknown(f"sleep {arg!r} (a number strtod may read)")
            out.error(f"invalid time interval {quote(arg)}")
            continue
        total += float(found.group(1)) * _UNITS[found.group(2)]
    if out.status:
        out.err += b"Try 'sleep --help' for more information.\n"
        return out.result()
    if total > _LONGEST_SLEEP:
        raise OptionUnknown(f"sleep for {total:g} seconds (the executor's wall clock may end the run)")
    _fact("sleeps")
    return out.result()


@guarded
def date(ctx: CommandContext) -> CommandResult:
    """GNU date printing the current time: no operand or ``+FORMAT``, ``-u``; UTC."""
    if ctx.env.get("TZ") not in (None, "", "UTC", "UTC0"):
        raise OptionUnknown("date under a TZ of its own")
    fmt = DEFAULT_FORMAT
    args = ctx.argv[1:]
    while args and args[0] in ("-u", "--utc", "--universal"):
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) > 1 or args and not args[0].startswith("+"):
        raise OptionUnknown(f"date {' '.join(args)}")
    if args:
        fmt = args[0][1:]
    out = Output("date")
    out.out += (_render(fmt, _fact("now").now) + "\n").encode("utf-8", "surrogateescape")
    return out.result()


@guarded
def whoami(ctx: CommandContext) -> CommandResult:
    """coreutils whoami: the login name of the effective user."""
    if len(ctx.argv) > 1:
        raise OptionUnknown(f"whoami {ctx.argv[1]}")
    out = Output("whoami")
    out.out += (_fact("user").user + "\n").encode()
    return out.result()




@guarded
def hostname(ctx: CommandContext) -> CommandResult:
    """hostname (Debian's) showing the machine's name: no operand, or ``-s``/``--short`` (up to
    its first dot); any other use (setting it, the FQDN, the addresses) is not modelled."""
    if ctx.argv[1:] not in ([], ["-s"], ["--short"]):
        raise OptionUnknown(f"hostname {' '.join(ctx.argv[1:])}")
    if not any("hostname" in (programs_in(folder) or ()) for folder in ("/usr/bin", "/bin")):
        raise OptionUnknown("hostname: not in /usr/bin here")  # bash would not find it
    name = _fact("host").host
    if name is None:
        raise OptionUnknown("hostname: the machine's name is not stated")
    if len(ctx.argv) > 1:
        name = name.split(".", 1)[0]
    out = Output("hostname")
    out.out += (name + "\n").encode("utf-8", "surrogateescape")
    return out.result()


#: what uname prints for the fields the model follows, in its order: the kernel's name and the
#: operating system are the same wherever the sandbox runs; the machine's name is a fact stated
_UNAME_FIELDS = (("s", "kernel-name"), ("n", "nodename"), ("o", "operating-system"))


@guarded
def uname(ctx: CommandContext) -> CommandResult:
    """coreutils uname for the kernel's name (the default, ``-s``), the machine's (``-n``) and
    the operating system (``-o``), spaced in that order; the kernel's release and version and
    the hardware (``-r -v -m -p -i``, ``-a``) differ between machines and are not modelled."""
    longs = {long: (letter, False) for letter, long in _UNAME_FIELDS}
    opts, operands = scan_options(ctx.argv, "sno", longs=longs)
    if operands:
        raise OptionUnknown("uname with an operand")
    if "uname" not in (programs_in("/usr/bin") or ()):
        raise OptionUnknown("uname: not in /usr/bin here")  # bash would not find it
    asked = {letter for letter, _ in opts} or {"s"}
    words = []
    for letter, _ in _UNAME_FIELDS:
        if letter not in asked:
            continue
        if letter == "n":
            host = _fact("host").host
            if host is None:
                raise OptionUnknown("uname -n: the machine's name is not stated")
            words.append(host)
        else:
            words.append("Linux" if letter == "s" else "GNU/Linux")
    out = Output("uname")
    out.out += (" ".join(words) + "\n").encode("utf-8", "surrogateescape")
    return out.result()


@guarded
def last(ctx: CommandContext) -> CommandResult:
    """util-linux last where the machine keeps no login records: it cannot open them, whatever
    names or terminals it was asked about."""
    if any(a.startswith("-") for a in ctx.argv[1:]):
        raise OptionUnknown("last with options")
    if "last" not in (programs_in("/usr/bin") or ()):
        raise OptionUnknown("last: not in /usr/bin here")  # bash would not find it
    facts = _fact("logins")
    if facts.logins is not None:
        raise OptionUnknown("last over login records")
    out = Output("last")
    out.error("cannot open /var/log/wtmp: No such file or directory")
    return out.result()


def shell_pid() -> Optional[str]:
    """$$ of the harness's own bash: its process id as the run states it (a fact that differs
    between runs), None when not stated."""
    facts = _fact("pid") if _FACTS.get() is not None else None
    return None if facts is None or facts.pid is None else str(facts.pid)


def starts_filesystem(path: str) -> Optional[bool]:
    """Whether ``path`` is a folder the run states a file system of its own starts at (None
    when the run states none). A yes names the task directory, which differs between runs."""
    _consult("mounts")
    facts = _FACTS.get()
    if facts is None or facts.mounts is None:
        return None
    if path in facts.mounts:
        facts.read.add("the task directory's path")
        return True
    return False


def temp_names() -> Optional[str]:
    """Facts.temp of the run in force, unread (a path under it is one the run made: the
    tree's bounds ask, not the outcome)."""
    facts = _FACTS.get()
    return None if facts is None else facts.temp


def stated_host() -> Optional[str]:
    """Facts.host of the run in force, unread: the name a new bash gives $HOSTNAME (a start
    variable, whose reads the cache of runs watches by value)."""
    facts = _FACTS.get()
    return None if facts is None else facts.host


#: the letters GNU mktemp draws a name from
_TEMP_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


@guarded
def mktemp(ctx: CommandContext) -> CommandResult:
    """coreutils mktemp: a new empty file (mode 0600), or with ``-d`` a new folder (0700), its
    path on stdout. With no template it is ``tmp.`` and ten random characters in /tmp, or in
    DIR with ``-p DIR``/``--tmpdir=DIR``; a TEMPLATE names it from the working directory (from
    DIR under -p), its run of X's before the last X's end replaced and what follows kept
    (``out.XXX.txt``). The random characters are Facts.temp's letters, then a number counting
    names already taken. Its messages: too few X's, an absolute template under -p, a folder
    that is not there (quiet under ``-q``). A TMPDIR in the environment stands for /tmp. ``-u``,
    ``-t``, ``--suffix``, the root folder as DIR, more than ten X's, an X's end with a slash
    after it, and a second template are not modelled."""
    opts, names = scan_options(ctx.argv, "dq", with_arg="p", longs={
        "directory": ("d", False), "quiet": ("q", False), "tmpdir": ("p", "optional")})
    chosen = dict(opts)
    if len(names) > 1:
        raise OptionUnknown("mktemp with several templates")
    # the folder: -p's; with an empty one, a bare --tmpdir or no template, the environment's
    # TMPDIR when it is not empty, else /tmp; with a template and neither option, none: the
    # template names the path
    where = chosen.get("p") or ctx.env.get("TMPDIR") or "/tmp" if "p" in chosen or not names else ""
    if not isinstance(where, str):
        raise OptionUnknown("mktemp under a TMPDIR not known")
    if where.endswith("/"):
        # (the name is joined as gnulib's file_name_concat does: the folder's trailing slashes go)
        if not where.strip("/"):
            raise OptionUnknown("mktemp in the root folder")
        where = where.rstrip("/")
    template = names[0] if names else "tmp.XXXXXXXXXX"
    out = Output("mktemp")
    if where and template.startswith("/"):
        out.error(f"invalid template, {quote_c(template)}; with --tmpdir, it may not be absolute")
        return out.result()
    end = template.rfind("X") + 1
    count = end - len(template[:end].rstrip("X"))
    if "/" in template[end:] or count > 10:
        raise OptionUnknown("mktemp with more than ten X's, or a slash after them")
    if count < 3:
        if where:
            raise OptionUnknown("mktemp -p with too few X's (the template named in the message)")
        out.error(f"too few X's in template {quote_c(template)}")
        return out.result()
    letters = _fact("temp").temp
    if letters is None or not letters.startswith("/tmp/tmp.") or not set(letters[9:]) <= _TEMP_LETTERS:
        raise OptionUnknown("mktemp: the names it gives are not stated")
    digits = min(4, count - 2)
    full = f"{where}/{template}" if where else template
    stem = full[:len(full) - len(template) + end - count]  # DIR/ and the template before its X's
    tree = ctx.files
    n = 0
    while True:
        if n >= 10 ** digits:
            raise OptionUnknown("mktemp: more names from one template than the model gives")
        path = f"{stem}{letters[9:9 + count - digits]}{n:0{digits}d}{template[end:]}"
        if not tree.lexists(path):
            break
        n += 1
    try:
        if "d" in chosen:
            tree.mkdir(path)
            tree.chmod(path, 0o700)
        else:
            tree.write_bytes(path, b"")
            tree.chmod(path, 0o600)
    except VfsError as exc:
        if "q" not in chosen:
            what = "directory" if "d" in chosen else "file"
            out.error(f"failed to create {what} via template {quote_c(full)}: {exc.strerror}")
        else:
            out.status = 1
        return out.result()
    out.out += (path + "\n").encode("utf-8", "surrogateescape")
    return out.result()


@guarded
def which(ctx: CommandContext) -> CommandResult:
    """debianutils which (a sh script): for each name, the first folder of PATH that holds it
    (all of them with ``-a``), as ``FOLDER/NAME``; status 1 when one is found nowhere, or with
    no name. The model takes a name the distribution's system folders list for an executable
    file (which tests ``-f`` and ``-x``); one the run states ``unrunnable`` is not modelled,
    nor a name with a slash, a folder of PATH that is relative or not stated,
    or any other option."""
    args = ctx.argv[1:]
    every = False
    while args and args[0][:1] == "-" and args[0] != "-":
        if args[0] == "--":
            args = args[1:]
            break
        if set(args[0][1:]) != {"a"}:
            raise OptionUnknown(f"which {args[0]}")
        every = True
        args = args[1:]
    path = ctx.env.get("PATH")
    if not isinstance(path, str):
        raise OptionUnknown("which with PATH unset or not known")
    if path[-1:] == ":" and path[-2:-1] not in ("", ":"):
        path += ":"  # (the script's own adjustment, before it splits PATH on colons)
    folders = [folder or "." for folder in path.split(":")]
    if path.endswith(":"):
        folders.pop()  # (word splitting drops the last empty field)
    out = Output("which")
    status = 0 if args else 1
    for name in args:
        if "/" in name or not name:
            raise OptionUnknown("which of a path")
        found = False
        for folder in folders:
            names = programs_in(folder) if folder.startswith("/") else None
            if names is None:
                raise OptionUnknown(f"which over a folder of PATH not stated ({folder})")
            if name in names:
                if not runnable(folder, name):
                    # (which goes on past a folder or a file without the x bit: not followed)
                    raise OptionUnknown(f"which of {folder}/{name}, which is not a program")
                out.out += f"{folder}/{name}\n".encode("utf-8", "surrogateescape")
                found = True
                if not every:
                    break
        if not found:
            status = 1
    out.status = status
    return out.result()


MODELS = {"date": date, "sleep": sleep, "whoami": whoami, "hostname": hostname, "uname": uname, "last": last,
          "mktemp": mktemp, "which": which}
