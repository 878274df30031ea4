#pragma once
// Small helpers over librdkafka's C API for the bench tools. The C API (not Floe's
// kafka::Consumer/Producer) on purpose: the baselines must measure what librdkafka itself
// can do, with nothing of Floe in between.
#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <string>

#include "floe/core/result.h"

namespace floe::bench {

struct RdKafkaDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using RdKafkaPtr = std::unique_ptr<rd_kafka_t, RdKafkaDeleter>;

// Builds a client of `type` from `properties`; `setup` may add callbacks to the conf first.
inline Result<RdKafkaPtr> MakeClient(rd_kafka_type_t type, const std::map<std::string, std::string>& properties,
                                     void (*setup)(rd_kafka_conf_t*) = nullptr) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  for (const auto& [k, v] : properties) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return Status::InvalidArgument("librdkafka property " + k + "=" + v + ": " + err);
    }
  }
  if (setup != nullptr) setup(conf);
  rd_kafka_t* rk = rd_kafka_new(type, conf, err, sizeof err);  // takes conf on success
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Status::Unavailable(std::string("rd_kafka_new: ") + err);
  }
  return RdKafkaPtr(rk);
}

}  // namespace floe::bench
