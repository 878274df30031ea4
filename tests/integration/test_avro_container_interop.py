"""Avro object container files between Floe and an independent implementation (fastavro):
files Floe writes (the floe_avro_container_tool test tool, tests/tools/) are read by
fastavro, and files fastavro writes are read by Floe, with every codec Floe supports and
many blocks per file. The schema is an Iceberg-manifest-like one with Iceberg's
"field-id" / "element-id" / "key-id" / "value-id" attributes, which must survive.
No services are needed."""
import datetime as dt
import decimal
import io
import json
import subprocess

import fastavro
import pytest

CODECS = ["null", "deflate", "snappy", "zstandard"]
ROWS = 3000
EPOCH_DAY = dt.date(1970, 1, 1)
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


def test_fastavro_has_every_codec():
    # fastavro needs cramjam for snappy and backports.zstd for zstandard (tests/requirements.txt).
    for codec in CODECS:
        fastavro.writer(io.BytesIO(), {"type": "record", "name": "r", "fields": [{"name": "a", "type": "int"}]},
                        [{"a": 1}], codec=codec)


def expected_row(i: int) -> dict:
    """Row i as the tool writes it (WriteRow in floe_avro_container_tool.cc), in the JSON
    form of the tool's `read`: bytes as hex, decimals as strings, dates in days,
    timestamps in microseconds."""
    return {
        "status": i % 3,
        "snapshot_id": None if i % 5 == 0 else i * 1000 + 7,
        "sequence_number": i,
        "data_file": {
            "file_path": f"s3://bucket/data/{i:05d}-\u00e9.parquet",
            "file_format": ["AVRO", "ORC", "PARQUET"][i % 3],
            "partition": {"day": None if i % 4 == 0 else 19000 + i % 30, "bucket": i % 16},
            "record_count": i * i * 1000,
            "file_size_in_bytes": 4096 + i,
            "column_sizes": None if i % 6 == 0 else [{"key": k + 1, "value": (k + 1) * i} for k in range(i % 3)],
            "lower_bounds": [{"key": 1, "value": i.to_bytes(8, "little").hex()}],
            "split_offsets": None if i % 2 else [4, 4 + i],
            "key_metadata": None if i % 7 else bytes([i % 256, 255, 0]).hex(),
            "sort_order_id": 0,
            "checksum": ((i * 2654435761) & 0xFFFFFFFF).to_bytes(4, "big").hex(),
            "ratio": i * 0.25,
            "score": i / 3.0,
            "created_at": 1700000000000000 + i * 1000003,
            "amount": str(decimal.Decimal(i * 12345 - 500000).scaleb(-2)),
        },
        "props": {"writer": "floe", "row": str(i), **({"odd": ""} if i % 2 else {})},
        "flag": i % 2 == 0,
        "extra": {},
    }


def normalize(value):
    """fastavro's values in the JSON form of expected_row."""
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, dt.datetime):
        return (value - EPOCH) // dt.timedelta(microseconds=1)
    if isinstance(value, dt.date):
        return (value - EPOCH_DAY).days
    return value


def to_fastavro(row: dict) -> dict:
    """expected_row's JSON form as the Python values fastavro writes."""
    r = json.loads(json.dumps(row))
    f = r["data_file"]
    f["lower_bounds"] = [{"key": e["key"], "value": bytes.fromhex(e["value"])} for e in f["lower_bounds"]]
    f["key_metadata"] = None if f["key_metadata"] is None else bytes.fromhex(f["key_metadata"])
    f["checksum"] = bytes.fromhex(f["checksum"])
    f["amount"] = decimal.Decimal(f["amount"])
    return r


def run(args, **kw):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture(scope="module")
def container_tool(tool):
    return tool("floe_avro_container_tool")


@pytest.fixture(scope="module")
def schema_text(container_tool):
    out = run([container_tool, "schema"])
    assert out.returncode == 0, out.stderr
    return out.stdout.rstrip("\n")


def count_blocks(path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in fastavro.block_reader(f))


