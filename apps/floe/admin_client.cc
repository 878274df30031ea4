#include "admin_client.h"

#include <cstdlib>

#include "floe/catalog/rest_client_http.h"
#include "floe/core/config.h"

namespace floe::cli {

namespace {

// admin.listen is where the process binds; a wildcard address is reached over loopback.
Result<std::string> UrlFromListen(const std::string& listen) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos) return Status::InvalidArgument("admin.listen '" + listen + "' is not host:port");
  std::string host = listen.substr(0, colon);
  const std::string port = listen.substr(colon + 1);
  if (port == "0") {
    return Status::InvalidArgument("admin.listen has port 0 (any free port): give the address the process printed with "
                                   "--admin http://host:port");
  }
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::" || host == "[::]") host = "[::1]";
  return "http://" + host + ":" + port;
}

}  // namespace

Result<AdminClient> AdminClient::Make(const AdminTarget& target) {
  std::string url = target.admin_url;
  std::string token = target.token;
  if (token.empty()) {
    if (const char* env = std::getenv("FLOE_ADMIN_TOKEN")) token = env;
  }
  if (!target.config_path.empty() && (url.empty() || token.empty())) {
    FLOE_ASSIGN_OR_RETURN(auto config, LoadConfigFile(target.config_path));
    if (url.empty()) {
      if (config.admin.listen.empty()) {
        return Status::InvalidArgument(target.config_path + " has no admin.listen: the process serves no admin API");
      }
      FLOE_ASSIGN_OR_RETURN(url, UrlFromListen(config.admin.listen));
    }
    if (token.empty()) token = config.admin.token;
  }
  if (url.empty()) {
    return Status::InvalidArgument("where is the process? give --admin http://host:port (its admin.listen) or "
                                   "--config floe.yaml");
  }
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) url = "http://" + url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return AdminClient(std::move(url), std::move(token));
}

Result<AdminAnswer> AdminClient::Get(const std::string& path) const { return Send("GET", path, ""); }

Result<AdminAnswer> AdminClient::Post(const std::string& path, const nlohmann::json& body) const {
  return Send("POST", path, body.dump());
}

Result<AdminAnswer> AdminClient::Send(const std::string& method, const std::string& path,
                                      const std::string& body) const {
  catalog::rest::CurlTransportOptions options;
  options.connect_timeout = std::chrono::seconds(5);
  options.request_timeout = std::chrono::seconds(90);  // a skip waits for its commit
  auto transport = catalog::rest::MakeCurlTransport(options);
  catalog::rest::HttpRequest request{method, base_url_ + path, {{"Accept", "application/json"}}, body};
  if (method == "POST") request.headers.emplace_back("Content-Type", "application/json");
  if (!token_.empty()) request.headers.emplace_back("Authorization", "Bearer " + token_);
  const auto response = transport->Send(request);
  if (response.status == 0) {
    return Status::Unavailable("no answer from the admin API at " + base_url_ + ": " + response.error);
  }
  AdminAnswer answer;
  answer.status = response.status;
  answer.text = response.body;
  answer.body = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (answer.body.is_discarded()) answer.body = nullptr;
  return answer;
}

std::string AdminErrorText(const AdminAnswer& answer) {
  if (answer.body.is_object() && answer.body.contains("error") && answer.body["error"].is_object()) {
    return answer.body["error"].value("message", answer.text);
  }
  return "HTTP " + std::to_string(answer.status) + ": " + answer.text;
}

}  // namespace floe::cli
