//===- File.cpp - writing the files a user owns ---------------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/File.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nnrt;

namespace {
bool fail(std::string &error, const std::string &path, const std::string &why) {
  error = "cannot write '" + path + "': " + why;
  return false;
}

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The file `path` names: itself, or the end of its chain of symbolic links
/// (which need not exist yet).
std::string resolveLinks(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    char target[PATH_MAX];
    ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
    if (n < 0)
      return path;
    target[n] = 0;
    path = target[0] == '/' ? std::string(target)
                            : directoryOf(path) + "/" + target;
  }
  return path;
}

/// Removes `NAME.tmp.PID` beside `path` for every PID no process has.
void removeStaleTemporaries(const std::string &path) {
  std::string prefix = baseOf(path) + ".tmp.";
  std::string dir = directoryOf(path);
  DIR *d = opendir(dir.c_str());
  if (!d)
    return;
  while (dirent *entry = readdir(d)) {
    std::string name = entry->d_name;
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix))
      continue;
    char *end;
    long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (*end || pid <= 0 || pid == getpid())
      continue;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      unlink((dir + "/" + name).c_str());
  }
  closedir(d);
}

/// Writes all of `data` to `fd` and flushes it to disk.
bool writeAll(int fd, const std::string &data) {
  const char *p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = ENOSPC;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return fsync(fd) == 0;
}
} // namespace

bool nnrt::writeFileAtomically(const std::string &path, const std::string &data,
                               std::string &error) {
  std::string target = resolveLinks(path);
  removeStaleTemporaries(target);
  std::string tmp = target + ".tmp." + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return fail(error, path, std::strerror(errno));
  struct stat old;
  bool ok =
      stat(target.c_str(), &old) != 0 || fchmod(fd, old.st_mode & 07777) == 0;
  ok = ok && writeAll(fd, data);
  int savedErrno = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (ok && rename(tmp.c_str(), target.c_str()) != 0) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    unlink(tmp.c_str());
    return fail(error, path, std::strerror(savedErrno));
  }
  // The rename itself reaches the disk with its directory.
  int dir = open(directoryOf(target).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    fsync(dir);
    close(dir);
  }
  return true;
}

bool nnrt::checkWritable(const std::string &path, std::string &error) {
  if (path.empty())
    return true;
  std::string target = resolveLinks(path);
  struct stat st;
  if (stat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return fail(error, path, "it is a directory");
  if (!path.empty() && path.back() == '/')
    return fail(error, path, "a file name cannot end with '/'");
  std::string dir = directoryOf(target);
  if (stat(dir.c_str(), &st) != 0)
    return fail(error, path, "directory '" + dir + "' does not exist");
  if (!S_ISDIR(st.st_mode))
    return fail(error, path, "'" + dir + "' is not a directory");
  // Permissions, read-only mounts and pseudo file systems (/proc): only
  // creating a file tells.
  std::string probe = target + ".tmp." + std::to_string(getpid());
  int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return fail(error, path,
                "cannot create files in '" + dir + "' (" +
                    std::strerror(errno) + ")");
  close(fd);
  unlink(probe.c_str());
  return true;
}

bool nnrt::readFile(const std::string &path, std::string &out,
                    std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "cannot read '" + path + "': " + why;
    return false;
  };
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return fail("it is a directory");
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return fail(std::strerror(errno));
  out.clear();
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0)
    out.append(chunk, n);
  bool failed = std::ferror(f);
  std::fclose(f);
  return failed ? fail(std::strerror(errno)) : true;
}
