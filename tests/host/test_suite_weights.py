"""tools/suite_weights.py: the per-file weights read from JUnit XML (the format pytest's own
--junitxml writes: one <testcase classname=... time=...> per test) and the heaviest-first order."""
import json

import pytest

from tools import suite_weights

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="5">
<testcase classname="tests.host.test_light" name="test_a" time="0.25" />
<testcase classname="tests.host.test_heavy" name="test_b" time="30.0" />
<testcase classname="tests.host.test_heavy.TestGroup" name="test_c" time="12.5" />
<testcase classname="tests.device.test_mid" name="test_d[micropython]" time="4.0" />
<testcase classname="tests.device.test_mid" name="test_d" time="1.0"><skipped message="x" /></testcase>
</testsuite></testsuites>"""


def test_a_files_weight_is_the_sum_of_its_tests_including_those_in_a_class():
    assert suite_weights.weights_from_junit(JUNIT) == {
        "tests/device/test_mid.py": 5.0, "tests/host/test_heavy.py": 42.5, "tests/host/test_light.py": 0.2}


def test_a_testcase_outside_the_test_rooms_is_refused():
    with pytest.raises(ValueError, match="outside"):
        suite_weights.weights_from_junit('<testsuite><testcase classname="conftest" time="1" /></testsuite>')


def test_heaviest_files_first_each_files_tests_in_their_order_unknown_files_at_the_median():
    ids = ["tests/host/test_light.py::test_1", "tests/host/test_heavy.py::test_1", "tests/host/test_new.py::t",
           "tests/host/test_light.py::test_2", "tests/host/test_heavy.py::test_2"]
    weights = {"tests/host/test_light.py": 1.0, "tests/host/test_heavy.py": 40.0, "tests/host/test_mid.py": 9.0}
    assert [ids[i] for i in suite_weights.heaviest_first(ids, weights)] == [
        "tests/host/test_heavy.py::test_1", "tests/host/test_heavy.py::test_2", "tests/host/test_new.py::t",
        "tests/host/test_light.py::test_1", "tests/host/test_light.py::test_2"]
    assert suite_weights.heaviest_first(ids, {}) == [0, 1, 2, 3, 4]


def test_the_cli_writes_the_table_and_a_missing_or_broken_table_keeps_collection_order(tmp_path, capsys):
    xml, out = tmp_path / "junit.xml", tmp_path / "weights.json"
    xml.write_text(JUNIT)
    assert suite_weights.main([str(xml), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["tests/host/test_heavy.py"] == 42.5
    assert "3 files" in capsys.readouterr().out
    xml.write_text("<testsuite><testcase")
    assert suite_weights.main([str(xml), "--out", str(out)]) == 2
    assert "junit.xml" in capsys.readouterr().err
    out.write_text("[1, 2]")
    assert suite_weights.load(out) == {}
    assert suite_weights.load(tmp_path / "missing.json") == {}


def test_the_shipped_table_names_only_files_that_exist():
    table = suite_weights.load()
    assert table, "tests/weights.json is missing: make test runs the files in collection order"
    missing = [p for p in table if not (suite_weights.ROOT / p).is_file()]
    assert not missing, f"tests/weights.json names files that are gone (python -m tools.suite_weights): {missing}"
