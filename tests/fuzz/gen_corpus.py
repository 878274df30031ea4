#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, tests/fuzz/corpus/<target>/ (docs/development.md,
"Fuzzing"). Run it with the project venv after changing a schema in schemas/:

    .deps/venv/bin/python tests/fuzz/gen_corpus.py

It rewrites only the files it generates (NN-<name>); crash reproducers added by hand under
other names (crash-*, regression-*) are left alone. Each file is one fuzz input: records
separated by "\\n#\\n", or "\\n#!\\n" to flush the decoders in between (tests/fuzz/fuzz_check.h).
Protobuf messages are built with protobuf's Python classes for schemas/fuzz.proto (compiled by
protoc), Avro data with fastavro; wrong bytes that no serializer writes are made by hand."""
import base64
import io
import json
import pathlib
import subprocess
import tempfile

import fastavro
from confluent_kafka.schema_registry.confluent import meta_pb2
from confluent_kafka.schema_registry.confluent.type import decimal_pb2
from google.protobuf import (descriptor_pb2, descriptor_pool, duration_pb2, timestamp_pb2,
                             wrappers_pb2)
from google.protobuf.message_factory import GetMessageClass
from google.type import date_pb2

HERE = pathlib.Path(__file__).resolve().parent
SCHEMAS = HERE / "schemas"
CORPUS = HERE / "corpus"
NEXT, FLUSH = b"\n#\n", b"\n#!\n"


def write_corpus(target, seeds):
    """seeds: [(name, [record bytes...] or bytes)]; records are joined by NEXT unless a
    record is the FLUSH marker itself."""
    out = CORPUS / target
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("[0-9][0-9]-*"):
        old.unlink()
    for n, (name, records) in enumerate(seeds):
        if isinstance(records, bytes):
            records = [records]
        data = b""
        for i, r in enumerate(records):
            if r is FLUSH:
                data += FLUSH
                continue
            assert NEXT not in r and FLUSH not in r, f"{target}/{name}: a record contains a separator"
            if i > 0 and records[i - 1] is not FLUSH:
                data += NEXT
            data += r
        (out / f"{n:02d}-{name}").write_bytes(data)
    print(f"{target}: {len(seeds)} seeds")


# --- Protobuf ---------------------------------------------------------------------------
def proto_classes():
    deps = descriptor_pb2.FileDescriptorSet()
    for module in (descriptor_pb2, timestamp_pb2, duration_pb2, wrappers_pb2, meta_pb2, decimal_pb2, date_pb2):
        deps.file.add().ParseFromString(module.DESCRIPTOR.serialized_pb)
    with tempfile.TemporaryDirectory() as tmp:
        dep_set, out = pathlib.Path(tmp, "deps.pb"), pathlib.Path(tmp, "fuzz.pb")
        dep_set.write_bytes(deps.SerializeToString())
        subprocess.run(["protoc", f"--descriptor_set_in={dep_set}", "-I", str(SCHEMAS),
                        f"--descriptor_set_out={out}", "fuzz.proto", "fuzz_legacy.proto"],
                       check=True, capture_output=True)
        compiled = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    # The default pool already holds the imports (the _pb2 modules above), so the classes made
    # here take timestamp_pb2.Timestamp and friends as field values.
    pool = descriptor_pool.Default()
    for fd in sorted(compiled, key=lambda f: f.name != "fuzz_legacy.proto"):
        if fd.name.startswith("fuzz"):
            pool.Add(fd)
    names = ["fuzz.Row", "fuzz.Row.Tag", "fuzz.Inner", "fuzz.Holder", "fuzz.Holder.Leaf2", "fuzz.Leaf",
             "fuzz.legacy.Row2", "fuzz.legacy.Nested"]
    return {n.split(".")[-1]: GetMessageClass(pool.FindMessageTypeByName(n)) for n in names}


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return varint((n << 1) ^ (n >> 63))


def indexes(*path):
    """Confluent's message-index framing: [0] is the single byte 0."""
    if list(path) == [0]:
        return b"\x00"
    return zigzag(len(path)) + b"".join(zigzag(i) for i in path)


def tag(field, wire):
    return varint(field << 3 | wire)


