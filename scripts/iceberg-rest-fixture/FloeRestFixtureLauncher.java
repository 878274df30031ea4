/*
 * Starts Apache Iceberg's REST catalog test server (org.apache.iceberg.rest.RESTCatalogServer,
 * from the test-fixtures jar of iceberg-open-api) for Floe's integration tests, changing only how
 * it listens: RESTCatalogServer.start() binds every interface on a fixed port, and Floe's tests
 * must stay on loopback and want a port nobody can take between choosing and binding it. So this
 * launcher
 *   - builds the backend catalog with RESTCatalogServer's own (private) initializeBackendCatalog,
 *     so the CATALOG_* environment variables mean exactly what they mean for the upstream image
 *     (CATALOG_WAREHOUSE, CATALOG_URI=jdbc:sqlite:..., CATALOG_CATALOG__IMPL, ...);
 *   - serves it with the same adapter, servlet and gzip handler as RESTCatalogServer.start(),
 *     on a Jetty connector bound to FLOE_REST_HOST (default 127.0.0.1), port FLOE_REST_PORT
 *     (default 0: any free port);
 *   - prints one line "FLOE_REST_FIXTURE_READY http://HOST:PORT" once it accepts connections,
 *     and stops Jetty on SIGTERM.
 * It sits in RESTCatalogServer's package because CatalogContext and RESTServerCatalogAdapter are
 * package-private. Compiled by install.sh against the installed jars.
 */
package org.apache.iceberg.rest;

import java.lang.reflect.Method;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public final class FloeRestFixtureLauncher {
  private FloeRestFixtureLauncher() {}

  public static void main(String[] args) throws Exception {
    String host = envOr("FLOE_REST_HOST", "127.0.0.1");
    int port = Integer.parseInt(envOr("FLOE_REST_PORT", "0"));

    Method init = RESTCatalogServer.class.getDeclaredMethod("initializeBackendCatalog");
    init.setAccessible(true);
    RESTCatalogServer.CatalogContext context =
        (RESTCatalogServer.CatalogContext) init.invoke(new RESTCatalogServer());

    RESTCatalogAdapter adapter = new RESTServerCatalogAdapter(context);
    ServletContextHandler handler = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    handler.addServlet(new ServletHolder(new RESTCatalogServlet(adapter)), "/*");
    CompressionHandler compression = new CompressionHandler();
    compression.putCompression(new GzipCompression());
    handler.insertHandler(compression);

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(handler);
    server.setStopAtShutdown(true);
    server.start();

    System.out.println("FLOE_REST_FIXTURE_READY http://" + host + ":" + connector.getLocalPort());
    System.out.flush();
    server.join();
  }

  private static String envOr(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? fallback : value;
  }
}
