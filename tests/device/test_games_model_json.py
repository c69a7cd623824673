# The model reader (games/model_json.py, issue 23.10), both runtimes: what the json modules took
# silently or crashed on is refused in one line naming where, and each bound holds at its value and
# refuses one past it. tests/host/test_model_json_crosscheck.py checks it against CPython's json.
from devtest import raises, rmtree, tmpdir

from games.limits import ModelError
from games.model_json import MAX_BYTES, MAX_DEPTH, MAX_DIGITS, MAX_STRING, ReadError, loads, read


def refused(text):
    with raises(ReadError) as e:
        loads(text)
    return str(e.value)


def test_duplicate_keys_are_refused_where_they_are():
    # json.loads keeps the last of two equal keys: "3": 1000 then "3": 5 certified the 5
    assert refused('{"a": 1, "a": 2}') == 'duplicate key "a" at byte 9'
    assert refused('{"pays": [{"name": "X", "pays": {"3": 1000, "3": 5}}]}') == \
        'pays[0].pays: duplicate key "3" at byte 44'
    assert loads('{"pays": {"3": 1, "03": 2}}') == {"pays": {"3": 1, "03": 2}}  # two keys: the model refuses "03"


def test_what_micropython_json_takes_is_refused():
    # MicroPython's json reads all of these (as {'a': 1, 'b': 2}, [1], ...): a file the host refused
    # would have been a valid model on the device
    assert refused('{"a": 1 "b": 2}') == "a: expected ',' or '}' at byte 8"
    assert refused("[1, 2,]") == "[2]: unexpected byte ']' at byte 6"
    assert refused('{"a": 1,}') == "expected a key at byte 8"
    assert refused('{"a": [1, 2}') == "a[2]: expected ',' or ']' at byte 11"
    assert refused('{"a": 01}') == "a: number with a leading zero at byte 8"
    assert refused('{"k": "x\ty"}') == "k: control character in a string at byte 8"
    assert refused('["\\q"]') == "[0]: bad escape at byte 3"
    assert refused('["\\ud83d"]') == "[0]: lone surrogate at byte 9"
    assert refused("{} {}") == "text after the end at byte 3"
    assert refused("") == "unexpected end at byte 0"
    assert refused('{"a": tru}') == "a: unexpected byte at byte 9"


def test_a_model_holds_integers_only():
    assert refused('{"cap": 1.5}') == "cap: number with a fraction or an exponent (a model holds integers only) at byte 9"
    assert refused('{"cap": 1e9}') == "cap: number with a fraction or an exponent (a model holds integers only) at byte 9"
    # at the bound and one past it; a pay of 10**400 credits died in a float conversion
    assert loads('{"pay": %s}' % ("9" * MAX_DIGITS)) == {"pay": 10 ** MAX_DIGITS - 1}
    assert loads('[-%s]' % ("9" * MAX_DIGITS)) == [1 - 10 ** MAX_DIGITS]
    assert refused('{"pay": 1%s}' % ("0" * MAX_DIGITS)) == \
        "pay: integer of 10 digits at byte 8 (at most 9: model_json.MAX_DIGITS)"
    assert refused('{"pay": 1%s}' % ("0" * 400)) == \
        "pay: integer of 401 digits at byte 8 (at most 9: model_json.MAX_DIGITS)"


def test_nesting_is_bounded():
    assert MAX_DEPTH == 8
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    v = loads(deep)
    for _ in range(MAX_DEPTH - 1):
        v = v[0]
    assert v == []
    assert refused("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)) == \
        "[0][0][0][0][0][0][0][0]: nested deeper than 8 levels (model_json.MAX_DEPTH) at byte 8"
    # 100,000 levels: MicroPython's json ran out of heap, CPython's out of stack (RecursionError)
    text = "[" * 8000 + "]" * 8000
    assert refused(text).endswith("nested deeper than 8 levels (model_json.MAX_DEPTH) at byte 8")
    assert refused('{"a": ' * 9 + "1" + "}" * 9) == \
        "a.a.a.a.a.a.a.a: nested deeper than 8 levels (model_json.MAX_DEPTH) at byte 48"


def test_strings_and_files_are_bounded():
    s = "\u00e9" * (MAX_STRING // 2)  # two bytes each in UTF-8: exactly MAX_STRING bytes
    assert loads('{"n": "%s"}' % s) == {"n": s}
    assert refused('{"n": "%sx"}' % s) == "n: string longer than 1024 bytes (model_json.MAX_STRING) at byte 1032"
    assert refused('{"n": "\\u00e9%s"}' % s).startswith("n: string longer than 1024 bytes")
    d = tmpdir("mjson")
    try:
        path = d + "/m.json"
        for size in (MAX_BYTES, MAX_BYTES + 1):
            with open(path, "w") as f:
                f.write("[" + " " * (size - 2) + "]")
            if size == MAX_BYTES:
                assert read(path) == []
            else:
                with raises(ReadError) as e:
                    read(path)
                assert str(e.value) == "file of 16385 bytes, larger than 16384 (model_json.MAX_BYTES)"
        with open(path, "w") as f:  # a 100,000-deep array on file (written in pieces: a board's heap)
            for c in "[]":
                for _ in range(100):
                    f.write(c * 1000)
        with raises(ReadError) as e:
            read(path)
        assert str(e.value) == "file of 200000 bytes, larger than 16384 (model_json.MAX_BYTES)"
        with open(path, "wb") as f:  # not UTF-8, across the reader's 256-byte chunks
            f.write(b'{"a": "' + b"x" * 300 + b'\xff"}')
        with raises(ReadError) as e:
            read(path)
        assert str(e.value) == "a: string not UTF-8 at byte 309"
    finally:
        rmtree(d)


def test_a_read_error_is_a_model_error():
    # what the boot check and tools.certify catch: one kind of refusal for the file and the model
    assert issubclass(ReadError, ModelError) and issubclass(ModelError, ValueError)


def test_values_cross_the_reader_chunks():
    # the reader takes 256 bytes at a time: strings, escapes, numbers and words cut at every offset
    for pad in range(240, 270):
        text = '{"%s": ["x\\u00e9\\ud83d\\ude00\\"y", -123456789, true, false, null, "%s"]}' % ("k" * pad, "z" * pad)
        v = loads(text)
        assert v == {"k" * pad: ["x\u00e9\U0001f600\"y", -123456789, True, False, None, "z" * pad]}, pad
