"""The web console (/ui, docs/console.md) in a real browser: Debian's chromium, headless, driven
by Selenium through chromium-driver. One `floe run` serves three topics: `good` (Iceberg and
Delta, partitioned, one compatible schema change), `stuck` (suspended at a record whose schema
the registry does not know yet) and `poison` (suspended at an undecodable record). The overview
shows their states; the table page shows the schema history, snapshot counts and partitions the
tables themselves have; once the schema is registered, the Resume button (admin token typed
once) resumes `stuck`, and the Skip button moves `poison` past its record. Full-page screenshots
are saved in the test's tmp directory. The dashboard's metrics are checked against this
process's /metrics."""
import json
import pathlib
import shutil
import time
import urllib.error
import urllib.request
import uuid

import pytest

from tests.integration.fixtures.floe_run import FloeRun
from tests.integration.fixtures.produce import RecordProducer
from tests.integration.monitoring_names import (DASHBOARD, dashboard_exprs, documented_metrics, exported_families,
                                                family, selected_metrics)
from tests.integration.test_operator_commands import (fresh_order_v2, produce_orders, produce_poison,
                                                      produce_with_unregistered_schema, topic_status, wait_for)
from tests.integration.test_pipeline_avro import order

TOKEN = "console-" + uuid.uuid4().hex
# Counters created when their first event happens (docs/admin-api.md): this scenario has none.
CREATED_ON_FIRST_EVENT = {"floe_commit_conflicts_total", "floe_commit_failures_total", "floe_storage_retries_total",
                          "floe_records_skipped_total", "floe_records_dead_lettered_total"}


def get_json(url):
    return json.loads(urllib.request.urlopen(url, timeout=10).read())


def committed(floe, table, topic):
    """Records committed for the topic (sum of next offsets); 0 before the table exists."""
    try:
        return sum(floe.committed_offsets(table).get(topic, {}).values())
    except Exception:  # pyiceberg: no such table yet
        return 0


def topic_state(floe, topic):
    status = topic_status(floe, topic)
    return status["state"] if status else None


@pytest.fixture(scope="module")
def scenario(kafka, schema_registry, floe_bin, tmp_path_factory):
    suffix = uuid.uuid4().hex[:8]
    good, stuck, poison = f"good-{suffix}", f"stuck-{suffix}", f"poison-{suffix}"
    kafka.create_topic(good, partitions=2)
    kafka.create_topic(stuck, partitions=1)
    kafka.create_topic(poison, partitions=1)
    producer = RecordProducer(kafka.bootstrap, schema_registry.url)
    produce_orders(producer, good, range(20))
    produce_orders(producer, stuck, range(20))
    # `stuck`: then records framed with a schema id the registry does not know yet.
    # (good's compatible change below registers this same schema first, so it gets that id.)
    producer_schema = fresh_order_v2()
    future_id = produce_with_unregistered_schema(producer, schema_registry, stuck, range(20, 25), producer_schema)
    # `poison`: an undecodable record at offset 10 (error_mode suspend, the default).
    produce_orders(producer, poison, range(10))
    produce_poison(producer, poison)
    produce_orders(producer, poison, range(10, 20))

    workdir = tmp_path_factory.mktemp("console")
    floe = FloeRun(floe_bin, workdir, kafka.bootstrap,
                   [{"name": good, "formats": ["iceberg", "delta"], "partition_by": ["paid"]}, {"name": stuck},
                    {"name": poison}],
                   registry_url=schema_registry.url, admin=True)
    floe.config["admin"]["token"] = TOKEN
    floe.start()
    good_table, stuck_table = "kafka." + good.replace("-", "_"), "kafka." + stuck.replace("-", "_")
    try:
        wait_for(lambda: committed(floe, good_table, good) == 20, "good's first 20 records")
        # A compatible change on `good`: a second schema in the table's history.
        v2 = producer.serializer(producer_schema)
        for i in range(20, 30):
            producer.send_avro(good, v2, {**order(i), "channel": "app"}, key=f"k{i}")
        producer.flush()
        wait_for(lambda: committed(floe, good_table, good) == 30, "good's 30 records")
        wait_for(lambda: topic_state(floe, stuck) == "suspended", "stuck to be suspended")
        wait_for(lambda: topic_state(floe, poison) == "suspended", "poison to be suspended")
        yield {"floe": floe, "good": good, "stuck": stuck, "good_table": good_table, "stuck_table": stuck_table,
               "poison": poison, "poison_table": "kafka." + poison.replace("-", "_"),
               "producer_schema": producer_schema, "future_id": future_id, "registry": schema_registry, "out": workdir}
    finally:
        code = floe.stop()
    # A clean SIGTERM exit: the console's sampler thread and catalog go with the process (ASan
    # builds report leaks and bad frees here).
    log = floe.log_path.read_text()
    assert code == 0 and "Sanitizer" not in log, f"floe run exited {code}:\n{floe.log_tail()}"