@pytest.mark.parametrize("codec", CODECS)
def test_floe_writes_fastavro_reads(container_tool, schema_text, tmp_path, codec):
    path = tmp_path / f"floe-{codec}.avro"
    out = run([container_tool, "write", "--codec", codec, "--out", path, "--rows", ROWS, "--block-bytes", 8192])
    assert out.returncode == 0, out.stderr
    assert count_blocks(path) > 10

    with open(path, "rb") as f:
        reader = fastavro.reader(f)
        records = list(reader)
        assert reader.codec == codec
        meta = reader.metadata
        writer_schema = reader.writer_schema
    # The schema text is stored verbatim, and the Iceberg metadata keys are there.
    assert meta["avro.schema"] == schema_text
    assert meta["format-version"] == "2"
    assert meta["content"] == "data"
    assert json.loads(meta["schema"])["type"] == "struct"
    # fastavro sees Iceberg's id attributes in the writer schema.
    fields = {f["name"]: f for f in writer_schema["fields"]}
    assert fields["status"]["field-id"] == 0
    assert fields["data_file"]["field-id"] == 2
    data_file = {f["name"]: f for f in fields["data_file"]["type"]["fields"]}
    assert data_file["file_path"]["field-id"] == 100
    column_sizes = data_file["column_sizes"]
    assert column_sizes["field-id"] == 108
    array = column_sizes["type"][1]
    assert array["logicalType"] == "map"
    assert [f["field-id"] for f in array["items"]["fields"]] == [117, 118]
    assert data_file["split_offsets"]["type"][1]["element-id"] == 133
    assert fields["props"]["type"]["key-id"] == 7 and fields["props"]["type"]["value-id"] == 8

    assert len(records) == ROWS
    for i, record in enumerate(records):
        assert normalize(record) == expected_row(i), f"row {i}"


@pytest.mark.parametrize("codec", CODECS)
def test_fastavro_writes_floe_reads(container_tool, schema_text, tmp_path, codec):
    path = tmp_path / f"fastavro-{codec}.avro"
    schema = json.loads(schema_text)
    with open(path, "wb") as f:
        fastavro.writer(f, schema, (to_fastavro(expected_row(i)) for i in range(ROWS)), codec=codec,
                        sync_interval=8000, metadata={"format-version": "2", "written-by": "fastavro"})
    assert count_blocks(path) > 10

    out = run([container_tool, "read", path])
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == ROWS
    for i, row in enumerate(rows):
        assert row == expected_row(i), f"row {i}"

    header = run([container_tool, "header", path])
    assert header.returncode == 0, header.stderr
    h = json.loads(header.stdout)
    assert h["codec"] == codec
    assert h["metadata"]["written-by"] == "fastavro"
    assert h["metadata"]["avro.codec"] == codec
    with open(path, "rb") as f:
        assert h["schema"] == fastavro.reader(f).metadata["avro.schema"]


def test_corrupt_files_are_clear_errors(container_tool, tmp_path):
    path = tmp_path / "good.avro"
    assert run([container_tool, "write", "--codec", "snappy", "--out", path, "--rows", 500,
                "--block-bytes", 4096]).returncode == 0
    data = path.read_bytes()

    cut = tmp_path / "cut.avro"
    cut.write_bytes(data[: len(data) - 5])
    out = run([container_tool, "read", cut])
    assert out.returncode == 1
    assert "truncated Avro container file at byte" in out.stderr

    flipped = bytearray(data)
    flipped[-10] ^= 0xFF  # inside the last sync marker
    bad = tmp_path / "bad-sync.avro"
    bad.write_bytes(bytes(flipped))
    out = run([container_tool, "read", bad])
    assert out.returncode == 1
    assert "are not the file's sync marker" in out.stderr

    not_avro = tmp_path / "not.avro"
    not_avro.write_bytes(b"PAR1" + data[4:])
    out = run([container_tool, "read", not_avro])
    assert out.returncode == 1
    assert "not an Avro object container file" in out.stderr
