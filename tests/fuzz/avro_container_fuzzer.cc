// Fuzz target: Avro object container files (the format of Iceberg manifests and manifest
// lists, and of Avro files in general), from memory. The reader must refuse a bad file with
// a Status, never read out of bounds or allocate past its limits; the two ways of reading a
// file (datum by datum, and ReadAll into Arrow) must agree on how many datums a good file has.
#include <arrow/api.h>

#include "floe/avro/container_file.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floe;
  using namespace floe::fuzz;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // Limits well under the defaults so that a hostile size field is refused quickly; the
  // allocation a limit allows is what is checked, not its value.
  avro::ContainerReaderOptions options;
  options.max_header_bytes = 1 << 20;
  options.max_block_bytes = 4 << 20;

  std::int64_t streamed = -1;
  if (auto reader = avro::ContainerFileReader::Open(bytes, options); reader.ok()) {
    std::int64_t n = 0;
    for (;;) {
      std::string_view datum;
      auto more = (*reader)->NextDatum(&datum);
      if (!more.ok()) {
        Check(!(*reader)->NextDatum(&datum).ok(), "a container reader keeps failing once it found the file corrupt");
        break;
      }
      if (!*more) {
        streamed = n;
        break;
      }
      ++n;
    }
  }
  if (auto reader = avro::ContainerFileReader::Open(bytes, options); reader.ok()) {
    auto batch = (*reader)->ReadAll();
    if (batch.ok()) {
      CheckOk((*batch)->ValidateFull(), "ReadAll's batch is valid Arrow");
      Check(streamed == (*batch)->num_rows(), "ReadAll and NextDatum agree on the number of datums of a good file");
    }
  }
  return 0;
}