@pytest.fixture(scope="module")
def browser(scenario):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, "chromium and chromium-driver missing: run scripts/deps.sh"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--disable-gpu", f"--user-data-dir={scenario['out'] / 'chromium-profile'}"):
        options.add_argument(arg)
    # The driver's path is given, so Selenium never tries to download one.
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def wait_css(driver, css, what, timeout=20, condition=lambda elements: elements):
    from selenium.webdriver.common.by import By
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition(driver.find_elements(By.CSS_SELECTOR, css))
        if found:
            return found
        time.sleep(0.2)
    errors = driver.find_elements(By.CSS_SELECTOR, "#load-error")
    raise AssertionError(f"timed out waiting for {what}" + (f": page says {errors[0].text}" if errors else ""))


def row_states(driver):
    from selenium.webdriver.common.by import By
    return {r.get_attribute("data-topic"): r.get_attribute("data-state")
            for r in driver.find_elements(By.CSS_SELECTOR, "tr.topic-row")}


def screenshot(driver, scenario, name):
    """The whole page, not only the window: Chrome's DevTools capture beyond the viewport."""
    import base64
    path = pathlib.Path(scenario["out"]) / f"{name}.png"
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "format": "png"})
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.stat().st_size > 1000
    print(f"screenshot: {path}")


def test_overview_lists_the_topics_with_their_states(scenario, browser):
    floe = scenario["floe"]
    browser.get(floe.admin_url + "/ui/")
    wait_css(browser, "tr.topic-row", "three topic rows", condition=lambda rows: len(rows) == 3)
    states = row_states(browser)
    assert states == {scenario["good"]: "running", scenario["stuck"]: "suspended", scenario["poison"]: "suspended"}
    # The suspended topic's card shows where and why it stopped, with its buttons.
    from selenium.webdriver.common.by import By
    card = browser.find_element(By.CSS_SELECTOR, f"section.suspended-topic[data-topic='{scenario['stuck']}']")
    assert f"{scenario['stuck']}/0@20" in card.text
    assert str(scenario["future_id"]) in card.text
    assert card.find_element(By.CSS_SELECTOR, "button.resume").is_enabled()
    assert card.find_element(By.CSS_SELECTOR, "input.skip-offset").get_attribute("value") == "20"
    # No script or style from anywhere but Floe.
    for attr, css in (("src", "script"), ("href", "link")):
        for node in browser.find_elements(By.CSS_SELECTOR, css):
            assert node.get_attribute(attr).startswith(floe.admin_url + "/ui/"), node.get_attribute(attr)
    # The sparklines' history has samples of both topics.
    history = get_json(floe.admin_url + "/ui/api/history")
    assert {scenario["good"], scenario["stuck"]} <= set(history["topics"])
    screenshot(browser, scenario, "overview")


def test_table_page_shows_schema_history_and_snapshots(scenario, browser):
    from selenium.webdriver.common.by import By
    floe = scenario["floe"]
    table = floe.table(scenario["good_table"])
    snapshots = len(table.snapshots())
    schemas = len(table.metadata.schemas)
    assert schemas == 2, table.metadata.schemas
    browser.get(floe.admin_url + "/ui/#/table/" + scenario["good_table"])
    wait_css(browser, "#table-name", "the table page")
    iceberg = browser.find_element(By.CSS_SELECTOR, "section.format[data-format='iceberg']")
    assert iceberg.find_element(By.CSS_SELECTOR, ".snapshot-count").get_attribute("data-count") == str(snapshots)
    # The metadata file's size, as the store has it (issue 34).
    import os
    metadata_path = table.metadata_location.removeprefix("file://")
    assert iceberg.find_element(By.CSS_SELECTOR, ".metadata-bytes").get_attribute("data-bytes") == \
        str(os.path.getsize(metadata_path))
    versions = iceberg.find_elements(By.CSS_SELECTOR, "ol.schema-history > li.schema-version")
    assert len(versions) == 2
    assert "+ channel: string" in versions[1].text
    assert "channel" in iceberg.find_element(By.CSS_SELECTOR, "table.schema").text
    assert f"{len(table.inspect.files())} files" in iceberg.find_element(By.CSS_SELECTOR, ".files-summary").text
    # Partitioned by `paid`: half the records each side.
    for section in (iceberg, browser.find_element(By.CSS_SELECTOR, "section.format[data-format='delta']")):
        rows = sorted(r.text for r in section.find_elements(By.CSS_SELECTOR, "table.partitions tbody tr"))
        assert len(rows) == 2 and rows[0].startswith("paid=false") and rows[1].startswith("paid=true"), rows
        assert all(" 15 " in r for r in rows), rows
    # The Delta copy of the same files: its own log's commits and metaData history.
    delta = browser.find_element(By.CSS_SELECTOR, "section.format[data-format='delta']")
    from deltalake import DeltaTable
    dt = DeltaTable(str(floe.warehouse_dir / "kafka" / scenario["good_table"].split(".")[1]))
    assert delta.find_element(By.CSS_SELECTOR, ".snapshot-count").get_attribute("data-count") == str(dt.version() + 1)
    assert len(delta.find_elements(By.CSS_SELECTOR, "ol.schema-history > li.schema-version")) == 2
    assert "30 records" in delta.find_element(By.CSS_SELECTOR, ".files-summary").text
    screenshot(browser, scenario, "table")
    # A table no topic writes is not shown.
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(floe.admin_url + "/ui/api/tables/kafka.nope", timeout=10)
    assert e.value.code == 404


