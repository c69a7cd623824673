# The settings file's strict JSON parser (firmware/strictjson.py), both runtimes: RFC 8259's grammar
# exactly. Known answers from RFC 8259 (section 13's examples and its grammar), and the leniencies of
# MicroPython's own json module refused. tests/host/test_strictjson_crosscheck.py checks it against
# CPython's json module, an independent implementation, on generated texts.
from devtest import raises

from firmware.strictjson import JsonError, loads


def test_rfc8259_examples():
    # RFC 8259 section 13, the first example (abridged), and its small texts
    v = loads('{"Image": {"Width": 800, "Height": 600, "Title": "View from 15th Floor", '
              '"Thumbnail": {"Url": "http://www.example.com/image/481989943", "Height": 125, "Width": 100},'
              ' "Animated" : false, "IDs": [116, 943, 234, 38793]}}')
    assert v["Image"]["Thumbnail"]["Width"] == 100 and v["Image"]["IDs"][3] == 38793
    assert v["Image"]["Animated"] is False
    assert loads('"Hello world!"') == "Hello world!" and loads("42") == 42 and loads("true") is True
    assert loads(" null ") is None and loads("[]") == [] and loads("{}") == {}


def test_strings_and_numbers():
    assert loads(r'"a\"b\\c\/d\b\f\n\r\t"') == 'a"b\\c/d\b\f\n\r\t'
    assert loads(r'"\u00e9\ud834\udd1e"') == "\u00e9\U0001d11e"  # a surrogate pair is one character
    assert loads('"\u00e9t\u00e9"') == "\u00e9t\u00e9"  # raw UTF-8
    assert loads("-0") == 0 and loads("-12") == -12 and loads("10000000000000000000001") == 10 ** 22 + 1
    assert loads("1.5") == 1.5 and loads("2e3") == 2000.0 and isinstance(loads("2E+0"), float)


def test_what_micropython_json_would_take_is_refused():
    for text in ('00', '01', '{"a":1,}', '[1,]', '{"a":1 "b":2}', '[1 2]', '{"a"}', '{,}', '1.', '.5', '+1',
                 '-', '1e', 'tru', 'NaN', 'Infinity', '"\x01"', '"\\x41"', r'"\ud834"', r'"\udd1e"', '{"a":1}x',
                 '{"a":1}}', '{"a":1,"a":2}', "[" * 9 + "]" * 9, '"abc', "", "{'a': 1}"):
        with raises(JsonError):
            loads(text)
    assert loads("[" * 8 + "]" * 8) == [[[[[[[[]]]]]]]]  # nesting up to MAX_DEPTH


def test_where_it_stopped_is_said():
    with raises(JsonError) as e:
        loads('{"GAMES": ["a" "b"]}')
    assert str(e.value) == "expected ',' or ']' at byte 15"
