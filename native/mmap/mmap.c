// One call: map(path) → an ArrayBuffer over the file's pages. The mapping is private and writable, so a
// stray write copies one page for this process instead of killing it, while every page nobody wrote
// stays the kernel's one copy in its page cache, shared by every process that maps the same file.
// Nothing is read ahead here: the caller touches the pages it wants resident (see index.cjs).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void unmap(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value fail(napi_env env, int err, const char *what) {
  const char *code = err == ENOENT ? "ENOENT" : err == EACCES ? "EACCES" : err == ENOMEM ? "ENOMEM" : "EMMAP";
  char msg[512];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(err));
  napi_throw_error(env, code, msg);
  return NULL;
}

static napi_value map(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_type_error(env, NULL, "map(path): a path is required");
    return NULL;
  }
  char path[4096];
  size_t len = 0;
  if (napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok || len >= sizeof path - 1) {
    napi_throw_type_error(env, NULL, "map(path): the path must be a string shorter than 4095 bytes");
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(env, errno, path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return fail(env, err, path);
  }
  size_t size = (size_t)st.st_size;
  napi_value out;
  if (size == 0) {
    close(fd);
    void *none;
    napi_create_arraybuffer(env, 0, &none, &out);
    return out;
  }
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  int err = errno;
  close(fd);
  if (p == MAP_FAILED) return fail(env, err, path);
  if (napi_create_external_arraybuffer(env, p, size, unmap, (void *)(uintptr_t)size, &out) != napi_ok) {
    munmap(p, size);
    napi_throw_error(env, "EMMAP", "map(path): the mapping could not be made an ArrayBuffer");
    return NULL;
  }
  return out;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "map", NAPI_AUTO_LENGTH, map, NULL, &fn);
  napi_set_named_property(env, exports, "map", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