def test_resume_button_resumes_the_suspended_topic(scenario, browser):
    from selenium.webdriver.common.by import By
    floe, stuck = scenario["floe"], scenario["stuck"]
    # The fix: the producer's schema is registered and gets the id the records carry.
    assert scenario["registry"].register(f"{stuck}-value", json.dumps(scenario["producer_schema"])) == scenario["future_id"]
    browser.get(floe.admin_url + "/ui/")
    wait_css(browser, f"section.suspended-topic[data-topic='{stuck}'] button.resume", "the Resume button")
    assert "read-only" in browser.find_element(By.ID, "token-state").text
    browser.find_element(By.CSS_SELECTOR, f"section.suspended-topic[data-topic='{stuck}'] button.resume").click()
    # Asked once for the token, kept for the tab.
    token_input = wait_css(browser, "#token-input", "the token form",
                           condition=lambda e: e if e and e[0].is_displayed() else None)[0]
    token_input.send_keys(TOKEN)
    browser.find_element(By.ID, "token-save").click()
    flash = wait_css(browser, "#flash", "the answer", condition=lambda e: e if e and e[0].text else None)[0]
    assert "done" in flash.text, flash.text
    assert browser.execute_script("return sessionStorage.getItem('floe.admin.token')") == TOKEN
    wait_for(lambda: committed(floe, scenario["stuck_table"], stuck) == 25,
             "stuck's 25 records committed after the resume")
    wait_for(lambda: topic_state(floe, stuck) == "running", "stuck to run again")
    wait_css(browser, "tr.topic-row", "the overview to show stuck running", timeout=15,
             condition=lambda rows: row_states(browser).get(stuck) == "running")
    assert not browser.find_elements(By.CSS_SELECTOR, f"section.suspended-topic[data-topic='{stuck}']")
    screenshot(browser, scenario, "resumed")


def test_skip_button_moves_past_the_poison_record(scenario, browser):
    """The token typed for Resume is kept: Skip asks only for the browser's confirmation."""
    from selenium.webdriver.common.by import By
    floe, poison = scenario["floe"], scenario["poison"]
    browser.get(floe.admin_url + "/ui/")
    card_css = f"section.suspended-topic[data-topic='{poison}']"
    card = wait_css(browser, card_css, "poison's card")[0]
    assert f"{poison}/0@10" in card.text
    assert card.find_element(By.CSS_SELECTOR, "input.skip-offset").get_attribute("value") == "10"
    card.find_element(By.CSS_SELECTOR, "button.skip").click()
    alert = browser.switch_to.alert
    assert "offset 10" in alert.text
    alert.accept()
    flash = wait_css(browser, "#flash", "the answer", condition=lambda e: e if e and e[0].text else None)[0]
    assert "done" in flash.text, flash.text
    assert not browser.find_element(By.ID, "token-form").is_displayed()  # not asked again
    wait_for(lambda: committed(floe, scenario["poison_table"], poison) == 21, "poison's records past the skip")
    wait_for(lambda: topic_state(floe, poison) == "running", "poison to run again")
    assert len(floe.table(scenario["poison_table"]).scan().to_arrow()) == 20


def test_dashboard_names_only_metrics_this_process_exports(scenario):
    documented = documented_metrics()
    dashboard = json.loads(DASHBOARD.read_text())
    wanted = {(title, family(name, documented)) for title, expr in dashboard_exprs(dashboard)
              for name in selected_metrics(expr)}

    def missing():
        scrape = urllib.request.urlopen(scenario["floe"].admin_url + "/metrics", timeout=10).read().decode()
        live = exported_families(scrape)
        assert live <= documented, f"exported but not documented: {live - documented}"
        return {(t, n) for t, n in wanted if n not in live and n not in CREATED_ON_FIRST_EVENT}

    # Lag gauges appear with the first watermark poll, 10 s after start.
    deadline = time.monotonic() + 20
    while missing() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not missing(), f"dashboard panels name metrics this process does not export: {sorted(missing())}"
