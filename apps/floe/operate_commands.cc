// `floe status`, `floe resume`, `floe skip`: operating a running `floe run` through its admin
// API (docs/running.md, "Operating a running process").
#include <iostream>

#include "admin_client.h"
#include "commands.h"
#include "floe/core/percent_encoding.h"
#include "status_table.h"

namespace floe::cli {

namespace {

void AddTargetOptions(CLI::App* cmd, AdminTarget& target) {
  cmd->add_option("--admin", target.admin_url, "Admin API of the running process, http://host:port (its admin.listen)");
  cmd->add_option("--token", target.token, "admin.token (default: $FLOE_ADMIN_TOKEN, then the config's admin.token)");
  cmd->add_option("-c,--config", target.config_path, "floe.yaml of the process: admin.listen and admin.token from it");
}

Result<AdminClient> Connect(const char* command, const AdminTarget& target) {
  auto client = AdminClient::Make(target);
  if (!client.ok()) std::cerr << "floe " << command << ": " << client.status().message() << "\n";
  return client;
}

std::string TopicPath(const std::string& topic, const char* action) {
  return "/topics/" + PercentEncode(topic) + "/" + action;
}

// Prints the outcome of a POST; 0 when it was applied.
int Report(const char* command, const Result<AdminAnswer>& answer, const std::string& done) {
  if (!answer.ok()) {
    std::cerr << "floe " << command << ": " << answer.status().message() << "\n";
    return 1;
  }
  if (answer->status != 200) {
    std::cerr << "floe " << command << ": " << AdminErrorText(*answer) << "\n";
    return 1;
  }
  std::cout << done << "\n";
  return 0;
}

std::string Partitions(const AdminAnswer& answer) {
  std::string out;
  for (const auto& p : answer.body.value("resumed_partitions", nlohmann::json::array())) {
    out += (out.empty() ? "" : ", ") + p.dump();
  }
  return out.empty() ? "none assigned here" : out;
}

}  // namespace

void AddStatusCommand(CLI::App& app, StatusOptions& options) {
  auto* cmd = app.add_subcommand("status", "Show a running process's topics and partitions (GET /status)");
  AddTargetOptions(cmd, options.target);
  cmd->add_flag("--json", options.json, "Print /status's JSON as it is");
}

int ShowStatus(const StatusOptions& options) {
  auto client = Connect("status", options.target);
  if (!client.ok()) return 2;
  auto answer = client->Get("/status");
  if (!answer.ok() || answer->status != 200 || !answer->body.is_object()) {
    std::cerr << "floe status: " << (answer.ok() ? AdminErrorText(*answer) : answer.status().message()) << "\n";
    return 1;
  }
  std::cout << (options.json ? answer->body.dump(2) + "\n" : RenderStatusTable(answer->body));
  return 0;
}

void AddResumeCommand(CLI::App& app, ResumeOptions& options) {
  auto* cmd = app.add_subcommand("resume", "Resume a suspended topic from its committed offset (POST /topics/TOPIC/resume)");
  cmd->add_option("topic", options.topic, "The suspended topic")->required();
  AddTargetOptions(cmd, options.target);
}

int Resume(const ResumeOptions& options) {
  auto client = Connect("resume", options.target);
  if (!client.ok()) return 2;
  auto answer = client->Post(TopicPath(options.topic, "resume"), nlohmann::json::object());
  return Report("resume", answer,
                answer.ok() ? "resumed " + options.topic + " (partitions: " + Partitions(*answer) + ")" : "");
}

void AddSkipCommand(CLI::App& app, SkipOptions& options) {
  auto* cmd = app.add_subcommand("skip", "Skip the one record a suspended topic stopped at, then resume it "
                                         "(POST /topics/TOPIC/skip)");
  cmd->add_option("topic", options.topic, "The suspended topic")->required();
  cmd->add_option("--partition", options.partition, "The partition it is suspended at")->required();
  cmd->add_option("--offset", options.offset, "The offset of the record it is suspended at")->required();
  AddTargetOptions(cmd, options.target);
}

int Skip(const SkipOptions& options) {
  auto client = Connect("skip", options.target);
  if (!client.ok()) return 2;
  auto answer = client->Post(TopicPath(options.topic, "skip"), {{"partition", options.partition}, {"offset", options.offset}});
  const std::string position = options.topic + "/" + std::to_string(options.partition) + "@" + std::to_string(options.offset);
  return Report("skip", answer, answer.ok() ? "skipped " + position + " and resumed " + options.topic : "");
}

}  // namespace floe::cli
