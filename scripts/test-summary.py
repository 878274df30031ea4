"""Prints one closing line over the JUnit reports of ctest and pytest:
'total: N passed, N failed, N skipped'. Exits 1 if any failed or nothing ran."""
import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"summary: cannot read {path}: {e}")
        failed += 1
        continue
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    for suite in root.iter("testsuite"):  # collection errors show up only as counts
        if suite.get("errors") and not list(suite.iter("testcase")):
            failed += int(suite.get("errors"))
print(f"total: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