def decimal(unscaled, scale=2, precision=0):
    d = decimal_pb2.Decimal()
    d.value = unscaled.to_bytes(max(1, (unscaled.bit_length() + 8) // 8), "big", signed=True)
    d.scale = scale
    d.precision = precision
    return d


def proto_seeds():
    c = proto_classes()
    Row, Inner, Row2 = c["Row"], c["Inner"], c["Row2"]
    ser = lambda m: m.SerializeToString()  # noqa: E731
    row0 = lambda m: indexes(0) + ser(m)  # noqa: E731

    scalars = Row(i32=-5, s32=-6, sf32=7, i64=-(1 << 40), s64=1 << 50, sf64=-8, u32=4000000000, f32=9,
                  u64=(1 << 64) - 1, f64=1 << 63, b=True, fl=1.5, d=-2.25, str="héllo", by=b"\x00\xff",
                  color=2, opt_i32=0, opt_str="", opt_d=float("nan"), far=3)
    repeated = Row(ri32=[1, -1, 1 << 30], rd=[0.5, float("inf")], rs=["a", ""], rcolor=[0, 1, 7],
                   rf64=[0, (1 << 64) - 1], rb=[True, False], rs32=[-1, 1], rfl=[1e30], rby=[b"", b"x"],
                   ru64=[1 << 63], rsf32=[-2], rinner=[Inner(a=1), Inner(s="z", r=[-3], c=1)],
                   tags=[Row.Tag(k="k", v=-1)])
    maps = Row()
    maps.m_str["a"] = 1
    maps.m_str["b"] = -2
    maps.m_inner[5].a = 6
    maps.m_u64[(1 << 64) - 1] = "max"
    maps.m_bool[True] = 2
    maps.m_s64[-9] = 0.25
    maps.m_f32[7] = b"\x01"
    maps.m_dur["d"].seconds = 3
    wkt = Row(ts=timestamp_pb2.Timestamp(seconds=1700000000, nanos=123456789),
              dur=duration_pb2.Duration(seconds=-5, nanos=-500000),
              w_i64=wrappers_pb2.Int64Value(value=-1), w_str=wrappers_pb2.StringValue(value="w"),
              w_b=wrappers_pb2.BoolValue(value=False), w_u64=wrappers_pb2.UInt64Value(value=(1 << 64) - 1),
              w_d=wrappers_pb2.DoubleValue(value=1e-300), w_by=wrappers_pb2.BytesValue(value=b"b"),
              w_f=wrappers_pb2.FloatValue(value=-0.0), w_i32=wrappers_pb2.Int32Value(value=7),
              w_u32=wrappers_pb2.UInt32Value(value=(1 << 32) - 1),
              dec=decimal(-12345), day=date_pb2.Date(year=2024, month=2, day=29),
              rts=[timestamp_pb2.Timestamp(seconds=-1, nanos=999999999)], rw=[wrappers_pb2.StringValue(value="")])
    legacy = Row(legacy=Row2(req=-3, unpacked=[1, 2], packed=[3, -4], g=Row2.G(x=1, y=["y"]),
                             rg=[Row2.RG(z=5)], sizes={"s": 1, "h": -7}, n=c["Nested"](id="n", v=2), p2="p"))
    # A closed enum's undeclared number (9) can only be written by hand; merged into `legacy`.
    legacy_unknown_enum = ser(Row(legacy=Row2(req=1))) + tag(60, 2) + varint(2) + tag(3, 0) + varint(9)
    missing_required = tag(60, 2) + varint(2) + tag(1, 0) + varint(1)  # Row2 without req
    full = Row()
    for m in (scalars, repeated, maps, wkt, legacy):
        full.MergeFrom(m)

    seeds = [
        ("empty-row", indexes(0)),
        ("scalars", row0(scalars)),
        ("repeated", row0(repeated)),
        ("maps", row0(maps)),
        ("wellknown-decimal-date", row0(wkt)),
        ("legacy-proto2", row0(legacy)),
        ("legacy-unknown-enum", indexes(0) + legacy_unknown_enum),
        ("legacy-missing-required", indexes(0) + missing_required),
        ("oneof-each", [row0(Row(o_str="s")), row0(Row(o_inner=Inner(a=2))), row0(Row(o_i64=-1)),
                        row0(Row(o_ts=timestamp_pb2.Timestamp(seconds=1)))]),
        ("oneof-two-members", indexes(0) + ser(Row(o_str="first")) + ser(Row(o_i64=2))),
        ("merged-message-field", indexes(0) + ser(Row(inner=Inner(a=1, r=[1]))) + ser(Row(inner=Inner(s="x", r=[2])))),
        ("message-indexes", [indexes(1) + ser(Inner(a=3, leaf=c["Leaf"](f=1))), indexes(0, 0) + ser(Row.Tag(k="t")),
                             indexes(2, 0) + ser(c["Leaf2"](f=2, c=1)), indexes(2) + ser(c["Holder"](
                                 leaves=[c["Leaf2"](b=b"q")])), indexes(3) + ser(c["Leaf"](b=b"l")),
                             indexes(0, 1) + tag(1, 2) + varint(1) + b"k"]),
        ("bad-indexes", [indexes(9), indexes(0, 99), b"\x01", b"\x03\x00", b"\x80", indexes(-1)]),
        ("full-row", row0(full)),
        ("full-then-bad-then-good", [row0(full), row0(full)[:-3], row0(scalars), FLUSH, row0(maps)]),
        ("truncations", [row0(full)[:n] for n in (2, 17, 40, 95)]),
        ("wrong-wire-type", indexes(0) + tag(1, 2) + varint(1) + b"x"),
        ("invalid-utf8", indexes(0) + tag(14, 2) + varint(2) + b"\xc3\x28"),
        ("timestamp-nanos-out-of-range", indexes(0) + tag(43, 2) + varint(6) + tag(2, 0) + varint(1_000_000_000)),
        ("duration-mixed-signs", indexes(0) + tag(44, 2) + varint(4) + tag(1, 0) + varint(1) + tag(2, 0) + b"\x7f"),
        ("timestamp-overflow", indexes(0) + tag(43, 2) + varint(10) + tag(1, 0) + varint((1 << 62))),
        ("date-zero-month", row0(Row(day=date_pb2.Date(year=2024, month=0, day=1)))),
        ("decimal-rescale", [row0(Row(dec=decimal(15, scale=1))), row0(Row(dec=decimal(15, scale=3))),
                             row0(Row(dec=decimal(10 ** 20, scale=2)))]),
        ("varint-too-long", indexes(0) + tag(1, 0) + b"\xff" * 10 + b"\x01"),
        ("unknown-fields", indexes(0) + tag(1000, 0) + varint(1) + tag(1001, 1) + b"\x00" * 8 + tag(1002, 2) +
         varint(2) + b"ab" + tag(1003, 5) + b"\x00" * 4 + tag(1004, 3) + tag(1, 0) + varint(1) + tag(1004, 4)),
        ("unknown-group-unclosed", indexes(0) + tag(1004, 3) + tag(1, 0) + varint(1)),
        ("nested-groups-deep", indexes(0) + tag(1004, 3) * 101 + tag(1004, 4) * 101),
        ("field-zero", indexes(0) + tag(0, 0) + varint(1)),
        ("packed-truncated", indexes(0) + tag(21, 2) + varint(5) + b"\x01\x02"),
        ("map-entry-missing-value", indexes(0) + tag(34, 2) + varint(2) + tag(1, 0) + varint(4)),
        ("flush-between", [row0(scalars), FLUSH, row0(repeated), FLUSH, indexes(1) + ser(Inner(a=1))]),
    ]
    write_corpus("proto", seeds)


# --- JSON Schema ------------------------------------------------------------------------
def j(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def json_schema_seeds():
    point = {"x": 1.5, "y": None, "label": "p", "at": "2024-01-02T03:04:05.678901Z"}
    full = {
        "id": 1, "name": "n", "flag": True, "i8": -128, "i16": 32767, "i32": -2147483648, "i64": 9223372036854775807,
        "f32": 3.4e38, "f64": -1e-300, "int_or_num": 2, "ts": "2024-02-29T23:59:59.999999+05:30",
        "day": "2024-02-29", "tod": "23:59:59.5", "uid": "123e4567-e89b-12d3-a456-426614174000",
        "blob": base64.b64encode(b"\x00\x01\xff").decode(), "cbytes": "", "amount": 1234567.89,
        "amount_bytes": base64.b64encode((-12345).to_bytes(2, "big", signed=True)).decode(),
        "ts_ms": 1700000000000, "day_n": -1, "tod_ms": 86399999, "color": "red", "kind": "row", "maybe": None,
        "either": 5, "nullable_list": [1, 2.5], "tags": ["a", "é"], "matrix": [[1, None], []], "attrs": {"a": 1},
        "deep_map": {"k": point}, "point": point, "points": [{"from": point, "to": {"x": 0}, "weight": 3}],
        "single": "1970-01-01", "anything": {"any": [1, "x", None]}, "loose": {"z": True}, "any_list": [1, {}],
        "open": "text",
    }
    minimal = {"id": 0, "name": ""}
    bad = [
        ("missing-required", {"name": "x"}),
        ("null-required", {"id": None, "name": "x"}),
        ("int8-overflow", {**minimal, "i8": 128}),
        ("int32-overflow", {**minimal, "i32": 2147483648}),
        ("integer-with-fraction", {**minimal, "id": 1.0}),
        ("float32-overflow", {**minimal, "f32": 1e39}),
        ("bad-date-time", {**minimal, "ts": "2024-13-01T00:00:00Z"}),
        ("bad-date", {**minimal, "day": "2023-02-29"}),
        ("bad-time", {**minimal, "tod": "24:00:00"}),
        ("bad-base64", {**minimal, "blob": "abc"}),
        ("decimal-too-precise", {**minimal, "amount": 1.234}),
        ("decimal-too-many-digits", {**minimal, "amount": 12345678901}),
        ("wrong-type-nested", {**minimal, "points": [{"from": {"x": "1"}}]}),
        ("list-null-element", {**minimal, "tags": ["a", None]}),
        ("map-wrong-value", {**minimal, "attrs": {"a": "b"}}),
        ("enum-not-string", {**minimal, "color": 3}),
    ]
    seeds = [("full", j(full)), ("minimal", j(minimal))]
    seeds += [(name, j(v)) for name, v in bad]
    seeds += [
        ("not-an-object", [b"[]", b"1", b"null", b"\"s\""]),
        ("invalid-json", [b"{", b"{\"id\":1,\"name\":\"x\"} trailing", b"{\"id\":01,\"name\":\"x\"}", b""]),
        ("invalid-utf8", b"{\"id\":1,\"name\":\"\xc3\x28\"}"),
        ("duplicate-property", b"{\"id\":1,\"name\":\"a\",\"id\":2}"),
        ("escapes", [rb'{"id":0,"name":"\u0000\ud83d\ude00\"\\\/\b\f\n\r\t"}', rb'{"id":0,"name":"\ud800"}']),
        ("big-numbers", [b"{\"id\":18446744073709551615,\"name\":\"x\"}", b"{\"id\":1,\"name\":\"x\",\"f64\":1e400}",
                         b"{\"id\":-9223372036854775808,\"name\":\"x\",\"amount\":-0.0}"]),
        ("deep-text", j({**minimal, "anything": [[[[[[[[[[{"a": [1]}]]]]]]]]]]})),
        ("good-bad-good-flush", [j(full), j({"id": "x"}), j(minimal), FLUSH, j(full), b"{", j(minimal)]),
        ("timestamps", [j({**minimal, "ts": t}) for t in ("1970-01-01T00:00:00Z", "0001-01-01T00:00:00-23:59",
                                                          "9999-12-31T23:59:59.9999999999Z", "2024-06-01t12:00:00z",
                                                          "2024-06-01 12:00:00Z")]),
    ]
    write_corpus("json_schema", seeds)


def json_inferred_seeds():
    seeds = [
        ("one-record", j({"a": 1, "b": "x", "c": True, "d": 1.5, "e": None, "f": [1, 2], "g": {"h": "i"}})),
        ("widen-int-to-number", [j({"n": 1}), j({"n": 2.5}), j({"n": 3})]),
        ("new-fields", [j({"a": 1}), j({"b": {"c": 1}}), j({"b": {"d": [True]}}), FLUSH, j({"a": 2, "e": "x"})]),
        ("conflicts", [j({"a": "s"}), j({"a": {"x": 1}}), j({"a": [1]}), j({"a": 1})]),
        ("nulls-then-types", [j({"a": None, "b": {}, "c": []}), j({"a": None, "b": {"x": None}, "c": [None]}),
                              j({"a": 1, "b": {"x": "y"}, "c": [[]]}), j({"c": [["z"]]})]),
        ("mixed-arrays", [j({"l": [1, 2.5, None]}), j({"l": [{"a": 1}, {"b": 2}]}), j({"l": ["s", 1]})]),
        ("big-integers", [j({"n": 9223372036854775807}), b"{\"n\":9223372036854775808}", b"{\"n\":-1e3}"]),
        ("deep", [j({"a": {"b": {"c": {"d": {"e": [[[[1]]]]}}}}}),
                  b"{\"x\":" + b"[" * 70 + b"1" + b"]" * 70 + b"}"]),
        ("not-objects", [b"[]", b"1", b"null", b"\"s\"", b"", b"{"]),
        ("duplicate-keys", [b"{\"a\":1,\"a\":2}", b"{\"o\":{\"k\":1,\"k\":\"v\"}}"]),
        ("empty-objects", [b"{}", b"{\"a\":{}}", b"{\"a\":{\"b\":{}}}", b"{\"a\":{\"b\":{\"c\":1}}}"]),
        ("unicode-names", [j({"é": 1, "": 2, "a.b": 3, "\u0000": 4}), j({"é": "x"})]),
        ("text-after-conflict", [j({"v": "s"}), j({"v": 1}), j({"v": {"deep": [1]}}), j({"v": None})]),
        ("invalid-utf8", b"{\"a\":\"\xff\"}"),
    ]
    write_corpus("json_inferred", seeds)


# --- Avro -------------------------------------------------------------------------------
def avro_seeds():
    schema = fastavro.parse_schema(json.loads((SCHEMAS / "fuzz.avsc").read_text()))
    import datetime
    import decimal as pydecimal
    import uuid

    # The same layout with a wider dec_bytes, to write a value with more digits than fuzz.avsc allows.
    wide = json.loads((SCHEMAS / "fuzz.avsc").read_text())
    next(f for f in wide["fields"] if f["name"] == "dec_bytes")["type"]["precision"] = 20
    wide = fastavro.parse_schema(wide)

    def enc(record, with_schema=schema):
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, with_schema, record)
        return buf.getvalue()

    point = {"x": 1.0, "y": None}
    base = {
        "b": True, "i": -1, "l": 1 << 40, "f": 1.5, "d": float("nan"), "by": b"\x00", "s": "é", "e": "BLUE",
        "fx": b"abcd", "opt": None, "opt_last": 5, "multi": None, "arr": [1, 2], "arr_opt": [None, 2.0],
        "m": {"k": "v"}, "m_rec": {"p": point}, "inner": {"a": 1, "pts": [point], "c": "RED"}, "inner_opt": None,
        "dec_bytes": pydecimal.Decimal("-1234567.89"), "dec_fixed": pydecimal.Decimal("1.2345"),
        "dec_wide": pydecimal.Decimal("1" * 49 + ".5"), "uid": str(uuid.UUID(int=1)), "uid_fixed": b"\x01" * 16,
        "day": datetime.date(2024, 2, 29), "t_ms": 86399999, "t_us": 0, "ts_ms": 1700000000000, "ts_us": -1,
        "ts_ns": 1, "lts_ms": 0, "lts_us": 0, "lts_ns": 0, "dur": b"\x00" * 12, "odd": "2024-01-01",
    }
    variants = {"multi-int": {**base, "multi": 7}, "multi-string": {**base, "multi": "s"},
                "multi-array": {**base, "multi": [1, -1]}, "inner-opt": {**base, "inner_opt": base["inner"]}}
    good = enc(base)
    seeds = [("full", good)] + [(name, enc(v)) for name, v in variants.items()]
    seeds += [
        ("truncations", [good[:n] for n in (0, 1, 5, 20, len(good) - 1)]),
        ("trailing-byte", good + b"\x00"),
        ("bad-boolean", b"\x02" + good[1:]),
        ("good-bad-good-flush", [good, good[:30], enc(variants["multi-int"]), FLUSH, good]),
        ("millis-out-of-day", enc({**base, "t_ms": 86400000})),
        ("timestamp-millis-overflow", enc({**base, "ts_ms": (1 << 62)})),
        ("decimal-too-many-digits", enc({**base, "dec_bytes": pydecimal.Decimal("12345678.90")}, wide)),
    ]
    write_corpus("avro", seeds)


if __name__ == "__main__":
    proto_seeds()
    json_schema_seeds()
    json_inferred_seeds()
    avro_seeds()
