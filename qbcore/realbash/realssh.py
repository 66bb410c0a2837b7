"""A private OpenSSH server for the ssh transports, started inside each attempt's sandbox.

Keys (host and user, ed25519) and configuration are generated once per run;
each attempt then starts ``sshd`` on loopback inside its own network
namespace (so nothing outside the sandbox can reach it, and it dies with the
attempt), waits until it listens, and runs the harness with an ``ssh`` on
PATH that reaches it with the same ``ssh HOST ...`` argv, key-only, landing
in the task directory. This checks the stand-in ssh against the real thing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass

from . import sandbox
from ..harness import transports
from ..harness.quoting import single_quote

__all__ = ["RealSSHUnavailable", "Keys", "Server", "available", "default_server"]

# where the generated keys and configs appear inside the sandbox
INSIDE = "/tmp/.qbcore-ssh"
SSHD = "/usr/sbin/sshd"
USER = "qbuser"  # executor.LOGIN: the harness and the server agree on the login name


class RealSSHUnavailable(RuntimeError):
    """OpenSSH (sshd, ssh, ssh-keygen) is missing, so --real-ssh cannot run."""


def available() -> str | None:
    """None when a real server can be used here, else the reason it cannot."""
    missing = [p for p in (SSHD, shutil.which("ssh"), shutil.which("ssh-keygen")) if not p or not os.path.exists(p)]
    if missing or not shutil.which("ssh") or not shutil.which("ssh-keygen"):
        return "OpenSSH is not installed (need sshd, ssh and ssh-keygen; Debian: apt-get install openssh-server openssh-client)"
    return None


@dataclass(frozen=True)
class Keys:
    """The generated material of one run (a folder on the host), picklable for worker processes."""

    folder: str
    port: int
    ssh_binary: str


def _free_port() -> int:
    # any port is free in the sandbox's own network namespace; asking the
    # kernel for one keeps the choice out of the way of anything on the host
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _keygen(path: str, comment: str):
    done = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise RealSSHUnavailable(f"ssh-keygen failed: {done.stderr.strip()}")


def _write(path: str, text: str, mode: int = 0o644):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(path, mode)


def _accepts_no_reexec(config: str, uid: int, gid: int) -> bool:
    """Does this sshd take -r (no re-exec per connection, ~0.1 s faster)? Newer ones may not."""
    drop = {"user": uid, "group": gid, "extra_groups": []} if os.geteuid() == 0 else {}
    try:
        done = subprocess.run([SSHD, "-t", "-r", "-f", config, "-o", f"HostKey={os.path.dirname(config)}/host_key"],
                              capture_output=True, stdin=subprocess.DEVNULL, timeout=10, **drop)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


class Server:
    """One run's server material; ``wrap`` turns a harness argv into one that talks to a fresh sshd."""

    def __init__(self, keys: Keys, owned: bool):
        self.keys = keys
        self._owned = owned

    @classmethod
    def create(cls) -> "Server":
        reason = available()
        if reason:
            raise RealSSHUnavailable(reason)
        folder = tempfile.mkdtemp(prefix="qbcore-ssh-")
        try:
            os.chmod(folder, 0o755)
            port = _free_port()
            _keygen(os.path.join(folder, "host_key"), "qbcore host")
            _keygen(os.path.join(folder, "user_key"), "qbcore user")
            with open(os.path.join(folder, "host_key.pub"), encoding="utf-8") as handle:
                host_pub = handle.read().split()
            shutil.copy(os.path.join(folder, "user_key.pub"), os.path.join(folder, "authorized_keys"))
            _write(os.path.join(folder, "known_hosts"), f"{transports.HOST} {host_pub[0]} {host_pub[1]}\n")
            _write(os.path.join(folder, "sshd_config"), _SSHD_CONFIG.format(port=port, inside=INSIDE))
            _write(os.path.join(folder, "ssh_config"),
                   _SSH_CONFIG.format(port=port, inside=INSIDE, user=USER, host=transports.HOST))
            ssh_binary = shutil.which("ssh")
            _write(os.path.join(folder, "ssh"),
                   f"#!/bin/bash\nexec {single_quote(ssh_binary)} -F {INSIDE}/ssh_config \"$@\"\n", 0o755)
            uid, gid = sandbox._identity()
            for name in os.listdir(folder):
                path = os.path.join(folder, name)
                if name.endswith("_key"):
                    os.chmod(path, 0o600)
                if os.geteuid() == 0:
                    # sshd and ssh insist on owning their private keys
                    os.chown(path, uid, gid)
            flags = "-r" if _accepts_no_reexec(os.path.join(folder, "sshd_config"), uid, gid) else ""
            _write(os.path.join(folder, "with-sshd"),
                   _WITH_SSHD.format(sshd=SSHD, flags=flags, inside=INSIDE, port=port), 0o755)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return cls(Keys(folder, port, ssh_binary), owned=True)

    @classmethod
    def from_keys(cls, keys: Keys) -> "Server":
        return cls(keys, owned=False)

    def close(self):
        if self._owned:
            shutil.rmtree(self.keys.folder, ignore_errors=True)
            self._owned = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def wrap(self, argv, binds, files, *, home: str, scratch: str):
        """The harness argv, binds and files for one attempt through a real server.

        ``home`` is where the ssh login lands (the task directory); ``scratch``
        a host folder of the attempt for the generated passwd file.
        """
        uid, gid = sandbox._identity()
        passwd = os.path.join(scratch, "passwd")
        # the sandbox's own /etc/passwd (never the host's), with the login landing in the task directory
        base = sandbox.etc_files(uid, gid)["passwd"].decode()
        kept = [line + "\n" for line in base.splitlines() if line.split(":")[2:3] != [str(uid)]]
        kept.append(f"{USER}:x:{uid}:{gid}:qbcore ssh user:{home}:/bin/bash\n")
        _write(passwd, "".join(kept))
        tools = os.path.join(scratch, "ssh-bin")
        os.makedirs(tools, exist_ok=True)
        shutil.copy(os.path.join(self.keys.folder, "ssh"), os.path.join(tools, "ssh"))
        # the harness finds `ssh` first on PATH: replace the stand-in's folder with the real client's
        tool_dir = binds[0]
        shutil.copy(os.path.join(tools, "ssh"), os.path.join(tool_dir, "ssh"))
        new_binds = list(binds) + [(self.keys.folder, INSIDE), (passwd, "/etc/passwd")]
        return [f"{INSIDE}/with-sshd", *argv], new_binds, files


