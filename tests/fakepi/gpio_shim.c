/* GPIO v2 line requests on the fake Pi (tests/fakepi/testbed.py), preloaded before
 * libumockdev-preload.so.0; built by the fakepi test set-up with gcc, never committed.
 *
 * GPIO_V2_GET_LINE_IOCTL answers with a new file descriptor, which umockdev's ioctl
 * handlers cannot create in the client. So the shim:
 *  - on GET_LINE: opens the chip once more (a new umockdev client that the testbed takes as
 *    the line request), re-issues the request there, opens the FIFO the testbed made for
 *    the request's edge events (the number comes back in req->fd) and hands that out;
 *  - on any ioctl on such a line fd: passes it on to the request's own chip client;
 *  - on close() of a line fd: tells the testbed (umockdev 0.17 never reports a vanished
 *    client, so the lines would stay "used"), then closes both descriptors.
 * read() and poll() on a line fd work on the FIFO itself.
 *
 * It also keeps umockdev 0.17's preload from aborting the client ("fd_map_add(): overflow"):
 * its open() wrapper records every open of a /dev path, the failed ones too, so 50 tries of
 * a missing /dev/i2c-N (a display retrying) end the process. Missing /dev paths fail here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define FAKEPI_RELEASE _IO(0xB4, 0xF0)
#define MAX_FDS 4096

static int control_of[MAX_FDS]; /* line fd -> its chip client fd + 1; 0: not a line fd */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static int (*next_ioctl)(int, unsigned long, ...);
static int (*next_close)(int);
static int (*next_open)(const char *, int, ...);
static int (*next_open64)(const char *, int, ...);
static int (*next_openat)(int, const char *, int, ...);
static int (*next_openat64)(int, const char *, int, ...);

static void resolve_next(void)
{
    if (!next_ioctl)
        next_ioctl = dlsym(RTLD_NEXT, "ioctl");
    if (!next_close)
        next_close = dlsym(RTLD_NEXT, "close");
    if (!next_open)
        next_open = dlsym(RTLD_NEXT, "open");
    if (!next_open64)
        next_open64 = dlsym(RTLD_NEXT, "open64");
    if (!next_openat)
        next_openat = dlsym(RTLD_NEXT, "openat");
    if (!next_openat64)
        next_openat64 = dlsym(RTLD_NEXT, "openat64");
}

/* True (errno ENOENT) for a /dev path that neither the testbed nor the machine has. */
static int missing_device(const char *path, int flags)
{
    if (!path || strncmp(path, "/dev/", 5) != 0 || (flags & O_CREAT))
        return 0;
    if (access(path, F_OK) == 0)
        return 0;
    errno = ENOENT;
    return 1;
}

static mode_t mode_of(int flags, va_list args)
{
    return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(args, mode_t) : 0;
}

int open(const char *path, int flags, ...)
{
    va_list args;
    mode_t mode;

    va_start(args, flags);
    mode = mode_of(flags, args);
    va_end(args);
    resolve_next();
    if (missing_device(path, flags))
        return -1;
    return next_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list args;
    mode_t mode;

    va_start(args, flags);
    mode = mode_of(flags, args);
    va_end(args);
    resolve_next();
    if (missing_device(path, flags))
        return -1;
    return next_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list args;
    mode_t mode;

    va_start(args, flags);
    mode = mode_of(flags, args);
    va_end(args);
    resolve_next();
    if (missing_device(path, flags))
        return -1;
    return next_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list args;
    mode_t mode;

    va_start(args, flags);
    mode = mode_of(flags, args);
    va_end(args);
    resolve_next();
    if (missing_device(path, flags))
        return -1;
    return next_openat64(dirfd, path, flags, mode);
}

static int line_control(int fd)
{
    int control = -1;
    if (fd < 0 || fd >= MAX_FDS)
        return -1;
    pthread_mutex_lock(&table_lock);
    control = control_of[fd] - 1;
    pthread_mutex_unlock(&table_lock);
    return control;
}

/* The /dev path the fd was opened as (umockdev opened it inside $UMOCKDEV_DIR). */
static int device_path(int fd, char *path, size_t size)
{
    char link[64], target[4096];
    const char *root = getenv("UMOCKDEV_DIR");
    ssize_t got;

    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    got = readlink(link, target, sizeof target - 1);
    if (got < 0)
        return -1;
    target[got] = '\0';
    if (root && strncmp(target, root, strlen(root)) == 0)
        snprintf(path, size, "%s", target + strlen(root));
    else
        snprintf(path, size, "%s", target);
    return 0;
}

static int get_line(int chip_fd, struct gpio_v2_line_request *request)
{
    char path[4096], fifo[4096];
    const char *root = getenv("UMOCKDEV_DIR");
    int control, line_fd, number;

    if (!root || device_path(chip_fd, path, sizeof path) < 0)
        return -1;
    control = open(path, O_RDWR | O_CLOEXEC);
    if (control < 0)
        return -1;
    if (next_ioctl(control, GPIO_V2_GET_LINE_IOCTL, request) < 0) {
        int saved = errno;
        next_close(control);
        errno = saved;
        return -1;
    }
    number = request->fd;
    snprintf(fifo, sizeof fifo, "%s/fakepi/line-%d", root, number);
    line_fd = open(fifo, O_RDWR | O_CLOEXEC);
    if (line_fd < 0 || line_fd >= MAX_FDS) {
        int saved = line_fd < 0 ? errno : EMFILE;
        next_ioctl(control, FAKEPI_RELEASE, 0);
        next_close(control);
        if (line_fd >= 0)
            next_close(line_fd);
        errno = saved;
        return -1;
    }
    pthread_mutex_lock(&table_lock);
    control_of[line_fd] = control + 1;
    pthread_mutex_unlock(&table_lock);
    request->fd = line_fd;
    return 0;
}

int ioctl(int fd, unsigned long request, ...)
{
    va_list args;
    void *arg;
    int control;

    va_start(args, request);
    arg = va_arg(args, void *);
    va_end(args);
    resolve_next();
    if (request == GPIO_V2_GET_LINE_IOCTL)
        return get_line(fd, arg);
    control = line_control(fd);
    if (control >= 0)
        return next_ioctl(control, request, arg);
    return next_ioctl(fd, request, arg);
}

int close(int fd)
{
    int control;

    resolve_next();
    control = line_control(fd);
    if (control >= 0) {
        pthread_mutex_lock(&table_lock);
        control_of[fd] = 0;
        pthread_mutex_unlock(&table_lock);
        next_ioctl(control, FAKEPI_RELEASE, 0);
        next_close(control);
    }
    return next_close(fd);
}
