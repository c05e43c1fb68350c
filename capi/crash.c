/* Crash reports: a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) in C code, the
 * application's or a user callback the library calls (a reduction op, an
 * error handler), prints one line naming the rank, the signal and the
 * address, and a short symbolic backtrace, then the process dies of the
 * same signal, so the launcher names it.
 *
 * The handler is installed by a constructor that runs before the Go
 * runtime starts (prioritised constructors run before the library's plain
 * ones): the runtime then saves it and forwards to it every synchronous
 * signal that arrives outside Go code. Without it the runtime handles a
 * fault in a callback itself and ends the process with SIGQUIT. Faults in
 * Go code stay the runtime's (a panic with a Go traceback). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <ucontext.h>
#include <unwind.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libbacktrace's symbolizer through github.com/ianlancetaylor/cgosymbolizer,
 * linked into the library (capi/main.go imports it); weak, so that cgo's own
 * test link of this package alone needs no definition. Layout as in
 * runtime.SetCgoTraceback. (Its unwinder stops where the signal stack ends,
 * so the frames are collected here.) */
struct gompi_sym_arg {
    uintptr_t pc;
    const char *file;
    uintptr_t lineno;
    const char *func;
    uintptr_t entry, more, data;
};
extern void cgoSymbolizer(void *) __attribute__((weak));

static char crash_rank[16] = "?";
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

static void say(const char *s) {
    ssize_t r = write(2, s, strlen(s));
    (void)r;
}

static const char *crash_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    }
    return "a fatal signal";
}

/* frames collects the faulting thread's frames from the faulting one on. */
struct frames {
    uintptr_t fault, pc[32];
    int n;
};

static _Unwind_Reason_Code frame(struct _Unwind_Context *ctx, void *arg) {
    struct frames *f = arg;
    int before = 0;
    uintptr_t pc = _Unwind_GetIPInfo(ctx, &before);
    if (f->n == 0 && f->fault && pc != f->fault)
        return _URC_NO_REASON; /* the handler's own frames */
    /* A return address points past its call; the call is what ran. */
    f->pc[f->n++] = before ? pc : pc - 1;
    return f->n < 32 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static uintptr_t fault_pc(void *uc) {
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

/* crash_frames prints up to 16 frames of the faulting thread's stack. */
static void crash_frames(void *uc) {
    struct frames f = {fault_pc(uc), {0}, 0};
    char line[512];
    _Unwind_Backtrace(frame, &f);
    /* The unwinder cannot cross the Go runtime's signal trampoline (a
     * signal forwarded by the runtime): then the faulting frame alone. */
    if (f.n == 0 && f.fault)
        f.pc[f.n++] = f.fault;
    for (int i = 0, shown = 0; i < f.n && shown < 16; i++) {
        struct gompi_sym_arg s;
        memset(&s, 0, sizeof s);
        s.pc = f.pc[i];
        if (cgoSymbolizer)
            cgoSymbolizer(&s);
        if (!s.func) {
            /* No debug information: the object and the offset, for
             * addr2line -f -e OBJECT OFFSET. */
            Dl_info di;
            if (dladdr((void *)s.pc, &di) && di.dli_fname) {
                uintptr_t base = (uintptr_t)di.dli_fbase;
                snprintf(line, sizeof line, "  %s %s+%#lx\n", di.dli_sname ? di.dli_sname : "?", di.dli_fname,
                         (unsigned long)(s.pc - base));
            } else
                snprintf(line, sizeof line, "  %#lx\n", (unsigned long)s.pc);
            say(line);
            shown++;
            continue;
        }
        memset(&s, 0, sizeof s);
        s.pc = f.pc[i];
        do {
            cgoSymbolizer(&s);
            if (s.func)
                snprintf(line, sizeof line, "  %s\n      %s:%lu\n", s.func, s.file ? s.file : "?",
                         (unsigned long)s.lineno);
            else
                snprintf(line, sizeof line, "  %#lx\n", (unsigned long)s.pc);
            say(line);
            shown++;
        } while (s.more);
        /* Below the application's main only libc's start-up remains. */
        if (s.func && strcmp(s.func, "main") == 0)
            break;
    }
}

static void crash_handler(int sig, siginfo_t *si, void *uc) {
    char line[256];
    snprintf(line, sizeof line, "gompi: rank %s (pid %d): %s at address %p in C code; backtrace:\n", crash_rank,
             (int)getpid(), crash_name(sig), si->si_addr);
    say(line);
    crash_frames(uc);
    /* Die of the same signal: back to the default action, and the faulting
     * instruction runs again on return (raise covers a signal sent by kill). */
    signal(sig, SIG_DFL);
    if (si->si_code <= 0)
        raise(sig);
}

__attribute__((constructor(101))) static void gompi_crash_init(void) {
    const char *r = getenv("PMI_RANK");
    if (r && strlen(r) < sizeof crash_rank)
        strcpy(crash_rank, r);
    if (getenv("GOMPI_CRASH_REPORT") && strcmp(getenv("GOMPI_CRASH_REPORT"), "0") == 0)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        struct sigaction old;
        /* Keep an application's or a tool's own handler. */
        if (sigaction(crash_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(crash_signals[i], &sa, NULL);
    }
}
