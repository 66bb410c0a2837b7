/*
 * pid 1 of one sandboxed attempt, started by the zygote (qbcore/realbash/zygote.py)
 * with posix_spawn once it has made the attempt's namespaces and mounts.
 *
 * Why C, and why without libc: every attempt needs a pid 1 that mounts its own
 * /proc, takes on the limits, drops what the command must not inherit, starts
 * the command and reaps.  A fork of the zygote's Python costs a copy of every
 * page either side writes afterwards; a glibc program costs half a millisecond
 * of CPU feature probing at start on a virtual machine.  This program makes only
 * system calls, so its start costs a few dozen microseconds.  Without it (no
 * compiler, another architecture) the zygote forks a Python pid 1 that does the
 * same; zygote.py's _python_init is the reference for every step here.
 *
 * argv: qbcore-attempt-init-1 WORK CPU_S AS_BYTES FSIZE_BYTES NOFILE NPROC NMASK
 *       MASK... PROGRAM ARGV0 ARGS...       envp: the command's environment
 *       (the 1 is this protocol's version: a program built from another refuses to run)
 * fds:  0-2 the command's stdin/stdout/stderr, 3 the status pipe ("N\n" once
 *       the command ends), 4 the seccomp program (struct sock_filter[]; may be empty)
 * Built by setup.py as a static executable, x86_64 only.
 */

#if !defined(__x86_64__)
#error "the attempt init is written for x86_64; other machines use the Python pid 1"
#endif

typedef unsigned long u64;
typedef long i64;

enum {
    SYS_read = 0, SYS_write = 1, SYS_close = 3, SYS_pread64 = 17, SYS_fcntl = 72, SYS_chdir = 80,
    SYS_capget = 125, SYS_capset = 126, SYS_prctl = 157, SYS_mount = 165, SYS_setsid = 112,
    SYS_clone = 56, SYS_execve = 59, SYS_exit_group = 231, SYS_wait4 = 61, SYS_pause = 34,
    SYS_prlimit64 = 302,
};

static i64 sys6(i64 n, i64 a, i64 b, i64 c, i64 d, i64 e, i64 f)
{
    i64 ret;
    register i64 r10 __asm__("r10") = d;
    register i64 r8 __asm__("r8") = e;
    register i64 r9 __asm__("r9") = f;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

#define SYS(n, a, b, c, d, e) sys6((n), (i64)(a), (i64)(b), (i64)(c), (i64)(d), (i64)(e), 0)

/* the compiler may emit calls to these even without a libc */
void *memset(void *dst, int value, unsigned long size)
{
    unsigned char *p = dst;
    while (size--)
        *p++ = (unsigned char)value;
    return dst;
}

void *memcpy(void *dst, const void *src, unsigned long size)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (size--)
        *d++ = *s++;
    return dst;
}

static unsigned long length(const char *text)
{
    unsigned long n = 0;
    while (text[n])
        n++;
    return n;
}

static void put(int fd, const char *text) { SYS(SYS_write, fd, text, length(text), 0, 0); }

static __attribute__((noreturn)) void leave(int code)
{
    for (;;)
        SYS(SYS_exit_group, code, 0, 0, 0, 0);
}

static u64 number(const char *text)
{
    u64 value = 0;
    while (*text >= '0' && *text <= '9')
        value = value * 10 + (u64)(*text++ - '0');
    return value;
}

static const char *reason(i64 err)
{
    switch (err) {
    case 1: return "Operation not permitted";
    case 2: return "No such file or directory";
    case 7: return "Argument list too long";
    case 8: return "Exec format error";
    case 12: return "Cannot allocate memory";
    case 13: return "Permission denied";
    case 20: return "Not a directory";
    case 21: return "Is a directory";
    case 22: return "Invalid argument";
    case 26: return "Text file busy";
    case 36: return "File name too long";
    case 40: return "Too many levels of symbolic links";
    default: return "Cannot execute";
    }
}

/* what zygote.py's Python pid 1 writes when a step fails: then it ends without a status */
static __attribute__((noreturn)) void fail(const char *what, i64 err)
{
    put(2, "qbcore sandbox: ");
    put(2, what);
    put(2, ": ");
    put(2, reason(-err));
    put(2, "\n");
    leave(1);
}

struct cap_header { unsigned int version; int pid; };
struct cap_data { unsigned int effective, permitted, inheritable; };
struct rlimit64 { u64 cur, max; };
struct sock_fprog { unsigned short len; void *filter; };

static unsigned char filter[1 << 16] __attribute__((aligned(8)));