_default = None


def default_server() -> Server:
    """A server for this process, created on first use and removed at exit."""
    global _default
    if _default is None:
        import atexit
        _default = Server.create()
        atexit.register(_default.close)
    return _default


_SSHD_CONFIG = """\
ListenAddress 127.0.0.1:{port}
HostKey {inside}/host_key
AuthorizedKeysFile {inside}/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
PrintMotd no
PrintLastLog no
UseDNS no
PermitUserEnvironment no
SetEnv LANG=C.UTF-8
MaxStartups 100
LogLevel ERROR
"""

_SSH_CONFIG = """\
Host *
  HostName 127.0.0.1
  Port {port}
  User {user}
  IdentityFile {inside}/user_key
  IdentitiesOnly yes
  # the post-quantum default costs ~50 ms a connection; the shell semantics do not depend on it
  KexAlgorithms curve25519-sha256
  UserKnownHostsFile {inside}/known_hosts
  GlobalKnownHostsFile /dev/null
  HostKeyAlias {host}
  StrictHostKeyChecking yes
  BatchMode yes
  CheckHostIP no
  UpdateHostKeys no
  ControlMaster no
  ControlPath none
  ForwardAgent no
  ForwardX11 no
  LogLevel ERROR
"""

# Starts sshd in the sandbox's network namespace, waits until it accepts,
# then runs the harness; the env -u undoes what this bash itself exported.
_WITH_SSHD = """\
#!/bin/bash
{sshd} -f {inside}/sshd_config -D -e {flags} </dev/null >>/tmp/.qbcore-sshd.log 2>&1 &
for _ in {{1..1000}}; do
  (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && break
  sleep 0.005
done
exec env -u PWD -u OLDPWD -u SHLVL -u _ "$@"
"""
