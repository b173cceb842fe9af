// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_environment_json.h"

#include <ctime>
#include <optional>
#include <string_view>

namespace ddtime {
namespace {

void put_text(json::Object& object, std::string_view key, const std::optional<std::string>& value) {
  if (value) {
    object.string(key, *value);
  } else {
    object.null(key);
  }
}

void put_number(json::Object& object, std::string_view key, const std::optional<std::int64_t>& value) {
  if (value) {
    object.integer(key, *value);
  } else {
    object.null(key);
  }
}

void put_seed(json::Object& object, std::string_view key, const std::optional<std::uint64_t>& seed) {
  // As the runs' own "seed" and "order_seed" write them.
  put_number(object, key, seed ? std::optional<std::int64_t>(static_cast<std::int64_t>(*seed)) : std::nullopt);
}

void put_device(json::Object& file, const std::optional<DeviceFacts>& device) {
  if (!device) {
    file.null("device");
    return;
  }
  json::Object object = file.object("device");
  object.string("name", device->name);
  put_text(object, "model", device->model);
  put_text(object, "firmware", device->firmware);
  if (device->rotational) {
    object.boolean("rotational", *device->rotational);
  } else {
    object.null("rotational");
  }
  put_number(object, "logical_block_size", device->logical_block_size);
  put_text(object, "scheduler", device->scheduler);
  put_number(object, "size_bytes", device->size_bytes);
  put_text(object, "write_cache", device->write_cache);
  put_text(object, "backing_file", device->backing_file);
}

void put_file(json::Object& files, std::string_view key, const std::optional<FileFacts>& file) {
  if (!file) {
    files.null(key);
    return;
  }
  json::Object object = files.object(key);
  object.string("path", file->path);
  put_text(object, "filesystem", file->filesystem);
  put_device(object, file->device);
}

void put_kernel(json::Object& object, const std::optional<KernelFacts>& kernel) {
  if (!kernel) {
    object.null("kernel");
    return;
  }
  object.object("kernel")
      .string("name", kernel->name)
      .string("release", kernel->release)
      .string("version", kernel->version)
      .string("machine", kernel->machine);
}

}  // namespace

void put_environment(json::Object object, const Environment& environment) {
  put_text(object, "host", environment.host);
  put_kernel(object, environment.kernel);
  {
    json::Object cpu = object.object("cpu");
    put_text(cpu, "model", environment.cpu_model);
    put_number(cpu, "logical_cpus", environment.logical_cpus);
  }
  put_number(object, "memory_bytes", environment.memory_bytes);
  object.string("ddtime_version", environment.ddtime_version);
  {
    json::Array words = object.array("command_line");
    for (const std::string& word : environment.command_line) words.string(word);
  }
  put_text(object, "date", environment.date ? std::optional<std::string>(utc_date(*environment.date)) : std::nullopt);
  {
    json::Object files = object.object("files");
    put_file(files, "input", environment.input);
    put_file(files, "output", environment.output);
  }
  json::Object seeds = object.object("seeds");
  put_seed(seeds, "random", environment.random_seed);
  put_seed(seeds, "pattern", environment.pattern_seed);
}

std::string utc_date(std::int64_t seconds) {
  const auto when = static_cast<std::time_t>(seconds);
  std::tm parts{};
  if (gmtime_r(&when, &parts) == nullptr) return {};
  char text[32];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return std::string(text, length);
}

}  // namespace ddtime