static int run(int argc, char **argv, char **envp)
{
    static const char protocol[] = "qbcore-attempt-init-1";
    for (unsigned long i = 0; i < sizeof protocol; i++)
        if (argc < 9 || argv[0][i] != protocol[i])
            fail("the attempt init was built for another qbcore (rebuild it: pip install -e .)", -22);
    const char *work = argv[1];
    static const int resources[5] = {0 /* CPU */, 9 /* AS */, 1 /* FSIZE */, 7 /* NOFILE */, 6 /* NPROC */};
    u64 limits[5];
    for (int i = 0; i < 5; i++)
        limits[i] = number(argv[2 + i]);
    int masks = (int)number(argv[7]);
    if (argc < 8 + masks + 2)
        fail("attempt init", -22);
    char **mask = argv + 8;
    const char *program = argv[8 + masks];
    char **command = argv + 9 + masks;
    i64 err;

    /* the status pipe and the filter never reach the command */
    SYS(SYS_fcntl, 3, 2 /* F_SETFD */, 1 /* FD_CLOEXEC */, 0, 0);
    SYS(SYS_prctl, 4 /* PR_SET_DUMPABLE */, 0, 0, 0, 0);
    if ((err = SYS(SYS_mount, "proc", "/proc", "proc", 2 | 4 | 8 /* NOSUID NODEV NOEXEC */, 0)) < 0)
        fail("mount /proc", err);
    for (int i = 0; i < masks; i++) {
        err = SYS(SYS_mount, "/dev/null", mask[i], 0, 4096 /* MS_BIND */, 0);
        if (err < 0 && err != -2)
            fail("mount over a /proc file", err);
    }
    if ((err = SYS(SYS_chdir, work, 0, 0, 0, 0)) < 0)
        fail("chdir to the task directory", err);
    for (int i = 0; i < 5; i++) {
        struct rlimit64 limit = {limits[i], limits[i]};
        if ((err = SYS(SYS_prlimit64, 0, resources[i], &limit, 0, 0)) < 0)
            fail("setrlimit", err);
    }
    /* no inheritable or ambient capability: the command starts with none; pid 1 keeps its own */
    SYS(SYS_prctl, 47 /* PR_CAP_AMBIENT */, 4 /* CLEAR_ALL */, 0, 0, 0);
    struct cap_header header = {0x20080522, 0};
    struct cap_data data[2];
    if ((err = SYS(SYS_capget, &header, data, 0, 0, 0)) < 0)
        fail("capget", err);
    data[0].inheritable = data[1].inheritable = 0;
    if ((err = SYS(SYS_capset, &header, data, 0, 0, 0)) < 0)
        fail("capset", err);
    if ((err = SYS(SYS_prctl, 38 /* PR_SET_NO_NEW_PRIVS */, 1, 0, 0, 0)) < 0)
        fail("no_new_privs", err);
    i64 size = SYS(SYS_pread64, 4, filter, sizeof filter, 0, 0);
    SYS(SYS_close, 4, 0, 0, 0, 0);
    if (size < 0 || size % 8 != 0 || size == (i64)sizeof filter)
        fail("read the seccomp program", size < 0 ? size : -22);
    if (size > 0) {
        struct sock_fprog prog = {(unsigned short)(size / 8), filter};
        if ((err = SYS(SYS_prctl, 22 /* PR_SET_SECCOMP */, 2 /* FILTER */, &prog, 0, 0)) < 0)
            fail("seccomp", err);
    }

    i64 child = SYS(SYS_clone, 17 /* SIGCHLD */, 0, 0, 0, 0);
    if (child < 0) {
        put(2, "qbcore sandbox: cannot start the command\n");
        SYS(SYS_write, 3, "126\n", 4, 0, 0);
        child = 0x7fffffff;
    } else if (child == 0) {
        SYS(SYS_setsid, 0, 0, 0, 0, 0);
        err = SYS(SYS_execve, program, command, envp, 0, 0);
        /* what `env -i` says, so a missing program reads the same either way */
        put(2, "env: '");
        put(2, command[0]);
        put(2, "': ");
        put(2, reason(-err));
        put(2, "\n");
        leave(err == -13 || err == -1 ? 126 : 127);
    }
    /* the output's end is when no process of the command holds it */
    for (int fd = 0; fd < 3; fd++)
        SYS(SYS_close, fd, 0, 0, 0, 0);
    for (;;) {
        int status = 0;
        i64 pid = SYS(SYS_wait4, -1, &status, 0, 0, 0);
        if (pid == -10 /* ECHILD */) {
            SYS(SYS_pause, 0, 0, 0, 0, 0);
            continue;
        }
        if (pid != child)
            continue;
        int code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f);
        char line[8];
        int at = sizeof line;
        line[--at] = '\n';
        do {
            line[--at] = (char)('0' + code % 10);
            code /= 10;
        } while (code);
        SYS(SYS_write, 3, line + at, sizeof line - at, 0, 0);
    }
}

__attribute__((used)) void start_c(long *stack)
{
    int argc = (int)stack[0];
    char **argv = (char **)(stack + 1);
    char **envp = argv + argc + 1;
    leave(run(argc, argv, envp));
}

__asm__(".text\n"
        ".global _start\n"
        "_start:\n"
        "  xor %rbp, %rbp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call start_c\n"
        "  hlt\n");
