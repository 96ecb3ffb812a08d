/* The tuning runtime's wisdom file (runtime/src/tune.cpp): decisions by
 * launch key, read at load and merged into on every save.  Header-only
 * C++ without CUDA (as snapshot.h, so that tune.cpp stays one file to
 * compile), tested without a GPU (test/lit/runtime/wisdom-concurrent.test).
 *
 * Format: a first line "tfuse-wisdom 1", then one line per key, tab
 * separated: the key's seven fields (kernel, hash, grid "x,y,z", block
 * "x,y,z", dynamic shared bytes, device name, SM count), the winner's label
 * ("block.x:4"), its median ms and the original's.
 *
 * Saving holds an exclusive flock on PATH.lock (beside the file, created
 * if missing, never removed) from before the file is read until it is
 * renamed: read, merge the new decision, write a temporary file beside it,
 * rename it over the file.  Programs that save at the same time (a test
 * suite running tuned programs in parallel, MPI ranks sharing a home
 * folder) wait for each other, so none loses another's decision, and a
 * reader that takes no lock always sees a whole file.  Where the lock
 * cannot be taken (a file system without flock), the save goes ahead
 * without it. */
#ifndef TFUSE_WISDOM_H
#define TFUSE_WISDOM_H

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace tfuse_wisdom {

struct Decision {
  std::string label;
  double ms, orig_ms;
};

typedef std::map<std::string, Decision> Table;

namespace detail {

inline std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  for (;;) {
    size_t e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos)
      return out;
    b = e + 1;
  }
}

inline void make_dirs(const std::string &path) {
  for (size_t i = 1; i < path.size(); i++)
    if (path[i] == '/')
      mkdir(path.substr(0, i).c_str(), 0755);
}

/* The exclusive lock on path.lock, held while the object lives. */
class Lock {
public:
  explicit Lock(const std::string &path) : fd_(open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0)
      while (flock(fd_, LOCK_EX) != 0 && errno == EINTR)
        ;
  }
  ~Lock() {
    if (fd_ >= 0)
      close(fd_); /* releases the lock */
  }
  Lock(const Lock &) = delete;
  Lock &operator=(const Lock &) = delete;

private:
  int fd_;
};

} // namespace detail

/* $XDG_CACHE_HOME/tfuse/wisdom, else ~/.cache/tfuse/wisdom. */
inline std::string default_path() {
  const char *x = std::getenv("XDG_CACHE_HOME");
  if (x && x[0])
    return std::string(x) + "/tfuse/wisdom";
  const char *h = std::getenv("HOME");
  return std::string(h && h[0] ? h : ".") + "/.cache/tfuse/wisdom";
}

/* Reads the file at path into m; false (m empty) if it is not a wisdom
 * file, true if it is one or does not exist. */
inline bool read(const std::string &path, Table &m) {
  m.clear();
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return true; /* none yet */
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    text.append(buf, n);
  std::fclose(f);
  std::vector<std::string> lines = detail::split(text, '\n');
  bool ok = !lines.empty() && lines[0] == "tfuse-wisdom 1";
  for (size_t i = 1; ok && i < lines.size(); i++) {
    if (lines[i].empty())
      continue;
    std::vector<std::string> fl = detail::split(lines[i], '\t');
    char *end1 = 0, *end2 = 0;
    if (fl.size() != 10) {
      ok = false;
      break;
    }
    Decision d;
    d.label = fl[7];
    d.ms = std::strtod(fl[8].c_str(), &end1);
    d.orig_ms = std::strtod(fl[9].c_str(), &end2);
    ok = !d.label.empty() && *end1 == 0 && *end2 == 0;
    std::string key = fl[0];
    for (int j = 1; j < 7; j++)
      key += "\t" + fl[j];
    m[key] = d;
  }
  if (!ok)
    m.clear();
  return ok;
}

/* Adds one decision to the file at path (creating its folders), under the
 * lock; false with the reason in *why when the file could not be written. */
inline bool save(const std::string &path, const std::string &key, const Decision &d, std::string *why) {
  detail::make_dirs(path);
  detail::Lock lock(path);
  Table m;
  read(path, m);
  m[key] = d;
  std::string tmp = path + ".tmp-XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back(0);
  int fd = mkstemp(name.data());
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : 0;
  if (!f) {
    if (fd >= 0)
      close(fd);
    *why = "cannot write the wisdom file beside '" + path + "'";
    return false;
  }
  std::fprintf(f, "tfuse-wisdom 1\n");
  for (Table::const_iterator it = m.begin(); it != m.end(); ++it)
    std::fprintf(f, "%s\t%s\t%.6f\t%.6f\n", it->first.c_str(), it->second.label.c_str(), it->second.ms,
                 it->second.orig_ms);
  bool ok = std::fclose(f) == 0;
  chmod(name.data(), 0644);
  if (!ok || std::rename(name.data(), path.c_str()) != 0) {
    unlink(name.data());
    *why = "cannot replace the wisdom file '" + path + "'";
    return false;
  }
  return true;
}

} // namespace tfuse_wisdom

#endif
