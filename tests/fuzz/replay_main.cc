// The fuzz targets' own driver for builds without libFuzzer (the gcc ASan build that `make test`
// runs): replays every file of the given corpus directories or files through
// LLVMFuzzerTestOneInput, then runs a short, deterministic random-mutation loop over them. It
// has no coverage feedback: real fuzzing is `make fuzz` (libFuzzer); this keeps the seeds, and
// a few thousand variations of them, passing on every test run.
//
//   <target>_replay [--mutations N] [--seconds S] [--seed N] [--save DIR] PATH...
//
// When an input crashes (a sanitizer report or a broken invariant), it is written to
// DIR/crash-<target>-<n> (default: the working directory) so that it can be replayed alone and
// added to the corpus.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define FLOE_HAVE_SANITIZER 1
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The input being run, for the crash handlers.
const std::string* g_current = nullptr;
std::string g_crash_path;

void SaveCurrent() {
  if (g_current == nullptr) return;
  // Only async-signal-safe-enough calls from here on: the process is dying anyway.
  if (std::FILE* f = std::fopen(g_crash_path.c_str(), "wb")) {
    std::fwrite(g_current->data(), 1, g_current->size(), f);
    std::fclose(f);
    std::fprintf(stderr, "replay: the crashing input is saved as %s\n", g_crash_path.c_str());
  }
  g_current = nullptr;
}

void OnAbort(int) {
  SaveCurrent();
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}

void Run(const std::string& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  g_current = nullptr;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Byte-level mutations in the spirit of libFuzzer's: flips, interesting bytes, inserts,
// erases, copies within the input, splices from another seed, and record separators.
class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  std::string Mutate(const std::vector<std::string>& seeds) {
    std::string s = seeds[Below(seeds.size())];
    const std::size_t steps = 1 + Below(4);
    for (std::size_t i = 0; i < steps; ++i) Step(s, seeds);
    return s;
  }

 private:
  std::size_t Below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }
  char Byte() {
    static constexpr unsigned char kInteresting[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, '"', '{', '}', '[', ']', ',',
                                                     ':',  '-',  '0',  '9',  'e',  '.',  '\\', 'u', 0x08, 0x0a, 0x12, 0x1a};
    return static_cast<char>(Below(2) ? kInteresting[Below(sizeof kInteresting)] : Below(256));
  }
  void Step(std::string& s, const std::vector<std::string>& seeds) {
    const std::size_t at = Below(s.size() + 1);
    switch (Below(8)) {
      case 0:
        if (!s.empty()) s[Below(s.size())] ^= static_cast<char>(1u << Below(8));
        break;
      case 1:
        if (!s.empty()) s[Below(s.size())] = Byte();
        break;
      case 2: s.insert(at, 1 + Below(4), Byte()); break;
      case 3: s.erase(at, 1 + Below(8)); break;
      case 4: {  // copy a piece of the input elsewhere in it
        if (s.empty()) break;
        const std::size_t from = Below(s.size());
        s.insert(at, s.substr(from, 1 + Below(16)));
        break;
      }
      case 5: {  // splice: a piece of another seed
        const std::string& other = seeds[Below(seeds.size())];
        if (other.empty()) break;
        const std::size_t from = Below(other.size());
        s.insert(at, other.substr(from, 1 + Below(64)));
        break;
      }
      case 6: s.insert(at, Below(4) ? "\n#\n" : "\n#!\n"); break;
      case 7: s.resize(at); break;
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace

int main(int argc, char** argv) {
  long mutations = 0;
  double seconds = 10;
  std::uint64_t seed = 1;
  fs::path save = ".";
  std::vector<fs::path> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "replay: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--mutations") mutations = std::stol(value());
    else if (arg == "--seconds") seconds = std::stod(value());
    else if (arg == "--seed") seed = std::stoull(value());
    else if (arg == "--save") save = value();
    else paths.emplace_back(arg);
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: %s [--mutations N] [--seconds S] [--seed N] [--save DIR] CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }

  std::vector<fs::path> files;
  for (const auto& path : paths) {
    if (fs::is_directory(path)) {
      for (const auto& entry : fs::directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
    } else if (fs::is_regular_file(path)) {
      files.push_back(path);
    } else {
      std::fprintf(stderr, "replay: %s is neither a file nor a directory\n", path.c_str());
      return 2;
    }
  }
  std::sort(files.begin(), files.end());  // the same order, so the same run, everywhere

  const std::string target = fs::path(argv[0]).filename().string();
  std::signal(SIGABRT, OnAbort);
#ifdef FLOE_HAVE_SANITIZER
  __sanitizer_set_death_callback(SaveCurrent);
#endif

  const auto start = std::chrono::steady_clock::now();
  std::vector<std::string> seeds;
  for (const auto& file : files) {
    seeds.push_back(ReadFile(file));
    g_crash_path = (save / ("crash-" + target + "-" + file.filename().string())).string();
    Run(seeds.back());
  }
  long ran = 0;
  if (!seeds.empty()) {
    Mutator mutator(seed);
    for (; ran < mutations; ++ran) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) break;
      const std::string input = mutator.Mutate(seeds);
      g_crash_path = (save / ("crash-" + target + "-mutation-" + std::to_string(ran))).string();
      Run(input);
    }
  }
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("replay %s: %zu corpus files, %ld mutated inputs (seed %llu), %.1f s\n", target.c_str(), files.size(), ran,
              static_cast<unsigned long long>(seed), took);
  return 0;
}
